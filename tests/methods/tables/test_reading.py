"""Reading a table into the database at a database's speed (issue 53 point 5): a column's
cells stored as each cell alone would be (stripped, the marks of no value as none), whatever
shortcut decides it; short and long records."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prism_edge.methods.tables import db as db_module
from prism_edge.methods.tables.db import Database, _cell, _cells
from prism_edge.text.tables import TableChunk

TRICKY = ["", " ", "\t", "\n", "\r", "\xa0", "\u2003", "\x1c", "\u212a", "ß", "—", "-", "N",
          "A", "n", "a", "/", ".", "?", "u", "k", "o", "w", "l", "1", "5", "x", ","]  # fmt: skip


@given(st.lists(st.lists(st.sampled_from(TRICKY), max_size=8).map("".join), max_size=12))
def test_a_column_is_stored_as_each_of_its_cells_would_be(texts):
    assert list(_cells(texts)) == [_cell(t) for t in texts]


def test_the_marks_of_no_value_in_any_case_and_space_at_the_edges_are_found():
    column = ["12", "NA", "n/A", " 7", "8 ", "", "UNKNOWN", "un\u212anown", "x\ny", "—"]
    assert list(_cells(column)) == ["12", None, None, "7", "8", None, None, None, "x\ny", None]
    clean = ("12", "7.5", "Fossil Fuels", "na na")
    assert _cells(clean) is clean  # nothing to change: the texts themselves


def test_short_records_are_padded_with_none_and_long_ones_cut():
    db = Database()
    db.add(TableChunk("t", ["a", "b", "c"], [["1", "2", "3"], ["4"], ["5", "6", "7", "8"]]))
    rows = db.db.execute("SELECT _row, c0, c1, c2 FROM t0 ORDER BY _row").fetchall()
    assert rows == [(0, "1", "2", "3"), (1, "4", None, None), (2, "5", "6", "7")]
    db.add(TableChunk("t", ["a", "b", "c"], [[" 9 ", "N/A", "x"]]))
    assert db.db.execute("SELECT * FROM t0 WHERE _row = 3").fetchone() == (3, "9", None, "x")


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
