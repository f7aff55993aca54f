"""Tables as the program reads them: records and typed cells, whatever file they came in.

A table reaches the chunker as CSV text (kind ``table``): a CSV or TSV file as it is, JSON
lines as CSV (the keys in first-seen order, nested values as JSON), every table of an SQLite
file as its own CSV document (``shop.db#orders``), the three read from their files a record at
a time as they are chunked (never held whole), and the Markdown and fixed-width tables of
a text file as their own CSV documents (``notes.md#1``). A table chunk (``Table: <name>``, the
header record, whole records) is read back here into a header and rows by :mod:`csv`.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import operator
import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prism_edge.core.errors import PrismError

SQLITE_SUFFIXES = (".db", ".sqlite", ".sqlite3")
JSONL_SUFFIXES = (".jsonl", ".ndjson")
SQLITE_MAGIC = b"SQLite format 3\x00"
Cell = int | float | str | None


@dataclass(frozen=True)
class TableChunk:
    """The records of one table chunk."""

    table: str
    header: list[str]
    rows: list[list[str]]


def table_label(name: str, table: str = "") -> str:
    """The name a table goes by in its chunks' ``Table:`` line: ``table`` when given (an
    SQLite table's own name, ``notes 1`` for a text file's first table, a path where two
    tables would share a name), else the stem of the file ``name``; on one line (control
    characters as spaces), since the line is read back to tell the tables apart."""
    label = table or name.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return _CONTROL.sub(" ", label).strip() or _CONTROL.sub(" ", name).strip() or "table"


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def to_csv(header: list[str], rows: list[list[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def _cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, bytes):
        return value.hex()
    return str(value)


def jsonl_to_csv(text: str) -> str:
    """JSON lines (one object a line) as CSV: the keys in first-seen order. A line that is
    not a JSON object is a ValueError naming it."""
    lines = list(io.StringIO(text, newline=""))
    return "".join(jsonl_csv_lines(lines, jsonl_columns(lines)))


def jsonl_columns(lines: Iterable[str]) -> list[str]:
    """Every key of JSON lines in first-seen order, each line checked: one that is not a
    JSON object is a ValueError naming it (blank lines are skipped)."""
    keys: dict[str, None] = {}
    for _, record in _jsonl_records(lines):
        keys.update(dict.fromkeys(record))
    return list(keys)


def jsonl_csv_lines(lines: Iterable[str], columns: Sequence[str]) -> Iterator[str]:
    """JSON lines as the lines of CSV text (the ``columns`` as its header record), one
    record converted at a time."""
    yield from _csv_lines(list(columns))
    for _, record in _jsonl_records(lines):
        yield from _csv_lines([_cell_text(record.get(k)) for k in columns])


def _jsonl_records(lines: Iterable[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"line {number} is not JSON ({exc.msg})") from None
        except RecursionError:
            raise ValueError(f"line {number} is nested too deeply to read") from None
        if not isinstance(record, dict):
            raise ValueError(f"line {number} is not a JSON object")
        yield number, record


def _csv_lines(row: list[Any]) -> Iterator[str]:
    """One CSV record as the lines :func:`to_csv` writes it (a quoted newline included)."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(row)
    yield from io.StringIO(out.getvalue(), newline="")


def sqlite_table_names(path: Path, skipped: list[str] | None = None) -> list[str]:
    """The user's tables of an SQLite file, by name: not SQLite's own (``sqlite_``), not the
    shadow tables of a virtual table (FTS5's ``_data``, ``_idx``...), and not a virtual table
    this Python cannot read (a SpatiaLite module): those go to ``skipped`` with why, the
    others are read. sqlite3.Error when the file cannot be read at all."""
    with _read_only(path) as db:
        try:  # SQLite 3.37+: the kind of every table, shadow tables marked
            listed = [
                (row[1], row[2])
                for row in db.execute("PRAGMA table_list")
                if row[0] == "main" and not str(row[1]).startswith("sqlite_")
            ]
        except sqlite3.Error:
            listed = [
                (row[0], "table")
                for row in db.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' "
                    "AND name NOT LIKE 'sqlite_%'"
                )
            ]
        names = []
        for name, kind in sorted(listed):
            if kind not in ("table", "virtual"):
                continue  # views, and the shadow tables behind a virtual one
            try:
                db.execute(f"SELECT * FROM {_quoted(name)} LIMIT 0")
            except sqlite3.Error as exc:
                if skipped is not None:
                    skipped.append(f"{name!r} ({exc})")
                continue
            names.append(name)
        return names


