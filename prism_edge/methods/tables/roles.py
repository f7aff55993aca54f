"""Which way a row goes: a table whose columns hold where it comes from and where it goes
(``origin`` and ``dest``, ``source`` and ``target``, ``from`` and ``to``; or another table
joined once by each: ``airports origin name``, ``airports dest name``), and the words of a
question that say which of the two a name is ("from Newark", "out of JFK", "to Denver").

A name the question says after "from" is never the destination's, one said after "to"
never the origin's; a name said with neither may be either. "Where did ... go?" asks a
destination, "where did ... come from?" an origin.
"""

from __future__ import annotations

from collections.abc import Sequence

from prism_edge.methods.tables import naming
from prism_edge.methods.tables.db import Column, Sheet

FROM = "from"
TO = "to"
COLUMN_ROLES = {
    **dict.fromkeys(("origin", "orig", "source", "src", "from", "departure", "sender"), FROM),
    **dict.fromkeys(("dest", "destination", "to", "target", "arrival", "recipient"), TO),
}
"""Words of a column's name that say a row's origin or its destination."""
SAID_ROLES: dict[tuple[str, ...], str] = {
    ("from",): FROM, ("out", "of"): FROM, ("leaving",): FROM, ("departing",): FROM,
    ("left",): FROM, ("to",): TO, ("into",): TO, ("towards",): TO, ("toward",): TO,
    ("arriving", "at"): TO, ("arriving", "in"): TO, ("bound", "for"): TO,
}  # fmt: skip
"""The words before a name that say it is where rows come from or where they go."""
SKIPPED = frozenset({"the", "a", "an"})
GOING = frozenset({"go", "goes", "went", "gone", "going", "head", "headed", "heading", "bound"})
COMING = frozenset({"come", "comes", "came", "coming", "leave", "leaves", "left", "depart",
                    "departed"})  # fmt: skip
"""Verbs that, asked with "where", ask where rows went or where they came from."""


def column_role(sheet: Sheet, column: Column) -> str:
    """The role a column's values have in its rows: :data:`FROM`, :data:`TO` or "" (a copy
    of a table joined by a column of roles has that column's role)."""
    through = sheet.via.get(column.index)
    named = sheet.columns[through] if through is not None else column
    said = {COLUMN_ROLES.get(w, "") for w in naming.words(sheet, named)} - {""}
    return said.pop() if len(said) == 1 else ""


def said_role(words: Sequence[str], start: int) -> str:
    """The role the words just before ``start`` give the name there ("from", "out of":
    :data:`FROM`; "to": :data:`TO`), articles aside; else ""."""
    end = start
    while end > 0 and words[end - 1] in SKIPPED:
        end -= 1
    for size in (2, 1):
        before = tuple(words[max(0, end - size) : end])
        if len(before) == size and before in SAID_ROLES:
            return SAID_ROLES[before]
    return ""


def directed(sheet: Sheet) -> bool:
    """Whether the table has columns of both roles (an origin and a destination)."""
    found = {column_role(sheet, c) for c in sheet.columns}
    return {FROM, TO} <= found


def asked_role(words: Sequence[str]) -> str:
    """The role a question asks the place of: "where did ... go?" :data:`TO`, "where did ...
    come from?" :data:`FROM`; else ""."""
    if "where" not in words:
        return ""
    going, coming = bool(GOING & set(words)), bool(COMING & set(words))
    if going == coming:
        return ""
    return TO if going else FROM
