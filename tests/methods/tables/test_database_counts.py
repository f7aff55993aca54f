"""Different values counted over a database (issue 53, the databases): "how many different
X" and "the most different X" count the column the noun X names."""

from __future__ import annotations

from prism_edge.methods.tables.db import Database, Link
from prism_edge.text.tables import TableChunk
from tests.methods.tables.made_up import ask

AIRLINES = [["AA", "American Airlines Inc."], ["B6", "JetBlue Airways"],
            ["UA", "United Air Lines Inc."], ["DL", "Delta Air Lines Inc."]]  # fmt: skip
FLIGHTS = [  # carrier, tailnum, origin, air_time
    ["UA", "N1", "EWR", "100"], ["UA", "N2", "EWR", "120"], ["B6", "N3", "EWR", "90"],
    ["B6", "N3", "JFK", "95"], ["AA", "N4", "JFK", "200"], ["UA", "N1", "LGA", "130"],
    ["DL", "N5", "LGA", "150"], ["DL", "N5", "LGA", "150"], ["DL", "N5", "JFK", "160"],
    ["UA", "N2", "EWR", "110"], ["B6", "N6", "EWR", "80"], ["UA", "N7", "EWR", "140"],
    ["AA", "N7", "JFK", "210"],
]  # fmt: skip


def flights_db() -> Database:
    db = Database()
    db.add(TableChunk("airlines", ["carrier", "name"], [list(r) for r in AIRLINES]))
    db.add(TableChunk("planes", ["tailnum", "seats"],
                      [["N1", "100"], ["N2", "150"], ["N3", "180"], ["N4", "200"],
                       ["N5", "50"], ["N6", "80"], ["N7", "120"]]))  # fmt: skip
    db.add(TableChunk("flights", ["carrier", "tailnum", "origin", "air_time"],
                      [list(r) for r in FLIGHTS]))  # fmt: skip
    db.declared = [Link("flights", "carrier", "airlines", "carrier"),
                   Link("flights", "tailnum", "planes", "tailnum")]  # fmt: skip
    return db


def test_how_many_different_counts_the_column_the_noun_names():
    """Airlines out of EWR: United and JetBlue (not the different air times, nor planes)."""
    db = flights_db()
    assert ask(db, "How many different airlines flew out of EWR?") == ["2"]
    db.close()


def test_the_most_different_counts_the_column_that_joins_the_table_the_noun_names():
    """United flew three different planes (N1, N2, N7); JetBlue and American two each; Delta
    one plane, on three flights."""
    db = flights_db()
    assert ask(db, "Which airline used the most different planes?") == ["United Air Lines Inc."]
    assert ask(db, "Which airline used the fewest different planes?") == ["Delta Air Lines Inc."]
    db.close()


def test_which_of_two_named_has_more_rows():
    """From EWR United flew 6 flights, JetBlue 2 (Delta, not asked, none); one of the two
    named is the answer, not a restatement of them."""
    db = flights_db()
    assert ask(db, "Which had more flights from EWR, JetBlue or United?") == [
        "United Air Lines Inc."]  # fmt: skip
    db.close()


def test_on_average_how_many_is_a_mean_of_the_amount_counted():
    """ "On average, how many regular-season games ... win" is a mean (``R`` is named by the
    first letter of "regular", ``W`` by "win"): never a total nor a number of values."""
    from prism_edge.methods.tables.enumerate import queries
    from prism_edge.methods.tables.mentions import read

    db = Database()
    rows = [["2016", "Chicago Cubs", "103", "808", "Y"], ["2017", "Houston Astros", "101", "896",
            "Y"], ["2018", "Boston Red Sox", "108", "876", "Y"], ["2018", "New York Yankees",
            "100", "851", "N"], ["2017", "Chicago Cubs", "103", "808", "N"]]  # fmt: skip
    sheet, _ = db.add(TableChunk("Teams", ["yearID", "name", "W", "R", "WSWin"], rows))
    question = "On average, how many regular-season games did the World Series winners win?"
    asked = list(queries(read(question, db, [sheet]), sheet))
    assert asked and {q.op for q in asked} == {"avg"}
    db.close()
