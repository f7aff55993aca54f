"""Typed-hierarchy schemas (the paper's definition 3.2) as a small IR with pure converters.

A schema is declared either as a pydantic model or as Python dataclass source text like the
paper's appendix A. Source text is parsed with :mod:`ast` and never executed; docstrings and
``#`` comments are kept and flow into the prompt text.

From one :class:`Schema` come:

* :func:`prompt_text` -- the class definition shown to the model ([CLASS] in appendix E),
* :meth:`Schema.validate` -- a strict validator whose errors name the JSONPath,
* :func:`json_schema` -- the equivalent JSON Schema,
* :func:`path_templates` -- every addressable path, e.g. ``$.'candidate_functions'.<key>``.

Missing information: the paper lets a revision fill a field with the placeholder ``'???'`` or
``None`` when the chunk does not say. With ``allow_missing=True`` (the default, as in the paper)
every field of a class accepts ``"???"`` and ``null``; with ``allow_missing=False`` only
``Optional`` fields accept ``null`` and there is no placeholder.
"""

from __future__ import annotations

import ast
import io
import math
import tokenize
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Union

from prism_edge.core.errors import SchemaError

MISSING = "???"
"""The paper's placeholder for information a chunk does not give."""

Segment = str | int
"""One step of a concrete path: a dict key / field name, or a list index."""


# --------------------------------------------------------------------------------------------
# The IR
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Prim:
    """A primitive: ``str``, ``int``, ``float`` or ``bool``."""

    kind: str


@dataclass(frozen=True)
class OptionalT:
    inner: TypeNode


@dataclass(frozen=True)
class ListT:
    item: TypeNode


@dataclass(frozen=True)
class TupleT:
    """A fixed-length tuple, encoded in JSON as an array (the paper's Comparison example)."""

    items: tuple[TypeNode, ...]


@dataclass(frozen=True)
class DictT:
    """A map from free-text string keys to values of one type."""

    value: TypeNode


@dataclass(frozen=True)
class Field:
    name: str
    type: TypeNode
    doc: str = ""
    comment: str = ""


@dataclass(frozen=True)
class ClassT:
    name: str
    fields: tuple[Field, ...]
    doc: str = ""
    comment: str = ""

    def field(self, name: str) -> Field | None:
        for f in self.fields:
            if f.name == name:
                return f
        return None


TypeNode = Prim | OptionalT | ListT | TupleT | DictT | ClassT

PRIMITIVES = ("str", "int", "float", "bool")


@dataclass(frozen=True)
class Schema:
    """A typed hierarchy rooted at a class."""

    root: ClassT
    allow_missing: bool = True

    @property
    def name(self) -> str:
        return self.root.name

    def empty_memory(self) -> dict[str, Any]:
        """The memory m_1: the root with empty containers, other fields not yet known."""
        memory: dict[str, Any] = {}
        for f in self.root.fields:
            node = f.type
            if isinstance(node, DictT):
                memory[f.name] = {}
            elif isinstance(node, ListT):
                memory[f.name] = []
        return memory

    def validate(self, value: Any, node: TypeNode | None = None, at: str = "$") -> None:
        """Raise :class:`ValidationError` naming the first place where ``value`` does not fit.

        Validating the root checks a *memory*: root fields may be absent (not yet known).
        Values inside must be complete: every field of a nested class is present.
        """
        target = self.root if node is None else node
        _check(self, value, target, at, partial=node is None)

    def is_valid(self, value: Any, node: TypeNode | None = None) -> bool:
        try:
            self.validate(value, node)
        except ValidationError:
            return False
        return True

    def resolve(self, segments: tuple[Segment, ...]) -> TypeNode:
        """The type at a concrete path, or :class:`PathError` when the schema has no such path."""
        node: TypeNode = self.root
        for depth, seg in enumerate(segments):
            node = _step(node, seg, segments[:depth])
        return node


class ValidationError(ValueError):
    """A value does not fit the schema; ``at`` is the JSONPath of the offending part."""

    def __init__(self, at: str, reason: str) -> None:
        super().__init__(f"{at}: {reason}")
        self.at = at
        self.reason = reason


class PathError(ValueError):
    """A path names nothing the schema allows."""

    def __init__(self, at: str, reason: str) -> None:
        super().__init__(f"{at}: {reason}")
        self.at = at
        self.reason = reason


def unwrap(node: TypeNode) -> TypeNode:
    while isinstance(node, OptionalT):
        node = node.inner
    return node


