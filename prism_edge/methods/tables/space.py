"""The query space: a typed query over one table (or two joined), its SQL and its English.

A query is an answer computed over the rows its conditions select:

    Query(op="argmax", column=0, by=3, conds=(Cond(2, "in", ("kildare",)),))
    -> SELECT c0 FROM t0 WHERE f2 IN ('kildare') AND n3 IS NOT NULL
       ORDER BY n3 DESC, _row LIMIT 1 OFFSET 0
    -> "the Team of the row with the highest Wins, where County is kildare"

The answers (``op``):

====================  =======================================================================
``select``            the ``column`` cells of the rows (every one, in the table's order)
``count``             how many rows
``distinct``          how many different ``column`` values
``sum`` ``avg``       the total or mean of the ``column`` numbers
``max`` ``min``       the largest or smallest ``column`` number
``range``             the largest minus the smallest ``column`` number
``argmax`` ``argmin`` the ``column`` cell of the row with the highest/lowest ``by`` (a number
                      or a date), the ``nth`` such
``first`` ``last``    the ``column`` cell of the ``nth`` row from the top or the bottom
``next`` ``prev``     the ``column`` cell of the row just after or before the rows selected
``most`` ``least``    the ``column`` value that occurs most or least often
``groupmax``          the ``column`` value whose rows have the highest (``groupmin``: lowest)
                      total ``by`` (``agg``: or average, or most different ``by`` values)
``diff``              the difference of the ``column`` number between the rows of ``conds``
                      and those of ``other`` (how many more, how much longer)
``countdiff``         the difference of the two selections' row counts
``same``              the ``column`` cells of the other rows whose ``by`` cell is the same as
                      that of the rows selected ("which track has the same producer as X")
====================  =======================================================================

Conditions (``Cond``): ``in`` (the cell is one of the named texts, compared folded), ``notin``
(a cell, not one of them: "not played at X", "other than X"), ``=``, ``!=``,
``>``, ``<``, ``>=``, ``<=``, ``between`` on the column's numbers, ``year=``, ``year>``,
``year<``, ``year-between`` on its dates, and ``prefix``, ``suffix``, ``contains`` on its text
(a text the question quotes). A table's summary row ("Total", "Totals") is never one of its
rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from prism_edge.methods.tables.db import Column, Sheet, show_number

ANSWERS = (
    "select", "count", "distinct", "sum", "avg", "max", "min", "range", "argmax", "argmin",
    "first", "last", "next", "prev", "most", "least", "groupmax", "groupmin", "diff",
    "countdiff", "same",
)  # fmt: skip
NUMERIC_OPS = frozenset({"sum", "avg", "max", "min", "range", "diff"})
ORDERED_OPS = frozenset({"argmax", "argmin"})
RANKED_OPS = frozenset({"argmax", "argmin", "most", "least", "groupmax", "groupmin"})
"""Answers that are the first (or nth) of an order, which may tie (:meth:`Query.ranked`)."""
GROUP_OPS = frozenset({"groupmax", "groupmin"})
ROW_OPS = frozenset({"select", "argmax", "argmin", "first", "last", "next", "prev", "most",
                     "least", "groupmax", "groupmin", "same"})  # fmt: skip
"""Answers that are cells of the table (not computed numbers)."""
MAX_LISTED = 100
"""Cells a ``select`` lists at most (its SQL asks for one more, to tell a longer list)."""
COMPARE = {">": ">", "<": "<", ">=": ">=", "<=": "<=", "=": "=", "!=": "!="}
SAID = {
    "in": "is", "notin": "is not", ">": "is more than", "<": "is less than", ">=": "is at least",
    "<=": "is at most", "=": "is", "!=": "is not", "year=": "is in", "year>": "is after",
    "year<": "is before", "between": "is between", "year-between": "is between",
    "prefix": "begins with", "suffix": "ends with", "contains": "contains", "on": "is on",
}  # fmt: skip
TEXT_OPS = frozenset({"prefix", "suffix", "contains"})
NAMED_OPS = frozenset({"in", "notin"})
"""Conditions on the cells the question names (their texts)."""


@dataclass(frozen=True)
class Cond:
    column: int
    op: str
    value: tuple[str, ...] | float | str
    mentions: tuple[int, ...] = ()
    """The question's mentions this condition stands for (their indexes)."""
    upper: float | None = None
    """A range's upper bound (``between``, ``year-between``)."""

    def sql(self, sheet: Sheet) -> tuple[str, list[Any]]:
        column = sheet.columns[self.column]
        if self.op in NAMED_OPS:
            assert isinstance(self.value, tuple)
            raw = sheet.raw.get(self.column, {})
            texts = [t for v in self.value for t in raw.get(v, [v])]
            marks = ", ".join("?" * len(texts))
            way = "IN" if self.op == "in" else "NOT IN"  # NOT IN: a cell, none of them
            return f"{column.text} {way} ({marks})", texts
        if self.op in TEXT_OPS:
            assert isinstance(self.value, str)
            escaped = self.value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            pattern = {"prefix": "{}%", "suffix": "%{}", "contains": "%{}%"}[self.op]
            return f"{column.text} LIKE ? ESCAPE '\\'", [pattern.format(escaped)]
        assert isinstance(self.value, float)
        if self.op == "on":  # a date's parts said (year * 10000 + month * 100 + day; 0: any)
            return _on(column.key, int(self.value))
        if self.op == "between":
            return f"{column.num} BETWEEN ? AND ?", [self.value, self.upper]
        if self.op == "year-between":
            assert self.upper is not None
            low, high = int(self.value), int(self.upper)
            return f"{column.key} BETWEEN ? AND ?", [low * 10000, high * 10000 + 9999]
        if self.op.startswith("year"):
            year = int(self.value)
            if self.op == "year=":
                return f"{column.key} BETWEEN ? AND ?", [year * 10000, year * 10000 + 9999]
            if self.op == "year>":
                return f"{column.key} > ?", [year * 10000 + 9999]
            return f"{column.key} < ?", [year * 10000]
        return f"{column.num} {COMPARE[self.op]} ?", [self.value]

    def render(self, sheet: Sheet) -> str:
        name = sheet.columns[self.column].name
        if self.op in TEXT_OPS:
            return f"{name} {SAID[self.op]} {self.value!r}"
        if self.upper is not None:
            assert isinstance(self.value, float)
            return f"{name} {SAID[self.op]} {show_number(self.value)} and {show_number(self.upper)}"
        if self.op == "on":
            assert isinstance(self.value, float)
            return f"{name} {SAID[self.op]} {_said_date(int(self.value))}"
        if isinstance(self.value, tuple):
            raw = sheet.raw.get(self.column, {})
            texts = [t for v in self.value for t in raw.get(v, [v])]
            said = " or ".join(texts[:3]) + (f" or {len(texts) - 3} more" if len(texts) > 3 else "")
        else:
            assert isinstance(self.value, float)
            said = show_number(self.value)
        return f"{name} {SAID[self.op]} {said}"


