"""The tables of a run in SQLite's private temporary database, their running facts, and the
columns that join two tables."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from prism_edge.methods.base import MethodError
from prism_edge.text.tables import Cell, TableChunk, typed_column

TOP_VALUES = 3


# --- the engine: tables in SQLite ---------------------------------------------------------------


@dataclass
class Column:
    name: str
    kind: str = "empty"
    """``integer``, ``number``, ``text`` or ``empty`` (no value yet)."""
    count: int = 0
    low: Cell = None
    high: Cell = None
    total: float = 0.0
    numbers: int = 0

    def add(self, value: Cell) -> None:
        if value is None:
            return
        self.count += 1
        if isinstance(value, str):
            self.kind = "text"
        else:
            self.numbers += 1
            self.total += value
            if self.kind in ("empty", "integer"):
                self.kind = "integer" if isinstance(value, int) else "number"
        if self.kind != "text":
            self.low = value if self.low is None or value < self.low else self.low  # type: ignore[operator]
            self.high = value if self.high is None or value > self.high else self.high  # type: ignore[operator]

    def add_many(self, values: list[Cell]) -> None:
        """:meth:`add` of every value, a batch at a time."""
        present = [v for v in values if v is not None]
        if not present:
            return
        self.count += len(present)
        kinds = set(map(type, present))  # in C: a column is mostly of one type
        if str in kinds:
            self.kind = "text"
            numbers = [v for v in present if type(v) is not str]
        else:
            numbers = present
        if numbers:
            self.numbers += len(numbers)
            self.total += sum(numbers)  # type: ignore[arg-type]
            if self.kind in ("empty", "integer"):
                self.kind = "number" if float in kinds else "integer"
        if self.kind != "text":
            low, high = min(numbers), max(numbers)
            self.low = low if self.low is None or low < self.low else self.low  # type: ignore[operator]
            self.high = high if self.high is None or high > self.high else self.high  # type: ignore[operator]

    @property
    def numeric(self) -> bool:
        return self.kind in ("integer", "number")

    def observed(self) -> str:
        return f"{self.name} ({self.kind if self.kind != 'empty' else 'no values'})"

    def facts(self) -> str:
        if self.numeric and self.count:
            mean = self.total / self.numbers
            return (
                f"{self.name}: {self.count} values from {show(self.low)} to {show(self.high)}, "
                f"sum {show(self.total)}, mean {show(round(mean, 4))}"
            )
        return f"{self.name}: {self.count} values"


@dataclass
class Table:
    name: str
    sql: str
    columns: list[Column]
    rows: int = 0
    index: int = 0
    """Its place in the memory's list."""
    top: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    distinct: dict[str, int] = field(default_factory=dict)


def _fold(value: str | bytes | int | float | None) -> str | bytes | int | float | None:
    return value.casefold() if isinstance(value, str) else value


def quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def show(value: Any) -> str:
    """A cell or a computed number as an answer states it."""
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return f"{value:.10g}"
    return "" if value is None else str(value)


