"""Age said of people whose birth date a table splits in three columns (issue 53, the
databases): "the youngest" is the one born last, by year, month and day together."""

from __future__ import annotations

from prism_edge.methods.tables import naming
from prism_edge.methods.tables.db import Database, Link
from prism_edge.text.tables import TableChunk
from tests.methods.tables.made_up import ask, asked_tables

PEOPLE = [  # playerID, nameFirst, nameLast, birthYear, birthMonth, birthDay
    ["uriasju01", "Julio", "Urias", "1996", "8", "12"],
    ["seageco01", "Corey", "Seager", "1994", "4", "27"],
    ["diazed01", "Edwin", "Diaz", "1994", "3", "22"],
    ["colonba01", "Bartolo", "Colon", "1973", "5", "24"],
    ["dejonpa01", "Paul", "DeJong", "1993", "8", "2"],
    ["ohtansh01", "Shohei", "Ohtani", "1994", "7", "5"],
]  # fmt: skip
BATTING = [["uriasju01", "2017"], ["seageco01", "2016"], ["diazed01", "2016"],
           ["colonba01", "2016"], ["dejonpa01", "2016"], ["ohtansh01", "2018"],
           ["seageco01", "2017"], ["colonba01", "2017"]]  # fmt: skip


def players_db(awards: bool = False) -> Database:
    db = Database()
    db.add(TableChunk("People", ["playerID", "nameFirst", "nameLast", "birthYear", "birthMonth",
                                 "birthDay"], [list(r) for r in PEOPLE]))  # fmt: skip
    db.add(TableChunk("Batting", ["playerID", "yearID"], [list(r) for r in BATTING]))
    db.declared = [Link("Batting", "playerID", "People", "playerID")]
    for table in ("Awards", "AllStars", "Honors") if awards else ():  # a few players each
        db.add(TableChunk(table, ["playerID", "yearID"], [["colonba01", "2016"],
                                                          ["dejonpa01", "2016"]]))  # fmt: skip
        db.declared.insert(0, Link(table, "playerID", "People", "playerID"))
    return db


def test_a_date_in_three_columns_is_one_column_of_dates():
    db = players_db()
    (column,) = naming.whole_dates(db, db.sheets["People"])
    assert column.name == "birth date"
    texts = [r[0] for r in db.db.execute(f"SELECT {column.text} FROM t0 ORDER BY _row")]
    assert texts[:2] == ["1996-08-12", "1994-04-27"]
    db.close()


def test_the_youngest_is_born_last_by_year_month_and_day():
    """Seager and Diaz were both born in 1994: Seager in April, Diaz in March."""
    db = players_db()
    assert ask(db, "Who was the youngest player in 2016?") == ["Corey Seager"]
    assert ask(db, "Who was the oldest player in 2017?") == ["Bartolo Colon"]
    db.close()


def test_of_tables_that_say_as_much_the_widest_is_joined(monkeypatch):
    """Three tables of a few players' seasons and Batting, of every player's, say as much of
    the question: Batting is joined (at most three pairs are)."""
    asked = asked_tables(monkeypatch)
    db = players_db(awards=True)
    ask(db, "Who was the youngest player in 2016?")
    assert "Batting and People" in asked
    db.close()


def test_the_oldest_thing_is_of_the_earliest_year_of_its_table():
    """The oldest plane is N3 (1956), flown by American; United flew the most flights."""
    db = Database()
    airlines = [["UA", "United Air Lines Inc."], ["AA", "American Airlines Inc."],
                ["B6", "JetBlue Airways"]]  # fmt: skip
    db.add(TableChunk("airlines", ["carrier", "name"], airlines))
    planes = [["N1", "2004", "150"], ["N2", "1999", "180"], ["N3", "1956", "102"],
              ["N4", "2011", "200"]]  # fmt: skip
    db.add(TableChunk("planes", ["tailnum", "year", "seats"], planes))
    rows = [["UA", "N1", "2013", "300"], ["UA", "N2", "2013", "250"],
            ["UA", "N1", "2013", "310"], ["AA", "N3", "2013", "120"],
            ["B6", "N4", "2013", "400"], ["UA", "N2", "2013", "90"]]  # fmt: skip
    db.add(TableChunk("flights", ["carrier", "tailnum", "year", "air_time"], rows))
    db.declared = [Link("flights", "carrier", "airlines", "carrier"),
                   Link("flights", "tailnum", "planes", "tailnum")]  # fmt: skip
    assert ask(db, "Which airline flew the oldest plane?") == ["American Airlines Inc."]
    db.close()


def test_only_a_table_named_by_the_noun_dates_its_things():
    """ "the oldest plane": the years of ``planes``; "the youngest player": not the years of
    ``AwardsPlayers`` (a year an award was given)."""
    from prism_edge.methods.tables.ages import births
    from prism_edge.methods.tables.mentions import read

    db = Database()
    planes, _ = db.add(TableChunk("planes", ["tailnum", "year"], [["N1", "2004"], ["N2", "1956"]]))
    awards, _ = db.add(TableChunk("AwardsPlayers", ["playerID", "yearID"],
                                  [["troutmi01", "2016"], ["bettsmo01", "2018"]]))  # fmt: skip
    assert births(planes, read("Which is the oldest plane?", db, [planes]).words) == [1]
    assert births(awards, read("Who is the youngest player?", db, [awards]).words) == []
    db.close()
