"""Random trees of nested code constructs, in every tree-sitter language, through the chunker
and the definition reader: no exception but the project's own, however deep the nesting."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from prism_edge.core.errors import PrismError
from prism_edge.text.chunking import chunk_document
from prism_edge.text.code import definitions_in

# (prefix, suffix) pairs that wrap an expression, per language; and the function around it
WRAPPERS = {
    ".py": [("(", ")"), ("f(", ")"), ("[", "]"), ("1 + ", ""), ("a if b else ", ""), ("not ", "")],
    ".js": [("(", ")"), ("f(", ")"), ("[", "]"), ("a && ", ""), ("a ? b : ", ""), ("", ".then(g)")],
    ".ts": [("(", ")"), ("f(", ")"), ("{ k: ", " }"), ("a + ", ""), ("a ? b : ", ""), ("!", "")],
    ".c": [("(", ")"), ("f(", ")"), ("a && ", ""), ("a ? b : ", ""), ("-", ""), ("a + ", "")],
    ".java": [("(", ")"), ("f(", ")"), ("a && ", ""), ("a ? b : ", ""), ("", ".g()"), ("!", "")],
    ".go": [("(", ")"), ("f(", ")"), ("a && ", ""), ("a + ", ""), ("", ".G()"), ("-", "")],
    ".rs": [("(", ")"), ("f(", ")"), ("{ ", " }"), ("a + ", ""), ("", ".g()"), ("&", "")],
}
FUNCTION = {
    ".py": "def outer():\n    return {}\n\nclass K:\n    def m(self):\n        return 1\n",
    ".js": "function outer() {{ return {}; }}\nclass K {{ m() {{ return 1; }} }}\n",
    ".ts": "function outer(): number {{ return {}; }}\nclass K {{ m(): number {{ return 1; }} }}\n",
    ".c": "int outer(void) {{ return {}; }}\nint other(void) {{ return 1; }}\n",
    ".java": "class K {{ int outer() {{ return {}; }} int m() {{ return 1; }} }}\n",
    ".go": "package p\nfunc outer() int {{ return {} }}\nfunc other() int {{ return 1 }}\n",
    ".rs": "fn outer() -> i32 {{ {} }}\nfn other() -> i32 {{ 1 }}\n",
}
STATEMENTS = {  # a nesting of blocks, and a chain of else-ifs
    ".py": ("if a:\n", "pass"),
    ".js": ("if (a) {} else ", "{}"),
    ".ts": ("if (a) {} else ", "{}"),
    ".c": ("if (a) {} else ", "{}"),
    ".java": ("if (a) {} else ", "{}"),
    ".go": ("if a {} else ", "{}"),
    ".rs": ("if a {} else ", "{}"),
}


def nested(suffix: str, choices: list[int], leaf: str = "x") -> str:
    """``leaf`` wrapped by the chosen constructs, innermost last (built without recursion)."""
    wrappers = WRAPPERS[suffix]
    heads = "".join(wrappers[i % len(wrappers)][0] for i in choices)
    tails = "".join(wrappers[i % len(wrappers)][1] for i in reversed(choices))
    return heads + leaf + tails


def read_all(suffix: str, code: str) -> None:
    """Chunk the code and read each chunk's definitions; only the project's errors may rise."""
    name = f"deep{suffix}"
    try:
        for chunk in chunk_document(name, code, "code", 256, lambda t: len(t) // 4 + 1):
            definitions_in(chunk)
    except PrismError:
        pass


@settings(max_examples=60, deadline=None)
@given(
    suffix=st.sampled_from(sorted(WRAPPERS)),
    choices=st.lists(st.integers(0, 5), min_size=1, max_size=3000),
)
def test_random_nestings_of_expressions_are_read(suffix, choices):
    code = FUNCTION[suffix].format(nested(suffix, choices))
    read_all(suffix, code)
    if suffix != ".py":  # Python's own parser may refuse; tree-sitter reads the rest
        names = {d.name for d in definitions_in(f"File path: x{suffix}\nContent:\n{code}")}
        assert any(n.endswith("outer") for n in names)


def test_nesting_a_hundred_thousand_deep_is_read_in_every_language():
    for suffix in sorted(WRAPPERS):
        choices = [i % 6 for i in range(100_000)]
        read_all(suffix, FUNCTION[suffix].format(nested(suffix, choices)))
        head, leaf = STATEMENTS[suffix]
        if suffix == ".py":
            blocks = "".join("    " * min(i, 90) + head for i in range(100_000))
            read_all(suffix, blocks + "    " * 91 + leaf + "\n")
        else:
            body = head * 100_000 + leaf
            read_all(suffix, FUNCTION[suffix].format("0").replace("return 0", body, 1))
