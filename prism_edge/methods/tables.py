"""Table questions: the program computes, the model chooses (the paper's third task).

A 135M model can neither look up nor aggregate rows, but it can choose among answers it is
shown. So every table chunk (whole records, the header repeated) is read by the program into an
SQLite database in a temporary file (linear in the rows, bounded in memory), and the memory (the
preset's ``table_descriptions``) is filled with exact facts as the chunks pass: each column with
its type, and per column its count, its least and greatest value, its sum and mean for numbers
and, at the end, its distinct count and most frequent values; the columns that join two tables
(``relationships``: a shared column name, or ``x_id`` beside a table ``x``, whose values overlap).

At the end the question is read by the program: the columns and tables its words name, and the
cells it names (a name, a code, a number, a date's year). From those, candidate answers are
computed with SQL over the whole table (or two joined through a relationship): a count, the
largest, smallest, mean or total of a column, the value of a column in the named row, the row
with the largest or smallest of a column, the most common value, each under the named cells as
filters. The model scores each candidate's description as the way to answer the question
(pointwise mutual information: the description after the question against the description
alone); the best is the answer, with the fact it came from and the runners-up in the ranking. A
question that names a value, a name or a number the tables do not hold, or nothing in them at
all, is answered "not in the table", never guessed.
"""

from __future__ import annotations

import itertools
import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from prism_edge.backends import Backend
from prism_edge.core.config import PrismConfig
from prism_edge.core.events import Answered, Event, StepDone
from prism_edge.core.metrics import RunMetrics
from prism_edge.core.revisions import Revision
from prism_edge.core.schema import Schema, format_path
from prism_edge.methods.base import Capability, Context, Method, MethodError, score
from prism_edge.prompts import Part, Prompt
from prism_edge.text.bm25 import words
from prism_edge.text.grounding import FUNCTION_WORDS
from prism_edge.text.tables import Cell, Dialect, TableChunk, read_chunk, typed

FIELD = "table_descriptions"
NOT_IN_TABLE = "not in the table"
MAX_CANDIDATES = 48
"""Candidate answers scored at most (the likeliest by the program's reading first)."""
CATEGORICAL = 64
"""A text column with at most this many distinct values is a category: a lower-case word of
the question may name one of its values ("days of snow")."""
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
        self.tables: dict[str, Table] = {}

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
        rows = []
        for record in chunk.rows:
            cells = [typed(v) for v in record[:width]] + [None] * (width - len(record))
            for column, value in zip(table.columns, cells, strict=True):
                column.add(value)
            rows.append(cells)
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
        return list(self.db.execute(sql, list(args)))

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


# --- reading the question -----------------------------------------------------------------------

_WORD = re.compile(r"[\w][\w'&.-]*[\w]|\w")
_TOKEN = re.compile(r"\b[A-Z]\.|[\w][\w'&.-]*[\w]|\w")
"""A question's words as cells may hold them: an initial keeps its period (``Cesar A.``)."""
_UPPER = "[" + re.escape("".join(c for c in map(chr, range(0x10000)) if c.isupper())) + "]"
"""A capital letter of any script (not only A-Z: "Örebro", "Казань" are names too)."""
_NAMED = re.compile(
    rf"(?<![.!?]\s)(?<!^)\b(?:{_UPPER}[\w&'-]*)(?:\s+{_UPPER}[\w&'-]*)*|\b{_UPPER}{{2,}}\b"
)
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.]?\d)")


def _fold(value: str | bytes | int | float | None) -> str | bytes | int | float | None:
    return value.casefold() if isinstance(value, str) else value


def _related(a: str, b: str) -> bool:
    """Two words name the same thing: equal, or one the other's head of four letters or more
    (temp / temperature, death / deaths)."""
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    return len(short) >= 4 and long.startswith(short)


@dataclass(frozen=True)
class Filter:
    table: str
    column: str
    value: Cell
    prefix: bool = False
    """A year named in the question, matched by a date's start (``2001`` -> ``2001-01-01``)."""
    weak: bool = False
    """Named by a lower-case word of the question ("days of snow"), which may as well be a
    plain word there ("the type of death"): answers are computed with and without it."""

    def describe(self) -> str:
        return f"{label(self.column)} is {show(self.value)}"


