"""A year said over a database dates rows by a year column the question's words support, or
the table's own year (issue 53, the databases): "in 2017" is a season, not the year a player
died."""

from __future__ import annotations

from prism_edge.methods.tables.db import Database, Link
from prism_edge.methods.tables.enumerate import conditions
from prism_edge.methods.tables.mentions import dates_rows, read
from prism_edge.text.tables import TableChunk
from tests.methods.tables.made_up import ask

PEOPLE = [  # playerID, nameFirst, nameLast, birthYear, deathYear
    ["venturyo01", "Yordano", "Ventura", "1991", "2017"],
    ["stantgi01", "Giancarlo", "Stanton", "1989", ""],
    ["judgeaa01", "Aaron", "Judge", "1992", ""],
    ["fernajo02", "Jose", "Fernandez", "1992", "2016"],
]  # fmt: skip
SEASONS = [  # playerID, yearID, R (runs)
    ["stantgi01", "2017", "123"], ["judgeaa01", "2017", "128"], ["venturyo01", "2016", "0"],
    ["stantgi01", "2016", "56"], ["judgeaa01", "2016", "10"], ["fernajo02", "2016", "10"],
    ["judgeaa01", "2015", "5"],
]  # fmt: skip


def players_db() -> Database:
    db = Database()
    db.add(TableChunk("People", ["playerID", "nameFirst", "nameLast", "birthYear", "deathYear"],
                      [list(r) for r in PEOPLE]))  # fmt: skip
    db.add(TableChunk("Seasons", ["playerID", "yearID", "R"], [list(r) for r in SEASONS]))
    db.declared = [Link("Seasons", "playerID", "People", "playerID")]
    return db


def test_a_year_said_is_a_season_not_the_year_someone_died():
    db = players_db()
    assert ask(db, "Who scored the most runs in 2017?") == ["Aaron Judge"]
    db.close()


def test_a_year_said_dates_rows_by_the_column_the_words_name():
    db = players_db()
    people = db.sheets["People"]
    death, birth = people.columns[4], people.columns[3]
    for question, allowed in (("Who died in 2017?", {death.index}),
                              ("How many players were born in 1992?", {birth.index}),
                              ("Who scored the most runs in 2017?", set())):  # fmt: skip
        reading = read(question, db, [people])
        year = next(n.start for n in reading.numbers if n.year)
        assert {c.index for c in (birth, death) if dates_rows(reading, people, c, year)} == allowed
        cells, numbers = conditions(reading, people)
        assert {c.column for c in cells + numbers} <= allowed
    seasons = db.sheets["Seasons"]
    reading = read("Who scored the most runs in 2017?", db, [seasons])
    assert dates_rows(reading, seasons, seasons.columns[1], 7)  # the table's own year: yearID
    db.close()


def test_over_one_table_a_year_may_date_rows_by_any_column_of_years():
    db = Database()
    sheet, _ = db.add(TableChunk("People", ["name", "birthYear", "deathYear"],
                                 [["A", "1901", "1950"], ["B", "1920", "1990"]]))  # fmt: skip
    reading = read("Who was still alive in 1950?", db, [sheet])
    assert all(dates_rows(reading, sheet, c, 6) for c in sheet.columns[1:])
    db.close()


def test_from_a_year_through_another_is_a_range():
    db = players_db()
    reading = read("How many runs did Aaron Judge score from 2015 through 2017?", db)
    assert reading.ranges == [(0, 1)]
    sheet = db.sheets["Seasons"]
    _, numbers = conditions(reading, sheet)
    assert any(c.op == "between" and c.column == 1 for c in numbers)
    db.close()
