"""Definitions found by Python's parser, in whole files and in chunks cut inside a class."""

from __future__ import annotations

from prism_edge.definitions import code_of, definitions_in, python_definitions

SOURCE = '''
import os


def clamp(value, low, high):
    """Limit a number to a range. Values outside go to the nearest bound."""
    if value < low:
        return low
    return min(value, high)


class Stack:
    """A last-in, first-out list."""

    def push(self, item, *more, **options):
        self.items.append(item)

    async def pop(self):
        return self.items.pop()


@overload
def area(x: int) -> int: ...
def area(x):
    """The area of a square."""
    return x * x
'''


def test_functions_classes_and_methods_with_their_own_lines() -> None:
    found = {d.name: d for d in python_definitions(SOURCE)}
    assert list(found) == ["clamp", "Stack", "Stack.push", "Stack.pop", "area"]
    clamp = found["clamp"]
    assert clamp.kind == "function"
    assert clamp.purpose == "Limit a number to a range."
    assert clamp.inputs == "value, low, high"
    assert clamp.output == "low; min(value, high)"
    assert clamp.procedure.startswith("if value < low: return low")
    assert found["Stack.push"].inputs == "self, item, *more, **options"
    assert found["Stack.pop"].kind == "method"
    assert found["Stack"].kind == "class" and found["Stack"].purpose == "A last-in, first-out list."
    assert found["area"].purpose == "The area of a square."  # the implementation, not the stub
    assert all(d.source in SOURCE for d in found.values())


def test_a_chunk_cut_inside_a_class_still_yields_its_methods() -> None:
    cut = SOURCE[SOURCE.index("    def push") :]
    names = [d.name for d in python_definitions(cut)]
    assert names[:2] == ["push", "pop"] and "area" in names


def test_code_chunks_are_read_by_their_header() -> None:
    chunk = f"File path: pkg/util.py\nContent:\n{SOURCE}"
    assert code_of(chunk)[0] == "pkg/util.py"
    assert [d.name for d in definitions_in(chunk)][:1] == ["clamp"]
    assert definitions_in("File path: main.c\nContent:\nint main(void) { return 0; }") == []
    assert python_definitions("def broken(:\n") == []