def label(column: str) -> str:
    return " ".join(words(column)) or column


@dataclass
class Reading:
    """What a question names in the tables."""

    words: list[str]
    columns: dict[str, list[str]]
    """Per table, the columns the question's words name."""
    tables: list[str]
    """Tables whose name the question's words name."""
    filters: dict[str, list[Filter]]
    """Per table, the cells the question names."""
    unmatched: list[str]
    """Names, codes and numbers the question holds that no table holds."""


def read_question(question: str, store: Store) -> Reading:
    said = [w.lower() for w in _WORD.findall(question)]
    content = [w for w in said if w not in FUNCTION_WORDS]
    columns: dict[str, list[str]] = {}
    tables: list[str] = []
    vocabulary: set[str] = set()
    for table in store.tables.values():
        table_words = words(table.name)
        vocabulary.update(table_words)
        if any(_related(w, q) for w in table_words for q in content if len(w) >= 3):
            tables.append(table.name)
        for column in table.columns:
            column_words = words(column.name)
            vocabulary.update(column_words)
            if any(_related(w, q) for w in column_words for q in content if len(w) >= 2):
                columns.setdefault(table.name, []).append(column.name)
    filters: dict[str, list[Filter]] = {}
    matched_text: set[str] = set()
    for table in store.tables.values():
        found = _cells(question, said, table, store, columns.get(table.name, []))
        if found:
            filters[table.name] = found
            matched_text.update(show(f.value).lower() for f in found)
    unmatched = []
    for name in _NAMED.findall(question) + _NUMBER.findall(question):
        parts = [w.lower() for w in _WORD.findall(name)]
        known = all(  # every word of it: "Solar Power" is no value beside a table "power"
            any(_related(p, v) for v in vocabulary)
            or any(p in m.split() or m.startswith(p) for m in matched_text)
            or p in FUNCTION_WORDS
            for p in parts
        )
        if not known:
            unmatched.append(name)
    return Reading(said, columns, tables, filters, list(dict.fromkeys(unmatched)))


def _cells(
    question: str, said: list[str], table: Table, store: Store, named: list[str]
) -> list[Filter]:
    """The cells of ``table`` the question names: a phrase of it equal to a text cell (a
    single lower-case word only in a category column), or a number equal to a numeric cell or
    starting a date; one per column, the longest; numbers prefer the columns the question
    names."""
    raw = _TOKEN.findall(question)
    phrases: dict[str, bool] = {}  # phrase -> may match any column
    for n in range(1, 6):
        for i in range(len(raw) - n + 1):
            phrase = " ".join(raw[i : i + n])
            lower = phrase.casefold()
            if n == 1 and (lower in FUNCTION_WORDS or len(lower) < 2):
                continue
            strong = n > 1 or phrase[:1].isupper() or phrase.isupper() or phrase[:1].isdigit()
            phrases[lower] = phrases.get(lower, False) or strong
    numbers = [typed(n) for n in _NUMBER.findall(question)]
    best: dict[str, Filter] = {}
    for column in table.columns:
        c = quote(column.name)
        if column.kind == "text":
            allowed = (
                [p for p, strong in phrases.items() if strong]
                if table.distinct.get(column.name, 0) > CATEGORICAL
                else list(phrases)
            )
            for chunk in _batches(allowed, 400):
                marks = ", ".join("?" for _ in chunk)
                for (value,) in store.query(
                    f"SELECT DISTINCT {c} FROM {table.sql} WHERE fold({c}) IN ({marks})", chunk
                ):
                    weak = not phrases.get(str(value).casefold(), False)
                    _keep(best, Filter(table.name, column.name, value, weak=weak))
            for number in numbers:
                if isinstance(number, int) and 1000 <= number <= 2999:  # a year in a date
                    hit = store.query(
                        f"SELECT 1 FROM {table.sql} WHERE {c} LIKE ? OR {c} LIKE ? LIMIT 1",
                        (f"{number}-%", f"{number}/%"),
                    )
                    if hit:
                        _keep(best, Filter(table.name, column.name, number, prefix=True))
        elif column.numeric:
            for number in numbers:
                if number is None or isinstance(number, str):
                    continue
                if store.query(f"SELECT 1 FROM {table.sql} WHERE {c} = ? LIMIT 1", (number,)):
                    _keep(best, Filter(table.name, column.name, number))
    found = list(best.values())
    # a number found in several columns: only those the question names, when it names one
    by_number: dict[str, list[Filter]] = {}
    for f in found:
        if not isinstance(f.value, str) or f.prefix:
            by_number.setdefault(show(f.value), []).append(f)
    for group in by_number.values():
        if len(group) > 1 and any(f.column in named for f in group):
            found = [f for f in found if f not in group or f.column in named]
    return found


