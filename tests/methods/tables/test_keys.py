"""Links a database does not declare (issue 53, round 4): a column whose values are a
table's codes ("origin" holds airports' ``faa``) joins that table, so a name said of it
selects the other's rows ("flights from Kennedy International")."""

from __future__ import annotations

from prism_edge.methods.tables.db import Database, Link
from prism_edge.methods.tables.keys import code_links
from prism_edge.methods.tables.mentions import read
from prism_edge.text.tables import TableChunk
from tests.methods.tables.made_up import ask, asked_tables

AIRPORTS = [
    ["EWR", "Newark Liberty Intl", "18"], ["LGA", "La Guardia", "22"],
    ["JFK", "John F Kennedy Intl", "13"], ["MDW", "Chicago Midway Intl", "620"],
    ["DTA", "Delta Municipal", "4759"],
]  # fmt: skip
FLIGHTS = [["DL", "10", "JFK", "MDW", "5"], ["DL", "11", "LGA", "MDW", "25"],
           ["UA", "12", "EWR", "JFK", "-3"], ["UA", "13", "JFK", "LGA", "40"],
           ["UA", "14", "JFK", "MDW", "0"]]  # fmt: skip


def flights_db() -> Database:
    db = Database()
    db.add(TableChunk("airports", ["faa", "name", "alt"], [list(r) for r in AIRPORTS]))
    airlines = [["DL", "Delta Air Lines Inc."], ["UA", "United Air Lines Inc."]]
    db.add(TableChunk("airlines", ["carrier", "name"], airlines))
    db.add(TableChunk("flights", ["carrier", "flight", "origin", "dest", "dep_delay"],
                      [list(r) for r in FLIGHTS]))  # fmt: skip
    db.declared = [Link("flights", "carrier", "airlines", "carrier")]
    for sheet in db.sheets.values():
        read("", db, [sheet])  # profiled, as a question's reading does
    return db


def test_columns_holding_a_tables_codes_link_to_it():
    db = flights_db()
    found = {(k.left, k.left_column, k.right, k.right_column) for k in code_links(db)}
    assert found == {("flights", "origin", "airports", "faa"),
                     ("flights", "dest", "airports", "faa")}  # fmt: skip
    db.close()


def test_a_name_said_of_the_codes_table_selects_the_rows_holding_its_code():
    db = flights_db()
    assert ask(db, "How many flights left from Kennedy International?") == ["3"]
    assert ask(db, "What was the average departure delay of flights from Newark Liberty?") == ["-3"]
    db.close()


def test_no_join_by_codes_for_a_name_a_linked_table_already_holds(monkeypatch):
    """ "Delta" names an airline (linked to flights by its carrier) as well as an airport:
    the flights are not joined with the airports by their codes for it (each such join of a
    big table costs the question time)."""
    asked = asked_tables(monkeypatch)
    db = flights_db()
    assert ask(db, "How many flights did Delta fly?") == ["2"]
    assert "flights and airlines" in asked and "flights and airports" not in asked
    asked.clear()
    ask(db, "How many flights left from Kennedy International?")
    assert "flights and airports" in asked  # by the origin and by the destination
    db.close()
