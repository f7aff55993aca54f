"""Asking a made-up database a question through the same path as a run (``answer``): the
answer's values as they are said, or its "not in the table"."""

from __future__ import annotations

import pytest

from prism_edge.methods.tables.answer import answer, said
from prism_edge.methods.tables.db import Database


def ask(db: Database, question: str) -> list[str]:
    result, _ = answer(db, question)
    return [said(v) for v in result.values] if result.best else [result.not_in_table]


def asked_tables(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the tables, joined or not, a question is asked of from now on (every
    call of ``answer._asked``), filled as questions are asked."""
    from prism_edge.methods.tables import answer as module

    asked: list[str] = []
    real = module._asked

    def recorded(*args):  # type: ignore[no-untyped-def]
        found = real(*args)
        asked.extend(s.name for s in found)
        return found

    monkeypatch.setattr(module, "_asked", recorded)
    return asked