def sqlite_foreign_keys(path: Path, table: str) -> list[tuple[str, str, str]]:
    """The foreign keys an SQLite table declares: (its column, the table it refers to, that
    table's column; its primary key where the declaration names none). Composite keys are
    left out (one column joins one column here)."""
    with _read_only(path) as db:
        try:
            rows = db.execute(f"PRAGMA foreign_key_list({_quoted(table)})").fetchall()
        except sqlite3.Error:
            return []
        columns: dict[int, list[tuple[str, str, str | None]]] = {}
        for key, _, target, own, theirs, *_ in rows:
            columns.setdefault(key, []).append((str(target), str(own), theirs))
        found = []
        for parts in columns.values():
            if len(parts) != 1:
                continue
            target, own, theirs = parts[0]
            if theirs is None:
                keys = [r[1] for r in db.execute(f"PRAGMA table_info({_quoted(target)})") if r[5]]
                if len(keys) != 1:
                    continue
                theirs = keys[0]
            found.append((own, target, str(theirs)))
        return found


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def sqlite_csv_lines(path: Path, table: str) -> Iterator[str]:
    """One table of an SQLite file as the lines of CSV text, read a row at a time without
    changing the file; sqlite3.Error when it cannot be read."""
    with _read_only(path) as db:
        cursor = db.execute(f"SELECT * FROM {_quoted(table)}")
        yield from _csv_lines([d[0] for d in cursor.description])
        for number, row in enumerate(cursor, start=1):
            cells = [_cell_text(v) for v in row]
            if any(len(c) > MAX_CELL_CHARS for c in cells):  # a generated column, a blob
                raise sqlite3.DataError(
                    f"row {number} of {table!r} holds a cell of more than "
                    f"{MAX_CELL_CHARS:,} characters"
                )
            yield from _csv_lines(cells)


def sqlite_records(
    path: Path, table: str, name: str, label: str = "", batch: int | None = None
) -> Iterator[TableChunk]:
    """One table of an SQLite file as :func:`records` reads its CSV text (the same header
    and cells, blank records skipped, the same batches; ``name`` and ``label`` as there),
    straight from its rows: no CSV written and parsed again. sqlite3.Error when it cannot be
    read."""
    label = table_label(name, label)
    with _read_only(path) as db:
        names = [str(d[0]) for d in db.execute(f"SELECT * FROM {_quoted(table)} LIMIT 0")
                 .description]  # fmt: skip
        header = [n.strip() for n in names]
        batch = batch or batch_rows(len(header))
        # each cell as its text in SQLite (NULL: "", an integer: its digits, as Python
        # writes them); a real number and a blob as they are, written here
        texts = ", ".join(
            f"CASE typeof({c}) WHEN 'real' THEN {c} WHEN 'blob' THEN {c} "
            f"ELSE COALESCE(CAST({c} AS TEXT), '') END"
            for c in map(_quoted, names)
        )
        cursor = db.execute(f"SELECT {texts} FROM {_quoted(table)}")
        rows: list[list[str]] = []
        number = 0
        while part := cursor.fetchmany(batch):
            if set(map(type, itertools.chain.from_iterable(part))) <= {str}:
                cells = list(map(list, part))
            else:
                cells = [list(map(_cell_text, row)) for row in part]
            longest = max(map(len, itertools.chain.from_iterable(cells)), default=0)
            if longest > MAX_CELL_CHARS:  # a generated column, a blob
                over = next(i for i, c in enumerate(cells) if max(map(len, c)) > MAX_CELL_CHARS)
                raise sqlite3.DataError(
                    f"row {number + over + 1} of {table!r} holds a cell of more than "
                    f"{MAX_CELL_CHARS:,} characters"
                )
            number += len(part)
            rows += [c for c in cells if "".join(c).strip()]  # a blank record: none
            while len(rows) >= batch:
                yield TableChunk(label, header, rows[:batch])
                rows = rows[batch:]
        yield TableChunk(label, header, rows)


@contextmanager
def _read_only(path: Path) -> Iterator[sqlite3.Connection]:
    """The file opened to read only, leaving nothing beside it: as immutable (no ``-shm`` or
    ``-wal`` made, works on read-only media) unless a write-ahead log holds changes the main
    file lacks, which only a reader that takes part in the log can see (its change is
    caught by the file stamps, the log's included)."""
    wal = path.with_name(path.name + "-wal")
    live = wal.is_file() and wal.stat().st_size > 0
    mode = "mode=ro" if live else "mode=ro&immutable=1"
    db = sqlite3.connect(f"{path.resolve().as_uri()}?{mode}", uri=True)
    try:
        db.text_factory = lambda b: b.decode("utf-8", errors="replace")
        yield db
    finally:
        db.close()


