"""Revisions (path, op, value): the paper's wire format, validation and atomic application.

Wire format (appendix E)::

    [OBJECTS FOR UPDATE]
    {"$.'attributes'.'Room Quality'": {"update": ["Spacious rooms", "beds were cozy"]}}
    [OBJECTS FOR ADD]
    {"$.'attributes'.'Noise Level'": {"add": ["Notable street noise at night"]}}

Each line is a JSON object whose keys are JSONPaths (parsed with jsonpath-ng, so quoted names
may hold dots, spaces, escaped quotes and any Unicode) and whose values are ``{"add": v}`` or
``{"update": v}``. The inner key decides the operation, whatever section the line stands in.
Python literals the paper's own examples use (tuples, ``None``, single quotes) are accepted.

Application is **per revision**: the revisions of a step are applied in order, each one
atomically -- validated in full against the schema and the memory as it stands after the
revisions before it, then applied, or rejected with a :class:`RevisionError` that names the
path and the reason, leaving the memory untouched. One bad revision never discards the good
ones around it; every outcome is counted.

Rules:

* ``add`` needs a path that does not exist yet, whose parent exists. On an existing *list*,
  ``add`` appends one item (``$.'events'`` or ``$.'events'[n]`` with n = its length), unless
  an equal item is already there.
* ``update`` needs an existing path; it replaces the value there. An update that changes
  nothing is rejected ("no change"), so loops cannot grow the memory.
* A value holding a list that repeats an item (``["more", "more"]``, a looping model) is
  rejected as a duplicate.
* Values must fit the schema type at the path (strict: no "1" -> 1 coercion; an int is a
  valid float; ``"???"``/``null`` stand for missing fields when the schema allows missing).
* add-only mode (the paper's "w/o updates" ablation) rejects every ``update``.
"""

from __future__ import annotations

import ast
import copy
import functools
import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from jsonpath_ng.jsonpath import Child, Fields, Index, Root
from jsonpath_ng.parser import parse as jsonpath_parse

from prism_edge.core.errors import RevisionError
from prism_edge.core.schema import (
    MISSING,
    ListT,
    PathError,
    Schema,
    Segment,
    TypeNode,
    ValidationError,
    format_path,
    unwrap,
)

Op = Literal["add", "update"]
UPDATE_HEADER = "[OBJECTS FOR UPDATE]"
ADD_HEADER = "[OBJECTS FOR ADD]"


@dataclass(frozen=True)
class Revision:
    path: str
    """The path as written by the model."""
    segments: tuple[Segment, ...]
    op: Op
    value: Any
    line: int = 0
    """1-based line of the model output it came from (0 when built in code)."""

    @property
    def canonical_path(self) -> str:
        return format_path(self.segments)

    def to_wire(self) -> str:
        """One line of the wire format, with the canonical path."""
        return json.dumps({self.canonical_path: {self.op: self.value}}, ensure_ascii=False)


@dataclass
class ParseResult:
    revisions: list[Revision] = field(default_factory=list)
    rejected: list[RevisionError] = field(default_factory=list)


MAX_DEPTH = 32
"""Containers nested in one value at most."""
MAX_NODES = 20_000
"""Values (containers and scalars) in one revision value at most."""
MAX_LINE_CHARS = 200_000
"""Characters of one output line at most; a longer line is rejected unparsed."""
MAX_INT_BITS = 63
"""Integers must fit a signed 64-bit integer (what every JSON consumer reads)."""


def contain(value: Any) -> str | None:
    """Why a value from a model cannot enter the memory, or None when it can.

    The containment boundary: JSON values only (str, int, float, bool, null, lists, objects
    with string keys), nested at most :data:`MAX_DEPTH` deep, at most :data:`MAX_NODES` values,
    finite numbers, 64-bit integers. Checked without recursion, so no input can exhaust the
    stack.
    """
    stack: list[tuple[Any, int]] = [(value, 0)]
    nodes = 0
    while stack:
        item, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            return f"the value holds more than {MAX_NODES} parts"
        if isinstance(item, bool) or item is None or isinstance(item, str):
            continue
        if isinstance(item, int):
            if item.bit_length() > MAX_INT_BITS:
                return "an integer out of the 64-bit range"
            continue
        if isinstance(item, float):
            if not math.isfinite(item):
                return "a number that is not finite (NaN or infinity)"
            continue
        if isinstance(item, list | tuple | dict):
            if depth >= MAX_DEPTH:
                return f"nested deeper than {MAX_DEPTH} levels"
            if isinstance(item, dict):
                if not all(isinstance(k, str) for k in item):
                    return "an object key that is not a string"
                stack.extend((v, depth + 1) for v in item.values())
            else:
                stack.extend((v, depth + 1) for v in item)
            continue
        return f"not a JSON value ({type(item).__name__})"
    return None


