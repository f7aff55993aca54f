"""An answer that is first of an order it shares with another (the most common year where
three years have as many rows, the player with the most goals where two have as many): which
one comes first is arbitrary, so the answer is not called sure and names the others."""

from __future__ import annotations

from prism_edge.app.tableqa import explain
from prism_edge.methods.tables.answer import answer, tied
from prism_edge.methods.tables.db import Database
from prism_edge.methods.tables.enumerate import Candidate, run
from prism_edge.methods.tables.space import Query
from prism_edge.text.tables import TableChunk

HEADER = ["year", "source", "generation"]
ROWS = [
    ["2001", "Fossil Fuels", "35361"],
    ["2001", "Nuclear Energy", "3853"],
    ["2001", "Renewables", "1437"],
    ["2002", "Fossil Fuels", "35991"],
    ["2002", "Nuclear Energy", "4574"],
    ["2002", "Renewables", "1963"],
    ["2003", "Fossil Fuels", "36234"],
    ["2003", "Nuclear Energy", "3988"],
    ["2003", "Renewables", "1885"],
]


def _db(rows: list[list[str]]) -> Database:
    db = Database()
    db.add(TableChunk("power", HEADER, [list(r) for r in rows]))
    db.type_all(db.sheets["power"])
    return db


def _candidate(db: Database, query: Query) -> Candidate:
    found = run(db, db.sheets["power"], query)
    assert found is not None
    return found


def test_the_most_common_value_ties_with_those_of_as_many_rows():
    db = _db(ROWS)
    most = _candidate(db, Query("power", "most", 0))
    assert most.values == ("2001",)
    assert tied(db, most) == ("2002", "2003")
    fewer = _db(ROWS[:-1])  # 2003 has two rows: 2001 and 2002 tie
    assert tied(fewer, _candidate(fewer, Query("power", "most", 0))) == ("2002",)
    db.close()
    fewer.close()


def test_a_row_with_the_highest_value_ties_only_with_a_row_of_the_same_value():
    rows = [*ROWS, ["2004", "Wind", "36234"]]
    db = _db(rows)
    top = _candidate(db, Query("power", "argmax", 1, by=2))
    assert top.values == ("Fossil Fuels",)
    assert tied(db, top) == ("Wind",)  # 36234 both
    second = _candidate(db, Query("power", "argmax", 1, by=2, nth=3))
    assert second.values == ("Fossil Fuels",) and tied(db, second) == ()  # 35991, alone
    lowest = _candidate(db, Query("power", "argmin", 1, by=2))
    assert lowest.values == ("Renewables",) and tied(db, lowest) == ()
    db.close()


def test_the_group_with_the_highest_total_ties_with_a_group_of_the_same_total():
    rows = [["2001", "A", "5"], ["2001", "B", "7"], ["2002", "A", "7"], ["2002", "B", "6"],
            ["2003", "A", "1"], ["2003", "C", "1"]]  # fmt: skip
    db = _db(rows)
    group = _candidate(db, Query("power", "groupmax", 1, by=2))
    assert group.values == ("A",) and tied(db, group) == ("B",)  # 13 each
    least = _candidate(db, Query("power", "groupmin", 1, by=2))
    assert least.values == ("C",) and tied(db, least) == ()
    counted = _candidate(db, Query("power", "count"))
    assert tied(db, counted) == ()  # no order: nothing to tie
    db.close()


def test_an_answer_that_ties_is_not_sure_and_says_with_what():
    db = _db(ROWS)
    result, _ = answer(db, "Which year appears most often?")
    db.close()
    assert result.best is not None and result.values == ["2001"]
    assert result.tied == ("2002", "2003") and not result.sure
    lines = explain(result)
    assert "NOT SURE" in lines[0] and "tied with 2002, 2003" in lines[0]
    assert result.to_dict()["tied"] == ["2002", "2003"]
