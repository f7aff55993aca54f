"""The query space: every answer's SQL runs and computes what its words say, and the SQL a
user is shown runs on the user's own table to the same answer (issue 54 defect 9)."""

from __future__ import annotations

import sqlite3

import pytest

from prism_edge.methods.tables.db import Database
from prism_edge.methods.tables.enumerate import run
from prism_edge.methods.tables.space import Cond, Query
from prism_edge.text.tables import TableChunk
from prism_edge.text.values import read_value

HEADER = ["Team", "County", "Wins", "Year"]
ROWS = [
    ["Greystones", "Wicklow", "3", "2011"],
    ["Maynooth", "Kildare", "1", "2009"],
    ["Crettyard", "Laois", "N/A", "2005"],
    ["Confey", "Kildare", "5", "2006"],
    ["Wolfe Tones", "Meath", "2", "2004"],
    ["Total", "", "11", ""],
]


def _db(name: str = "clubs", header: list[str] = HEADER) -> Database:
    db = Database()
    db.add(TableChunk(name, header, [list(r) for r in ROWS]))
    sheet = db.sheets[name]
    db.prepare(sheet)
    db.type_all(sheet)
    return db


KILDARE = Cond(1, "in", ("kildare",), (0,))


@pytest.mark.parametrize(
    ("query", "values"),
    [
        (Query("clubs", "count"), (5.0,)),  # the summary row is no row of the data
        (Query("clubs", "count", conds=(KILDARE,)), (2.0,)),
        (Query("clubs", "select", 0, conds=(KILDARE,)), ("Maynooth", "Confey")),
        (Query("clubs", "sum", 2), (11.0,)),  # N/A is no value: 3 + 1 + 5 + 2
        (Query("clubs", "avg", 2, conds=(KILDARE,)), (3.0,)),
        (Query("clubs", "argmax", 0, 2), ("Confey",)),
        (Query("clubs", "argmin", 0, 3), ("Wolfe Tones",)),
        (Query("clubs", "argmax", 0, 2, nth=2), ("Greystones",)),
        (Query("clubs", "first", 0), ("Greystones",)),
        (Query("clubs", "last", 0), ("Wolfe Tones",)),
        (Query("clubs", "next", 0, conds=(Cond(0, "in", ("crettyard",), (0,)),)), ("Confey",)),
        (Query("clubs", "prev", 0, conds=(Cond(0, "in", ("crettyard",), (0,)),)), ("Maynooth",)),
        (Query("clubs", "most", 1), ("Kildare",)),
        (Query("clubs", "groupmax", 1, 2), ("Kildare",)),
        (Query("clubs", "count", conds=(Cond(2, ">", 2.0, (0,)),)), (2.0,)),
        (Query("clubs", "count", conds=(Cond(2, ">", 1e9, (0,)),)), (0.0,)),  # out of range
        (Query("clubs", "count", conds=(Cond(3, "between", 2005.0, (0, 1), 2009.0),)), (3.0,)),
        (Query("clubs", "count", conds=(Cond(0, "prefix", "Con", (0,)),)), (1.0,)),
        # the other teams of Kildare's ... the same county as Maynooth (not Maynooth itself)
        (Query("clubs", "same", 0, 1, conds=(Cond(0, "in", ("maynooth",), (0,)),)), ("Confey",)),
        (Query("clubs", "same", 0, 1, conds=(Cond(0, "in", ("greystones",), (0,)),)), None),
        # a named cell left out: the summary row still none of the rows, nor an empty cell
        (Query("clubs", "count", conds=(Cond(1, "notin", ("kildare",), (0,)),)), (3.0,)),
        (
            Query(
                "clubs",
                "select",
                0,
                conds=(Cond(1, "in", ("kildare",), (0,)), Cond(0, "notin", ("confey",), (1,))),
            ),
            ("Maynooth",),
        ),  # "other than Confey, a team from Kildare"
        (
            Query(
                "clubs",
                "diff",
                2,
                conds=(Cond(0, "in", ("confey",), (0,)),),
                other=(Cond(0, "in", ("maynooth",), (1,)),),
            ),
            (4.0,),
        ),
    ],
)
def test_each_answer_computes_what_it_says(query, values):
    db = _db()
    found = run(db, db.sheets["clubs"], query)
    if values is None:  # no row: no answer
        assert found is None
        return
    assert found is not None and found.values == values, query.render(db.sheets["clubs"])


@pytest.mark.parametrize(
    ("table", "header"),
    [
        ("clubs", HEADER),
        ("t1", HEADER),  # a table named as the program names its own
        ("clubs", ["t0", "c1", "n2", "Year?"]),  # columns named as the program's, a ? in one
    ],
)
def test_the_sql_shown_runs_on_the_users_table_to_the_same_answer(tmp_path, table, header):
    db = _db(table, header)
    sheet = db.sheets[table]
    user = sqlite3.connect(tmp_path / "user.db")
    columns = ", ".join('"' + h.replace('"', '""') + '"' for h in header)
    user.execute(f'CREATE TABLE "{table}" ({columns})')
    user.executemany(f'INSERT INTO "{table}" VALUES (?, ?, ?, ?)', ROWS)
    # number() and date() in the SQL shown are the cells as the program reads them
    user.create_function("number", 1, lambda t: read_value(t).number if t else None)
    user.create_function("date", 1, lambda t: read_value(t).date if t else None)
    queries = [
        Query(table, "count", conds=(KILDARE,)),
        Query(table, "argmax", 0, 2),
        Query(table, "next", 0, conds=(Cond(0, "in", ("crettyard",), (0,)),)),
        Query(table, "count", conds=(Cond(3, ">", 2005.0, (0,)),)),
    ]
    for query in queries:
        found = run(db, sheet, query)
        assert found is not None
        shown = db.shown(found.sql, found.args, sheet)
        (row,) = user.execute(shown).fetchall()
        assert (float(row[0]) if isinstance(row[0], int) else row[0]) == found.values[0], shown


def test_the_sql_shown_names_the_columns_of_its_own_table():
    # every table numbers its columns from 0: a query over the second table of a database
    # was shown with the first table's column names ("SELECT "year" FROM "airports"")
    db = Database()
    db.add(TableChunk("flights", ["year", "month"], [["2013", "1"], ["2013", "2"]]))
    db.add(TableChunk("airports", ["name", "alt"], [["Telluride", "9078"], ["Keene", "488"]]))
    sheet = db.sheets["airports"]
    for s in db.sheets.values():
        db.prepare(s)
        db.type_all(s)
    found = run(db, sheet, Query("airports", "argmax", 0, 1))
    assert found is not None and found.values == ("Telluride",)
    shown = db.shown(found.sql, found.args, sheet)
    assert '"name"' in shown and 'number("alt")' in shown and "year" not in shown, shown


def test_every_query_says_in_words_what_it_computes():
    db = _db()
    sheet = db.sheets["clubs"]
    said = Query("clubs", "argmax", 0, 2, conds=(KILDARE,)).render(sheet)
    assert said == "the Team of the row with the highest Wins, where County is Kildare"
    assert Query("clubs", "next", 0, conds=(Cond(0, "in", ("crettyard",)),)).render(sheet) == (
        "the Team of the row just after the one where Team is Crettyard"
    )
    assert Query("clubs", "count", conds=(Cond(1, "notin", ("kildare",)),)).render(sheet) == (
        "the number of rows, where County is not Kildare"
    )
    assert Query("clubs", "same", 0, 1, conds=(Cond(0, "in", ("confey",)),)).render(sheet) == (
        "the Team of the other rows with the same County as the one where Team is Confey"
    )
