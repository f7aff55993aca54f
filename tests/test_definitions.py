"""Definitions found by Python's parser and by tree-sitter, in whole files and in chunks cut
inside a class."""

from __future__ import annotations

from prism_edge.text.code import code_of, definitions_in, python_definitions

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
    assert definitions_in("File path: notes.rb\nContent:\ndef main\n  0\nend\n") == []
    # tree-sitter recovers around the error: the definition is still found by its name
    assert [d.name for d in python_definitions("def broken(:\n")] == ["broken"]


SOURCES = {
    "src/stack.c": (
        "/* Push a value; grows the buffer when full. */\n"
        "int stack_push(struct stack *s, int value)\n{\n"
        "    if (s->len == s->cap) grow(s);\n    s->items[s->len++] = value;\n    return 0;\n}\n"
        "struct stack { int *items; int len; };\n"
    ),
    "src/Stack.java": (
        "/** A stack of ints. */\npublic class Stack extends Base {\n"
        "    /** Pushes a value. */\n    public void push(int value) { items.add(value); }\n"
        "    public int pop() { return items.remove(items.size() - 1); }\n}\n"
    ),
    "src/stack.js": (
        "// Push a value onto the stack.\nexport function push(stack, value) {\n"
        "  stack.items.push(value);\n  return stack;\n}\n"
        "const peek = (stack) => stack.items[stack.items.length - 1];\n"
        "class Stack { pop() { return this.items.pop(); } }\n"
    ),
    "src/stack.ts": (
        "/** Push a value. */\nexport function push(s: Stack, value: number): Stack {\n"
        "  s.items.push(value);\n  return s;\n}\ninterface Stack { items: number[] }\n"
    ),
    "stack/stack.go": (
        "package stack\n\n// Push adds a value on top.\n"
        "func (s *Stack) Push(value int) error {\n\ts.items = append(s.items, value)\n"
        "\treturn nil\n}\n\ntype Stack struct {\n\titems []int\n}\n"
    ),
    "src/stack.rs": (
        "/// Push a value on top.\npub fn push(stack: &mut Vec<i32>, value: i32) -> usize {\n"
        "    stack.push(value);\n    stack.len()\n}\n"
        "struct Stack { items: Vec<i32> }\nimpl Stack {\n    fn pop(&mut self) -> Option<i32> "
        "{ self.items.pop() }\n}\n"
    ),
}


def test_each_language_yields_its_definitions_described_by_their_own_lines() -> None:
    expected = {
        "src/stack.c": (["stack_push", "stack"], "stack_push", "int", "struct stack *s, int value"),
        "src/Stack.java": (["Stack", "Stack.push", "Stack.pop"], "Stack.push", "void", "int value"),
        "src/stack.js": (["push", "peek", "Stack", "Stack.pop"], "push", "stack", "stack, value"),
        "src/stack.ts": (["push", "Stack"], "push", "Stack", "s: Stack, value: number"),
        "stack/stack.go": (["Stack.Push", "Stack"], "Stack.Push", "error", "value int"),
        "src/stack.rs": (
            ["push", "Stack", "Stack.pop"],
            "push",
            "usize",
            "stack: &mut Vec<i32>, value: i32",
        ),
    }
    for path, code in SOURCES.items():
        names, key, output, inputs = expected[path]
        found = {d.name: d for d in definitions_in(f"File path: {path}\nContent:\n{code}")}
        assert list(found) == names, path
        described = found[key]
        assert described.kind in {"function", "method"}
        assert described.output == output, path
        assert described.inputs == inputs, path
        assert described.purpose.lower().startswith(("push", "pushes")), (path, described.purpose)
        assert all(d.source and d.source in code for d in found.values()), path


def test_a_broken_or_cut_chunk_still_yields_what_it_can() -> None:
    cut = "    public int pop() { return items.pop(); }\n}\npublic int size() { return n; }\n"
    names = [d.name for d in definitions_in(f"File path: A.java\nContent:\n{cut}")]
    assert "size" in names or "pop" in names
    broken = "int f(int a { return a; }\nint g(void) { return 1; }\n"
    assert "g" in [d.name for d in definitions_in(f"File path: b.c\nContent:\n{broken}")]
