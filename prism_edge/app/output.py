"""What a command prints on stdout: its answers as text, as one JSON document (``--json``) or
as JSON lines (``--jsonl``: one object a line, each with its question, as each answer comes).

Every command that prints a result takes the same two options and prints through
:class:`Output`, so a script reads every command the same way; the plan, progress and notes
stay on stderr.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from prism_edge.app.common import echo

JsonOption = Annotated[
    bool,
    typer.Option(
        "--json",
        help="Print the result as one JSON document (several answers: one array).",
    ),
]
JsonlOption = Annotated[
    bool,
    typer.Option(
        "--jsonl",
        help="Print JSON lines: one object a line (each answer with its question), as each comes.",
    ),
]


class Output:
    """Where a command's results go: text (each one's own words), one JSON document, or one
    JSON object a line. A command with one result prints it with :meth:`one`; a command with
    several (``--queries``, ``--parallel``, a listing) prints each with :meth:`add` and ends
    with :meth:`close`, which prints ``--json``'s array."""

    def __init__(self, as_json: bool = False, as_jsonl: bool = False) -> None:
        if as_json and as_jsonl:
            raise ValueError("use either --json or --jsonl, not both")
        self.as_json = as_json
        self.as_jsonl = as_jsonl
        self._held: list[dict[str, Any]] | None = None
        """``--json``'s results so far, once :meth:`add` (or :meth:`several`) began a list."""

    @property
    def text(self) -> bool:
        """Whether the results print as text (so notes beside them go to stderr)."""
        return not (self.as_json or self.as_jsonl)

    def one(self, payload: dict[str, Any], text: str | None) -> None:
        """The command's one result: ``payload`` as JSON, else ``text`` (None: nothing)."""
        if self.as_json:
            echo(dumps(payload, indent=2))
        elif self.as_jsonl:
            echo(dumps(payload))
        elif text is not None:
            echo(text)

    def several(self) -> None:
        """Results to come are several (a listing): ``--json`` prints an array even of none."""
        if self._held is None:
            self._held = []

    def add(self, payload: dict[str, Any], text: str | None) -> None:
        """One of several results: a JSON line now, text now, or held for ``--json``."""
        self.several()
        if self.as_json:
            assert self._held is not None
            self._held.append(payload)
        else:
            self.one(payload, text)

    def close(self) -> None:
        """After the last of several results: ``--json``'s array of them."""
        if self.as_json and self._held is not None:
            echo(dumps(self._held, indent=2))
        self._held = None


def dumps(value: Any, indent: int | None = None) -> str:
    """JSON as the commands print it: UTF-8 text as it is."""
    return json.dumps(value, ensure_ascii=False, indent=indent)
