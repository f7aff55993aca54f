"""What a question mentions of a table: the cells it names, the numbers it holds."""

from __future__ import annotations

from prism_edge.methods.tables.db import Database
from prism_edge.methods.tables.mentions import read
from prism_edge.text.tables import TableChunk


def test_the_places_an_answer_is_rounded_to_name_no_cell():
    db = Database()
    rows = [["1", "83.0"], ["2", "88.5"], ["3", "88.2"]]
    sheet, _ = db.add(TableChunk("prices", ["Obs", "deflator"], rows))
    db.prepare(sheet)
    db.type_all(sheet)
    reading = read("What was the average deflator, rounded to 2 decimal places?", db, [sheet])
    assert not reading.cells  # "2" says how to round, not the row whose Obs is 2
    reading = read("What was the deflator of observation 2?", db, [sheet])
    assert [m.values for m in reading.cells] == [("2",)]
    db.close()
    db = Database()
    sheet, _ = db.add(
        TableChunk("results", ["year", "position"], [["2001", "1st"], ["2002", "3rd"]])
    )
    db.prepare(sheet)
    db.type_all(sheet)
    reading = read("How many times did he finish in 1st place?", db, [sheet])
    assert [m.values for m in reading.cells] == [("1st",)]  # a place, not a rounding
    db.close()
