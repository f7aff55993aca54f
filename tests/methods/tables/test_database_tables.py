"""Which tables of a database a question is asked of (issue 53, the databases): a column's
short name read from the initials of ordinary words does not choose a table."""

from __future__ import annotations

from prism_edge.methods.tables import naming
from prism_edge.methods.tables.answer import answer
from prism_edge.methods.tables.db import Database, Link
from prism_edge.text.tables import TableChunk
from tests.methods.tables.made_up import ask, asked_tables


def pitchers_db() -> Database:
    """Batting, Fielding and Running have ``SB`` (stolen bases), Pitching ``ERA``; People
    names them."""
    db = Database()
    db.add(TableChunk("People", ["playerID", "nameFirst", "nameLast"],
                      [["kershcl01", "Clayton", "Kershaw"], ["scherma01", "Max", "Scherzer"],
                       ["troutmi01", "Mike", "Trout"]]))  # fmt: skip
    db.add(TableChunk("Batting", ["playerID", "yearID", "SB"],
                      [["kershcl01", "2016", "0"], ["kershcl01", "2017", "1"],
                       ["troutmi01", "2016", "30"], ["troutmi01", "2017", "22"],
                       ["scherma01", "2016", "0"], ["kershcl01", "2018", "0"]]))  # fmt: skip
    db.add(TableChunk("Pitching", ["playerID", "yearID", "ERA"],
                      [["kershcl01", "2016", "1.69"], ["kershcl01", "2017", "2.31"],
                       ["kershcl01", "2018", "2.73"], ["scherma01", "2016", "2.96"],
                       ["scherma01", "2017", "2.51"], ["kershcl01", "2015", "2.13"]]))  # fmt: skip
    for table in ("Fielding", "Running"):  # more tables whose SB would be "season between"
        db.add(TableChunk(table, ["playerID", "yearID", "SB"],
                          [["troutmi01", "2016", "3"], ["kershcl01", "2016", "0"]]))  # fmt: skip
    db.declared = [Link(t, "playerID", "People", "playerID")
                   for t in ("Batting", "Fielding", "Running", "Pitching")]  # fmt: skip
    for sheet in db.sheets.values():
        naming.full_names(db, sheet)
    return db


def test_initials_of_ordinary_words_name_no_column():
    """ "season between" is not ``SB``: the ERA is Pitching's ("season" names Batting's
    ``yearID`` through the learned lexicon, but "between" names nothing of Batting)."""
    from prism_edge.methods.tables.answer import _covered, _not_initials
    from prism_edge.methods.tables.mentions import read

    db = pitchers_db()
    question = "What was Clayton Kershaw's lowest ERA in a season between 2016 and 2018?"
    sheets = list(db.sheets.values())
    readings = {s.name: read(question, db, [s]) for s in sheets}
    taken = _not_initials(sheets, readings)
    batting = _covered(db.sheets["Batting"], readings["Batting"], taken)
    words = readings["Batting"].words
    assert words.index("between") not in batting
    assert ask(db, question) == ["1.69"]
    db.close()


def test_initials_of_words_that_say_nothing_else_name_a_column():
    """ "stolen bases" is ``SB``; "time zone" is ``tz`` though another table's ``dep_time``
    holds "time" (it is no column's whole name)."""
    from prism_edge.methods.tables.answer import _covered, _not_initials
    from prism_edge.methods.tables.mentions import read

    db = pitchers_db()
    question = "How many stolen bases did Mike Trout have in 2016?"
    sheets = list(db.sheets.values())
    readings = {s.name: read(question, db, [s]) for s in sheets}
    batting = _covered(db.sheets["Batting"], readings["Batting"], _not_initials(sheets, readings))
    words = readings["Batting"].words
    assert {words.index("stolen"), words.index("bases")} <= batting
    db.close()
    db = Database()
    db.add(TableChunk("airports", ["faa", "name", "tz"], [["DEN", "Denver Intl", "-7"]]))
    db.add(TableChunk("flights", ["dest", "dep_time"], [["DEN", "517"], ["DEN", "533"]]))
    question = "How many airports are in the -7 time zone?"
    sheets = list(db.sheets.values())
    readings = {s.name: read(question, db, [s]) for s in sheets}
    airports = _covered(db.sheets["airports"], readings["airports"],
                        _not_initials(sheets, readings))  # fmt: skip
    words = readings["airports"].words
    assert {words.index("time"), words.index("zone")} <= airports
    db.close()


def test_a_path_keeps_the_rows_whose_code_an_end_does_not_list():
    """N9 flew (for Envoy) but the planes do not list it: the flight is still the airline's
    through the path from the planes to the airlines."""
    db = Database()
    airlines = [["MQ", "Envoy Air"], ["UA", "United Air Lines Inc."]]
    db.add(TableChunk("airlines", ["carrier", "name"], airlines))
    db.add(TableChunk("planes", ["tailnum", "seats"], [["N1", "150"], ["N2", "180"]]))
    db.add(TableChunk("flights", ["carrier", "tailnum", "dest"],
                      [["UA", "N1", "DEN"], ["UA", "N2", "SEA"], ["MQ", "N9", "BOS"]]))  # fmt: skip
    db.declared = [Link("flights", "carrier", "airlines", "carrier"),
                   Link("flights", "tailnum", "planes", "tailnum")]  # fmt: skip
    assert ask(db, "Which airline flies the plane N9?") == ["Envoy Air"]
    db.close()


def test_a_table_named_in_words_run_together_is_named():
    """ "Hall of Fame" names the table ``HallOfFame``: not "no table holds 'Fame'"."""
    db = Database()
    db.add(TableChunk("People", ["playerID", "nameFirst", "nameLast"],
                      [["riverma01", "Mariano", "Rivera"], ["hallaro01", "Roy", "Halladay"],
                       ["troutmi01", "Mike", "Trout"]]))  # fmt: skip
    db.add(TableChunk("HallOfFame", ["playerID", "yearID", "inducted"],
                      [["riverma01", "2019", "Y"], ["hallaro01", "2019", "Y"],
                       ["troutmi01", "2019", "N"]]))  # fmt: skip
    db.declared = [Link("HallOfFame", "playerID", "People", "playerID")]
    result, _ = answer(db, "How many players were inducted into the Hall of Fame in 2019?")
    assert result.best is not None and list(result.values) == [2.0]
    db.close()


def test_a_bare_number_makes_no_path(monkeypatch):
    """ "game 7": the cells a bare number names (7 games of a season) join no path of three
    tables; the award and the year are the award table's."""
    asked = asked_tables(monkeypatch)
    db = Database()
    db.add(TableChunk("People", ["playerID", "nameFirst", "nameLast", "birthDay"],
                      [["strasst01", "Stephen", "Strasburg", "20"],
                       ["kendrho01", "Howie", "Kendrick", "12"]]))  # fmt: skip
    db.add(TableChunk("Seasons", ["playerID", "season", "G"],
                      [["strasst01", "2019", "33"], ["kendrho01", "2019", "7"]]))  # fmt: skip
    db.add(TableChunk("Awards", ["playerID", "yearID", "awardID"],
                      [["strasst01", "2019", "World Series MVP"],
                       ["kendrho01", "2019", "NLCS MVP"]]))  # fmt: skip
    db.declared = [Link("Seasons", "playerID", "People", "playerID"),
                   Link("Awards", "playerID", "People", "playerID")]  # fmt: skip
    ask(db, "Who was the World Series MVP in game 7 of 2019?")
    assert not [n for n in asked if n.count(" and ") == 2]
    db.close()
