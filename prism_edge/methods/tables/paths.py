"""Join paths of two links: three tables, one between ("which team did Mookie Betts play for in
2019?": ``People`` -> ``Batting`` by ``playerID``, ``Batting`` -> ``Teams`` by the team's season),
where the two tables a question names hold no link of their own.

Bounded: a path is made only between two tables the question touches that no single link
joins, through a table that links to both; at most :data:`MAX_PATHS` per question, those whose
ends say most of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from prism_edge.methods.tables.db import Column, Database, Link, Sheet, quote, unique

MAX_PATHS = 3
"""Paths of two links joined for one question at most."""


def _pairs(link: Link) -> list[tuple[str, str]]:
    return [(link.left_column, link.right_column), *link.more]


def _side(link: Link, table: str) -> list[str]:
    """The columns of ``table`` that ``link`` joins on."""
    pairs = _pairs(link)
    return [a for a, _ in pairs] if link.left == table else [b for _, b in pairs]


def _other(link: Link, table: str) -> str:
    return link.right if link.left == table else link.left


def paths(
    every: Sequence[Link], cells: Mapping[str, set[int]], by_name: set[str]
) -> list[tuple[Link, Link, str]]:
    """The two-link paths (first link, second link, the table between) that hold more of
    what the question names than any table or linked pair: every table it names by name
    (``by_name``) and more of the words of cells it names whole (``cells``, by table), two
    tables at its ends that no link joins, each naming such words the other does not; the
    most first, at most :data:`MAX_PATHS`."""

    def held(tables: set[str]) -> tuple[bool, int]:
        return by_name <= tables, len(set().union(*(cells.get(t, set()) for t in tables)))

    direct = {frozenset((k.left, k.right)) for k in every}
    best = max([held({t}) for t in cells] + [held({k.left, k.right}) for k in every],
               default=(False, 0))  # fmt: skip
    found = []
    for i, first in enumerate(every):
        for second in every[i + 1 :]:
            middle = {first.left, first.right} & {second.left, second.right}
            if len(middle) != 1:
                continue
            (mid,) = middle
            a, b = _other(first, mid), _other(second, mid)
            if a == b or frozenset((a, b)) in direct:
                continue
            if not (cells.get(a, set()) - cells.get(b, set())) and a not in by_name:
                continue  # an end that names nothing the other does not
            if not (cells.get(b, set()) - cells.get(a, set())) and b not in by_name:
                continue
            size = held({a, mid, b})
            if size > best:
                found.append((size, first, second, mid))
    found.sort(key=lambda f: (not f[0][0], -f[0][1]))
    return [(f, s, m) for _, f, s, m in found[:MAX_PATHS]]


def chain(db: Database, first: Link, second: Link, middle: str) -> Sheet:
    """The three tables of a path joined into a new table (its columns named ``<table>
    <column>``, its order the middle table's), typed as any other."""
    a_name, b_name = _other(first, middle), _other(second, middle)
    name = f"{a_name} and {middle} and {b_name}"
    made = db.joined.get(name)
    if made is not None:
        return made
    mid, a, b = db.sheets[middle], db.sheets[a_name], db.sheets[b_name]

    def col(sheet: Sheet, column: str) -> Column:
        return next(c for c in sheet.columns if c.name == column)

    on_a = list(zip(_side(first, middle), _side(first, a_name), strict=True))
    on_b = list(zip(_side(second, middle), _side(second, b_name), strict=True))
    matched = {(a_name, y) for _, y in on_a} | {(b_name, y) for _, y in on_b}
    parts = [("m", mid, c) for c in mid.columns] + [
        (alias, s, c)
        for alias, s in (("a", a), ("b", b))
        for c in s.columns
        if (s.name, c.name) not in matched
    ]
    names = unique([f"{s.name} {c.name}" for _, s, c in parts])
    sql = f"j{len(db.sheets) + len(db.joined)}"
    select = ", ".join(f"{alias}.{c.text} AS c{i}" for i, (alias, _, c) in enumerate(parts))
    join_a = " AND ".join(f"m.{col(mid, x).text} = a.{col(a, y).text}" for x, y in on_a)
    join_b = " AND ".join(f"m.{col(mid, x).text} = b.{col(b, y).text}" for x, y in on_b)
    db.db.execute(
        f"CREATE TABLE {sql} AS SELECT ROW_NUMBER() OVER (ORDER BY m._row) - 1 AS _row, "
        f"{select} FROM {mid.sql} AS m JOIN {a.sql} AS a ON {join_a} JOIN {b.sql} AS b ON "
        f"{join_b}"
    )
    (rows,) = db.db.execute(f"SELECT COUNT(*) FROM {sql}").fetchone()
    shown = ", ".join(
        f"{alias}.{quote(c.name)} AS {quote(n)}"
        for (alias, _, c), n in zip(parts, names, strict=True)
    )
    shown_a = " AND ".join(f"m.{quote(x)} = a.{quote(y)}" for x, y in on_a)
    shown_b = " AND ".join(f"m.{quote(x)} = b.{quote(y)}" for x, y in on_b)
    sheet = Sheet(
        name, sql, [Column(n, i) for i, n in enumerate(names)], rows,
        parts=(middle, a_name, b_name),
        joins={col(mid, x).index: end for end, on in ((a_name, on_a), (b_name, on_b))
               for x, _ in on},
        shown_as=f"(SELECT ROW_NUMBER() OVER (ORDER BY m.rowid) - 1 AS rowid, {shown} FROM "
        f"{quote(middle)} AS m JOIN {quote(a_name)} AS a ON {shown_a} JOIN {quote(b_name)} "
        f"AS b ON {shown_b})",
    )  # fmt: skip
    db.joined[sheet.name] = sheet
    return sheet