def _nesting(line: str) -> int:
    """The deepest bracket nesting of a line, strings (double-quoted) skipped."""
    depth = deepest = 0
    inside = escaped = False
    for char in line:
        if inside:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                inside = False
        elif char == '"':
            inside = True
        elif char in "[{(":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]})":
            depth -= 1
    return deepest


_STAR = "\u2063prism-star\u2063"
_QUOTED_STAR = re.compile(r"""(?<=[.\[])(?:'\*'|"\*")(?=[.\[\]]|$)""")


@functools.lru_cache(maxsize=4096)
def parse_path(text: str) -> tuple[Segment, ...]:
    """``$.'a'.'b c'[2]`` -> ``("a", "b c", 2)``; :class:`ValueError` when it is not one.

    Remembered for the last few thousand paths: jsonpath-ng builds its parser's tables anew
    for every path it reads (about 1 ms each), and a run's revisions name the same paths
    again and again."""
    text = text.strip()
    if not text.startswith("$"):
        raise ValueError("a path must start with '$'")
    # jsonpath-ng reads a quoted '*' as the wildcard; here it is a key named "*"
    text = _QUOTED_STAR.sub(f"'{_STAR}'", text)
    try:
        expr = jsonpath_parse(text)
    except Exception as exc:  # jsonpath-ng raises bare Exception subclasses of its own
        raise ValueError(f"not a JSONPath ({exc})") from None
    segments: list[Segment] = []

    def walk(node: Any) -> None:
        if isinstance(node, Root):
            return
        if isinstance(node, Child):
            walk(node.left)
            walk(node.right)
            return
        if isinstance(node, Fields) and len(node.fields) == 1 and node.fields[0] != "*":
            name = str(node.fields[0])
            segments.append("*" if name == _STAR else name)
            return
        if isinstance(node, Index) and len(node.indices) == 1 and node.indices[0] >= 0:
            segments.append(int(node.indices[0]))
            return
        raise ValueError(f"only plain names and indices may appear in a path, not {node}")

    walk(expr)
    if not segments:
        raise ValueError("the root '$' itself cannot be revised; name a field")
    return tuple(segments)


def output_lines(text: str) -> list[str]:
    """The lines of an output: split at newlines only. A JSON string may hold U+2028, U+0085
    or a form feed raw, where ``str.splitlines`` would cut the line in two."""
    return re.split(r"\r?\n", text.removesuffix("\n")) if text else []


def parse_output(text: str) -> ParseResult:
    """Parse a model's output in the wire format. Never raises: bad lines become rejections."""
    result = ParseResult()
    for number, raw in enumerate(output_lines(text), start=1):
        line = raw.strip()
        if not line or line.startswith("```") or line in ("{}", "[]", "None", "none"):
            continue
        if line.upper().startswith("[OBJECTS FOR"):
            continue
        if len(line) > MAX_LINE_CHARS:
            result.rejected.append(
                RevisionError(f"line {number}", "?", f"longer than {MAX_LINE_CHARS} characters")
            )
            continue
        if _nesting(line) > MAX_DEPTH + 2:  # the wire format wraps a value in two objects
            result.rejected.append(
                RevisionError(f"line {number}", "?", f"nested deeper than {MAX_DEPTH} levels")
            )
            continue
        obj = _load_line(line)
        if not isinstance(obj, dict):
            result.rejected.append(
                RevisionError(f"line {number}", "?", "malformed JSON: not an object")
            )
            continue
        for path, body in obj.items():
            result_item = _revision(str(path), body, number)
            if isinstance(result_item, RevisionError):
                result.rejected.append(result_item)
            else:
                result.revisions.append(result_item)
    return result


