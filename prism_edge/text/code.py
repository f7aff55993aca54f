"""The definitions a piece of code holds (functions, methods, classes), found by a real parser.

Code search stores only what the code defines: the names here are the only keys a grounded
code-search memory may hold, and what it stores about each comes from that definition's own
lines (its docstring, parameters, returns and first statements), never from a model's pen.

Python is read with :mod:`ast`. A chunk may begin inside a class, so when the whole chunk does
not parse, each top-level or indented ``def``/``class`` block is dedented and parsed on its
own. C, Java, JavaScript, TypeScript, Go and Rust are read by their tree-sitter grammars
(``syntax.py``): the comment above a definition, its parameters, its return type (or what it
returns) and its first statements describe it.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from prism_edge.text import syntax

CONTENT = "Content:\n"
"""Code chunks start with ``File path: <name>`` and this line (see chunking.py)."""
MAX_SOURCE_CHARS = 800
"""Characters of a definition's source shown when it is scored (its head: signature, docstring,
first statements)."""


@dataclass(frozen=True)
class Definition:
    name: str
    """``function``, ``Class`` or ``Class.method``."""
    kind: str
    """``function``, ``method`` or ``class``."""
    source: str
    """The definition's own lines (its head, up to :data:`MAX_SOURCE_CHARS`)."""
    purpose: str
    inputs: str
    output: str
    procedure: str
    line: int = 0
    """The line it starts on (1-based; 0: not known), in the code it was found in."""

    def describe(self) -> dict[str, str]:
        """The code-search memory's description of it: each field from its own lines."""
        return {
            "purpose": self.purpose,
            "input": self.inputs,
            "output": self.output,
            "procedure": self.procedure,
        }


def code_of(chunk: str) -> tuple[str, str]:
    """(file path, code) of a code chunk; ("", chunk) when it has no header."""
    path, _, code = _parts(chunk)
    return path, code


def _parts(chunk: str) -> tuple[str, str | None, str]:
    if chunk.startswith("File path: ") and CONTENT in chunk:
        head, _, code = chunk.partition(CONTENT)
        path, _, rest = head.removeprefix("File path: ").partition("\n")
        owner = rest.strip().removeprefix("In: ").strip() if rest.startswith("In: ") else None
        return path.strip(), owner or None, code
    return "", None, chunk


class _Segments:
    """The source text of :mod:`ast` nodes, each in time proportional to its own length
    (``ast.get_source_segment`` splits the whole file again at every call: quadratic in a
    file's size when every definition of a large module asks for its lines)."""

    def __init__(self, code: str) -> None:
        self.lines = _LINE_ENDS.split(code)  # as ast counts lines: \r\n, \r or \n
        self._encoded: dict[int, bytes] = {}

    def _line(self, number: int) -> bytes:
        found = self._encoded.get(number)
        if found is None:
            found = self._encoded[number] = self.lines[number].encode("utf-8")
        return found

    def __call__(self, node: ast.AST) -> str:
        try:
            first, last = node.lineno - 1, node.end_lineno  # type: ignore[attr-defined]
            start, end = node.col_offset, node.end_col_offset  # type: ignore[attr-defined]
        except AttributeError:
            return ""
        if last is None or end is None or last > len(self.lines):
            return ""
        last -= 1
        if first == last:
            return self._line(first)[start:end].decode("utf-8", "replace")
        head = self._line(first)[start:].decode("utf-8", "replace")
        tail = self._line(last)[:end].decode("utf-8", "replace")
        return "\n".join([head, *self.lines[first + 1 : last], tail])


_LINE_ENDS = re.compile(r"\r\n|\r|\n")


def python_definitions(code: str) -> list[Definition]:
    """Every function, method and class in ``code``, in source order, each once: read by
    :mod:`ast`; code that ``ast`` cannot read (a chunk cut inside a class, a syntax error,
    Python 2, newer syntax than this interpreter's, nesting deeper than its recursion limit)
    is read by tree-sitter, which recovers around errors and keeps classes and owners."""
    try:
        tree = ast.parse(code)
        found = _walk(tree, _Segments(code), "")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return tree_definitions(code, "chunk.py")
    last: dict[str, Definition] = {}
    for definition in found:
        last[definition.name] = definition  # @overload stubs first, the implementation last
    return list(last.values())


def tree_definitions(code: str, path: str) -> list[Definition]:
    """The definitions tree-sitter finds in ``code`` read as ``path``'s language, each name
    once (a declaration before its body)."""
    found: dict[str, Definition] = {}
    read = _Reader(code)
    for span in syntax.definitions(code, path):
        if span.name not in found:
            found[span.name] = _from_tree(span, code, read)
    return list(found.values())


READ_CHARS = 1200
"""Characters of a node read at most for a field of a definition (each is cut shorter)."""


