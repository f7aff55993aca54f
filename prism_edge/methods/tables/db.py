"""The tables of a question in SQLite's private temporary database, every cell as its text,
and what the cells mean (numbers, dates, folded text) computed for the columns a question
touches.

A table ``people`` with columns ``Name`` and ``Born`` is stored as

    t0 (_row INTEGER PRIMARY KEY, c0 TEXT, c1 TEXT)

``_row`` is the record's place in the file (the table's own order: "the first", "the next");
a cell's text is kept as written (ids and codes stay exact). When a question needs column 1
as numbers, dates or folded text, :meth:`Database.typed` adds ``n1`` (REAL), ``k1`` (the date
key of :mod:`prism_edge.text.values`) and ``f1`` (folded text) once, computed from each
distinct text once. Reading a table is parsing and inserting text, nothing more: a column no
question touches is never typed.
"""

from __future__ import annotations

import collections
import functools
import heapq
import itertools
import operator
import re
import sqlite3
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from prism_edge.methods.base import MethodError
from prism_edge.methods.tables.words import key
from prism_edge.text.tables import TableChunk
from prism_edge.text.values import MISSING, PLAIN, Value, read_value

MAX_COLUMNS = 600
"""Columns of one table at most (each may take four of SQLite's 2,000)."""
SUMMARY_WORDS = frozenset({"total", "totals", "grand total", "all", "overall", "sum", "total:"})
"""What a table's summary row says in its label cell (folded)."""
SAMPLE = 2_000
"""Texts of a big column its kind is read from."""
_SHUFFLED = "(_row * 2654435761) % 4294967296, _row"
"""The records in an order that looks random and is the same every run (a multiplicative hash
of their numbers): a big column's sample, and so its kind and the question's answer, do not
change from one run to the next."""
HELD_VALUES = 5_000
"""Distinct texts of a column held in memory at most (more: their words go in the
database, indexed)."""
COUNTED = 500
"""Records counted at a time by a pass over the database (a joined table, a column added
after reading; held while they are: a big column's texts are dropped past
:data:`HELD_VALUES` plus these; 500 counted a 60,000-record TSV's 24 columns in a tenth
less time than 2,000, the batch staying in the processor's caches)."""
INSERTED = 64
"""Records one INSERT statement inserts at most (a tenth less time than one at a time), as
many as SQLite lets a statement have parameters."""
TOP_VALUES = 3
"""Most frequent values a column's facts show."""
NUMERIC_SHARE = 0.6
"""Of a column's present cells, the share that must read as numbers (or dates) for the
column to be one of numbers (or dates)."""


@dataclass
class Column:
    name: str
    index: int
    present: int = 0
    numbers: int = 0
    dates: int = 0
    full_dates: int = 0
    """Dates with a month (not bare years)."""
    distinct: int = 0
    typed: bool = False
    plain: bool = True
    """Every present cell a plain number ("12", "-3.5"): SQLite reads them as the program
    does."""
    big: bool = False
    """More distinct texts than are held in memory: their words are kept in the database."""
    low: float = 0.0
    high: float = 0.0
    total: float = 0.0
    """The least, greatest and sum of its numbers (once profiled)."""
    top: list[tuple[str, int]] = field(default_factory=list)
    """Its most frequent texts with their counts (once profiled; none for a big column of
    plain numbers, whose facts are their range, sum and mean)."""

    @property
    def text(self) -> str:
        return f"c{self.index}"

    @property
    def cast(self) -> bool:
        """Its numbers and date keys are what SQLite's CAST reads of its texts, computed
        where a query reads them (every cell a plain number, once profiled), not stored."""
        return self.typed and self.plain

    @property
    def num(self) -> str:
        """Its numbers in SQL: a stored column (``n1``) or, :attr:`cast`, an expression."""
        return f"CAST({self.text} AS REAL)" if self.cast else f"n{self.index}"

    @property
    def key(self) -> str:
        """Its date keys in SQL: a stored column (``k1``) or, :attr:`cast`, an expression
        (a year's key, for a number from 1000 to 2099)."""
        if not self.cast:
            return f"k{self.index}"
        c = self.text
        return (f"(CASE WHEN {c} GLOB '1[0-9][0-9][0-9]' OR {c} GLOB '20[0-9][0-9]' THEN "
                f"CAST({c} AS INTEGER) * 10000 END)")  # fmt: skip

    @property
    def kind(self) -> str:
        """``number``, ``date``, ``text`` or ``empty`` (known once :meth:`Database.typed`)."""
        if not self.present:
            return "empty"
        if self.full_dates >= NUMERIC_SHARE * self.present:
            return "date"
        if self.numbers >= NUMERIC_SHARE * self.present:
            return "number"
        return "text"