_TRAILING_COMMA = re.compile(r",\s*([}\]])")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _load_line(line: str) -> Any:
    """The line as a value, or None. Never raises (the nesting was bounded before)."""
    line = line.rstrip(",")
    for text in (line, _TRAILING_COMMA.sub(r"\1", line)):
        try:
            return json.loads(text, parse_constant=_no_constant)
        except (ValueError, RecursionError):  # also integers past Python's digit limit
            pass
    try:  # the paper's own examples use Python literals: tuples, None, single quotes
        return _tuples_to_lists(ast.literal_eval(line))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def _tuples_to_lists(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_tuples_to_lists(v) for v in value]
    if isinstance(value, dict):
        return {k: _tuples_to_lists(v) for k, v in value.items()}
    return value


def _revision(path: str, body: Any, line: int) -> Revision | RevisionError:
    if not isinstance(body, dict) or len(body) != 1 or next(iter(body)) not in ("add", "update"):
        return RevisionError(
            path, "?", 'malformed revision: expected {"add": value} or {"update": value}'
        )
    op: Op = "add" if "add" in body else "update"
    try:
        segments = parse_path(path)
    except ValueError as exc:
        return RevisionError(path, op, f"bad path: {exc}")
    except RecursionError:
        return RevisionError(path[:200], op, "bad path: nested too deep")
    refused = contain(body[op])
    if refused is not None:
        return RevisionError(path, op, f"value refused: {refused}")
    return Revision(path, segments, op, body[op], line)


# --------------------------------------------------------------------------------------------
# Validation and application on a plain JSON-like dict
# --------------------------------------------------------------------------------------------


def check(
    schema: Schema, data: dict[str, Any], rev: Revision, *, add_only: bool = False
) -> TypeNode:
    """Raise :class:`RevisionError` unless ``rev`` applies to ``data``; return the value type."""
    if add_only and rev.op == "update":
        raise RevisionError(rev.path, rev.op, "updates are disabled (add-only mode)")
    refused = contain(rev.value)
    if refused is not None:
        raise RevisionError(rev.path, rev.op, f"value refused: {refused}")
    try:
        node = schema.resolve(rev.segments)
    except PathError as exc:
        raise RevisionError(rev.path, rev.op, f"path outside the schema: {exc}") from None
    parent, last = _locate_parent(data, rev)
    if _repeats_an_item(rev.value):
        raise RevisionError(rev.path, rev.op, "a list in the value repeats an item", "duplicate")
    exists = _has(parent, last)
    list_node = unwrap(node)
    if (
        rev.op == "add"
        and exists
        and isinstance(parent[last], list)
        and isinstance(list_node, ListT)
    ):
        if not schema.is_valid(rev.value, list_node.item) and schema.is_valid(rev.value, node):
            # a whole list for a key that has one: the same list again, or a disguised update
            kind = "duplicate" if parent[last] == rev.value else "invalid"
            raise RevisionError(
                rev.path, rev.op, "path already exists; use update to change it", kind
            )
        _validate(schema, rev, list_node.item, (*rev.segments, len(parent[last])))
        if rev.value in parent[last]:
            raise RevisionError(
                rev.path, rev.op, "no change: the item is already in the list", "duplicate"
            )
        return list_node.item
    if rev.op == "add" and exists:
        kind = "duplicate" if parent[last] == rev.value else "invalid"
        raise RevisionError(rev.path, rev.op, "path already exists; use update to change it", kind)
    if rev.op == "add" and isinstance(parent, list) and last != len(parent):
        raise RevisionError(
            rev.path, rev.op, f"a list item is added at index {len(parent)} (the end of the list)"
        )
    if rev.op == "update" and not exists:
        raise RevisionError(rev.path, rev.op, "path does not exist; use add to create it")
    _validate(schema, rev, node, rev.segments)
    if rev.op == "update" and parent[last] == rev.value:
        raise RevisionError(rev.path, rev.op, "no change: the value is already stored", "duplicate")
    return node