_MD_SEPARATOR = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")
_FIXED_RULE = re.compile(r"^\s*-{3,}(\s+-{3,})+\s*$")


def text_tables(text: str) -> list[str]:
    """The tables written in a text, as CSV: Markdown tables (a header row, a ``|---|`` row,
    then rows) and fixed-width ones (a header line over a rule of dashes per column, then
    lines cut at the rule's columns)."""
    lines = text.splitlines()
    found: list[str] = []
    i = 0
    while i + 1 < len(lines):
        if "|" in lines[i] and _MD_SEPARATOR.match(lines[i + 1]):
            header = _md_cells(lines[i])
            rows = []
            j = i + 2
            while j < len(lines) and "|" in lines[j] and lines[j].strip():
                rows.append(_md_cells(lines[j]))
                j += 1
            if rows:
                found.append(to_csv(header, rows))
            i = j
        elif lines[i].strip() and _FIXED_RULE.match(lines[i + 1]):
            spans = [m.span() for m in re.finditer(r"-+", lines[i + 1])]
            header = _fixed_cells(lines[i], spans)
            rows = []
            j = i + 2
            while j < len(lines) and lines[j].strip():
                rows.append(_fixed_cells(lines[j], spans))
                j += 1
            if rows:
                found.append(to_csv(header, rows))
            i = j
        else:
            i += 1
    return found