class _Reader:
    """A parsed file's nodes read by their heads: what a definition keeps of a node is a few
    hundred characters, so no node is read whole (a minified bundle's one line is the whole
    file, and each of its thousands of definitions would copy it)."""

    def __init__(self, code: str) -> None:
        self.data = code.encode("utf-8", "replace")

    def __call__(self, node: Any, limit: int = READ_CHARS) -> str:
        if node is None:
            return ""
        start = int(node.start_byte)
        end = min(int(node.end_byte), start + 4 * limit)  # UTF-8: at most 4 bytes a character
        return self.data[start:end].decode("utf-8", "ignore")[:limit]

    def head(self, span: syntax.Span, code: str) -> str:
        """A definition's own lines from where it starts (its comments and decorators
        above it included), at most :data:`MAX_SOURCE_CHARS`; one that starts inside a line
        (a minified bundle) from its own first character."""
        top = syntax.attached_top(span.node)
        column = int(top.start_point.column)
        at = int(top.start_byte)
        if column <= 256 and not self.data[at - column : at].strip():
            return code[span.start : min(span.end, span.start + MAX_SOURCE_CHARS)]
        return self(top, MAX_SOURCE_CHARS)


def _walk(tree: ast.AST, code: _Segments, owner: str) -> list[Definition]:
    found: list[Definition] = []
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            name = f"{owner}.{node.name}" if owner else node.name
            found.append(_function(node, code, name, "method" if owner else "function"))
        elif isinstance(node, ast.ClassDef):
            name = f"{owner}.{node.name}" if owner else node.name
            found.append(_class(node, code, name))
            found.extend(_walk(node, code, name))
    return found


def _source(node: ast.AST, code: _Segments) -> str:
    return code(node)[:MAX_SOURCE_CHARS]


def _first_sentence(text: str) -> str:
    text = " ".join(text.split())
    match = re.match(r"(.+?[.!?])(\s|$)", text)
    return (match.group(1) if match else text)[:300]


def _body_lines(
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, code: _Segments
) -> str:
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    lines = []
    for statement in body[:3]:
        segment = code(statement)
        lines.append(" ".join(segment.split()))
    return "; ".join(lines)[:300] or "pass"


def _function(
    node: ast.FunctionDef | ast.AsyncFunctionDef, code: _Segments, name: str, kind: str
) -> Definition:
    doc = ast.get_docstring(node) or ""
    args = node.args
    params = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    if args.vararg:
        params.append("*" + args.vararg.arg)
    if args.kwarg:
        params.append("**" + args.kwarg.arg)
    exits = sorted(
        (n for n in ast.walk(node) if isinstance(n, ast.Return | ast.Yield) and n.value),
        key=lambda n: (n.lineno, n.col_offset),
    )
    returns = [" ".join(code(n.value).split()) for n in exits if n.value is not None]
    first_line = (code(node) or f"def {node.name}(...)").splitlines()[0]
    return Definition(
        name,
        kind,
        _source(node, code),
        _first_sentence(doc) or first_line.strip(),
        ", ".join(params) or "no parameters",
        "; ".join(dict.fromkeys(returns))[:300] or "None",
        _body_lines(node, code),
        node.lineno,
    )


def _class(node: ast.ClassDef, code: _Segments, name: str) -> Definition:
    doc = ast.get_docstring(node) or ""
    bases = ", ".join(code(b) for b in node.bases)
    return Definition(
        name,
        "class",
        _source(node, code),
        _first_sentence(doc) or f"class {node.name}",
        bases or "no base classes",
        f"a {node.name} object",
        _body_lines(node, code),
        node.lineno,
    )


def definitions_in(chunk: str) -> list[Definition]:
    """The definitions a chunk holds: Python by :mod:`ast`, the languages ``syntax.py`` has a
    grammar for by tree-sitter, others none. A chunk without a file header is read as Python."""
    path, owner, code = _parts(chunk)
    return _owned(file_definitions(path or "chunk.py", code), owner, code)


def _owned(found: list[Definition], owner: str | None, code: str) -> list[Definition]:
    """``found`` with ``owner`` before the names of the chunk's indented definitions that have
    none: the members of the type the chunk starts inside (its header's ``In:`` line)."""
    if owner is None:
        return found
    indent = {line.strip(): line[: len(line) - len(line.lstrip())] for line in code.splitlines()}
    out = []
    for d in found:
        named = re.compile(rf"(?<!\w){re.escape(d.name)}(?!\w)")
        head = next((line.strip() for line in d.source.splitlines() if named.search(line)), "")
        if "." not in d.name and indent.get(head):
            d = dataclasses.replace(d, name=f"{owner}.{d.name}", kind="method")
        out.append(d)
    return out


_RETURN_FIELDS = ("return_type", "result", "type")