def apply(
    schema: Schema, data: dict[str, Any], rev: Revision, *, add_only: bool = False
) -> Revision:
    """Apply ``rev`` to ``data`` in place, atomically; return the revision as applied.

    The returned revision has canonical segments: an append to a list through ``$.'xs'`` comes
    back as ``$.'xs'[n]``, so replaying it (amendments) is unambiguous. Whatever goes wrong is
    a :class:`RevisionError`, and ``data`` is then unchanged: every check runs before the one
    mutation.
    """
    try:
        return _apply(schema, data, rev, add_only=add_only)
    except RevisionError:
        raise
    except (TypeError, ValueError, KeyError, IndexError, RecursionError) as exc:
        # a shape the checks did not foresee: refused like any invalid revision
        raise RevisionError(rev.path, rev.op, f"cannot be applied ({exc!r:.120})") from None


def _apply(schema: Schema, data: dict[str, Any], rev: Revision, *, add_only: bool) -> Revision:
    check(schema, data, rev, add_only=add_only)
    parent, last = _locate_parent(data, rev)
    value = copy.deepcopy(rev.value)
    if rev.op == "add" and _has(parent, last) and isinstance(parent[last], list):
        target = parent[last]
        applied = Revision(rev.path, (*rev.segments, len(target)), "add", value, rev.line)
        target.append(value)
        return applied
    if rev.op == "add" and isinstance(parent, list):
        parent.append(value)
    else:
        parent[last] = value
    return Revision(rev.path, rev.segments, rev.op, value, rev.line)


def _validate(schema: Schema, rev: Revision, node: TypeNode, segments: tuple[Segment, ...]) -> None:
    try:
        schema.validate(rev.value, node, at=format_path(segments))
    except ValidationError as exc:
        raise RevisionError(rev.path, rev.op, f"value does not fit the schema: {exc}") from None


def _repeats_an_item(value: Any) -> bool:
    """Whether a list anywhere in ``value`` holds two equal items."""
    if isinstance(value, dict):
        return any(_repeats_an_item(v) for v in value.values())
    if isinstance(value, list | tuple):
        seen = [json.dumps(v, sort_keys=True, default=str) for v in value]
        return len(set(seen)) < len(seen) or any(_repeats_an_item(v) for v in value)
    return False


def _locate_parent(data: dict[str, Any], rev: Revision) -> tuple[Any, Segment]:
    current: Any = data
    for depth, seg in enumerate(rev.segments[:-1]):
        if not _has(current, seg):
            missing = format_path(rev.segments[: depth + 1])
            raise RevisionError(rev.path, rev.op, f"parent {missing} does not exist")
        current = current[seg]
    last = rev.segments[-1]
    if current is None:
        raise RevisionError(rev.path, rev.op, "parent is null; update the parent instead")
    if isinstance(current, dict) and not isinstance(last, str):
        raise RevisionError(rev.path, rev.op, f"an object is keyed by names, not [{last}]")
    if isinstance(current, list) and not isinstance(last, int):
        raise RevisionError(rev.path, rev.op, f"a list is indexed by [n], not {last!r}")
    if not isinstance(current, dict | list):
        held = "a placeholder" if current == MISSING else f"a {type(current).__name__}"
        raise RevisionError(
            rev.path, rev.op, f"the parent holds {held}, not an object or list; update it instead"
        )
    return current, last


def _has(container: Any, key: Segment) -> bool:
    if isinstance(container, dict):
        return isinstance(key, str) and key in container
    if isinstance(container, list):
        return isinstance(key, int) and 0 <= key < len(container)
    return False


@dataclass
class ApplyReport:
    """What became of one step's revisions."""

    applied: list[Revision] = field(default_factory=list)
    rejected: list[RevisionError] = field(default_factory=list)


def apply_all(
    schema: Schema, data: dict[str, Any], revisions: Iterable[Revision], *, add_only: bool = False
) -> ApplyReport:
    """Apply revisions one by one (each atomic), collecting what applied and what not."""
    report = ApplyReport()
    for rev in revisions:
        try:
            report.applied.append(apply(schema, data, rev, add_only=add_only))
        except RevisionError as exc:
            report.rejected.append(exc)
    return report
