"""What a question over a database measures (issue 53, flights and baseball): the column it
names by its words or short form is what it orders, totals or compares by, over whichever
table holds it; "which" and "who" ask a name, not a count; a column the question's own
conditions hold at one value is no measure."""

from __future__ import annotations

from prism_edge.methods.tables.db import Database, Link
from prism_edge.text.tables import TableChunk
from tests.methods.tables.made_up import ask
from tests.methods.tables.test_database_counts import flights_db

PEOPLE = [  # playerID, name, birthYear
    ["alonspe01", "Pete Alonso", "1994"], ["bellico01", "Cody Bellinger", "1995"],
    ["judgeaa01", "Aaron Judge", "1992"], ["troutmi01", "Mike Trout", "1991"],
]  # fmt: skip
BATTING = [  # playerID, yearID, HR, R
    ["alonspe01", "2019", "53", "103"], ["bellico01", "2019", "47", "121"],
    ["judgeaa01", "2017", "52", "128"], ["judgeaa01", "2019", "27", "75"],
    ["troutmi01", "2017", "33", "92"], ["troutmi01", "2019", "45", "110"],
    ["alonspe01", "2020", "16", "31"], ["bellico01", "2020", "12", "33"],
    ["judgeaa01", "2020", "9", "23"], ["troutmi01", "2020", "17", "41"],
    ["bellico01", "2017", "39", "87"], ["troutmi01", "2018", "39", "101"],
]  # fmt: skip
AWARDS = [  # playerID, awardID, yearID
    ["judgeaa01", "Rookie of the Year", "2017"], ["judgeaa01", "Silver Slugger", "2017"],
    ["judgeaa01", "TSN All-Star", "2017"], ["troutmi01", "Most Valuable Player", "2019"],
]  # fmt: skip


def baseball_db() -> Database:
    db = Database()
    db.add(TableChunk("People", ["playerID", "name", "birthYear"], [list(r) for r in PEOPLE]))
    db.add(TableChunk("Batting", ["playerID", "yearID", "HR", "R"], [list(r) for r in BATTING]))
    db.add(TableChunk("AwardsPlayers", ["playerID", "awardID", "yearID"],
                      [list(r) for r in AWARDS]))  # fmt: skip
    db.declared = [Link("Batting", "playerID", "People", "playerID"),
                   Link("AwardsPlayers", "playerID", "People", "playerID")]  # fmt: skip
    return db


def test_which_of_two_compares_by_the_column_the_question_names_in_another_table():
    """Alonso hit 53 to Bellinger's 47 in 2019; Bellinger is the younger (birthYear)."""
    db = baseball_db()
    question = "Which player hit more home runs in 2019, Pete Alonso or Cody Bellinger?"
    assert ask(db, question) == ["Pete Alonso"]
    db.close()


def test_how_many_of_a_measure_totals_it_over_the_table_that_holds_it():
    """Judge hit 52 home runs in 2017, and won three awards that year: not a count of rows."""
    db = baseball_db()
    assert ask(db, "How many home runs did Aaron Judge hit in 2017?") == ["52"]
    db.close()


def test_which_asks_a_name_not_a_count_of_rows():
    """N3 flew twice for JetBlue: the airline is asked, not the number of its flights."""
    db = flights_db()
    assert ask(db, "Which airline flies the plane with tail number N3?") == ["JetBlue Airways"]
    db.close()


def test_how_much_a_thing_cost_is_not_in_a_database_without_a_price():
    """ "How much did a ticket cost" asks a price: no table of flights, airlines and planes
    holds one; a database with fares answers it."""
    db = flights_db()
    assert ask(db, "How much did a JetBlue ticket out of EWR cost?") == [
        "no column holds 'how much ... cost'"
    ]
    db.close()
    db = flights_db()
    fares = [["B6", "EWR", "129"], ["UA", "EWR", "189"], ["B6", "JFK", "99"]]
    db.add(TableChunk("fares", ["carrier", "origin", "fare"], fares))
    assert ask(db, "How much did a JetBlue ticket out of EWR cost?") != [
        "no column holds 'how much ... cost'"
    ]
    db.close()


def test_a_place_named_in_part_joins_the_table_that_names_it_along_a_path():
    """ "out of Newark": two airports' names hold it (one has no flights); the flights of
    the one that has some, joined to their airlines: ExpressJet's delay is the worst there,
    Hawaiian's over every airport; United flew the most, Hawaiian the fewest."""
    db = Database()
    db.add(TableChunk("airlines", ["carrier", "name"],
                      [["HA", "Hawaiian Airlines Inc."], ["UA", "United Air Lines Inc."],
                       ["EV", "ExpressJet Airlines Inc."]]))  # fmt: skip
    db.add(TableChunk("airports", ["faa", "name"],
                      [["EWR", "Newark Liberty Intl"], ["EWN", "Newark Penn Station"],
                       ["JFK", "John F Kennedy Intl"], ["HNL", "Honolulu Intl"]]))  # fmt: skip
    flights = [  # carrier, origin, dest, dep_delay
        ["EV", "EWR", "HNL", "30"], ["EV", "EWR", "JFK", "40"], ["UA", "EWR", "HNL", "5"],
        ["UA", "EWR", "JFK", "15"], ["HA", "JFK", "HNL", "90"], ["HA", "JFK", "HNL", "80"],
        ["UA", "JFK", "HNL", "0"], ["EV", "JFK", "HNL", "2"], ["UA", "JFK", "HNL", "3"],
        ["UA", "JFK", "HNL", "1"], ["UA", "EWR", "JFK", "12"], ["EV", "JFK", "HNL", "1"],
    ]  # fmt: skip
    db.add(TableChunk("flights", ["carrier", "origin", "dest", "dep_delay"], flights))
    db.declared = [Link("flights", "carrier", "airlines", "carrier"),
                   Link("flights", "origin", "airports", "faa"),
                   Link("flights", "dest", "airports", "faa")]  # fmt: skip
    question = "Which airline had the worst average departure delay out of Newark?"
    assert ask(db, question) == ["ExpressJet Airlines Inc."]
    db.close()
