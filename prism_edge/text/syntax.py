"""Where code defines things, read by tree-sitter: the one definition finder of the package.

For the languages below, a file is parsed with its tree-sitter grammar (the per-language
packages, prebuilt wheels) and every function, method, class, struct, interface, trait and type
it defines is found with its name (``Owner.method`` for members), its lines, and where it
starts once its leading comments, decorators and attributes are counted. The chunker cuts code
there; code search stores and describes exactly these names (``definitions.py``).

tree-sitter parses what a compiler would refuse (a chunk cut inside a class, a file with a
syntax error) into a tree with error nodes, so a definition is still found in broken code.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import PurePosixPath
from typing import Any

_GRAMMARS: dict[str, tuple[str, str]] = {
    # suffix -> (module, function returning the language)
    ".py": ("tree_sitter_python", "language"),
    ".pyi": ("tree_sitter_python", "language"),
    ".c": ("tree_sitter_c", "language"),
    ".h": ("tree_sitter_c", "language"),
    ".java": ("tree_sitter_java", "language"),
    ".js": ("tree_sitter_javascript", "language"),
    ".mjs": ("tree_sitter_javascript", "language"),
    ".cjs": ("tree_sitter_javascript", "language"),
    ".jsx": ("tree_sitter_javascript", "language"),
    ".ts": ("tree_sitter_typescript", "language_typescript"),
    ".mts": ("tree_sitter_typescript", "language_typescript"),
    ".tsx": ("tree_sitter_typescript", "language_tsx"),
    ".go": ("tree_sitter_go", "language"),
    ".rs": ("tree_sitter_rust", "language"),
}

_FUNCTIONS = {
    "function_definition",  # Python, C
    "function_declaration",  # JavaScript, TypeScript, Go
    "generator_function_declaration",
    "method_declaration",  # Java, Go
    "constructor_declaration",  # Java
    "method_definition",  # JavaScript, TypeScript
    "function_item",  # Rust
    "function_signature_item",
}
_TYPES = {
    "class_definition",  # Python
    "class_declaration",  # Java, JavaScript, TypeScript
    "abstract_class_declaration",
    "interface_declaration",
    "enum_declaration",
    "record_declaration",
    "struct_specifier",  # C
    "union_specifier",
    "enum_specifier",
    "struct_item",  # Rust
    "enum_item",
    "union_item",
    "trait_item",
    "type_spec",  # Go
}
_OWNERS = {"impl_item"}  # Rust: holds methods, defines nothing itself
_COMMENTS = {"comment", "line_comment", "block_comment"}
_ATTACHED = _COMMENTS | {"decorator", "attribute_item", "annotation", "marker_annotation"}
_WRAPPERS = {
    "decorated_definition",
    "export_statement",
    "lexical_declaration",
    "variable_declaration",
    "template_declaration",
}
_ARROWS = {"arrow_function", "function_expression", "function", "generator_function"}


@dataclass(frozen=True)
class Span:
    """One definition in a file."""

    name: str
    """``name``, or ``Owner.name`` for a member."""
    kind: str
    """``function``, ``method`` or ``class`` (any type: class, struct, interface, trait, enum)."""
    start: int
    """Character offset of the line where it starts, its leading comments and decorators
    included."""
    end: int
    """Character offset just after it."""
    depth: int
    """0 for a top-level definition, 1 for a member, and so on."""
    node: Any
    """The tree-sitter node (for reading its parts)."""


def language_of(path: str) -> str | None:
    """The grammar module that reads ``path``, or None when none is shipped for it."""
    grammar = _GRAMMARS.get(PurePosixPath(path).suffix.lower())
    return grammar[0] if grammar else None


@cache
def _parser(suffix: str) -> Any:
    from tree_sitter import Language, Parser

    module_name, function = _GRAMMARS[suffix]
    module = importlib.import_module(module_name)
    return Parser(Language(getattr(module, function)()))


def parse(code: str, path: str) -> Any | None:
    """The tree-sitter tree of ``code`` read as ``path``'s language, or None (no grammar)."""
    suffix = PurePosixPath(path).suffix.lower()
    if suffix not in _GRAMMARS:
        return None
    return _parser(suffix).parse(code.encode("utf-8"))


def definitions(code: str, path: str) -> list[Span]:
    """Every definition in ``code`` in source order; [] when ``path`` has no grammar."""
    tree = parse(code, path)
    if tree is None:
        return []
    return list(_walk(tree.root_node, _line_starts(code)))


def cut_points(code: str, path: str) -> tuple[list[int], list[int]]:
    """(top-level, member) definition starts of ``code``: where a chunk may begin.

    A Rust ``impl`` block starts a top-level piece too, though it defines no name itself.
    """
    _, top, members = layout(code, path)
    return top, members


def layout(code: str, path: str) -> tuple[list[Span], list[int], list[int]]:
    """Every definition of ``code`` and its :func:`cut_points`, from one parse."""
    tree = parse(code, path)
    if tree is None:
        return [], [], []
    lines = _line_starts(code)
    spans = list(_walk(tree.root_node, lines))
    owners = [
        lines[min(_leading_start(child), len(lines) - 1)]
        for child in tree.root_node.named_children
        if child.type in _OWNERS
    ]
    top = sorted({s.start for s in spans if s.depth == 0} | set(owners))
    inner = sorted({s.start for s in spans if s.depth > 0} - set(top))
    return spans, [at for at in top if at > 0], [at for at in inner if at > 0]


