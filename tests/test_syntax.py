"""tree-sitter definition spans: names, owners, depths and where each starts."""

from __future__ import annotations

import pytest

from prism_edge.text import syntax

PYTHON = (
    "import os\n\n@cache\ndef f(a):\n    return a\n\n"
    "class K:\n    # note\n    def m(self):\n        pass\n"
)
RUST = (
    "/// doc\n#[inline]\npub fn f(a: i32) -> i32 { a }\n\nimpl<T> Holder<T> {\n"
    "    fn get(&self) -> &T { &self.0 }\n}\ntrait Shape { fn area(&self) -> f64; }\n"
)
GO = "package x\n\n// Add adds.\nfunc (s *Sum) Add(a int) int { return a }\n\ntype Sum struct{}\n"


def spans(code: str, path: str) -> list[tuple[str, str, int, str]]:
    return [
        (s.name, s.kind, s.depth, code[s.start :].split("\n", 1)[0])
        for s in syntax.definitions(code, path)
    ]


def test_python_decorators_and_comments_belong_to_their_definition() -> None:
    assert spans(PYTHON, "m.py") == [
        ("f", "function", 0, "@cache"),
        ("K", "class", 0, "class K:"),
        ("K.m", "method", 1, "    # note"),
    ]


def test_rust_impl_blocks_own_their_methods_and_start_a_piece() -> None:
    assert spans(RUST, "lib.rs") == [
        ("f", "function", 0, "/// doc"),
        ("Holder.get", "method", 1, "    fn get(&self) -> &T { &self.0 }"),
        ("Shape", "class", 0, "trait Shape { fn area(&self) -> f64; }"),
        ("Shape.area", "method", 1, "trait Shape { fn area(&self) -> f64; }"),
    ]
    top, members = syntax.cut_points(RUST, "lib.rs")
    assert [RUST[at:].split("\n", 1)[0] for at in top] == [
        "impl<T> Holder<T> {",
        RUST.splitlines()[-1],
    ]
    assert [RUST[at:].split("\n", 1)[0] for at in members] == [
        "    fn get(&self) -> &T { &self.0 }"
    ]


def test_go_methods_are_named_by_their_receiver() -> None:
    assert spans(GO, "x.go") == [
        ("Sum.Add", "method", 0, "// Add adds."),
        ("Sum", "class", 0, "type Sum struct{}"),
    ]


@pytest.mark.parametrize("path", ["notes.txt", "a.rb", "Makefile"])
def test_files_without_a_grammar_have_no_spans(path: str) -> None:
    assert syntax.language_of(path) is None
    assert syntax.definitions("def a\nend\n", path) == []
    assert syntax.cut_points("def a\nend\n", path) == ([], [])


def test_offsets_are_characters_not_bytes() -> None:
    comment = "// caf\u00e9 \u00fc\u00f1\u00ee\u00e7\u00f8d\u00e9\n"
    code = comment + "int a(void) { return 1; }\nint b(void) { return 2; }\n"
    found = syntax.definitions(code, "u.c")
    assert [code[s.start :].split("(")[0] for s in found] == [
        "// caf\u00e9 \u00fc\u00f1\u00ee\u00e7\u00f8d\u00e9\nint a",
        "int b",
    ]