def _step(node: TypeNode, seg: Segment, before: tuple[Segment, ...]) -> TypeNode:
    node = unwrap(node)
    where = format_path(before)
    if isinstance(node, ClassT):
        if not isinstance(seg, str):
            raise PathError(where, f"{node.name} is an object; index [{seg}] does not apply")
        f = node.field(seg)
        if f is None:
            names = ", ".join(x.name for x in node.fields)
            raise PathError(where, f"{node.name} has no field {seg!r} (fields: {names})")
        return f.type
    if isinstance(node, DictT):
        if not isinstance(seg, str):
            raise PathError(where, f"a dict is keyed by strings, not [{seg}]")
        return node.value
    if isinstance(node, ListT):
        if not isinstance(seg, int):
            raise PathError(where, f"a list is indexed by [n], not by key {seg!r}")
        return node.item
    if isinstance(node, TupleT):
        if not isinstance(seg, int) or not 0 <= seg < len(node.items):
            raise PathError(where, f"a tuple of {len(node.items)} has no element {seg!r}")
        return node.items[seg]
    raise PathError(where, f"a {type_label(node)} has no parts to address")


def _check(schema: Schema, value: Any, node: TypeNode, at: str, *, partial: bool = False) -> None:
    if isinstance(node, OptionalT):
        if value is None:
            return
        _check(schema, value, node.inner, at)
        return
    if isinstance(node, Prim):
        _check_prim(value, node.kind, at)
        return
    if isinstance(node, ListT):
        if not isinstance(value, list):
            raise ValidationError(at, f"expected a list, got {_json_kind(value)}")
        for i, item in enumerate(value):
            _check(schema, item, node.item, f"{at}[{i}]")
        return
    if isinstance(node, TupleT):
        if not isinstance(value, (list, tuple)) or len(value) != len(node.items):
            raise ValidationError(at, f"expected a list of exactly {len(node.items)} items")
        for i, (item, item_node) in enumerate(zip(value, node.items, strict=True)):
            _check(schema, item, item_node, f"{at}[{i}]")
        return
    if isinstance(node, DictT):
        if not isinstance(value, dict):
            raise ValidationError(at, f"expected an object (dict), got {_json_kind(value)}")
        for key, item in value.items():
            if not isinstance(key, str):
                raise ValidationError(at, f"dict keys must be strings, got {key!r}")
            _check(schema, item, node.value, format_path((key,), at))
        return
    _check_class(schema, value, node, at, partial=partial)


def _check_class(schema: Schema, value: Any, node: ClassT, at: str, *, partial: bool) -> None:
    if not isinstance(value, dict):
        raise ValidationError(at, f"expected a {node.name} object, got {_json_kind(value)}")
    unknown = [k for k in value if node.field(k) is None]
    if unknown:
        raise ValidationError(at, f"{node.name} has no field {unknown[0]!r}")
    for f in node.fields:
        sub = format_path((f.name,), at)
        if f.name not in value:
            if partial:
                continue
            raise ValidationError(sub, f"missing field {f.name!r} of {node.name}")
        item = value[f.name]
        if schema.allow_missing and not partial and (item is None or item == MISSING):
            continue
        _check(schema, item, f.type, sub)


def _check_prim(value: Any, kind: str, at: str) -> None:
    ok = {
        "str": isinstance(value, str),
        "bool": isinstance(value, bool),
        "int": isinstance(value, int) and not isinstance(value, bool),
        "float": isinstance(value, (int, float))
        and not isinstance(value, bool)
        and (isinstance(value, int) or math.isfinite(value)),
    }[kind]
    if not ok:
        raise ValidationError(at, f"expected {kind}, got {_json_kind(value)} {value!r:.40}")


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    return {dict: "object", list: "list", str: "str", int: "int", float: "float"}.get(
        type(value), type(value).__name__
    )


def type_label(node: TypeNode) -> str:
    """Python-style spelling of a type, e.g. ``dict[str, list[str]]``."""
    if isinstance(node, Prim):
        return node.kind
    if isinstance(node, OptionalT):
        return f"Optional[{type_label(node.inner)}]"
    if isinstance(node, ListT):
        return f"list[{type_label(node.item)}]"
    if isinstance(node, TupleT):
        return f"tuple[{', '.join(type_label(i) for i in node.items)}]"
    if isinstance(node, DictT):
        return f"dict[str, {type_label(node.value)}]"
    return node.name


# --------------------------------------------------------------------------------------------
# Paths
# --------------------------------------------------------------------------------------------


