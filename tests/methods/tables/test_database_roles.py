"""A table linked to another by two columns (a flight's origin and its destination, both
airports): joined once by each, a name said after "from" is the origin's, one said after
"to" the destination's; a question asking "which airports" lists every one (issue 53, the
databases)."""

from __future__ import annotations

from prism_edge.methods.tables import codes
from prism_edge.methods.tables.db import Database, Link
from prism_edge.methods.tables.keys import code_links
from prism_edge.methods.tables.mentions import read
from prism_edge.methods.tables.paths import twice
from prism_edge.text.tables import TableChunk
from tests.methods.tables.made_up import ask

AIRPORTS = [["EWR", "Newark Liberty Intl"], ["JFK", "John F Kennedy Intl"],
            ["LGA", "La Guardia"], ["DEN", "Denver Intl"], ["SEA", "Seattle Tacoma Intl"],
            ["ATL", "Hartsfield Jackson Atlanta Intl"]]  # fmt: skip
AIRLINES = [["UA", "United Air Lines Inc."], ["B6", "JetBlue Airways"],
            ["DL", "Delta Air Lines Inc."], ["AS", "Alaska Airlines Inc."]]  # fmt: skip
FLIGHTS = [  # carrier, origin, dest, distance
    ["UA", "EWR", "DEN", "1605"], ["UA", "LGA", "DEN", "1620"], ["DL", "LGA", "ATL", "762"],
    ["B6", "JFK", "SEA", "2422"], ["AS", "EWR", "SEA", "2402"], ["DL", "JFK", "ATL", "760"],
    ["UA", "EWR", "SEA", "2402"], ["DL", "LGA", "DEN", "1620"], ["B6", "JFK", "ATL", "760"],
]  # fmt: skip


def flights_db() -> Database:
    db = Database()
    db.add(TableChunk("airlines", ["carrier", "name"], [list(r) for r in AIRLINES]))
    db.add(TableChunk("airports", ["faa", "name"], [list(r) for r in AIRPORTS]))
    db.add(TableChunk("flights", ["carrier", "origin", "dest", "distance"],
                      [list(r) for r in FLIGHTS]))  # fmt: skip
    db.declared = [Link("flights", "carrier", "airlines", "carrier")]
    for sheet in db.sheets.values():
        db.type_all(sheet)
    return db


def test_a_table_linked_twice_is_joined_once_by_each_link():
    db = flights_db()
    roles = [k for k in code_links(db) if k.right == "airports"]
    assert {k.left_column for k in roles} == {"origin", "dest"}
    sheet = twice(db, roles)
    names = [c.name for c in sheet.columns]
    assert "airports origin name" in names and "airports dest name" in names
    assert set(sheet.via.values()) == {1, 2}  # each copy by the column it was joined on
    reading = read("How many flights went from Newark to Denver?", db, [sheet])
    said = {(names[m.column], m.values) for m in reading.cells}
    assert ("airports origin name", ("newark liberty intl",)) in said
    assert ("airports dest name", ("denver intl",)) in said
    assert ("airports dest name", ("newark liberty intl",)) not in said
    assert ("airports origin name", ("denver intl",)) not in said
    db.close()


def test_which_airports_lists_the_origins_of_flights_to_a_destination():
    db = flights_db()
    origins = sorted(ask(db, "Which airports had flights to Denver?"))
    assert origins == ["La Guardia", "Newark Liberty Intl"]
    db.close()


def test_which_airlines_lists_every_airline_over_a_join():
    db = flights_db()
    assert sorted(ask(db, "Which airlines flew to Seattle?")) == [
        "Alaska Airlines Inc.", "JetBlue Airways", "United Air Lines Inc."]  # fmt: skip
    db.close()


def test_a_questions_first_word_is_no_initial():
    """ "Which New ..." is not Southwest's ``WN``: the first word has its capital because it
    begins the question."""
    db = Database()
    rows = [["WN", "Southwest Airlines Co."], ["NW", "Northwest"]]
    sheet, _ = db.add(TableChunk("airlines", ["carrier", "name"], rows))
    question = "Which New York airports had flights to Denver?"
    assert not codes.initials(question, read(question, db, [sheet]).words, sheet,
                              sheet.columns[0])  # fmt: skip
    db.close()


def test_the_parts_of_a_date_name_no_cell():
    """ "on 1/1/2013" is a month and a day, not a delay of one minute."""
    db = Database()
    sheet, _ = db.add(TableChunk("flights", ["month", "day", "dep_delay", "dest"],
                                 [["1", "1", "1", "DEN"], ["1", "2", "5", "SEA"]]))  # fmt: skip
    reading = read("Where did the first flight on 1/2/2013 go?", db, [sheet])
    assert not [m for m in reading.cells if m.column == 2]
    db.close()


def test_where_a_row_went_is_its_destination():
    """The first flight out of Newark went to Denver (United's 1605 miles)."""
    db = flights_db()
    assert ask(db, "Where did the first flight out of Newark go?") == ["Denver Intl"]
    db.close()
