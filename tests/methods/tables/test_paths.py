"""Join paths of two links (issue 53, round 4): a person named in one table, his seasons in a
second, the team's name in a third ("which team did Mookie Betts play for in 2019?"), over a
made-up database."""

from __future__ import annotations

from prism_edge.methods.tables.db import Database, Link
from prism_edge.methods.tables.paths import chain, paths
from prism_edge.text.tables import TableChunk
from tests.methods.tables.made_up import ask

TEAMS = [
    ["2019", "BOS", "Boston Red Sox", "84"], ["2019", "LAA", "Los Angeles Angels", "72"],
    ["2020", "LAN", "Los Angeles Dodgers", "43"], ["2020", "LAA", "Los Angeles Angels", "26"],
    ["2019", "LAN", "Los Angeles Dodgers", "106"], ["2020", "BOS", "Boston Red Sox", "24"],
]  # fmt: skip
BATTING = [["bettsmo01", "2019", "BOS", "29"], ["bettsmo01", "2020", "LAN", "16"],
           ["troutmi01", "2019", "LAA", "45"], ["troutmi01", "2020", "LAA", "17"],
           ["turneju01", "2019", "LAN", "27"], ["turneju01", "2020", "LAN", "4"]]  # fmt: skip
PEOPLE = [["bettsmo01", "Mookie", "Betts"], ["troutmi01", "Mike", "Trout"],
          ["turneju01", "Justin", "Turner"]]  # fmt: skip


def league_db() -> Database:
    db = Database()
    db.add(TableChunk("People", ["playerID", "nameFirst", "nameLast"], [list(r) for r in PEOPLE]))
    db.add(TableChunk("Teams", ["yearID", "teamID", "name", "W"], [list(r) for r in TEAMS]))
    db.add(TableChunk("Batting", ["playerID", "yearID", "teamID", "HR"],
                      [list(r) for r in BATTING]))  # fmt: skip
    db.declared = [Link("Batting", "playerID", "People", "playerID")]
    return db


def test_a_path_is_made_only_where_no_table_or_pair_holds_as_much():
    first = Link("Batting", "playerID", "People", "playerID")
    second = Link("Batting", "teamID", "Teams", "teamID", (("yearID", "yearID"),))
    every = [first, second]
    person, year = {3, 4}, {8}
    cells = {"People": person, "Teams": year, "Batting": year}
    assert paths(every, cells, {"Teams"}) == [(first, second, "Batting")]
    assert paths(every, cells, set()) == []  # People and Batting hold every cell named
    assert paths(every, {"People": person, "Teams": person}, {"Teams"}) == []


def test_three_tables_joined_along_the_path():
    db = league_db()
    first = Link("Batting", "playerID", "People", "playerID")
    second = Link("Batting", "teamID", "Teams", "teamID", (("yearID", "yearID"),))
    sheet = chain(db, first, second, "Batting")
    assert sheet.rows == len(BATTING)  # each season of a player finds its team's one row
    assert sheet.parts == ("Batting", "People", "Teams")
    assert "Teams name" in [c.name for c in sheet.columns]
    db.close()


def test_a_team_named_through_a_person_and_his_season():
    db = league_db()
    assert ask(db, "Which team did Mookie Betts play for in 2020?") == ["Los Angeles Dodgers"]
    assert ask(db, "Which team did Mike Trout play for in 2019?") == ["Los Angeles Angels"]
    db.close()