@dataclass
class Sheet:
    """One table: its name, its SQL name, its columns and how many rows it has."""

    name: str
    sql: str
    columns: list[Column]
    rows: int = 0
    index: int = 0
    values: dict[int, list[str]] = field(default_factory=dict)
    """Per column, its distinct texts' words (:func:`words.key`), once profiled; empty
    for a big column (:attr:`Column.big`)."""
    raw: dict[int, dict[str, list[str]]] = field(default_factory=dict)
    """Per column, the texts of its cells by their words (once profiled)."""
    numeric: set[int] = field(default_factory=set)
    looked_up: set[int] = field(default_factory=set)
    """The big columns whose cells were looked up (:meth:`Database.said`)."""
    indexed: set[int] = field(default_factory=set)
    """The columns whose numbers and dates are stored (:meth:`Database.numeric`)."""
    parts: tuple[str, ...] = ()
    """The tables a joined table was made of (else empty: it is its own)."""
    prepared: bool = False
    summary: tuple[int, str] | None = None
    """A summary row (its column and text: "Total"), first or last, left out of every
    query."""
    shown_as: str = ""
    """How the SQL a user reads names this table, when not by its name (a join: the
    subquery that makes it)."""
    joins: dict[int, str] = field(default_factory=dict)
    """A joined table's columns that joined another of its parts (the other's columns they
    matched are left out), with that part: ``flights tailnum`` joined ``planes``."""
    via: dict[int, int] = field(default_factory=dict)
    """Of a table joined to another by several columns (a flight's origin and destination),
    the other's columns, each with the column it was joined by (``airports dest name``:
    ``flights dest``)."""


@functools.lru_cache(maxsize=4096)
def _value(text: str) -> Value:
    return read_value(text)


def _plain(text: str) -> bool:
    return PLAIN.fullmatch(text) is not None


def _number_of(text: str | None) -> float | None:
    return None if text is None else _value(text).number


def _date_of(text: str | None) -> int | None:
    return None if text is None else _value(text).date


_PLAINS = re.compile(rf"(?:{PLAIN.pattern})(?:\n(?:{PLAIN.pattern}))*")


def _all_plain(texts: Sequence[str | None]) -> bool:
    """Whether every text (None or "" aside: a missing cell, stored or as read) is a plain
    number, in one search over them joined."""
    present = list(filter(None, texts))
    joined = "\n".join(present)
    return not present or (
        joined.count("\n") == len(present) - 1 and _PLAINS.fullmatch(joined) is not None
    )


@dataclass(frozen=True)
class Counted:
    """A column's cells counted: its texts with how many cells hold each (None: more than
    :data:`HELD_VALUES`), and whether every one is a plain number."""

    counts: Counter[str] | None
    plain: bool


class _Tally:
    """A table's columns counted batch by batch as they are read, as :meth:`Database._counts`
    counts them from the database: no second pass over the records.

    A column's cells are counted as read, and each text new to it is looked at once: its cell
    as stored (:func:`_cell`), where that differs (a space at an edge, a mark of no value)
    kept to store the column's cells and to count them as stored in the end."""

    def __init__(self, width: int) -> None:
        self.held: list[Counter[str] | None] = [Counter() for _ in range(width)]
        self.seen: list[set[str]] = [set() for _ in range(width)]
        """Each held column's texts as stored ("" for a missing cell)."""
        self.fixes: list[dict[str, str]] = [{} for _ in range(width)]
        """Each held column's texts stored otherwise than read, with their cells as stored."""
        self.plain = [True] * width
        self.width = width

    def add(self, index: int, texts: Sequence[str]) -> Sequence[str]:
        """Column ``index``'s cells of a batch counted; its cells as stored (:func:`_cells`)."""
        counts = self.held[index]
        if counts is None:  # big: only whether every cell is a plain number
            stored = _cells(texts)
            if self.plain[index]:
                self.plain[index] = _all_plain(stored)
            return stored
        before = len(counts)
        counts.update(texts)
        fixes, seen = self.fixes[index], self.seen[index]
        for text in itertools.islice(reversed(counts), len(counts) - before):  # new texts
            cell = _cell(text) or ""
            seen.add(cell)
            if cell != text or not cell:  # an empty cell too: stored NULL (add's NULLIF)
                fixes[text] = cell
        if len(seen) - ("" in seen) > HELD_VALUES:  # big: the texts so far
            self.plain[index] = _all_plain(list(seen))
            self.held[index] = None
            self.seen[index], self.fixes[index] = set(), {}
        return list(map(fixes.get, texts, texts)) if fixes else texts

    def counted(self, index: int) -> Counted:
        """The column's texts as stored, with how many cells hold each (None: big)."""
        counts = self.held[index]
        if counts is not None:
            for text, cell in self.fixes[index].items():
                counts[cell] += counts.pop(text, 0)
            counts.pop("", None)
        return Counted(counts, self.plain[index])