@dataclass(frozen=True)
class Query:
    sheet: str
    op: str
    column: int | None = None
    by: int | None = None
    conds: tuple[Cond, ...] = ()
    other: tuple[Cond, ...] = ()
    nth: int = 1
    alphabetical: bool = False
    """``argmax`` and ``argmin`` of a column of text: in alphabetical order ("the state that
    comes last alphabetically")."""
    agg: str = "sum"
    """What ``groupmax`` and ``groupmin`` order the groups by: the ``sum`` of their ``by``
    numbers, their ``avg``, or how many ``distinct`` ``by`` values they hold ("the airline
    with the most different planes")."""

    def numeric_columns(self) -> set[int]:
        """The columns whose numbers or dates the SQL reads (stored before it runs:
        :meth:`Database.numeric`)."""
        used = {c.column for c in self.conds + self.other
                if c.op not in NAMED_OPS and c.op not in TEXT_OPS}  # fmt: skip
        if (
            self.by is not None
            and self.agg != "distinct"
            and not self.alphabetical
            and self.op != "same"  # its cells compared as written
        ):
            used.add(self.by)
        if self.op in NUMERIC_OPS and self.column is not None:
            used.add(self.column)
        return used

    def sql(self, sheet: Sheet) -> tuple[str, list[Any]]:
        """The SQL that computes the answer, with its parameters."""
        where, args = _where(sheet, self.conds)
        t = sheet.sql
        col = sheet.columns[self.column] if self.column is not None else None
        op = self.op
        if op == "count":  # of rows, or of the different ids of a join's ("how many players")
            counted = f"DISTINCT {col.text}" if col is not None else "*"
            return f"SELECT COUNT({counted}) FROM {t}{where}", args
        other, more = _where(sheet, self.other)
        if op == "countdiff":
            return (
                f"SELECT ABS((SELECT COUNT(*) FROM {t}{where}) - (SELECT COUNT(*) FROM {t}"
                f"{other}))",
                args + more,
            )
        assert col is not None, op
        if op == "select":
            return (
                f"SELECT {col.text} FROM {t}{_and(where, col.text)} GROUP BY {col.text} "
                f"ORDER BY MIN(_row) LIMIT {MAX_LISTED + 1}",
                args,
            )
        if op == "distinct":
            return f"SELECT COUNT(DISTINCT {col.text}) FROM {t}{where}", args
        if op in ("sum", "avg", "max", "min"):
            return f"SELECT {op.upper()}({col.num}) FROM {t}{where}", args
        if op == "range":
            return f"SELECT MAX({col.num}) - MIN({col.num}) FROM {t}{where}", args
        if op in ORDERED_OPS:
            rows, key, order = self._ordered(sheet, where)
            return (
                f"SELECT {col.text} FROM {rows} ORDER BY {key} {order} LIMIT 1 OFFSET "
                f"{self.nth - 1}",
                args,
            )
        if op in ("first", "last"):
            way = "ASC" if op == "first" else "DESC"
            return (
                f"SELECT {col.text} FROM {t}{_and(where, col.text)} ORDER BY _row {way} "
                f"LIMIT 1 OFFSET {self.nth - 1}",
                args,
            )
        if op in ("next", "prev"):
            edge, cmp, way = ("MAX", ">", "ASC") if op == "next" else ("MIN", "<", "DESC")
            outer, more = _where(sheet, ())
            outer = f"{outer} AND" if outer else " WHERE"
            return (
                f"SELECT {col.text} FROM {t}{outer} _row {cmp} (SELECT {edge}(_row) FROM {t}"
                f"{where}) ORDER BY _row {way} LIMIT 1",
                more + args,
            )
        if op in ("groupmax", "groupmin", "most", "least"):
            rows, key, order = self._ordered(sheet, where)
            return f"SELECT {col.text} FROM {rows} ORDER BY {key} {order} LIMIT 1", args
        if op == "same":
            assert self.by is not None
            by = sheet.columns[self.by].text
            outer, more = _where(sheet, ())
            others = f"{_and(outer, col.text)} AND {by} IN (SELECT {by} FROM {t}{where}) AND "
            return (
                f"SELECT {col.text} FROM {t}{others}_row NOT IN (SELECT _row FROM {t}{where}) "
                f"GROUP BY {col.text} ORDER BY MIN(_row) LIMIT {MAX_LISTED + 1}",
                more + args + args,
            )
        if op == "diff":
            return (
                f"SELECT ABS((SELECT {col.num} FROM {t}{_and(where, col.num)} ORDER BY _row "
                f"LIMIT 1) - (SELECT {col.num} FROM {t}{_and(other, col.num)} ORDER BY _row "
                f"LIMIT 1))",
                args + more,
            )
        raise ValueError(f"unknown answer {op!r}")

    def ranked(self, sheet: Sheet, more: int) -> tuple[str, list[Any]] | None:
        """For an answer that is the first of an order (the row with the most, the most
        common value, the group with the highest total), the SQL of the labels in that order
        with what orders them, up to ``more`` past the answer's place; None for any other
        answer. What tells whether the answer ties with another."""
        if self.op not in RANKED_OPS or self.column is None:
            return None
        where, args = _where(sheet, self.conds)
        rows, key, order = self._ordered(sheet, where)
        label = sheet.columns[self.column].text
        limit = self.nth + more
        return f"SELECT {label}, {key} FROM {rows} ORDER BY {key} {order} LIMIT {limit}", args

    def _ordered(self, sheet: Sheet, where: str) -> tuple[str, str, str]:
        """Of an answer first of an order (:data:`RANKED_OPS`), the rows it orders (the
        table, its conditions, its groups), what orders them and how (the way, then the
        table's own order on a tie): what its SQL and :meth:`ranked` share."""
        assert self.column is not None
        t, col = sheet.sql, sheet.columns[self.column]
        if self.op in ORDERED_OPS:
            assert self.by is not None
            by = _order_key(sheet.columns[self.by])
            way = "DESC" if self.op == "argmax" else "ASC"
            return f"{t}{_and(where, by)}", by, f"{way}, _row"
        grouped = f"{t}{_and(where, col.text)} GROUP BY {col.text}"
        if self.op in GROUP_OPS:
            assert self.by is not None
            by_column = sheet.columns[self.by]
            by = by_column.text if self.agg == "distinct" else by_column.num
            total = {"sum": f"SUM({by})", "avg": f"AVG({by})"}.get(
                self.agg, f"COUNT(DISTINCT {by})"
            )
            way = "DESC" if self.op == "groupmax" else "ASC"
            return f"{grouped} HAVING COUNT({by}) > 0", total, f"{way}, MIN(_row)"
        return grouped, "COUNT(*)", f"{'DESC' if self.op == 'most' else 'ASC'}, MIN(_row)"

    def render(self, sheet: Sheet) -> str:
        """The query in plain words, as a user checks what was computed."""
        name = sheet.columns[self.column].name if self.column is not None else ""
        by = sheet.columns[self.by].name if self.by is not None else ""
        nth = _ordinal(self.nth)
        said = {
            "select": f"the {name}",
            "count": f"the number of different {name}" if name else "the number of rows",
            "distinct": f"the number of different {name}",
            "sum": f"the total {name}",
            "avg": f"the average {name}",
            "max": f"the highest {name}",
            "min": f"the lowest {name}",
            "range": f"the highest minus the lowest {name}",
            "argmax": f"the {name} of the row with the {nth}highest {by}"
            if not self.alphabetical
            else f"the {name} that comes {nth + 'from the end' if nth else 'last'} "
            "in alphabetical order",
            "argmin": f"the {name} of the row with the {nth}lowest {by}"
            if not self.alphabetical
            else f"the {name} that comes {nth.strip() or 'first'} in alphabetical order",
            "first": f"the {name} of the {nth or 'first '}row",
            "last": f"the {name} of the {nth}last row",
            "next": f"the {name} of the row just after the one",
            "prev": f"the {name} of the row just before the one",
            "groupmax": f"the {name} with the {_GROUPED[self.agg][0]} {by}",
            "groupmin": f"the {name} with the {_GROUPED[self.agg][1]} {by}",
            "most": f"the most common {name}",
            "least": f"the least common {name}",
            "diff": f"the difference in {name}",
            "countdiff": "the difference in the number of rows",
            "same": f"the {name} of the other rows with the same {by} as the one",
        }[self.op]
        if self.op in ("diff", "countdiff"):
            left = " and ".join(c.render(sheet) for c in self.conds)
            right = " and ".join(c.render(sheet) for c in self.other)
            return f"{said} between the rows where {left} and those where {right}"
        if self.conds:
            said += (
                (" " if self.op in ("next", "prev", "same") else ", ")
                + "where "
                + (" and ".join(c.render(sheet) for c in self.conds))
            )
        return said