def quote_key(key: str) -> str:
    """A key as a single-quoted JSONPath name: ``'it\\'s'``."""
    return "'" + key.replace("\\", "\\\\").replace("'", "\\'") + "'"


def format_path(segments: tuple[Segment, ...] | list[Segment], prefix: str = "$") -> str:
    """``("a", "b c", 0)`` -> ``$.'a'.'b c'[0]`` (the paper's quoting, guideline 1)."""
    out = prefix
    for seg in segments:
        out += f"[{seg}]" if isinstance(seg, int) else "." + quote_key(seg)
    return out


@dataclass(frozen=True)
class PathTemplate:
    """An addressable path pattern and the type found there.

    ``<key>`` stands for any dict key, ``[<index>]`` for any list index.
    """

    template: str
    type: TypeNode
    parts: tuple[str | int | None, ...] = field(compare=False)
    """Field names (str), ``None`` for a free dict key, ``-1`` for a free list index."""


def path_templates(schema: Schema, max_depth: int = 8) -> list[PathTemplate]:
    """Every addressable path of the schema, depth-first, in declaration order."""
    out: list[PathTemplate] = []

    def walk(node: TypeNode, text: str, parts: tuple[str | int | None, ...], depth: int) -> None:
        if depth > max_depth:
            return
        node = unwrap(node)
        if isinstance(node, ClassT):
            for f in node.fields:
                sub = text + "." + quote_key(f.name)
                out.append(PathTemplate(sub, f.type, (*parts, f.name)))
                walk(f.type, sub, (*parts, f.name), depth + 1)
        elif isinstance(node, DictT):
            sub = text + ".<key>"
            out.append(PathTemplate(sub, node.value, (*parts, None)))
            walk(node.value, sub, (*parts, None), depth + 1)
        elif isinstance(node, ListT):
            sub = text + "[<index>]"
            out.append(PathTemplate(sub, node.item, (*parts, -1)))
            walk(node.item, sub, (*parts, -1), depth + 1)
        elif isinstance(node, TupleT):
            for i, item in enumerate(node.items):
                sub = f"{text}[{i}]"
                out.append(PathTemplate(sub, item, (*parts, i)))
                walk(item, sub, (*parts, i), depth + 1)

    walk(schema.root, "$", (), 0)
    return out


# --------------------------------------------------------------------------------------------
# Converters: prompt text and JSON Schema
# --------------------------------------------------------------------------------------------


def prompt_text(schema: Schema) -> str:
    """The schema as a Python class definition, docstrings and comments kept ([CLASS])."""
    lines: list[str] = []
    _class_lines(schema.root, 0, lines, set())
    return "\n".join(lines)


def _class_lines(node: ClassT, indent: int, lines: list[str], shown: set[str]) -> None:
    pad = "  " * indent
    shown.add(node.name)
    header = f"{pad}class {node.name}:"
    lines.append(header + (f"  # {node.comment}" if node.comment else ""))
    if node.doc:
        lines.append(f'{pad}  """{_doc(node.doc)}"""')
    nested = [c for c in _direct_classes(node) if c.name not in shown]
    for cls in nested:
        _class_lines(cls, indent + 1, lines, shown)
        lines.append("")
    for f in node.fields:
        line = f"{pad}  {f.name}: {type_label(f.type)}"
        lines.append(line + (f"  # {f.comment}" if f.comment else ""))
        if f.doc:
            lines.append(f'{pad}  """{_doc(f.doc)}"""')
    if not node.fields:
        lines.append(f"{pad}  pass")


def _doc(text: str) -> str:
    return text.replace('"""', r"\"\"\"")


def _direct_classes(node: ClassT) -> list[ClassT]:
    """Classes used by the fields of ``node`` (first use order), to show them nested."""
    found: list[ClassT] = []

    def walk(t: TypeNode) -> None:
        if isinstance(t, ClassT):
            if all(c.name != t.name for c in found):
                found.append(t)
        elif isinstance(t, OptionalT):
            walk(t.inner)
        elif isinstance(t, ListT):
            walk(t.item)
        elif isinstance(t, DictT):
            walk(t.value)
        elif isinstance(t, TupleT):
            for i in t.items:
                walk(i)

    for f in node.fields:
        walk(f.type)
    return found