class Store:
    """The tables read so far, in SQLite's private temporary database: a file in the
    temporary folder that SQLite unlinks as soon as it opens it, so nothing of the user's rows
    is left behind however the process ends (Ctrl-C, a failed step, a kill)."""

    def __init__(self) -> None:
        self.db = sqlite3.connect("")
        # Python's case folding: SQLite's lower() folds ASCII only ("Örebro", "Казань")
        self.db.create_function("fold", 1, _fold, deterministic=True)
        self.db.execute("PRAGMA journal_mode = OFF")
        self.db.execute("PRAGMA synchronous = OFF")
        self.db.execute("PRAGMA cache_size = -65536")  # 64 MB of pages: fewer passes to sort
        self.tables: dict[str, Table] = {}
        self.last: tuple[str, list[Any]] = ("", [])
        """The last query run (what a candidate just computed came from)."""

    def add(self, chunk: TableChunk) -> tuple[Table, bool]:
        """Insert a chunk's records (typed cells); (its table, whether it is new)."""
        table = self.tables.get(chunk.table)
        new = table is None
        if table is None:
            if len(chunk.header) > MAX_COLUMNS:
                raise MethodError(
                    f"the table {chunk.table} has {len(chunk.header)} columns; at most "
                    f"{MAX_COLUMNS} can be read (SQLite's limit)"
                )
            names = _unique(
                [_column_name(h) or f"column {i + 1}" for i, h in enumerate(chunk.header)]
            )
            sql = quote(f"t{len(self.tables)}")
            columns = ", ".join(quote(n) for n in names)
            self.db.execute(f"CREATE TABLE {sql} ({columns})")
            table = Table(chunk.table, sql, [Column(n) for n in names], index=len(self.tables))
            self.tables[chunk.table] = table
        width = len(table.columns)
        pad = [""] * width  # a missing cell is an empty one: None
        fixed = [record[:width] + pad[len(record) :] for record in chunk.rows]
        cells = [typed_column(texts) for texts in zip(*fixed, strict=True)] if fixed else []
        for column, values in zip(table.columns, cells, strict=True):
            column.add_many(values)  # a column's facts in C-speed builtins
        rows = list(zip(*cells, strict=True))
        marks = ", ".join("?" for _ in range(width))
        self.db.executemany(f"INSERT INTO {table.sql} VALUES ({marks})", rows)
        table.rows += len(rows)
        return table, new

    def finish(self) -> None:
        """The facts that need the whole table: distinct counts and the most frequent values."""
        for table in self.tables.values():
            for column in table.columns:
                c = quote(column.name)
                (table.distinct[column.name],) = self.db.execute(
                    f"SELECT COUNT(DISTINCT {c}) FROM {table.sql}"
                ).fetchone()
                if column.kind == "text":
                    table.top[column.name] = [
                        (show(v), n)
                        for v, n in self.db.execute(
                            f"SELECT {c}, COUNT(*) AS n FROM {table.sql} WHERE {c} IS NOT NULL "
                            f"GROUP BY {c} ORDER BY n DESC, {c} LIMIT {TOP_VALUES}"
                        )
                    ]

    def query(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        self.last = (sql, list(args))
        return list(self.db.execute(sql, list(args)))

    def shown(self, sql: str, args: Sequence[Any]) -> str:
        """A query as a user can read and run it: the tables by their own names, every
        parameter in place as an SQL literal."""
        for table in self.tables.values():
            sql = sql.replace(table.sql, quote(table.name))
        parts = sql.split("?")
        out = [parts[0]]
        for value, rest in zip(args, parts[1:], strict=False):
            literal = (
                "'" + value.replace("'", "''") + "'" if isinstance(value, str) else show(value)
            )
            out += [literal, rest]
        out += parts[len(args) + 1 :]
        return "".join(out)

    def close(self) -> None:
        self.db.close()


MAX_COLUMNS = 2000
"""Columns of one table at most: SQLite's own limit (SQLITE_MAX_COLUMN)."""


def _column_name(header: str) -> str:
    """A header cell as a column's name: control characters (a NUL, which SQLite refuses in a
    statement) as the replacement character, spaces at the ends dropped."""
    return "".join("\ufffd" if not c.isprintable() and c != " " else c for c in header).strip()


def _unique(names: list[str]) -> list[str]:
    """The column names made unique as SQLite compares them (case folded): a repeated name
    gets the first number after it that no column has ("a", "a 2", "a" becomes "a", "a 2",
    "a 3")."""
    originals = {name.casefold() for name in names}
    seen: set[str] = set()
    out: list[str] = []
    for name in names:
        given, n = name, 1
        while given.casefold() in seen or (given != name and given.casefold() in originals):
            n += 1
            given = f"{name} {n}"
        seen.add(given.casefold())
        out.append(given)
    return out


# --- relationships ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Link:
    """``left.column`` holds values of ``right.column``: the two tables join there."""

    left: str
    left_column: str
    right: str
    right_column: str

    def describe(self) -> str:
        return f"{self.left}.{self.left_column} -> {self.right}.{self.right_column}"


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def links(store: Store) -> list[Link]:
    """Columns that join two tables: a shared name (not a bare ``id``), or ``<table>_id``
    (``customer_id`` beside a table ``customers``) with that table's ``id``; kept when most of
    the left column's values occur in the right one."""
    found = []
    tables = list(store.tables.values())
    for left in tables:
        for right in tables:
            if left is right:
                continue
            right_key = _singular(right.name.lower())
            for lc in left.columns:
                for rc in right.columns:
                    ln, rn = lc.name.lower(), rc.name.lower()
                    shared = ln == rn and ln != "id" and left.index < right.index
                    keyed = rn == "id" and ln in (f"{right_key}_id", f"{right_key}id")
                    if (shared or keyed) and _overlap(store, left, lc.name, right, rc.name):
                        found.append(Link(left.name, lc.name, right.name, rc.name))
    return found


def _overlap(store: Store, left: Table, lc: str, right: Table, rc: str) -> bool:
    (distinct, present) = store.query(
        f"SELECT COUNT(DISTINCT {quote(lc)}), COUNT(DISTINCT CASE WHEN {quote(lc)} IN "
        f"(SELECT {quote(rc)} FROM {right.sql}) THEN {quote(lc)} END) FROM {left.sql}"
    )[0]
    return bool(distinct) and present * 2 >= distinct