_GROUPED = {
    "sum": ("highest total", "lowest total"),
    "avg": ("highest average", "lowest average"),
    "distinct": ("most different", "fewest different"),
}


def _on(key: str, date: int) -> tuple[str, list[Any]]:
    """The SQL selecting the dates of ``key`` (a date key) with the parts of ``date`` that
    are said (not 0)."""
    year, month, day = date // 10000, date // 100 % 100, date % 100
    if year and month and day:
        return f"{key} = ?", [date]
    if year and month:
        return f"{key} BETWEEN ? AND ?", [date, date + 99]
    parts, args = [], []
    for said, sql in (
        (year, f"{key} / 10000"),
        (month, f"{key} / 100 % 100"),
        (day, f"{key} % 100"),
    ):
        if said:
            parts.append(f"CAST({sql} AS INTEGER) = ?")
            args.append(said)
    return " AND ".join(parts), args


_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")  # fmt: skip


def _said_date(date: int) -> str:
    year, month, day = date // 10000, date // 100 % 100, date % 100
    words = [_MONTHS[month - 1] if 1 <= month <= 12 else "", str(day) if day else "",
             str(year) if year else ""]  # fmt: skip
    return " ".join(w for w in words if w)


def _ordinal(n: int) -> str:
    if n == 1:
        return ""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10 if n % 100 not in (11, 12, 13) else 0, "th")
    return f"{n}{suffix} "


def _order_key(column: Column) -> str:
    """What rows are ordered by: a date's key, a number, or a text in alphabetical order
    (case aside)."""
    if column.kind == "text":
        return f"{column.text} COLLATE NOCASE"
    return column.key if column.kind == "date" else column.num


def _where(sheet: Sheet, conds: Sequence[Cond]) -> tuple[str, list[Any]]:
    """The WHERE clause of ``conds``; a table's summary row ("Total") is never a row of
    its data."""
    parts: list[str] = []
    args: list[Any] = []
    if sheet.summary is not None:
        column, text = sheet.summary
        parts.append(f"{sheet.columns[column].text} IS NOT ?")
        args.append(text)
    if not conds and not parts:
        return "", []
    for cond in conds:
        sql, more = cond.sql(sheet)
        parts.append(sql)
        args += more
    return " WHERE " + " AND ".join(parts), args


def _and(where: str, present: str) -> str:
    """``where`` with ``present IS NOT NULL``."""
    test = f"{present} IS NOT NULL"
    return f"{where} AND {test}" if where else f" WHERE {test}"