def json_schema(schema: Schema) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a complete instance; classes go to ``$defs``."""
    defs: dict[str, Any] = {}
    root = _js_class(schema, schema.root, defs)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **root, "$defs": defs}


def _js(schema: Schema, node: TypeNode, defs: dict[str, Any]) -> dict[str, Any]:
    if isinstance(node, Prim):
        return {
            "type": {"str": "string", "int": "integer", "float": "number"}.get(node.kind, "boolean")
        }
    if isinstance(node, OptionalT):
        return {"anyOf": [_js(schema, node.inner, defs), {"type": "null"}]}
    if isinstance(node, ListT):
        return {"type": "array", "items": _js(schema, node.item, defs)}
    if isinstance(node, TupleT):
        items = [_js(schema, i, defs) for i in node.items]
        n = len(items)
        return {"type": "array", "prefixItems": items, "minItems": n, "maxItems": n}
    if isinstance(node, DictT):
        return {"type": "object", "additionalProperties": _js(schema, node.value, defs)}
    if node.name not in defs:
        defs[node.name] = {}  # placeholder against recursion
        defs[node.name] = _js_class(schema, node, defs)
    return {"$ref": f"#/$defs/{node.name}"}


def _js_class(schema: Schema, node: ClassT, defs: dict[str, Any]) -> dict[str, Any]:
    props: dict[str, Any] = {}
    for f in node.fields:
        prop = _js(schema, f.type, defs)
        if schema.allow_missing:
            prop = {"anyOf": [prop, {"const": MISSING}, {"type": "null"}]}
        doc = " ".join(x for x in (f.doc, f.comment) if x)
        if doc:
            prop = {**prop, "description": doc}
        props[f.name] = prop
    out: dict[str, Any] = {
        "type": "object",
        "title": node.name,
        "properties": props,
        "required": [f.name for f in node.fields],
        "additionalProperties": False,
    }
    if node.doc:
        out["description"] = node.doc
    return out


# --------------------------------------------------------------------------------------------
# From dataclass source text (ast; never executed)
# --------------------------------------------------------------------------------------------

_TYPING_PREFIXES = ("typing.", "t.")
_GENERIC_ALIASES = {
    "List": "list",
    "Dict": "dict",
    "Tuple": "tuple",
    "Mapping": "dict",
    "Sequence": "list",
}


def from_source(source: str, root: str | None = None, *, allow_missing: bool = True) -> Schema:
    """Parse dataclass-style source text (appendix A) into a :class:`Schema`.

    The root is ``root`` if given, else the one top-level class no other class refers to.
    Markdown code fences around the source are ignored. Unsupported constructs raise
    :class:`SchemaError` naming the line.
    """
    source = _strip_fences(source)
    try:
        module = ast.parse(source)
    except IndentationError:
        source = _reindent(source)  # the paper's own listings mix 2- and 4-space bodies
        try:
            module = ast.parse(source)
        except SyntaxError as exc:
            raise SchemaError(f"not valid Python: {exc.msg}", line=exc.lineno) from None
    except SyntaxError as exc:
        raise SchemaError(f"not valid Python: {exc.msg}", line=exc.lineno) from None
    comments = _comments_by_line(source)
    top = [n for n in module.body if isinstance(n, ast.ClassDef)]
    for n in module.body:
        if isinstance(n, (ast.Import, ast.ImportFrom, ast.ClassDef)):
            continue
        if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant):
            continue  # a module docstring
        raise SchemaError(
            "only imports and class definitions may appear at top level", line=n.lineno
        )
    if not top:
        raise SchemaError("no class definition found", line=1)
    builder = _Builder(comments, {c.name: c for c in top})
    if root is not None:
        if root not in builder.module_classes:
            raise SchemaError(f"no top-level class named {root!r}", line=1)
        chosen = builder.module_classes[root]
    else:
        referenced = builder.referenced_names()
        roots = [c for c in top if c.name not in referenced]
        if len(roots) != 1:
            names = ", ".join(c.name for c in (roots or top))
            raise SchemaError(f"cannot tell the root class among {names}; name it", line=1)
        chosen = roots[0]
    return Schema(builder.build(chosen, ()), allow_missing=allow_missing)


def _strip_fences(source: str) -> str:
    lines = source.strip("\n").splitlines()
    if lines and lines[0].lstrip().startswith("```"):
        lines = lines[1:]
        if lines and lines[-1].strip().startswith("```"):
            lines = lines[:-1]
    return "\n".join(lines) + "\n"


def _reindent(source: str) -> str:
    """Re-indent by block depth, reading a dedent to an unknown level as the block's indent.

    Only used when :mod:`ast` rejects the indentation. Lines inside triple-quoted strings keep
    their text; line numbers are unchanged, so errors still name the right line.
    """
    out: list[str] = []
    levels = [0]
    in_string = False
    opens_block = False
    for raw in source.splitlines():
        stripped = raw.lstrip(" \t")
        if in_string or not stripped or stripped.startswith("#"):
            out.append(raw)
        else:
            indent = len(raw) - len(stripped)
            if indent > levels[-1] and opens_block:
                levels.append(indent)
            else:
                while len(levels) > 1 and indent < levels[-1]:
                    if indent > levels[-2]:
                        levels[-1] = indent  # an unknown level inside the block: same block
                        break
                    levels.pop()
            out.append("    " * (len(levels) - 1) + stripped)
            opens_block = stripped.rstrip().endswith(":")
        quotes = raw.count('"""') + raw.count("'''")
        if quotes % 2 == 1:
            in_string = not in_string
    return "\n".join(out) + "\n"


