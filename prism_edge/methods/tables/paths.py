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


def chain(
    db: Database, first: Link, second: Link, middle: str, every: Sequence[Link] = ()
) -> Sheet:
    """The three tables of a path joined into a new table (its columns named ``<table>
    <column>``, its order the middle table's), typed as any other; an end the middle table
    links to by several columns (of ``every``: a flight's origin and destination) joined
    once by each (:func:`joined`)."""
    a_name, b_name = _other(first, middle), _other(second, middle)
    ends = [[first, *siblings(every, first)], [second, *siblings(every, second)]]
    return joined(db, middle, ends, f"{a_name} and {middle} and {b_name}")


def siblings(every: Sequence[Link], link: Link) -> list[Link]:
    """The other links of ``every`` between the same two tables, the same way, by other
    columns (``flights.dest`` beside ``flights.origin``, both to ``airports``)."""
    return [k for k in every if (k.left, k.right) == (link.left, link.right)
            and k.left_column != link.left_column]  # fmt: skip


def twice(db: Database, links: Sequence[Link]) -> Sheet:
    """A table joined to another by each of several links (``flights`` to ``airports`` by
    ``origin`` and by ``dest``): the other's columns once for each, named by its role
    (``airports origin name``, ``airports dest name``)."""
    left, right = links[0].left, links[0].right
    return joined(db, left, [list(links)], f"{left} and {right}")


def role(middle: Sheet, link: Link, end: Sheet) -> str:
    """The role a link gives the rows of its end: the middle table's column, less the end's
    column's name where it holds it (``origin``; ``teamIDwinner`` to ``teamID``: winner)."""
    own, theirs = _side(link, middle.name)[0], _side(link, end.name)[0]
    at = own.casefold().find(theirs.casefold())
    said = own[:at] + own[at + len(theirs) :] if at >= 0 and len(own) > len(theirs) else own
    return said.strip(" _-") or own


def joined(db: Database, middle: str, ends: Sequence[Sequence[Link]], name: str) -> Sheet:
    """The middle table joined with each end (a list of the links from it to one table):
    an end of one link, its columns named ``<table> <column>``; an end of several, once by
    each link, its columns named ``<table> <role> <column>`` (:func:`role`). An end whose
    rows the middle's look up (the middle holds their codes: a flight's plane) is left
    joined: a row whose code has no row there is kept (a flight of a plane the planes do
    not list); an end that holds the middle's codes, by an inner join. The order is the
    middle table's; the columns an end was joined on are left out (the middle's hold their
    values)."""
    made = db.joined.get(name)
    if made is not None:
        return made
    mid = db.sheets[middle]

    def col(sheet: Sheet, column: str) -> Column:
        return next(c for c in sheet.columns if c.name == column)

    parts: list[tuple[str, Sheet, Column, str]] = [("m", mid, c, "") for c in mid.columns]
    joins, shown_joins, through = [], [], {}
    for g, group in enumerate(ends):
        for r, link in enumerate(group):
            end = db.sheets[_other(link, middle)]
            alias = f"e{g}_{r}"
            on = list(zip(_side(link, middle), _side(link, end.name), strict=True))
            said = role(mid, link, end) if len(group) > 1 else ""
            matched = {y for _, y in on}
            start = len(parts)
            parts += [(alias, end, c, said) for c in end.columns if c.name not in matched]
            through.update({i: col(mid, on[0][0]).index for i in range(start, len(parts))})
            kind = "LEFT JOIN" if said or link.left == middle else "JOIN"
            cond = " AND ".join(f"m.{col(mid, x).text} = {alias}.{col(end, y).text}" for x, y in on)
            shown = " AND ".join(f"m.{quote(x)} = {alias}.{quote(y)}" for x, y in on)
            joins.append(f" {kind} {end.sql} AS {alias} ON {cond}")
            shown_joins.append(f" {kind} {quote(end.name)} AS {alias} ON {shown}")
    names = unique([f"{s.name} {said + ' ' if said else ''}{c.name}" for _, s, c, said in parts])
    sql = f"j{len(db.sheets) + len(db.joined)}"
    select = ", ".join(f"{alias}.{c.text} AS c{i}" for i, (alias, _, c, _) in enumerate(parts))
    db.db.execute(
        f"CREATE TABLE {sql} AS SELECT ROW_NUMBER() OVER (ORDER BY m._row) - 1 AS _row, "
        f"{select} FROM {mid.sql} AS m{''.join(joins)}"
    )
    (rows,) = db.db.execute(f"SELECT COUNT(*) FROM {sql}").fetchone()
    shown = ", ".join(
        f"{alias}.{quote(c.name)} AS {quote(n)}"
        for (alias, _, c, _), n in zip(parts, names, strict=True)
    )
    tables = [middle] + [_other(group[0], middle) for group in ends]
    sheet = Sheet(
        name, sql, [Column(n, i) for i, n in enumerate(names)], rows,
        parts=tuple(dict.fromkeys(tables)),
        joins={col(mid, _side(k, middle)[0]).index: _other(k, middle) for group in ends
               for k in group},
        via={i: m for i, m in through.items() if parts[i][3]},
        shown_as=f"(SELECT ROW_NUMBER() OVER (ORDER BY m.rowid) - 1 AS rowid, {shown} FROM "
        f"{quote(middle)} AS m{''.join(shown_joins)})",
    )  # fmt: skip
    db.joined[sheet.name] = sheet
    return sheet
