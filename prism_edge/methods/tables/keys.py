"""Keys a database shares without declaring them: two tables that hold the same id columns
(``teamID`` and ``yearID`` in both ``Managers`` and ``Teams``) join on all of them together,
as a key of several columns (a team's season), where no link already joins the two.

A declared foreign key names one column; a team's season is a team and a year. Joining on
``teamID`` alone would pair each manager with every season of the team.
"""

from __future__ import annotations

import itertools
import weakref

from prism_edge.methods.tables import naming
from prism_edge.methods.tables.db import Database, Link, Sheet, links
from prism_edge.methods.tables.words import column_words

ID_WORDS = frozenset({"id", "code", "key"})


def _ids(sheet: Sheet) -> dict[str, str]:
    """The table's id columns (their names say id, code or key) by their folded names."""
    out = {}
    for column in sheet.columns:
        said = column_words(column.name)
        if len(said) > 1 and said[-1] in ID_WORDS:
            out[column.name.casefold()] = column.name
    return out


SAMPLE = 100
"""Rows of the left table a shared key is tried on."""
_FOUND: weakref.WeakKeyDictionary[Database, list[Link]] = weakref.WeakKeyDictionary()


def shared_keys(db: Database) -> list[Link]:
    """A link for each pair of tables no link joins that share two id columns or more (by
    name), on all of them, where they are a key of one table (no two of its rows share them:
    a team's season in ``Teams``) and most of the other's rows find theirs (tried on its
    first :data:`SAMPLE` rows); the key's table on the right. Found once per database."""
    known = _FOUND.get(db)
    if known is None:
        known = _FOUND[db] = _shared_keys(db)
    return known


def _shared_keys(db: Database) -> list[Link]:
    joined = {frozenset((k.left, k.right)) for k in links(db)}
    found = []
    for a, b in itertools.combinations(db.sheets.values(), 2):
        if frozenset((a.name, b.name)) in joined:
            continue
        shared = sorted(set(_ids(a)) & set(_ids(b)))
        if len(shared) < 2:
            continue
        for left, right in ((a, b), (b, a)):
            mine, theirs = _ids(left), _ids(right)
            (first, second), *more = [(mine[k], theirs[k]) for k in shared]
            link = Link(left.name, first, right.name, second, tuple(more))
            if _unique(db, right, [theirs[k] for k in shared]) and _matches(db, left, right, link):
                found.append(link)
                break
    return found


def _unique(db: Database, sheet: Sheet, names: list[str]) -> bool:
    """Whether no two rows of the table share the values of these columns (a key)."""
    cols = ", ".join(c.text for c in sheet.columns if c.name in names)
    (distinct,) = db.db.execute(f"SELECT COUNT(*) FROM (SELECT DISTINCT {cols} FROM "
                                f"{sheet.sql})").fetchone()  # fmt: skip
    return bool(sheet.rows) and distinct == sheet.rows


def _matches(db: Database, left: Sheet, right: Sheet, link: Link) -> bool:
    """Whether most of the left table's rows find a row of the right one on every column of
    the link."""
    pairs = [(link.left_column, link.right_column), *link.more]
    cols = {c.name: c.text for c in left.columns}
    theirs = {c.name: c.text for c in right.columns}
    on = " AND ".join(f"a.{cols[x]} = b.{theirs[y]}" for x, y in pairs)
    (total, found) = db.db.execute(
        f"SELECT COUNT(*), SUM(EXISTS (SELECT 1 FROM {right.sql} AS b WHERE {on})) "
        f"FROM (SELECT * FROM {left.sql} ORDER BY _row LIMIT {SAMPLE}) AS a"
    ).fetchone()
    return bool(total) and (found or 0) * 2 >= total


CODE_SHARE = 0.9
"""Of a column's different values, the share a table's codes must hold for the column to
hold that table's codes."""
_CODES: weakref.WeakKeyDictionary[Database, list[Link]] = weakref.WeakKeyDictionary()


def code_links(db: Database) -> list[Link]:
    """Links by the values columns hold, undeclared and under other names: a column whose
    different values are nearly all (:data:`CODE_SHARE`) codes of a table with names
    (``flights.origin`` and ``dest`` hold ``airports.faa``, beside ``airports.name``), where no
    link already joins the two tables; so a name said of the codes' table ("Kennedy
    International") selects the other's rows. Found once per database."""
    known = _CODES.get(db)
    if known is None:
        known = _CODES[db] = _code_links(db)
    return known


def _code_links(db: Database) -> list[Link]:
    joined = {frozenset((k.left, k.right)) for k in links(db) + shared_keys(db)}
    coded: list[tuple[Sheet, str, set[str]]] = []
    for sheet in db.sheets.values():
        if not naming.labels(sheet):
            continue
        for column in sheet.columns:
            values = sheet.values.get(column.index)
            if values and column.distinct == column.present and naming.is_code(sheet, column):
                coded.append((sheet, column.name, set(values)))
    found = []
    for right, key, codes in coded:
        for left in db.sheets.values():
            if left is right or frozenset((left.name, right.name)) in joined:
                continue
            for column in left.columns:
                values = left.values.get(column.index)
                if column.kind != "text" or not values or len(values) < 2:
                    continue
                if sum(v in codes for v in values) >= CODE_SHARE * len(values):
                    found.append(Link(left.name, column.name, right.name, key))
    return found