def _comments_by_line(source: str) -> dict[int, str]:
    out: dict[int, str] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                text = tok.string.lstrip("#").strip()
                if (
                    text.startswith("pylint:")
                    or text.startswith("noqa")
                    or text.startswith("type:")
                ):
                    continue
                out[tok.start[0]] = text
    except (tokenize.TokenError, IndentationError):
        pass
    return out


class _Builder:
    def __init__(self, comments: dict[int, str], module_classes: dict[str, ast.ClassDef]):
        self.comments = comments
        self.module_classes = module_classes
        self.built: dict[int, ClassT] = {}
        self.building: set[int] = set()

    def referenced_names(self) -> set[str]:
        names: set[str] = set()
        for cls in self.module_classes.values():
            mine: set[str] = set()
            for node in ast.walk(cls):
                if isinstance(node, ast.AnnAssign):
                    mine.update(n.id for n in ast.walk(node.annotation) if isinstance(n, ast.Name))
                    if isinstance(node.annotation, ast.Constant) and isinstance(
                        node.annotation.value, str
                    ):
                        mine.add(node.annotation.value)
            names |= mine - {cls.name}
        return names

    def build(self, cls: ast.ClassDef, scopes: tuple[ast.ClassDef, ...]) -> ClassT:
        if id(cls) in self.built:
            return self.built[id(cls)]
        if id(cls) in self.building:
            raise SchemaError(
                f"class {cls.name} contains itself; recursive schemas are not supported",
                line=cls.lineno,
            )
        self.building.add(id(cls))
        inner_scopes = (*scopes, cls)
        aliases: dict[str, ast.expr] = {}
        fields: list[Field] = []
        doc = ast.get_docstring(cls, clean=True) or ""
        body = list(cls.body)
        for i, stmt in enumerate(body):
            if isinstance(stmt, ast.AnnAssign):
                fields.append(self._field(stmt, body, i, inner_scopes, aliases))
            elif isinstance(stmt, ast.Assign):
                self._alias(stmt, aliases)
            elif isinstance(stmt, (ast.ClassDef, ast.Pass)):
                continue
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                continue  # class docstring or a field docstring (handled with its field)
            else:
                kind = type(stmt).__name__
                raise SchemaError(
                    f"unsupported statement ({kind}) in class {cls.name}; only "
                    "typed fields, nested classes and docstrings are allowed",
                    line=stmt.lineno,
                )
        if not fields:
            raise SchemaError(f"class {cls.name} declares no typed fields", line=cls.lineno)
        names = [f.name for f in fields]
        dup = next((n for n in names if names.count(n) > 1), None)
        if dup is not None:
            raise SchemaError(f"field {dup!r} declared twice in {cls.name}", line=cls.lineno)
        result = ClassT(cls.name, tuple(fields), doc, self.comments.get(cls.lineno, ""))
        self.building.discard(id(cls))
        self.built[id(cls)] = result
        return result

    def _alias(self, stmt: ast.Assign, aliases: dict[str, ast.expr]) -> None:
        if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
            raise SchemaError(
                "only simple type aliases (Name = type) are allowed", line=stmt.lineno
            )
        aliases[stmt.targets[0].id] = stmt.value

    def _field(
        self,
        stmt: ast.AnnAssign,
        body: list[ast.stmt],
        i: int,
        scopes: tuple[ast.ClassDef, ...],
        aliases: dict[str, ast.expr],
    ) -> Field:
        if not isinstance(stmt.target, ast.Name):
            raise SchemaError("a field must be a plain name", line=stmt.lineno)
        node = self._type(stmt.annotation, scopes, aliases)
        doc = ""
        if i + 1 < len(body):
            nxt = body[i + 1]
            if (
                isinstance(nxt, ast.Expr)
                and isinstance(nxt.value, ast.Constant)
                and isinstance(nxt.value.value, str)
            ):
                doc = " ".join(nxt.value.value.split())
        end = stmt.end_lineno or stmt.lineno
        return Field(stmt.target.id, node, doc, self.comments.get(end, ""))

    def _type(
        self, expr: ast.expr, scopes: tuple[ast.ClassDef, ...], aliases: dict[str, ast.expr]
    ) -> TypeNode:
        line = expr.lineno
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            try:
                parsed = ast.parse(expr.value, mode="eval").body
            except SyntaxError:
                raise SchemaError(f"cannot read the type {expr.value!r}", line=line) from None
            ast.increment_lineno(parsed, line - 1)
            return self._type(parsed, scopes, aliases)
        if isinstance(expr, ast.Constant) and expr.value is None:
            raise SchemaError("None alone is not a field type", line=line)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitOr):
            return self._union([expr.left, expr.right], scopes, aliases, line)
        name = _dotted(expr if not isinstance(expr, ast.Subscript) else expr.value)
        if name is None:
            raise SchemaError(f"unsupported type expression {ast.unparse(expr)!r}", line=line)
        for prefix in _TYPING_PREFIXES:
            if name.startswith(prefix):
                name = name[len(prefix) :]
        if isinstance(expr, ast.Subscript):
            args = list(expr.slice.elts) if isinstance(expr.slice, ast.Tuple) else [expr.slice]
            return self._generic(name, args, scopes, aliases, line)
        if name in PRIMITIVES:
            return Prim(name)
        if name in aliases:
            return self._type(aliases[name], scopes, aliases)
        cls = self._lookup(name, scopes)
        if cls is None:
            hint = " (Any is too loose for a memory schema)" if name == "Any" else ""
            raise SchemaError(
                f"unknown or unsupported type {name!r}{hint}; use str, int, "
                "float, bool, Optional, list, dict, tuple or a class",
                line=line,
            )
        return self.build(cls, self._scopes_of(cls, scopes))

    def _generic(
        self,
        name: str,
        args: list[ast.expr],
        scopes: tuple[ast.ClassDef, ...],
        aliases: dict[str, ast.expr],
        line: int,
    ) -> TypeNode:
        name = _GENERIC_ALIASES.get(name, name)
        if name == "Optional":
            return OptionalT(self._type(args[0], scopes, aliases))
        if name == "Union":
            return self._union(args, scopes, aliases, line)
        if name == "list":
            if len(args) != 1:
                raise SchemaError("list takes one type: list[T]", line=line)
            return ListT(self._type(args[0], scopes, aliases))
        if name == "dict":
            if len(args) != 2:
                raise SchemaError("dict takes two types: dict[str, T]", line=line)
            key = self._type(args[0], scopes, aliases)
            if key != Prim("str"):
                raise SchemaError("dict keys must be str (JSON object keys)", line=line)
            return DictT(self._type(args[1], scopes, aliases))
        if name == "tuple":
            if any(isinstance(a, ast.Constant) and a.value is Ellipsis for a in args):
                raise SchemaError("use list[T] for variable-length tuples", line=line)
            return TupleT(tuple(self._type(a, scopes, aliases) for a in args))
        raise SchemaError(
            f"unsupported generic type {name}[...]; use Optional, list, dict or tuple", line=line
        )

    def _union(
        self,
        args: list[ast.expr],
        scopes: tuple[ast.ClassDef, ...],
        aliases: dict[str, ast.expr],
        line: int,
    ) -> TypeNode:
        flat: list[ast.expr] = []
        for a in args:
            if isinstance(a, ast.BinOp) and isinstance(a.op, ast.BitOr):
                flat.extend([a.left, a.right])
            else:
                flat.append(a)
        real = [
            a
            for a in flat
            if not (isinstance(a, ast.Constant) and a.value is None) and _dotted(a) != "None"
        ]
        if len(real) != 1 or len(real) == len(flat):
            raise SchemaError("unions are only supported as Optional (T | None)", line=line)
        return OptionalT(self._type(real[0], scopes, aliases))

    def _lookup(self, name: str, scopes: tuple[ast.ClassDef, ...]) -> ast.ClassDef | None:
        parts = name.split(".")
        for scope in reversed(scopes):
            found = _nested(scope, parts)
            if found is not None:
                return found
        head = self.module_classes.get(parts[0])
        if head is None:
            return None
        return head if len(parts) == 1 else _nested(head, parts[1:])

    def _scopes_of(
        self, cls: ast.ClassDef, scopes: tuple[ast.ClassDef, ...]
    ) -> tuple[ast.ClassDef, ...]:
        for top in self.module_classes.values():
            chain = _chain_to(top, cls)
            if chain is not None:
                return tuple(chain[:-1])
        return scopes