def text_of(node: Any) -> str:
    return bytes(node.text).decode("utf-8", errors="replace") if node is not None else ""


def _line_starts(code: str) -> list[int]:
    starts = [0]
    at = code.find("\n")
    while at != -1:
        starts.append(at + 1)
        at = code.find("\n", at + 1)
    return starts


def _walk(root: Any, lines: list[int]) -> Iterator[Span]:
    """Every definition under ``root`` in source order, walked with an explicit stack: code
    nests as deep as it likes (an ``else if`` chain of thousands, a long ``.then()`` chain) and
    Python's recursion limit never decides."""
    stack: list[tuple[Any, str, int]] = [(c, "", 0) for c in reversed(root.named_children)]
    while stack:
        child, owner, depth = stack.pop()
        if child.type in _COMMENTS:
            continue
        kind = _kind(child)
        name = _name(child) if kind is not None else ""
        if kind is None or not name:
            if kind is None and child.type in _OWNERS:  # Rust's impl blocks name the owner
                owner_name = _bare(text_of(child.child_by_field_name("type")))
                inner = (_join(owner, owner_name), depth + 1)
            else:  # exports, decorators, declaration lists, class bodies, namespaces
                inner = (owner, depth)
            stack.extend((c, *inner) for c in reversed(child.named_children))
            continue
        full = _join(owner, name)
        receiver = _receiver(child)
        if kind == "function" and (owner or receiver):
            kind = "method"
            if receiver and not owner:
                full = _join(receiver, name)
        start = lines[min(_leading_start(child), len(lines) - 1)]
        yield Span(full, kind, start, _end(child, lines), depth, child)
        if kind == "class":
            stack.extend((c, full, depth + 1) for c in reversed(child.named_children))


def _end(node: Any, lines: list[int]) -> int:
    row = int(node.end_point.row)
    return lines[row + 1] if row + 1 < len(lines) else lines[-1] + int(node.end_point.column)


def _kind(node: Any) -> str | None:
    if node.type in _FUNCTIONS:
        return "function"
    if node.type in _TYPES:
        if node.type in {"struct_specifier", "union_specifier", "enum_specifier"}:
            return "class" if node.child_by_field_name("body") is not None else None
        return "class"
    if node.type == "variable_declarator":
        value = node.child_by_field_name("value")
        if value is not None and value.type in _ARROWS:
            return "function"
    return None


def _name(node: Any) -> str:
    named = node.child_by_field_name("name")
    if named is not None:
        return text_of(named)
    declarator = node.child_by_field_name("declarator")
    while declarator is not None:  # C: int *(*f)(void) and friends
        if declarator.type in {"identifier", "field_identifier"}:
            return text_of(declarator)
        inner = declarator.child_by_field_name("declarator")
        if inner is None:
            found = [c for c in declarator.named_children if c.type == "identifier"]
            return text_of(found[0]) if found else ""
        declarator = inner
    return ""


def _receiver(node: Any) -> str:
    """Go: the receiver's type of a method (``func (s *Server) Serve``)."""
    receiver = node.child_by_field_name("receiver")
    if receiver is None:
        return ""
    types = [n for n in _descendants(receiver) if n.type == "type_identifier"]
    return text_of(types[0]) if types else ""


def _descendants(node: Any) -> Iterator[Any]:
    """Every named node under ``node`` in source order (no recursion)."""
    stack = list(reversed(node.named_children))
    while stack:
        child = stack.pop()
        yield child
        stack.extend(reversed(child.named_children))


def _bare(type_text: str) -> str:
    """``Vec<T>`` -> ``Vec``; ``&'a mut Foo`` -> ``Foo``."""
    head = type_text.split("<", 1)[0]
    return head.replace("&", " ").replace("mut ", " ").split()[-1] if head.split() else type_text


def _join(owner: str, name: str) -> str:
    return f"{owner}.{name}" if owner else name


def _leading_start(node: Any) -> int:
    return leading(node)[0]


def attached_top(node: Any) -> Any:
    """A definition with what wraps it (``export``, ``decorated_definition``, a ``const``)."""
    top = node
    parent = node.parent
    while parent is not None and parent.type in _WRAPPERS:
        top = parent
        parent = parent.parent
    return top


def leading(node: Any) -> tuple[int, list[str]]:
    """(row where a definition starts, the comments right above it): what is attached above
    it counts -- comments, decorators, attributes, and the ``export``/``decorated_definition``
    that wraps it."""
    top = attached_top(node)
    parent = top.parent
    row = top.start_point.row
    comments: list[str] = []
    sibling = top.prev_named_sibling
    if sibling is None and parent is not None and parent.start_point.row == row:
        sibling = parent.prev_named_sibling  # Python: a comment above a class's first method
    while sibling is not None and sibling.type in _ATTACHED and sibling.end_point.row >= row - 1:
        if sibling.type in _COMMENTS:
            comments.insert(0, text_of(sibling))
        row = sibling.start_point.row
        sibling = sibling.prev_named_sibling
    return int(row), comments