def _from_tree(span: syntax.Span, code: str, read: _Reader) -> Definition:
    node = span.node
    head = read.head(span, code)
    signature = read(node).split("{", 1)[0]
    signature = " ".join(signature.split())[:300]
    body = node.child_by_field_name("body")
    doc = _comment_above(node) or _docstring(body, read)
    value = node.child_by_field_name("value")
    if body is None and value is not None:  # const f = (a) => ... : the arrow's body
        body = value.child_by_field_name("body")
    first = _first_statements(body, read)
    if span.kind == "class":
        heritage = [
            read(c)
            for c in node.named_children
            if c.type in {"superclass", "super_interfaces", "class_heritage", "extends_clause"}
        ]
        short = span.name.rsplit(".", 1)[-1]
        return Definition(
            span.name,
            "class",
            head,
            _first_sentence(doc) or signature,
            " ".join(" ".join(heritage).split()) or "no base types",
            f"a {short} value",
            first,
            node.start_point[0] + 1,
        )
    params = _parameters(node, read)
    returns = (
        next(
            (
                read(node.child_by_field_name(f))
                for f in _RETURN_FIELDS
                if node.child_by_field_name(f) is not None
            ),
            "",
        )
        .lstrip(":->")
        .strip()
    )
    if not returns and body is not None:
        returned = [
            " ".join(read(n).removeprefix("return").strip(" ;").split())
            for n in _nodes(body)
            if n.type in {"return_statement", "return_expression"}
        ]
        returns = "; ".join(dict.fromkeys(r for r in returned if r))
    return Definition(
        span.name,
        span.kind,
        head,
        _first_sentence(doc) or signature,
        params or "no parameters",
        returns[:300] or "nothing",
        first,
        node.start_point[0] + 1,
    )


def _nodes(node: Any) -> list[Any]:
    found = []
    stack = [node]
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(reversed(current.named_children))
    return found


def _parameters(node: Any, read: _Reader) -> str:
    params = node.child_by_field_name("parameters")
    if params is None:  # C: the parameters sit in the function declarator
        declarators = [n for n in _nodes(node) if n.type == "function_declarator"]
        params = declarators[0].child_by_field_name("parameters") if declarators else None
    if params is None:  # JavaScript: const f = (a, b) => ...
        value = node.child_by_field_name("value")
        params = value.child_by_field_name("parameters") if value is not None else None
    text = " ".join(read(params).split())
    return text.removeprefix("(").removesuffix(")").strip()[:300]


def _first_statements(body: Any, read: _Reader) -> str:
    if body is None:
        return "no body"
    if not body.type.endswith(("block", "body", "list")):  # an arrow's expression body
        return " ".join(read(body).split())[:300]
    statements = [
        c for c in body.named_children if c.type not in {"comment", "line_comment", "block_comment"}
    ]
    parts = [" ".join(read(c).split()).rstrip(";") for c in statements[:3]]
    return "; ".join(parts)[:300] or "empty"


def _docstring(body: Any, read: _Reader) -> str:
    """A Python body's docstring (its first statement, a string), unquoted."""
    first = body.named_children[0] if body is not None and body.named_children else None
    if first is None or first.type != "expression_statement" or not first.named_children:
        return ""
    string = first.named_children[0]
    if string.type != "string":
        return ""
    return read(string).strip("\"'rbuRBU").strip()


def _comment_above(node: Any) -> str:
    """The comment block right above a definition (or its ``export``/attributes), unmarked."""
    lines = syntax.leading(node)[1]
    text = "\n".join(lines)
    cleaned = re.sub(r"^\s*(?:/\*\*?|\*/|\*|///?|!|#)\s?", "", text, flags=re.M)
    return re.sub(r"\*/\s*$", "", cleaned, flags=re.M).strip()


def file_definitions(path: str, code: str) -> list[Definition]:
    """The definitions of one whole file (no chunk header): Python by :mod:`ast`, the
    languages ``syntax.py`` has a grammar for by tree-sitter, others none."""
    if path.endswith((".py", ".pyi")):
        return python_definitions(code)
    if syntax.language_of(path) is None:
        return []
    return tree_definitions(code, path)


def is_code(path: str) -> bool:
    """Whether :func:`file_definitions` reads definitions in a file of this name."""
    return path.endswith((".py", ".pyi")) or syntax.language_of(path) is not None


@dataclass(frozen=True)
class Located:
    """A definition and the file it is in: one entry of a repository's index."""

    path: str
    """The file, as the run names it (the path given, or under the folder given)."""
    definition: Definition

    @property
    def key(self) -> str:
        """Where it is and what it is called, as editors and ``grep -n`` print it:
        ``path:line: name``."""
        return f"{self.path}:{self.definition.line}: {self.definition.name}"