def _nested(scope: ast.ClassDef, parts: list[str]) -> ast.ClassDef | None:
    current: ast.ClassDef | None = scope
    for part in parts:
        assert current is not None
        current = next(
            (s for s in current.body if isinstance(s, ast.ClassDef) and s.name == part), None
        )
        if current is None:
            return None
    return current


def _chain_to(top: ast.ClassDef, target: ast.ClassDef) -> list[ast.ClassDef] | None:
    if top is target:
        return [top]
    for s in top.body:
        if isinstance(s, ast.ClassDef):
            sub = _chain_to(s, target)
            if sub is not None:
                return [top, *sub]
    return None


def _dotted(expr: ast.expr) -> str | None:
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute):
        base = _dotted(expr.value)
        return None if base is None else f"{base}.{expr.attr}"
    if isinstance(expr, ast.Constant) and expr.value is None:
        return "None"
    return None


# --------------------------------------------------------------------------------------------
# From pydantic models (and plain annotated classes)
# --------------------------------------------------------------------------------------------


def from_model(model: type, *, allow_missing: bool = True) -> Schema:
    """A :class:`Schema` from a pydantic model (field descriptions become field docs)."""
    return Schema(_class_from_model(model, set()), allow_missing=allow_missing)


def _class_from_model(model: type, building: set[type]) -> ClassT:
    if model in building:
        raise SchemaError(
            f"class {model.__name__} contains itself; recursive schemas are not supported"
        )
    building = building | {model}
    fields_info: Mapping[str, Any] | None = getattr(model, "model_fields", None)
    hints = typing.get_type_hints(model)
    names = list(fields_info) if fields_info is not None else list(hints)
    fields: list[Field] = []
    for name in names:
        info = fields_info.get(name) if fields_info is not None else None
        doc = (getattr(info, "description", None) or "") if info is not None else ""
        annotation = info.annotation if info is not None else hints[name]
        fields.append(Field(name, _type_from_hint(annotation, building, model.__name__, name), doc))
    if not fields:
        raise SchemaError(f"class {model.__name__} declares no typed fields")
    doc = model.__doc__ or ""
    if doc.startswith(f"{model.__name__}(") or "A base class for creating Pydantic" in doc:
        doc = ""  # dataclass / BaseModel default docstrings
    return ClassT(model.__name__, tuple(fields), " ".join(doc.split()))


