"""Asking a made-up database a question through the same path as a run (``answer``): the
answer's values as they are said, or its "not in the table"."""

from __future__ import annotations

from prism_edge.methods.tables.answer import answer, said
from prism_edge.methods.tables.db import Database


def ask(db: Database, question: str) -> list[str]:
    result, _ = answer(db, question)
    return [said(v) for v in result.values] if result.best else [result.not_in_table]
