"""The structured memory and its two encodings (paper section 3.3, appendix D).

* ``in-place``: one JSON object, updated where the revision points. Keys keep insertion order,
  so content before the first change keeps its exact text and its cached KV activations.
* ``amendments``: the *base* object followed by the applied revisions as amendment records,
  one per line, in the wire format. A later record for a path overrides earlier ones. The
  rendering only ever grows at its end: the text at step i is a prefix of the text at i+1.
  :meth:`Memory.fold` re-encodes (base := resolved memory, no records) when room is needed.

Both encodings hold the same logical memory (:attr:`Memory.data`); the encoding only decides
what the model reads. The rendering is returned as *parts* (base, header, one part per record)
so a backend can tokenize each part on its own and a grown memory shares its token prefix
exactly with the previous one.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from typing import Any, Literal

from prism_edge.core.errors import RevisionError
from prism_edge.core.revisions import ApplyReport, Op, Revision, apply, parse_path
from prism_edge.core.schema import Schema

Encoding = Literal["in-place", "amendments"]
ENCODINGS: tuple[Encoding, ...] = ("in-place", "amendments")
AMENDMENTS_HEADER = (
    "\n[AMENDMENTS] (applied in order to the object above; a later line for a path "
    "overrides earlier ones)"
)


def dumps(value: Any) -> str:
    """The one JSON rendering used everywhere: deterministic, readable, Unicode kept."""
    return json.dumps(value, ensure_ascii=False, indent=2)


class Memory:
    """A memory that always validates against its schema."""

    def __init__(
        self, schema: Schema, encoding: Encoding = "amendments", data: dict[str, Any] | None = None
    ) -> None:
        if encoding not in ENCODINGS:
            raise ValueError(f"unknown memory encoding {encoding!r}; use in-place or amendments")
        self.schema = schema
        self.encoding: Encoding = encoding
        start = schema.empty_memory() if data is None else copy.deepcopy(data)
        schema.validate(start)
        self._data = start
        self._base = copy.deepcopy(start)
        self._base_text = dumps(self._base)
        self._records: list[str] = []
        self.folds = 0

    @property
    def data(self) -> dict[str, Any]:
        """The resolved logical memory (a copy: change it through revisions only)."""
        return copy.deepcopy(self._data)

    @property
    def amendments(self) -> list[str]:
        """The amendment records (wire-format lines) since the last fold."""
        return list(self._records)

    def revise(self, revisions: Iterable[Revision], *, add_only: bool = False) -> ApplyReport:
        """Apply revisions one by one, each atomically (see :mod:`prism_edge.core.revisions`)."""
        report = ApplyReport()
        for rev in revisions:
            try:
                applied = apply(self.schema, self._data, rev, add_only=add_only)
            except RevisionError as exc:
                report.rejected.append(exc)
                continue
            report.applied.append(applied)
            if self.encoding == "amendments":
                self._records.append(applied.to_wire())
        return report

    def fold(self) -> None:
        """Amendments mode: make the resolved memory the new base and drop the records."""
        self._base = copy.deepcopy(self._data)
        self._base_text = dumps(self._base)
        self._records = []
        self.folds += 1

    def render_parts(self) -> list[str]:
        """The rendering as parts whose concatenation is :meth:`render`."""
        if self.encoding == "in-place":
            return [dumps(self._data)]
        if not self._records:
            return [self._base_text]
        return [self._base_text, AMENDMENTS_HEADER, *("\n" + r for r in self._records)]

    def render(self) -> str:
        return "".join(self.render_parts())

    # --- persistence (checkpoints) ---------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Everything needed to restore this memory exactly, as JSON-able data."""
        base = self._data if self.encoding == "in-place" else self._base
        return {
            "encoding": self.encoding,
            "base": base,
            "records": self._records,
            "folds": self.folds,
        }

    @classmethod
    def from_state(cls, schema: Schema, state: dict[str, Any]) -> Memory:
        """The memory a :meth:`state` describes; :class:`ValueError` when it does not replay."""
        memory = cls(schema, state["encoding"], state["base"])
        memory.folds = int(state.get("folds", 0))
        for record in state["records"]:
            path, op, value = _record(record)
            report = memory.revise([Revision(path, parse_path(path), op, value)])
            if report.rejected:
                raise ValueError(f"an amendment does not apply: {report.rejected[0]}")
        if memory._records != state["records"]:
            raise ValueError("checkpoint amendments do not replay to the same memory")
        return memory


def _record(text: str) -> tuple[str, Op, Any]:
    """(path, op, value) of one amendment record; :class:`ValueError` when it is not one."""
    try:
        line = json.loads(text)
    except (ValueError, RecursionError):
        raise ValueError(f"an amendment record is not JSON: {text[:80]!r}") from None
    if isinstance(line, dict) and len(line) == 1:
        ((path, body),) = line.items()
        if isinstance(body, dict) and len(body) == 1:
            ((op, value),) = body.items()
            if op in ("add", "update"):
                return path, op, value
    raise ValueError(f"not an amendment record: {text[:80]!r}")