def _type_from_hint(hint: Any, building: set[type], owner: str, name: str) -> TypeNode:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Annotated:
        return _type_from_hint(args[0], building, owner, name)
    if hint in (str, int, float, bool):
        return Prim(hint.__name__)
    if origin in (Union, types.UnionType):
        real = [a for a in args if a is not type(None)]
        if len(real) == 1 and len(real) < len(args):
            return OptionalT(_type_from_hint(real[0], building, owner, name))
    elif origin in (list, typing.List):  # noqa: UP006
        return ListT(_type_from_hint(args[0], building, owner, name))
    elif origin in (dict, typing.Dict):  # noqa: UP006
        if args and args[0] is not str:
            raise SchemaError(f"{owner}.{name}: dict keys must be str")
        return DictT(_type_from_hint(args[1], building, owner, name))
    elif origin in (tuple, typing.Tuple) and Ellipsis not in args:  # noqa: UP006
        return TupleT(tuple(_type_from_hint(a, building, owner, name) for a in args))
    elif (
        origin is None
        and isinstance(hint, type)
        and (hasattr(hint, "model_fields") or hasattr(hint, "__annotations__"))
    ):
        return _class_from_model(hint, building)
    raise SchemaError(
        f"{owner}.{name}: unsupported type {hint!r}; use str, int, float, bool, "
        "Optional, list, dict, tuple or a model class"
    )


# --------------------------------------------------------------------------------------------
# From JSON Schema
# --------------------------------------------------------------------------------------------

_JS_PRIMS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}