class Database:
    """The tables read so far (SQLite's private temporary database: unlinked as soon as it
    opens, so nothing of the user's rows is left behind however the process ends)."""

    def __init__(self) -> None:
        self.db = sqlite3.connect("")
        self.db.execute("PRAGMA journal_mode = OFF")
        self.db.execute("PRAGMA synchronous = OFF")
        self.db.execute("PRAGMA cache_size = -65536")
        self.db.create_function("number_of", 1, _number_of, deterministic=True)
        self.db.create_function("date_of", 1, _date_of, deterministic=True)
        self.db.create_function("plain", 1, _plain, deterministic=True)
        self.parameters = 999  # the parameters one statement may have (SQLite's least)
        if sys.version_info >= (3, 11):
            self.parameters = self.db.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
        self.sheets: dict[str, Sheet] = {}
        self.joined: dict[str, Sheet] = {}
        self.declared: list[Link] = []
        """The foreign keys the input declares (an SQLite file's)."""
        """Tables made by joining two (:func:`join`)."""
        self.executed: list[tuple[str, list[Any]]] = []
        self.meanings: dict[str, Value] = {}
        self.marks: dict[tuple[str, int], dict[str, list[str]]] = {}
        """A big column's cells the lookup by text cannot find, by their words
        (:meth:`_marked`)."""
        self.tallies: dict[str, _Tally] = {}
        """Each table's cells counted as they are read (:meth:`add`), until it is profiled."""
        self.said_as: dict[str, str] = {}
        """What each text profiled means and its words, once a question (the same texts are
        profiled again in the tables joined of them; freed with the database, unlike a
        process's cache, so a question's memory does not grow with the tables before it)."""

    def _meaning(self, text: str) -> Value:
        value = self.meanings.get(text)
        if value is None:
            value = self.meanings[text] = read_value(text)
        return value

    def _words(self, text: str) -> str:
        words = self.said_as.get(text)
        if words is None:
            words = self.said_as[text] = key(text)
        return words

    # --- reading ---------------------------------------------------------------------------

    def add(self, chunk: TableChunk) -> tuple[Sheet, bool]:
        """Insert a chunk's records as text; (its table, whether it is new). The records are
        the database's from then on: their cells are replaced by the cells as stored."""
        sheet = self.sheets.get(chunk.table)
        new = sheet is None
        if sheet is None:
            if len(chunk.header) > MAX_COLUMNS:
                raise MethodError(
                    f"the table {chunk.table} has {len(chunk.header)} columns; at most "
                    f"{MAX_COLUMNS} can be read"
                )
            names = unique([_column_name(h) or f"column {i + 1}" for i, h in
                            enumerate(chunk.header)])  # fmt: skip
            columns = [Column(n, i) for i, n in enumerate(names)]
            sheet = Sheet(chunk.table, f"t{len(self.sheets)}", columns, index=len(self.sheets))
            cells = ", ".join(f"{c.text} TEXT" for c in columns)
            self.db.execute(f"CREATE TABLE {sheet.sql} (_row INTEGER PRIMARY KEY, {cells})")
            self.sheets[chunk.table] = sheet
            self.tallies[sheet.sql] = _Tally(len(columns))
        width = len(sheet.columns)
        records = chunk.rows
        if not records:
            return sheet, new
        if set(map(len, records)) != {width}:  # a short record ends in empty cells
            records = [r[:width] if len(r) >= width else [*r, *[""] * (width - len(r))]
                       for r in records]  # fmt: skip
        missing = set()
        tally = self.tallies.get(sheet.sql)
        for index, texts in enumerate(zip(*records, strict=True)):
            stored = _cells(texts) if tally is None else tally.add(index, texts)
            if stored is not texts:  # the column's cells replaced in the records, in C
                collections.deque(map(operator.setitem, records, itertools.repeat(index),
                                      stored), maxlen=0)  # fmt: skip
                missing.add(index)
        # a missing cell is given as "" (no cell is stored empty) and stored as NULL: binding
        # None costs the sqlite3 module a failed look-up for an adapter, cell by cell
        cells = "(" + ", ".join("NULLIF(?, '')" if i in missing else "?" for i in range(width))
        first = 0
        if not sheet.rows:  # the first record is row 0, each next one the next number
            self.db.execute(f"INSERT INTO {sheet.sql} VALUES (0, {cells[1:]})", records[0])
            first = 1
        into = f"INSERT INTO {sheet.sql} ({', '.join(c.text for c in sheet.columns)}) VALUES "
        many = max(1, min(INSERTED, self.parameters // width))  # records a statement inserts
        whole = first + (len(records) - first) // many * many
        if whole > first:  # several records a statement, their cells given flat
            flat = itertools.chain.from_iterable(itertools.islice(records, first, whole))
            self.db.executemany(into + ", ".join([cells + ")"] * many),
                                zip(*[flat] * (many * width), strict=True))  # fmt: skip
        self.db.executemany(into + cells + ")", itertools.islice(records, whole, None))
        sheet.rows += len(records)
        return sheet, new

    def typed(self, sheet: Sheet, column: Column) -> Column:
        """The column profiled (once): what its texts mean, how many cells are numbers or
        dates, its most frequent texts, and its texts by their words (for naming cells).
        A column of more than :data:`HELD_VALUES` distinct texts is big: its kind is read
        from a sample of them, its cells are named by a look-up in the database (case
        aside), and nothing of it is held here. The table's other columns are profiled in
        the same pass (a question reads every column's cells for the ones it names)."""
        if not column.typed:
            self.type_all(sheet)
        return column

    def type_all(self, sheet: Sheet) -> None:
        """Every column of the table profiled, their cells counted in one pass."""
        todo = [c for c in sheet.columns if not c.typed]
        for column, counted in zip(todo, self._counts(sheet, todo), strict=True):
            self._profile(sheet, column, counted)

    def _profile(self, sheet: Sheet, column: Column, counted: Counted) -> None:
        column.typed = True
        counts = counted.counts
        if counts is None:
            self._profile_big(sheet, column, counted.plain)
            return
        raw: dict[str, list[str]] = {}
        top: list[tuple[int, str]] = []
        for text, n in sorted(counts.items()):  # in SQLite's order of texts (their code points)
            value = self._meaning(text)
            column.present += n
            column.distinct += 1
            self._count(column, text, value, n)
            raw.setdefault(self._words(text), []).append(text)
            if n > 1:
                heapq.heappush(top, (n, text)) if len(top) < TOP_VALUES else heapq.heappushpop(
                    top, (n, text))  # fmt: skip
        column.top = [(t, n) for n, t in sorted(top, key=lambda c: (-c[0], c[1]))]
        sheet.values[column.index] = sorted(raw)
        sheet.raw[column.index] = raw

    def _counts(self, sheet: Sheet, columns: Sequence[Column]) -> list[Counted]:
        """The columns' cells counted: each column's texts with how many cells hold each,
        until it has more than :data:`HELD_VALUES` (a big column: nothing of it is held); and
        whether every cell of it is a plain number. A table's columns as read were counted
        while they were (:class:`_Tally`); any other (a column added since, a joined table's)
        in one pass over the table, a batch of records at a time (in C)."""
        if not columns:
            return []
        tally = self.tallies.pop(sheet.sql, None)  # every column read counted as it was
        if tally is not None:
            later = [c for c in columns if c.index >= tally.width]  # added since (naming)
            counted = dict(zip([c.index for c in later], self._counts(sheet, later), strict=True))
            return [counted[c.index] if c.index in counted else tally.counted(c.index)
                    for c in columns]  # fmt: skip
        held: list[Counter[str | None] | None] = [Counter() for _ in columns]
        plain = [True] * len(columns)  # a held column's is read from its texts, once
        cells = self.db.execute(f"SELECT {', '.join(c.text for c in columns)} FROM {sheet.sql}")
        while (any(plain) or any(c is not None for c in held)) and (
            batch := cells.fetchmany(COUNTED)
        ):
            for i, texts in enumerate(zip(*batch, strict=True)):
                counts = held[i]
                if counts is None:
                    plain[i] = plain[i] and _all_plain(texts)
                    continue
                counts.update(texts)
                if len(counts) - (None in counts) > HELD_VALUES:  # big: the texts so far
                    plain[i] = _all_plain(list(counts))
                    held[i] = None
        cells.close()
        out = []
        for counts, every in zip(held, plain, strict=True):
            if counts is not None:
                counts.pop(None, None)
            out.append(Counted(counts, every))  # type: ignore[arg-type]
        return out

    @staticmethod
    def _count(column: Column, text: str, value: Value, n: int) -> None:
        if column.plain and not PLAIN.fullmatch(text):
            column.plain = False
        column.numbers += n if value.number is not None else 0
        column.dates += n if value.date is not None else 0
        column.full_dates += n if value.date is not None and value.date % 10000 else 0
        if value.number is not None:
            if column.numbers == n:  # the first number
                column.low = column.high = value.number
            column.low = min(column.low, value.number)
            column.high = max(column.high, value.number)
            column.total += value.number * n

    def _profile_big(self, sheet: Sheet, column: Column, plain: bool) -> None:
        t, c = sheet.sql, column.text
        column.big = True
        ranked = not plain  # numbers: their most frequent are no fact of theirs (their range is)
        if ranked:  # its texts counted in order, once for the distinct and the most frequent
            self.db.execute(f"CREATE INDEX c{t}_{column.index} ON {t} ({c})")
        (present, column.distinct) = self.db.execute(
            f"SELECT COUNT({c}), COUNT(DISTINCT {c}) FROM {t}"
        ).fetchone()
        if ranked:
            column.top = [
                (text, n) for text, n in self.db.execute(
                    f"SELECT {c}, COUNT(*) AS n FROM {t} WHERE {c} IS NOT NULL GROUP BY {c} "
                    f"HAVING n > 1 ORDER BY n DESC, {c} LIMIT {TOP_VALUES}")
            ] if column.distinct < present else []  # fmt: skip
            self.db.execute(f"DROP INDEX c{t}_{column.index}")  # no query's plan sees it
        if plain:  # every cell a plain number: a number, whichever a sample would take
            column.present = column.numbers = present
        else:
            sample = self.db.execute(
                f"SELECT {c} FROM {t} WHERE {c} IS NOT NULL ORDER BY {_SHUFFLED} LIMIT {SAMPLE}"
            ).fetchall()
            for (text,) in sample:
                self._count(column, text, self._meaning(text), 1)
            column.present = len(sample)  # the shares, from the sample
            column.plain = False  # not every cell, whatever the sample's
        if column.kind == "number":
            self.numeric(sheet, column)
            low, high, total, numbers = self.db.execute(
                f"SELECT MIN({column.num}), MAX({column.num}), SUM({column.num}), "
                f"COUNT({column.num}) FROM {t}"
            ).fetchone()
            column.low, column.high, column.total = low or 0.0, high or 0.0, total or 0.0
            column.numbers = numbers
        column.present = present
        sheet.values[column.index] = []
        sheet.raw[column.index] = {}

    def indexed(self, sheet: Sheet, column: Column) -> None:
        """An index on the column's cells (a big table's column a condition names)."""
        if column.index not in sheet.indexed and not column.big:
            self.db.execute(f"CREATE INDEX IF NOT EXISTS j{sheet.sql}_{column.index} ON "
                            f"{sheet.sql} ({column.text})")  # fmt: skip
        sheet.indexed.add(column.index)

    def said(self, sheet: Sheet, column: Column, phrases: Sequence[str]) -> list[str]:
        """Of ``phrases`` (cells' words, as :func:`words.key` writes them), those that are
        the words of a cell of the column; a big column's cells are looked up in the
        database (their text, case aside: a pass over the table the first time, an index
        made for the next) and the texts found are kept for its conditions."""
        self.typed(sheet, column)
        held = sheet.raw.setdefault(column.index, {})
        if not column.big:
            return [p for p in phrases if p in held]
        if column.index in sheet.looked_up:  # looked up again: an index pays now
            t, c = sheet.sql, column.text
            self.db.execute(f"CREATE INDEX IF NOT EXISTS i{t}_{column.index} ON {t} ({c} "
                            f"COLLATE NOCASE)")  # fmt: skip
        sheet.looked_up.add(column.index)
        found: list[str] = []
        for i in range(0, len(phrases), 500):
            part = list(phrases[i : i + 500])
            marks = ", ".join("?" * len(part))
            for (text,) in self.db.execute(
                f"SELECT DISTINCT {column.text} FROM {sheet.sql} WHERE {column.text} "
                f"COLLATE NOCASE IN ({marks})", part):  # fmt: skip
                said = self._words(text)
                if said in part:
                    held.setdefault(said, []).append(text)
                    found.append(said)
        marked = self._marked(sheet, column)
        for said in phrases:
            for text in marked.get(said, ()):
                if text not in held.setdefault(said, []):
                    held[said].append(text)
                found.append(said)
        return sorted(set(found))

    def _marked(self, sheet: Sheet, column: Column) -> dict[str, list[str]]:
        """A big column's cells whose words are not their text in lower case (accents,
        marks: "Medellín" is said "medellin", "Winston-Salem" "winston - salem"), by their
        words: what the lookup by text cannot find (once a column: a pass in C, then
        those cells' words)."""
        known = self.marks.get((sheet.sql, column.index))
        if known is not None:
            return known
        known = self.marks[(sheet.sql, column.index)] = {}
        if column.kind != "text":
            return known  # numbers and dates: "-1.28", "2019-01-01" are said as written
        for (text,) in self.db.execute(
            f"SELECT DISTINCT {column.text} FROM {sheet.sql} WHERE {column.text} GLOB "
            f"'*[^a-zA-Z0-9 ]*'"
        ):
            said = self._words(text)
            if said != text.casefold():
                known.setdefault(said, []).append(text)
        return known

    def numeric(self, sheet: Sheet, column: Column) -> None:
        """The column's numbers and date keys stored beside its texts (once), for ordering,
        comparing and adding; a column of plain numbers needs none stored (:attr:`Column.cast`:
        a query reads them as CAST does, faster than it reads a stored column at the end of
        every record, and the table is not written again)."""
        if column.index in sheet.numeric:
            return
        self.typed(sheet, column)
        sheet.numeric.add(column.index)
        if column.cast:
            return
        self.db.execute(f"ALTER TABLE {sheet.sql} ADD COLUMN {column.num} REAL")
        self.db.execute(f"ALTER TABLE {sheet.sql} ADD COLUMN {column.key} INTEGER")
        self.db.execute(
            f"UPDATE {sheet.sql} SET {column.num} = number_of({column.text}), "
            f"{column.key} = date_of({column.text}) WHERE {column.text} IS NOT NULL"
        )

    def prepare(self, sheet: Sheet) -> None:
        """Find the table's summary row, if it has one: its first or last row, whose cell in
        one of the first three columns says "Total" (or "Totals", "Grand total", "All"), the
        only such cell there."""
        if sheet.prepared:
            return
        sheet.prepared = True
        if sheet.rows < 3:
            return
        for edge in ("MIN", "MAX"):
            for column in sheet.columns[:3]:
                (text,) = self.db.execute(
                    f"SELECT {column.text} FROM {sheet.sql} WHERE _row = (SELECT {edge}(_row) "
                    f"FROM {sheet.sql})"
                ).fetchone()
                if text is None or key(text).rstrip(" :") not in SUMMARY_WORDS:
                    continue
                (n,) = self.db.execute(
                    f"SELECT COUNT(*) FROM {sheet.sql} WHERE {column.text} = ?", (text,)
                ).fetchone()
                if n == 1:
                    sheet.summary = (column.index, text)
                    return

    # --- asking ----------------------------------------------------------------------------

    def query(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        self.executed.append((sql, list(args)))
        return list(self.db.execute(sql, list(args)))

    def shown(self, sql: str, args: Sequence[Any], sheet: Sheet) -> str:
        """A query over ``sheet`` as a user reads it: the table and its columns by their own
        names and every parameter in place as an SQL literal (what ran, renamed: the names
        are substituted token by token, so a column named ``t0`` or a ``?`` inside a name
        cannot be confused; the columns are ``sheet``'s, as every table numbers its own)."""
        names = {sheet.sql: sheet.shown_as or quote(sheet.name)}
        for c in sheet.columns:
            names[c.text] = quote(c.name)
            names[f"n{c.index}"] = f"number({quote(c.name)})"
            names[f"k{c.index}"] = f"date({quote(c.name)})"
            if c.cast:  # its numbers and keys computed in the query: shown as if stored
                sql = sql.replace(c.key, f"k{c.index}").replace(c.num, f"n{c.index}")
        out: list[str] = []
        params = iter(args)
        names["_row"] = "rowid"  # the table's own order
        for token in _tokens(sql):
            if token == "?":
                out.append(literal(next(params)))
            else:
                out.append(names.get(token, token))
        return "".join(out)

    def close(self) -> None:
        self.db.close()


def _tokens(sql: str) -> Iterable[str]:
    """SQL as tokens: words, quoted strings, and single characters."""
    i = 0
    while i < len(sql):
        ch = sql[i]
        if ch.isalnum() or ch == "_":
            j = i
            while j < len(sql) and (sql[j].isalnum() or sql[j] == "_"):
                j += 1
            yield sql[i:j]
            i = j
        elif ch in "'\"":
            j = i + 1
            while j < len(sql):
                if sql[j] == ch:
                    if j + 1 < len(sql) and sql[j + 1] == ch:
                        j += 2
                        continue
                    break
                j += 1
            yield sql[i : j + 1]
            i = j + 1
        else:
            yield ch
            i += 1


def _cell(text: str) -> str | None:
    """A cell as stored: its text, None for an empty one or a mark of no value ("N/A")."""
    text = text.strip()
    return None if text.casefold() in MISSING else text


def _cells(texts: Sequence[str]) -> Sequence[str]:
    """:func:`_cell` of every cell of a column, ``""`` for None: ``texts`` itself where that
    changes none of them (told by a few searches in C over the column's cells joined, for
    most columns of most tables), else each different text's."""
    if _as_stored(texts):
        return texts
    stored = {t: _cell(t) or "" for t in dict.fromkeys(texts)}  # each different text once
    return list(map(stored.__getitem__, texts))


_CLASSES = bytes(
    ord(" ") if chr(b).isspace() else ord("a") if chr(b).isalpha() else ord("0")
    if chr(b).isdigit() else b for b in range(128)
) + bytes(range(128, 256))  # fmt: skip
"""ASCII bytes by class: spaces as a space, letters as ``a``, digits as ``0``."""
_MARKS = {m for m in MISSING if m and m.isascii()}
_MARK_SHAPES = sorted({f"\x00{m}\x00".encode().translate(_CLASSES) for m in _MARKS})
"""The marks of no value by their classes' shapes (``n/a``: ``a/a``), each between cells."""
_MARK_BYTES = {c for shape in _MARK_SHAPES for c in shape if c}


def _as_stored(texts: Sequence[str]) -> bool:
    """Whether no cell (none empty) begins or ends with a space or could be a mark of no
    value: all ASCII, and no cell has a mark's shape (a cell of the shape is looked at one
    by one, as any non-ASCII one)."""
    joined = "\x00".join(texts)
    if not joined.isascii():
        return False
    shapes = b"\x00" + joined.encode().translate(_CLASSES) + b"\x00"
    if b"\x00\x00" in shapes:  # an empty cell
        return False
    if b" " in shapes and (b"\x00 " in shapes or b" \x00" in shapes):
        return False
    present = {c: bytes([c]) in shapes for c in _MARK_BYTES}  # each a search for one byte
    return not any(shape in shapes for shape in _MARK_SHAPES if all(present[c] for c in shape if c))


def quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def literal(value: Any) -> str:
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    if value is None:
        return "NULL"
    return show_number(value) if isinstance(value, float) else str(value)


def show_number(value: float) -> str:
    """A computed number as an answer states it: whole numbers without a point or an
    exponent (``12345678900``), others with up to six decimals (``0.333333``)."""
    if value != value or value in (float("inf"), float("-inf")):
        return str(value)
    if float(value).is_integer():
        return str(int(value))
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return text if text not in ("-0", "") else "0"


def _column_name(header: str) -> str:
    return "".join("\ufffd" if not c.isprintable() and c != " " else c for c in header).strip()


def unique(names: list[str]) -> list[str]:
    """Column names made unique case folded: a repeated name gets the first free number
    after it ("a", "a 2", ...)."""
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


# --- tables that join ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Link:
    """``left.left_column`` holds values of ``right.right_column``: the two tables join
    there."""

    left: str
    left_column: str
    right: str
    right_column: str
    more: tuple[tuple[str, str], ...] = ()
    """Further columns (left's, right's) that must match too: a key of several columns."""

    def describe(self) -> str:
        pairs = [(self.left_column, self.right_column), *self.more]
        return (f"{self.left}.{', '.join(a for a, _ in pairs)} -> {self.right}."
                f"{', '.join(b for _, b in pairs)}")  # fmt: skip


def _singular(word: str) -> str:
    word = word.lower()
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def _key_names(sheet: Sheet) -> set[str]:
    one = _singular(sheet.name).replace(" ", "_")
    return {f"{one}_id", f"{one}id", f"{one} id"}


def links(db: Database) -> list[Link]:
    """Columns that join two tables: the foreign keys a database declares (when it declares
    any, those only); else a shared name (not a bare ``id``), or ``<table>_id``
    (``customer_id`` beside a table ``customers``) with that table's ``id``, kept when most of
    the left column's distinct values occur in the right one."""
    declared = [
        link
        for link in db.declared
        if link.left in db.sheets
        and link.right in db.sheets
        and any(c.name == link.left_column for c in db.sheets[link.left].columns)
        and any(c.name == link.right_column for c in db.sheets[link.right].columns)
    ]
    if declared:
        return declared
    found = []
    sheets = list(db.sheets.values())
    for left in sheets:
        for right in sheets:
            if left is right:
                continue
            keys = _key_names(right)
            for lc in left.columns:
                for rc in right.columns:
                    ln, rn = lc.name.lower(), rc.name.lower()
                    shared = ln == rn and ln != "id" and left.index < right.index
                    keyed = rn == "id" and ln in keys
                    if (shared or keyed) and _overlap(db, left, lc, right, rc):
                        found.append(Link(left.name, lc.name, right.name, rc.name))
    return found


def _overlap(db: Database, left: Sheet, lc: Column, right: Sheet, rc: Column) -> bool:
    (distinct, present) = db.db.execute(
        f"SELECT COUNT(DISTINCT {lc.text}), COUNT(DISTINCT CASE WHEN {lc.text} IN "
        f"(SELECT {rc.text} FROM {right.sql}) THEN {lc.text} END) FROM {left.sql}"
    ).fetchone()
    return bool(distinct) and present * 2 >= distinct


def join(db: Database, link: Link, name: str = "") -> Sheet:
    """The two tables of ``link`` joined into a new table (its columns named ``<table>
    <column>``, its order the left table's), typed as any other; ``name`` where two links
    join the same tables (else ``<left> and <right>``)."""
    left, right = db.sheets[link.left], db.sheets[link.right]
    name = name or f"{left.name} and {right.name}"
    made = db.joined.get(name)
    if made is not None:
        return made
    lc = next(c for c in left.columns if c.name == link.left_column)
    rc = next(c for c in right.columns if c.name == link.right_column)
    more = [(next(c for c in left.columns if c.name == a), next(c for c in right.columns
             if c.name == b)) for a, b in link.more]  # fmt: skip
    matched = {id(rc)} | {id(b) for _, b in more}
    parts = [("a", left, c) for c in left.columns] + [
        ("b", right, c) for c in right.columns if id(c) not in matched
    ]
    names = unique([f"{s.name} {c.name}" for _, s, c in parts])
    sql = f"j{len(db.sheets) + len(db.joined)}"
    select = ", ".join(f"{alias}.{c.text} AS c{i}" for i, (alias, _, c) in enumerate(parts))
    db.db.execute(
        f"CREATE TABLE {sql} AS SELECT ROW_NUMBER() OVER (ORDER BY a._row, b._row) - 1 AS "
        f"_row, {select} FROM {left.sql} AS a JOIN {right.sql} AS b ON a.{lc.text} = "
        f"b.{rc.text}" + "".join(f" AND a.{a.text} = b.{b.text}" for a, b in more)
    )
    (rows,) = db.db.execute(f"SELECT COUNT(*) FROM {sql}").fetchone()
    shown = ", ".join(
        f"{alias}.{quote(c.name)} AS {quote(n)}"
        for (alias, _, c), n in zip(parts, names, strict=True)
    )
    sheet = Sheet(
        name, sql, [Column(n, i) for i, n in enumerate(names)], rows,
        parts=(left.name, right.name),
        joins={c.index: right.name for c in (lc, *(a for a, _ in more))},
        shown_as=f"(SELECT ROW_NUMBER() OVER (ORDER BY a.rowid, b.rowid) - 1 AS rowid, {shown} "
        f"FROM {quote(left.name)} AS a JOIN {quote(right.name)} AS b ON a.{quote(lc.name)} = "
        f"b.{quote(rc.name)}"
        + "".join(f" AND a.{quote(a.name)} = b.{quote(b.name)}" for a, b in more) + ")",
    )  # fmt: skip
    db.joined[sheet.name] = sheet
    return sheet