def _keep(best: dict[str, Filter], candidate: Filter) -> None:
    have = best.get(candidate.column)
    if have is None or len(show(candidate.value)) > len(show(have.value)):
        best[candidate.column] = candidate


def _batches(items: list[str], size: int) -> Iterator[list[str]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


# --- candidate answers --------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    description: str
    """What was computed, in full: the operation, the column, the table, every filter."""
    value: str
    table: str
    core: str = ""
    """What the model is shown: the operation and the column (and a filter the question may
    not have meant); the cells the question names are common to all and left out."""


@dataclass(frozen=True)
class View:
    """What candidates are computed over: one table, or two joined through a link."""

    name: str
    sql: str
    columns: list[tuple[str, str, Column]]
    """(how the question's side calls it, its SQL expression, its facts)."""
    tables: tuple[str, ...]


def _views(store: Store, reading: Reading, joins: list[Link]) -> list[View]:
    views = []
    for table in store.tables.values():
        cols = [(c.name, quote(c.name), c) for c in table.columns]
        views.append(View(table.name, table.sql, cols, (table.name,)))
    for link in joins:
        left, right = store.tables[link.left], store.tables[link.right]
        wanted = {link.left, link.right}
        touched = set(reading.filters) | set(reading.columns) | set(reading.tables)
        if not wanted <= touched and not (wanted & set(reading.filters) and wanted & touched):
            continue
        cols = []
        for table, alias in ((left, "a"), (right, "b")):
            for c in table.columns:
                cols.append((f"{table.name} {c.name}", f"{alias}.{quote(c.name)}", c))
        sql = (
            f"{left.sql} AS a JOIN {right.sql} AS b ON a.{quote(link.left_column)} = "
            f"b.{quote(link.right_column)}"
        )
        views.append(View(f"{left.name} and {right.name}", sql, cols, (left.name, right.name)))
    return views


def candidates(store: Store, reading: Reading, joins: list[Link]) -> list[Candidate]:
    """Every answer the question's reading allows, computed over the whole tables: under every
    cell it names; and, for a cell named only by a plain word, without it too; and where
    those leave no row, under all but one (a cell named by accident)."""
    out: dict[str, Candidate] = {}
    for view in _views(store, reading, joins):
        in_view = [(t, f) for t in view.tables for f in reading.filters.get(t, [])]
        named = {c for t in view.tables for c in reading.columns.get(t, [])}
        if not in_view and not named and not set(view.tables) & set(reading.tables):
            continue
        strong = [x for x in in_view if not x[1].weak]
        sets = [in_view] + ([strong] if len(strong) < len(in_view) else [])
        if len(strong) > 1 and not any(_count(store, view, s) for s in sets):
            sets += [strong[:i] + strong[i + 1 :] for i in range(len(strong))]
        distinct = bool(DISTINCT_WORDS & set(reading.words))
        for chosen in sets:
            for candidate in _computed(store, view, chosen, named, distinct):
                out.setdefault(candidate.description, candidate)
    return list(out.values())


Chosen = list[tuple[str, "Filter"]]


def _clauses(view: View, chosen: Chosen) -> tuple[str, list[Any]]:
    sql: list[str] = []
    args: list[Any] = []
    for table, f in chosen:
        expr = _expr(view, table, f.column)
        if f.prefix:
            sql.append(f"({expr} LIKE ? OR {expr} LIKE ?)")
            args += [f"{f.value}-%", f"{f.value}/%"]
        else:
            sql.append(f"{expr} = ?")
            args.append(f.value)
    return " AND ".join(sql), args


def _count(store: Store, view: View, chosen: Chosen) -> int:
    where, args = _clauses(view, chosen)
    sql = f"SELECT COUNT(*) FROM {view.sql}" + (f" WHERE {where}" if where else "")
    return int(store.query(sql, args)[0][0])


def _expr(view: View, table: str, column: str) -> str:
    if len(view.tables) == 1:
        return quote(column)
    alias = "a" if table == view.tables[0] else "b"
    return f"{alias}.{quote(column)}"


def _computed(
    store: Store, view: View, chosen: Chosen, named: set[str], distinct: bool
) -> Iterator[Candidate]:
    """The candidates over ``view`` under the cells ``chosen``: what the question may ask of
    the rows they select."""
    where_sql, args = _clauses(view, chosen)
    told = " and ".join(f.describe() for _, f in chosen)
    where = f" where {told}" if told else ""
    weak = " and ".join(f.describe() for _, f in chosen if f.weak)
    aside = f" where {weak}" if weak else ""  # what the core description must still say
    base = f"FROM {view.sql}" + (f" WHERE {where_sql}" if where_sql else "")
    first = "a.rowid" if len(view.tables) > 1 else "rowid"  # ties: the first seen first
    of = f" in {view.name}"

    def candidate(core: str, value: str) -> Candidate:
        return Candidate(f"{core}{of}{where}", value, view.name, f"{core}{aside}")

    filtered = {f.column for _, f in chosen}
    free = [x for x in view.columns if x[2].name not in filtered]
    numeric = [x for x in free if x[2].numeric]
    measures = [x for x in numeric if x[2].name in named] or numeric
    targets = [x for x in free if x[2].name in named] or free
    noun = _noun(view)
    label_column = _label(store, view, free)
    (count,) = store.query(f"SELECT COUNT(*) {base}", args)[0]
    yield candidate(f"the number of {view.name} rows", show(count))
    if not count:
        return
    single = count == 1  # one row: its cells are the answer, aggregates only repeat them
    for name, expr, _ in measures if not single else []:
        number = f"typeof({expr}) IN ('integer', 'real')"
        keep = f" AND {number}" if where_sql else f" WHERE {number}"
        high, low, mean, total = store.query(
            # TOTAL, not SUM: a sum past 64-bit integers (18-digit ids) is a float, not an error
            f"SELECT MAX({expr}), MIN({expr}), AVG({expr}), TOTAL({expr}) {base}{keep}",
            args,
        )[0]
        if high is None:
            continue
        said = label(name)
        yield candidate(f"the largest {said}", show(high))
        yield candidate(f"the smallest {said}", show(low))
        yield candidate(f"the average {said}", f"{mean:.2f}")
        yield candidate(f"the total {said}", show(total))
        ranked = [(label(t), e) for t, e, _ in targets if e != expr]
        if label_column is not None and label_column[1] != expr:  # "which car": its label
            ranked.append((noun, label_column[1]))
        for tname, texpr in ranked:
            for word, order in (("largest", "DESC"), ("smallest", "ASC")):
                row = store.query(
                    f"SELECT {texpr} {base}{keep} ORDER BY {expr} {order}, {first} LIMIT 1", args
                )
                if row and row[0][0] is not None:
                    yield candidate(f"the {tname} with the {word} {said}", show(row[0][0]))
    for tname, texpr, column in targets:
        not_null = f"{' AND' if where_sql else ' WHERE'} {texpr} IS NOT NULL"
        if chosen:
            values = store.query(f"SELECT DISTINCT {texpr} {base}{not_null} LIMIT 6", args)
            if values and len(values) <= 5:
                yield candidate(f"the {label(tname)}", ", ".join(show(v[0]) for v in values))
        if single:
            continue
        common = store.query(
            f"SELECT {texpr}, COUNT(*) AS n {base}{not_null} GROUP BY {texpr} "
            f"ORDER BY n DESC, MIN({first}) LIMIT 6",
            args,
        )
        if common and common[0][1] > 1:  # a value seen once is no "most common" one
            tied = [show(v) for v, n in common if n == common[0][1]]
            said = ", ".join(tied[:5]) + (f" ({common[0][1]} each)" if len(tied) > 1 else "")
            yield candidate(f"the most common {label(tname)}", said)
        if column.kind == "text" and distinct:  # asked for: "how many different ..."
            (kinds,) = store.query(f"SELECT COUNT(DISTINCT {texpr}) {base}", args)[0]
            yield candidate(f"the number of different {label(tname)} values", show(kinds))


DISTINCT_WORDS = frozenset({"different", "distinct", "unique", "kinds", "types", "sorts"})
"""Words by which a question asks how many different values a column holds."""


def _noun(view: View) -> str:
    """What one row of a view is, from its (first) table's name: ``cars`` -> ``car``."""
    said = words(view.tables[0])
    return _singular(said[-1]) if said else "row"


def _label(
    store: Store, view: View, free: list[tuple[str, str, Column]]
) -> tuple[str, str, Column] | None:
    """The column that tells a row by name: one whose words say name, title or label, else
    the first text column whose values are mostly different."""
    texts = [x for x in free if x[2].kind == "text"]
    for x in texts:
        if set(words(x[2].name)) & {"name", "title", "label"}:
            return x
    table = store.tables.get(view.tables[0])
    for x in texts:
        if table is not None and table.distinct.get(x[2].name, 0) * 2 >= max(1, table.rows):
            return x
    return None


SAME = {
    "many": "number", "count": "number", "number": "number",
    "most": "largest", "highest": "largest", "maximum": "largest", "largest": "largest",
    "biggest": "largest", "greatest": "largest", "top": "largest", "max": "largest",
    "least": "smallest", "lowest": "smallest", "minimum": "smallest", "smallest": "smallest",
    "fewest": "smallest", "min": "smallest",
    "average": "average", "mean": "average", "total": "total", "sum": "total",
    "common": "common", "frequent": "common", "often": "common", "usual": "common",
    "different": "different", "distinct": "different", "unique": "different",
}  # fmt: skip
"""Words of a question and the description words they ask for (the program's reading of
quantifiers, for ranking with no model)."""


def rank_by_words(question: str, found: Sequence[Candidate]) -> list[float]:
    """The program's own ranking, with no model: how many of the question's content words
    each description shares (prefixes of four letters count; quantifiers by :data:`SAME`),
    ties to the shorter."""
    asked = {SAME.get(w, w) for w in words(question) if w not in FUNCTION_WORDS or w in SAME}
    scores = []
    for candidate in found:
        said = [SAME.get(w, w) for w in words(candidate.description)]
        shared = sum(1 for q in asked if any(_related(q, w) for w in said))
        scores.append(shared - 0.01 * len(said))
    return scores


# --- the method --------------------------------------------------------------------------------

_ASK = "\nTo answer it, the program computes"


def _prompt(question: str) -> Prompt:
    return Prompt((Part("Question: "), Part(question, "document"), Part(_ASK)))


class TablesState(BaseModel):
    """The shape of a table run's saved state: how many chunks of records it read."""

    model_config = ConfigDict(extra="forbid")
    ingested: Annotated[int, Field(ge=0)] = 0


class TableFacts(Method):
    """The program reads every record and computes; the model chooses among the answers."""

    name: ClassVar[str] = "tables"
    needs: ClassVar[frozenset[Capability]] = frozenset({"score"})
    option_names: ClassVar[tuple[str, ...]] = ("chooser",)
    state_model: ClassVar[type[BaseModel]] = TablesState
    score_meaning: ClassVar[str] = "shared words, and the model's fit of description and value"

    def __init__(self, config: PrismConfig, chooser: str = "model") -> None:
        if chooser not in ("model", "words"):
            raise MethodError(f"unknown chooser {chooser!r} (model, words)")
        self.config = config
        self.chooser = chooser
        """``model``: the model scores the candidates; ``words``: the program's word overlap
        (the method without the model, for comparison)."""
        self.store: Store | None = None
        self.ingested = 0
        self._dialects: dict[str, Dialect] = {}
        self._replay = 0
        self.fact: str = ""

    def check(self, backend: Backend, schema: Schema) -> None:
        if schema.root.field(FIELD) is None:
            raise MethodError(f"--method tables needs a schema with {FIELD} (the table-qa task)")
        if self.chooser == "model":
            super().check(backend, schema)

    def settings(self) -> dict[str, Any]:
        return {"chooser": self.chooser}

    def state(self) -> dict[str, Any]:
        return {"ingested": self.ingested}

    def restore(self, state: dict[str, Any]) -> None:
        self._replay = int(state.get("ingested", 0))

    def prepare(self, chunks: Iterable[str]) -> None:
        """A resumed run reads again the records it had read (the database is not kept)."""
        if self._replay:
            done = itertools.islice((c for c in chunks if c.strip()), self._replay)
            for chunk in done:
                read = read_chunk(chunk, self._dialects)
                if read is not None:
                    self._store().add(read)
            self.ingested = self._replay

    def room(self, run: Context) -> int:
        return run.backend.n_ctx  # the records go to the program, never into a prompt

    def _store(self) -> Store:
        if self.store is None:
            self.store = Store()
        return self.store

    def step(self, run: Context, index: int, chunk: str, chunk_tokens: int) -> StepDone:
        read = read_chunk(chunk, self._dialects)
        revisions: list[Revision] = []
        if read is not None and read.header:
            table, new = self._store().add(read)
            entry = _entry(table)
            if new:
                segments: tuple[str | int, ...] = (FIELD,)
                revisions.append(Revision(format_path(segments), segments, "add", entry))
            elif _refresh(self.ingested + 1):
                revisions += _updates(run, table.index, entry)
        self.ingested += 1
        report = run.memory.revise(revisions)
        return StepDone(
            index,
            chunk_tokens,
            list(report.applied),
            list(report.rejected),
            (),
            run.memory_tokens(),
            chunk=chunk,
        )

    def answer(self, run: Context) -> Iterator[Event]:
        store = self._store()
        try:
            store.finish()
            joins = links(store)
            for table in store.tables.values():
                entry = _entry(
                    table, [j.describe() for j in joins if table.name in (j.left, j.right)]
                )
                run.memory.revise(_updates(run, table.index, entry))
            answer, ranking = self._choose(run, store, joins)
        finally:
            store.close()
            self.store = None
        run.result.ranking = ranking
        run.result.answer = answer
        yield Answered(answer, None)

    def ask(self, run: Context) -> Iterator[Event]:
        """A new question needs the records, which a run does not keep (only their facts)."""
        raise MethodError(
            "a table run keeps the tables' facts, not their records: run again with this "
            "--query to answer it"
        )
        yield  # pragma: no cover - a generator that refuses

    def _choose(
        self, run: Context, store: Store, joins: list[Link]
    ) -> tuple[str, list[tuple[str, float]]]:
        question = self.config.question
        if not store.tables:
            return f"{NOT_IN_TABLE}: the input holds no table", []
        reading = read_question(question, store)
        if reading.unmatched:
            said = ", ".join(reading.unmatched)
            return f"{NOT_IN_TABLE}: no table holds {said}", []
        found = candidates(store, reading, joins)
        if not found:
            return f"{NOT_IN_TABLE}: the question names no column, value or table", []
        prior = rank_by_words(question, found)
        order = sorted(range(len(found)), key=lambda i: -prior[i])[:MAX_CANDIDATES]
        found = [found[i] for i in order]
        if self.chooser == "words":
            values = [prior[i] for i in order]
        else:
            values = choose_by_model(
                run.backend, question, found, run.metrics, [prior[i] for i in order]
            )
        ranked = sorted(zip(found, values, strict=True), key=lambda p: -p[1])
        best = ranked[0][0]
        self.fact = f"{best.description}: {best.value}"
        ranking = [(f"{c.description} = {c.value}", float(v)) for c, v in ranked]
        table = store.tables.get(best.table)
        if table is not None:
            facts = [*_statistics(table), f"for the question: {self.fact}"]
            run.memory.revise(_update(run, table.index, "relevant_statistics", facts))
        return best.value, ranking


def choose_by_model(
    backend: Backend,
    question: str,
    found: Sequence[Candidate],
    metrics: RunMetrics,
    prior: Sequence[float],
) -> list[float]:
    """Each candidate's score: three views, each as standard scores over the candidates and
    added with equal weights (so no view's scale decides): the program's word overlap
    (``prior``); the model's pointwise mutual information of the candidate's description
    with the question (after the question against alone: is this what is asked?); and the
    model's mean pointwise mutual information of the answer's value with the question, per
    token (is this what such an answer looks like: a place for "where", a number for "how
    old"?). Measured on the first ten table questions: 9 of 10 together, 8 by the words
    alone, 8 by the model's two views alone (benchmarks/results/table-qa-*)."""
    texts = [f" {c.core or c.description}." for c in found]
    given, _ = score(backend, _prompt(question), texts, metrics)
    alone, _ = score(backend, _prompt(""), texts, metrics)
    values = [f" {c.value}" for c in found]
    fits, _ = score(backend, _answer_prompt(question), values, metrics)
    plain, _ = score(backend, _answer_prompt(""), values, metrics)
    described = [a.logprob - b.logprob for a, b in zip(given, alone, strict=True)]
    typed_as = [
        (a.logprob - b.logprob) / max(1, a.tokens) for a, b in zip(fits, plain, strict=True)
    ]
    return [
        w + d + v
        for w, d, v in zip(_standard(prior), _standard(described), _standard(typed_as), strict=True)
    ]


def _answer_prompt(question: str) -> Prompt:
    return Prompt((Part("Question: "), Part(question, "document"), Part("\nAnswer:")))


def _standard(values: Sequence[float]) -> list[float]:
    """Standard scores (mean 0, deviation 1; all 0 when the values do not vary)."""
    if not values:
        return []
    mean = sum(values) / len(values)
    spread = (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5
    return [(v - mean) / spread if spread else 0.0 for v in values]


def _statistics(table: Table) -> list[str]:
    facts = [f"rows: {table.rows}"]
    for column in table.columns:
        line = column.facts()
        if column.name in table.distinct:
            line += f", {table.distinct[column.name]} distinct"
        if table.top.get(column.name):
            line += "; most frequent: " + ", ".join(f"{v} ({n})" for v, n in table.top[column.name])
        facts.append(line)
    return facts


def _entry(table: Table, relationships: list[str] | None = None) -> dict[str, Any]:
    return {
        "table_name": table.name,
        "table_description": f"{table.rows} rows of {len(table.columns)} columns",
        "columns_observed": [c.observed() for c in table.columns],
        "relevant_statistics": _statistics(table),
        "relationships": relationships or [],
    }


def _refresh(step: int) -> bool:
    """Whether step ``step`` (1-based) writes the running facts into the memory: at doubling
    intervals (1, 2, 4, 8...), so a table of millions of rows costs the memory a few dozen
    records and the run stays linear; the exact facts are written at the end."""
    return step & (step - 1) == 0


def _update(run: Context, index: int, key: str, value: Any) -> list[Revision]:
    entries = run.memory.data.get(FIELD) or []
    if index >= len(entries) or entries[index].get(key) == value:
        return []
    segments: tuple[str | int, ...] = (FIELD, index, key)
    return [Revision(format_path(segments), segments, "update", value)]


def _updates(run: Context, index: int, entry: dict[str, Any]) -> list[Revision]:
    return [r for key, value in entry.items() for r in _update(run, index, key, value)]