def from_json_schema(document: Mapping[str, Any], *, allow_missing: bool = True) -> Schema:
    """A :class:`Schema` from a JSON Schema whose root is an object with properties.

    Supported: object properties (a class), ``additionalProperties`` (a dict), ``items``
    (a list), ``prefixItems`` (a tuple), ``anyOf``/``type`` lists with null (Optional),
    ``$ref`` into ``$defs``/``definitions``, and the four primitive types.
    """
    if not isinstance(document, Mapping):
        raise SchemaError(f"a JSON Schema is an object, not {_json_kind(document)}")
    defs: dict[str, Any] = {}
    for section in ("definitions", "$defs"):
        defs.update(_mapping(document.get(section, {}), f"$.{section}"))
    try:
        root = _from_js(document, defs, "Root", "$", set())
    except RecursionError:
        raise SchemaError("the JSON Schema is nested too deeply") from None
    if not isinstance(root, ClassT):
        raise SchemaError("the JSON Schema root must be an object with properties")
    return Schema(root, allow_missing=allow_missing)


def _mapping(value: Any, at: str) -> Mapping[str, Any]:
    """``value`` when it is a JSON object, else the schema error that says what it is."""
    if isinstance(value, Mapping):
        return value
    if value is True or value == {}:
        raise SchemaError(f"{at}: any value (true or {{}}) is not supported; give a type")
    raise SchemaError(f"{at}: expected a schema object, got {_json_kind(value)} {value!r:.40}")


def _sequence(value: Any, at: str) -> list[Any]:
    if not isinstance(value, list):
        raise SchemaError(f"{at}: expected a list, got {_json_kind(value)}")
    return value


def _from_js(node: Any, defs: Mapping[str, Any], name: str, at: str, seen: set[str]) -> TypeNode:
    node = _mapping(node, at)
    if "$ref" in node:
        ref = str(node["$ref"])
        key = ref.rsplit("/", 1)[-1]
        if key not in defs:
            raise SchemaError(f"{at}: unresolved $ref {ref}")
        if key in seen:
            raise SchemaError(f"{at}: recursive schemas are not supported ({ref})")
        return _from_js(defs[key], defs, key, at, seen | {key})
    for union in ("anyOf", "oneOf"):
        if union in node:
            listed = [_mapping(o, f"{at}.{union}") for o in _sequence(node[union], at)]
            options = [o for o in listed if o.get("type") != "null" and o.get("const") != MISSING]
            if len(options) == 1 and any(o.get("const") == MISSING for o in listed):
                # json_schema's mark of a field that may be "???" (allow_missing): the field
                # itself, as declared
                return _from_js(options[0], defs, name, at, seen)
            if len(options) == 1 and len(options) < len(listed):
                return OptionalT(_from_js(options[0], defs, name, at, seen))
            raise SchemaError(f"{at}: unions are only supported as Optional (T or null)")
    kind = node.get("type")
    if isinstance(kind, list):
        real = [k for k in kind if k != "null"]
        if not all(isinstance(k, str) for k in kind):
            raise SchemaError(f"{at}: a type list holds type names only")
        if len(real) == 1 and len(real) < len(kind):
            return OptionalT(_from_js({**node, "type": real[0]}, defs, name, at, seen))
        raise SchemaError(f"{at}: type lists are only supported as [T, null]")
    if kind is not None and not isinstance(kind, str):
        raise SchemaError(f"{at}: type must be a name, got {_json_kind(kind)}")
    if kind in _JS_PRIMS:
        return Prim(_JS_PRIMS[kind])
    if kind == "array":
        if "prefixItems" in node:
            return TupleT(
                tuple(
                    _from_js(i, defs, name, f"{at}[{n}]", seen)
                    for n, i in enumerate(_sequence(node["prefixItems"], at))
                )
            )
        return ListT(_from_js(node.get("items", {}), defs, name, f"{at}[*]", seen))
    if kind == "object" or "properties" in node:
        props = node.get("properties")
        if props is not None:
            props = _mapping(props, f"{at}.properties")
        if props:
            title = str(node.get("title") or name).replace(" ", "")
            fields = tuple(
                Field(
                    key,
                    _from_js(value, defs, key.title().replace("_", ""), f"{at}.{key}", seen),
                    str(_mapping(value, f"{at}.{key}").get("description", "")),
                )
                for key, value in props.items()
            )
            return ClassT(title, fields, str(node.get("description", "")))
        extra = node.get("additionalProperties")
        if isinstance(extra, Mapping):
            return DictT(_from_js(extra, defs, name, f"{at}.*", seen))
        raise SchemaError(f"{at}: an object needs properties or typed additionalProperties")
    raise SchemaError(f"{at}: unsupported JSON Schema node {dict(node)!r:.80}")
