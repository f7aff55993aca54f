"""Reading and typing a table at a database's speed (issue 53 point 5): short and long
records, every column profiled in one pass as it would be alone, the collector paused while
a batch is read."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prism_edge.methods.tables import db as db_module
from prism_edge.methods.tables.db import Database, _cell
from prism_edge.text.tables import TableChunk, records

CELLS = ["1", "2.5", "x", "Bob Smith", "", " ", " 5", "5 ", "5\t", "\x1f5", "\xa05", "5\u3000",
         "NA", "na", "N/A", "n.a.", "A.B.", "#N/A", "-", "--", "—", "−", "?", "??", "...",
         "....", "NULL", "None", "nil", "UNKNOWN", "unknowns", "TBD", "NAB", "N/AB", "PG",
         " NA ", "nan", "Ålesund", "x\x00y", "a\nb", "-3", "1,000", "2004-08-15"]  # fmt: skip
"""Cells a column's fast check must tell apart: marks of no value in any case, spaces of
every kind at either end, non-ASCII marks and spaces, shapes of marks that are none."""


def test_short_records_are_padded_with_none_and_long_ones_cut():
    db = Database()
    db.add(TableChunk("t", ["a", "b", "c"], [["1", "2", "3"], ["4"], ["5", "6", "7", "8"]]))
    rows = db.db.execute("SELECT _row, c0, c1, c2 FROM t0 ORDER BY _row").fetchall()
    assert rows == [(0, "1", "2", "3"), (1, "4", None, None), (2, "5", "6", "7")]
    db.add(TableChunk("t", ["a", "b", "c"], [[" 9 ", "N/A", "x"]]))
    assert db.db.execute("SELECT * FROM t0 WHERE _row = 3").fetchone() == (3, "9", None, "x")


@given(st.lists(st.lists(st.sampled_from(CELLS), min_size=0, max_size=4), min_size=1,
                max_size=12))  # fmt: skip
def test_a_batch_is_stored_as_each_cell_would_be(rows):
    """The column-wise reading (a column left as it is when a check over its joined cells
    finds nothing to change) stores every cell as :func:`_cell` says, records of any
    length, in their order, however many an INSERT takes."""
    expected = [
        (i, *(_cell(c) for c in r[:3]), *([None] * (3 - len(r[:3]))))
        for i, r in enumerate(rows + rows[:2])
    ]
    for many, parameters in ((64, 999), (2, 999), (64, 7)):  # records an INSERT inserts
        db = Database()
        inserted, db.parameters = db_module.INSERTED, parameters
        db_module.INSERTED = many
        try:
            db.add(TableChunk("t", ["a", "b", "c"], [list(r) for r in rows]))
            db.add(TableChunk("t", ["a", "b", "c"], [list(r) for r in rows[:2]]))
        finally:
            db_module.INSERTED = inserted
        stored = db.db.execute("SELECT _row, c0, c1, c2 FROM t0 ORDER BY _row").fetchall()
        assert stored == expected


def test_blank_records_are_skipped_and_every_batch_but_the_last_is_full():
    text = "a,b\n1,x\n\n , \n2,y\n,\n3,z\n4,w\n\n5,v\n"
    batches = list(records("t.csv", io.StringIO(text, newline=""), batch=2))
    assert [b.header for b in batches] == [["a", "b"]] * 3
    assert [b.rows for b in batches] == [[["1", "x"], ["2", "y"]], [["3", "z"], ["4", "w"]],
                                         [["5", "v"]]]  # fmt: skip
    even = list(records("t.csv", io.StringIO("\n \na,b\n1,x\n2,y\n", newline=""), batch=2))
    assert [b.rows for b in even] == [[["1", "x"], ["2", "y"]], []]  # as it was: a last, empty


def _profiles(db: Database, sheet) -> list[tuple]:  # type: ignore[no-untyped-def]
    return [(c.present, c.distinct, c.big, c.plain, c.top, c.kind, c.low, c.high, c.total,
             sheet.values.get(c.index), sheet.raw.get(c.index)) for c in sheet.columns]  # fmt: skip


@pytest.mark.parametrize("odd", [0, 4, 7, 9])  # a text not a plain number: when? (9: none)
def test_every_column_profiled_in_one_pass_is_profiled_as_alone(monkeypatch, odd):
    monkeypatch.setattr(db_module, "HELD_VALUES", 4)  # past 4 distinct texts: a big column
    monkeypatch.setattr(db_module, "COUNTED", 3)  # three records counted at a time
    monkeypatch.setattr(db_module, "SAMPLE", 0)  # a big column's plainness from every cell
    rows = [[str(i), str(i % 3), "NA" if i % 4 else "x", f"{i}.5"] for i in range(9)]
    if odd < 9:
        rows[odd][0] = "1,000"
    one, each = Database(), Database()
    for db in (one, each):
        db.add(TableChunk("t", ["id", "group", "flag", "half"], [list(r) for r in rows]))
    (sheet,) = one.sheets.values()
    one.type_all(sheet)
    (alone,) = each.sheets.values()
    for column in alone.columns:
        each.typed(alone, column)
    assert _profiles(one, sheet) == _profiles(each, alone)
    ids, group = sheet.columns[0], sheet.columns[1]
    assert ids.big and ids.plain == (odd == 9) and ids.present == 9 and ids.distinct == 9
    assert not group.big and group.top == [("0", 3), ("1", 3), ("2", 3)]
    assert sheet.columns[2].present == 3 and sheet.columns[3].big and sheet.columns[3].plain


def test_the_collector_is_paused_while_a_batch_is_read_and_resumed_after(tmp_path, monkeypatch):
    import gc

    from prism_edge.backends.scripted import ScriptedBackend
    from prism_edge.engine.tables import TableSession
    from prism_edge.methods import make
    from prism_edge.methods.presets import TASKS
    from prism_edge.methods.tables import TableFacts
    from prism_edge.text import tables as table_text
    from prism_edge.text.inputs import collect

    monkeypatch.setattr(table_text, "BATCH_ROWS", 2)
    path = tmp_path / "t.csv"
    path.write_text("a,b\n1,x\n2,y\n3,z\n", encoding="utf-8")
    task = TASKS["table-qa"]
    config = task.configure("How many rows?")
    method = make("tables", task.schema, config, chooser="program")
    assert isinstance(method, TableFacts)
    during: list[bool] = []
    ingest = TableFacts.ingest

    def seen(self, run, index, read):  # type: ignore[no-untyped-def]
        during.append(gc.isenabled())
        return ingest(self, run, index, read)

    monkeypatch.setattr(TableFacts, "ingest", seen)
    session = TableSession(
        ScriptedBackend(), task.schema, config, method, collect([str(path)]).documents
    )
    between = [gc.isenabled() for _ in session.events()]
    assert during == [False, False] and all(between) and gc.isenabled()
    assert session.result.answer == "3"


def test_an_sqlite_table_is_read_straight_as_its_csv_text_would_be(tmp_path):
    """An SQLite table's rows become records without CSV written and read again: the same
    header, cells (NULL, integers, reals, blobs, quotes, commas, new lines), blank records
    skipped, the same batches."""
    import sqlite3

    from prism_edge.text.tables import sqlite_csv_lines, sqlite_records

    path = tmp_path / "t.db"
    with sqlite3.connect(path) as db:
        db.execute('CREATE TABLE "my t" (" a " TEXT, b INTEGER, c REAL, "d,e" BLOB, f)')
        rows = [("x", 1, 0.1, b"\x00\xff", None), (None, None, None, None, None),
                ("  ", None, None, None, " "), ('say "hi", then\ngo', -7, 1e16, None, 2.5),
                ("Ålesund", 2**62, -0.0, b"", "12"), ("", 0, 3.0, None, "")]  # fmt: skip
        db.executemany('INSERT INTO "my t" VALUES (?, ?, ?, ?, ?)', rows * 3)
    for batch in (2, 5, 100):
        straight = list(sqlite_records(path, "my t", "t.db#my t", "my t", batch=batch))
        as_csv = list(records("t.db#my t", sqlite_csv_lines(path, "my t"), "my t", batch=batch))
        assert straight == as_csv
    assert straight[0].header == ["a", "b", "c", "d,e", "f"] and straight[0].table == "my t"
    assert straight[0].rows[:2] == [["x", "1", "0.1", "00ff", ""],
                                    ['say "hi", then\ngo', "-7", "1e+16", "", "2.5"]]  # fmt: skip
    assert sum(len(b.rows) for b in straight) == 12  # two blank records of six skipped, thrice


def test_a_big_column_of_plain_numbers_needs_no_sample_to_be_one_of_numbers(monkeypatch):
    """A big column whose every cell is a plain number is one of numbers with its exact
    least, greatest, sum and count, whatever a sample would have taken; a big column of
    all different texts has no most frequent one."""
    monkeypatch.setattr(db_module, "HELD_VALUES", 4)
    db = Database()
    rows = [[str(i * 3), f"name {i}", "" if i % 4 else "NA"] for i in range(1, 41)]
    db.add(TableChunk("t", ["votes", "title", "x"], rows))
    (sheet,) = db.sheets.values()
    sample = db_module.Database._count
    monkeypatch.setattr(db_module.Database, "_count", staticmethod(
        lambda column, *a: None if column.index == 0 else sample(column, *a)))  # fmt: skip
    db.type_all(sheet)
    votes, title = sheet.columns[0], sheet.columns[1]
    assert votes.big and votes.plain and votes.kind == "number"
    assert (votes.present, votes.numbers, votes.distinct) == (40, 40, 40)
    assert (votes.low, votes.high, votes.total) == (3.0, 120.0, 3.0 * 820)
    assert title.big and not title.plain and title.kind == "text" and title.top == []