def _md_cells(line: str) -> list[str]:
    body = line.strip()
    body = body.removeprefix("|").removesuffix("|")
    return [cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", body)]


def _fixed_cells(line: str, spans: list[tuple[int, int]]) -> list[str]:
    """Cells of a fixed-width line: each column from its rule's start to the next one's."""
    starts = [s for s, _ in spans]
    cells = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(line)
        cells.append(line[start:end].strip())
    return cells


Dialect = type[csv.Dialect] | csv.Dialect
MAX_CELL_CHARS = 1_000_000
"""The longest cell an SQLite table may give (a generated column can make megabytes of text
of a few bytes of file: such a table is refused in one line, not read without end)."""
FIELD_LIMIT = 2**31 - 1
"""The longest CSV cell read (Python's default, 131,072 characters, refuses a long
description or an embedded image; a cell cannot be longer than the chunk holding it)."""


def big_fields() -> None:
    """Let the csv module read cells as long as a chunk (it keeps one limit a process)."""
    if csv.field_size_limit() < FIELD_LIMIT:
        csv.field_size_limit(FIELD_LIMIT)


def read_chunk(chunk: str, dialects: dict[str, Dialect] | None = None) -> TableChunk | None:
    """The table, header and records of a table chunk (``Table: <name>``, the header record,
    records); None when the chunk is not one. ``dialects`` keeps each table's CSV dialect as
    guessed from its first chunk, so every chunk of a table is read alike (and the guess,
    which builds a class each time, is made once per table)."""
    if not chunk.startswith("Table: "):
        return None
    first, _, body = chunk.partition("\n")
    name = first.removeprefix("Table: ").strip()
    dialect = None if dialects is None else dialects.get(name)
    if dialect is None:
        dialect = _dialect(body)
        if dialects is not None:
            dialects[name] = dialect
    big_fields()
    try:
        records = list(csv.reader(io.StringIO(body, newline=""), dialect))
    except csv.Error as exc:  # never split at commas: a quoted comma would shift the columns
        raise PrismError(f"the table {name} cannot be read as CSV: {exc}") from None
    records = [r for r in records if any(cell.strip() for cell in r)]
    if not records:
        return TableChunk(name, [], [])
    return TableChunk(name, [h.strip() for h in records[0]], records[1:])


def _dialect(body: str) -> Dialect:
    sample = body[:4096]
    try:
        return csv.Sniffer().sniff(
            sample[: sample.rfind("\n")] if "\n" in sample else sample, ",\t;|"
        )
    except csv.Error:
        return csv.excel_tab if "\t" in body.partition("\n")[0] else csv.excel


_INT = re.compile(r"[+-]?\d{1,18}")
_FLOAT = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?")


def typed(text: str) -> Cell:
    """A cell as a number when it is one (``"8"`` -> 8, ``"35.6"`` -> 35.6), None when empty,
    else its text (stripped)."""
    value = text.strip()
    if not value:
        return None
    if not (value[0].isdigit() or value[0] in "+-." or value[-1].isdigit()):
        return value  # a word: no number starts or ends so
    if _INT.fullmatch(value):
        digits = value.lstrip("+-")
        return value if len(digits) > 1 and digits.startswith("0") else int(value)  # a code
    if _FLOAT.fullmatch(value):
        number = float(value)
        if number == number and abs(number) != float("inf"):
            return number
    return value


BATCH_ROWS = 5_000
"""Records a table is read into its database at a time at most (one batch is held)."""
BATCH_CELLS = 24_000
"""Cells a batch holds, where that is from :data:`BATCH_LEAST` to :data:`BATCH_ROWS`
records: a batch's cells stay in the processor's caches while each of its columns is looked
at, counted and inserted. Measured on a 2-core AMD EPYC by benchmarks/tables/batches.py
(best of three, benchmarks/results/table-batches.txt; the cells counted as read): a 60,000 x
24 TSV is read in 0.28-0.30 s at 640 to 1,000 records a batch against 0.44 s at 5,000; a
6,000 x 200 CSV in 0.45-0.48 s at any of 640 to 5,000 (before the counting, 64 to 250 took
0.47-0.50 s against 0.37 s: each column's work a batch); 400,000 x 3 in 0.36-0.39 s at any."""
BATCH_LEAST = 1_000
"""Records a batch holds at least, however wide the table (:data:`BATCH_CELLS`)."""


def batch_rows(width: int) -> int:
    """Records a batch of a table ``width`` columns wide holds (:data:`BATCH_CELLS`)."""
    return min(BATCH_ROWS, max(BATCH_LEAST, BATCH_CELLS // max(1, width)))


def records(
    name: str, lines: Iterable[str], label: str = "", batch: int | None = None
) -> Iterator[TableChunk]:
    """A table given as lines (a file's, streamed) as batches of whole records, read by
    :mod:`csv` across line ends (a quoted cell may hold new lines, and any length up to
    :data:`FIELD_LIMIT`): the header first, then up to ``batch`` records a chunk; the dialect
    guessed from the head of the table. What a method whose records never enter a prompt
    reads: no token is counted, no chunk cut."""
    size = batch or BATCH_ROWS  # until the header says the table's width
    source = iter(lines)
    head: list[str] = []
    size = 0
    for line in source:
        head.append(line)
        size += len(line)
        if size >= 4096:
            break
    dialect = _dialect("".join(head))
    big_fields()
    table = table_label(name, label)
    reader = csv.reader(itertools.chain(head, source), dialect)
    header: list[str] | None = None
    rows: list[list[str]] = []
    try:
        while part := list(itertools.islice(reader, size)):  # a batch's records in C
            if (
                not all(part)
                or not all(firsts := list(map(_FIRST, part)))
                or any(map(str.isspace, firsts))
            ):  # maybe a blank record
                part = [r for r in part if any(r) and not "".join(r).isspace()]
            if header is None and part:
                header = [h.strip() for h in part[0]]
                part = part[1:]
                size = batch or batch_rows(len(header))
            rows += part
            while header is not None and len(rows) >= size:
                yield TableChunk(table, header, rows[:size])
                rows = rows[size:]
    except csv.Error as exc:
        raise PrismError(f"the table {table} cannot be read as CSV: {exc}") from None
    if header is not None:
        yield TableChunk(table, header, rows)


_FIRST = operator.itemgetter(0)
_INTS = re.compile(r"[+-]?(?:0|[1-9]\d{0,17})(?:\n[+-]?(?:0|[1-9]\d{0,17}))*")
_DECIMALS = re.compile(
    r"[+-]?(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d{1,2})?(?:\n[+-]?(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d{1,2})?)*"
)
_WORDS = re.compile(r"[^\W\d_](?:[^\n]*[^\d\s])?(?:\n[^\W\d_](?:[^\n]*[^\d\s])?)*")


def typed_column(texts: Sequence[str]) -> list[Cell]:
    """:func:`typed` of every cell of a column, the same cells, at C speed where the whole
    column is plain integers, decimals with a point, or words (one regular expression over
    the column decides; any other column is typed cell by cell)."""
    if not texts:
        return []
    joined = "\n".join(texts)
    if "\r" not in joined:
        if _INTS.fullmatch(joined):
            return [int(t) for t in texts]
        if _DECIMALS.fullmatch(joined):
            return [float(t) for t in texts]
        if _WORDS.fullmatch(joined):
            return list(texts)
    return [typed(t) for t in texts]
