"""Names as people say them over a database (issue 53, the databases): a place by its
adjective ("Cuban"), a code written with dots by its initials ("Dominican Republic":
``D.R.``), of two columns holding a name the one the question's words name ("born"), a
name longer than a cell it holds ("White Sox" past a player named White), three named values
together, and a yes-or-no column named by words each said once."""

from __future__ import annotations

from prism_edge.methods.tables import codes, names
from prism_edge.methods.tables.db import Database, Link
from prism_edge.methods.tables.mentions import read
from prism_edge.text.tables import TableChunk
from tests.methods.tables.made_up import ask, asked_tables

PEOPLE = [  # playerID, nameFirst, nameLast, birthCountry, deathCountry, weight
    ["abreujo02", "Jose", "Abreu", "Cuba", "", "255"],
    ["moncayo01", "Yoan", "Moncada", "Cuba", "", "225"],
    ["whitety01", "Tyler", "White", "USA", "", "210"],
    ["andertim01", "Tim", "Anderson", "USA", "", "185"],
    ["ortizda01", "David", "Ortiz", "D.R.", "", "230"],
    ["mesajo01", "Jose", "Mesa", "D.R.", "", "200"],
    ["olivoro01", "Rob", "Olivo", "USA", "D.R.", "170"],
    ["chapmar01", "Aroldis", "Chapman", "Cuba", "", "212"],
]  # fmt: skip
SEASONS = [  # playerID, yearID, teamID
    ["abreujo02", "2019", "CHA"], ["moncayo01", "2019", "CHA"], ["andertim01", "2019", "CHA"],
    ["abreujo02", "2018", "CHA"], ["chapmar01", "2019", "NYA"], ["whitety01", "2019", "HOU"],
    ["moncayo01", "2018", "CHA"], ["chapmar01", "2018", "NYA"], ["ortizda01", "2016", "BOS"],
]  # fmt: skip
TEAMS = [["CHA", "2019", "Chicago White Sox"], ["CHA", "2018", "Chicago White Sox"],
         ["NYA", "2019", "New York Yankees"], ["NYA", "2018", "New York Yankees"],
         ["HOU", "2019", "Houston Astros"], ["BOS", "2016", "Boston Red Sox"]]  # fmt: skip


def baseball_db() -> Database:
    db = Database()
    db.add(TableChunk("People", ["playerID", "nameFirst", "nameLast", "birthCountry",
                                 "deathCountry", "weight"], [list(r) for r in PEOPLE]))  # fmt: skip
    db.add(TableChunk("Seasons", ["playerID", "yearID", "teamID"], [list(r) for r in SEASONS]))
    db.add(TableChunk("Teams", ["teamID", "yearID", "name"], [list(r) for r in TEAMS]))
    db.declared = [Link("Seasons", "playerID", "People", "playerID")]
    return db


def test_a_place_said_by_its_adjective():
    assert {"cuba", "mexico", "canada", "japan", "italy", "israel"} <= {
        p for w in ("cuban", "mexican", "canadian", "japanese", "italian", "israeli")
        for p in names.places(w)}  # fmt: skip
    assert names.places("cuba") == []


def test_three_values_named_together_over_a_database():
    """Cuban-born (People), the White Sox (Teams, not Tyler White), 2019 (Seasons): Abreu
    and Moncada."""
    db = baseball_db()
    assert ask(db, "How many Cuban-born players played for the White Sox in 2019?") == ["2"]
    db.close()


def test_a_code_written_with_dots_said_by_its_initials():
    db = baseball_db()
    sheet = db.sheets["People"]
    question = "What's the average weight of players born in the Dominican Republic?"
    words = read(question, db, [sheet]).words
    assert [s.value for s in codes.initials(question, words, sheet, sheet.columns[3])] == ["d.r ."]
    db.close()


def test_of_two_columns_holding_a_name_the_one_the_words_say():
    """Olivo died in the D.R. but was born in the USA: his weight is not of those born
    there."""
    db = baseball_db()
    question = "What's the average weight of players born in the Dominican Republic?"
    assert ask(db, question) == ["215"]
    db.close()


def test_a_yes_or_no_column_is_named_by_words_each_said_once():
    """ "won the Cy Young" is no ``WCWin`` ("won" cannot be "win" and the "w" of "wc");
    "won the World Series" is ``WSWin``."""
    db = Database()
    rows = [["Houston Astros", "N", "Y"], ["Boston Red Sox", "Y", "N"]]
    sheet, _ = db.add(TableChunk("Teams", ["name", "WCWin", "WSWin"], rows))
    for question, flagged in (("Who won the Cy Young in 2016?", set()),
                              ("Which team won the World Series?", {2})):  # fmt: skip
        words = read(question, db, [sheet]).words
        assert {c.index for c in sheet.columns if codes.flags(words, sheet, c)} == flagged
    db.close()


def test_a_pair_whose_rows_a_path_holds_is_not_joined_again(monkeypatch):
    """The path People-Seasons-Teams holds every season with its player and its team: the
    pairs Seasons-People and Seasons-Teams are not joined (and read) again beside it."""
    asked = asked_tables(monkeypatch)
    db = baseball_db()
    assert ask(db, "How many Cuban-born players played for the White Sox in 2019?") == ["2"]
    assert "People and Seasons and Teams" in asked
    assert not [n for n in asked if n.count(" and ") == 1]
    db.close()
