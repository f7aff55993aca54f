"""What the ranker sees of a question and a table's columns."""

from __future__ import annotations

from prism_edge.methods.tables.db import Database
from prism_edge.methods.tables.features import view
from prism_edge.methods.tables.mentions import read
from prism_edge.text.tables import TableChunk


def _view(question: str):
    db = Database()
    rows = [["Keene", "488", "90", "1"], ["Telluride", "9078", "81", "2"]]
    db.add(TableChunk("airports", ["name", "alt", "W", "dep_delay"], rows))
    sheet = db.sheets["airports"]
    db.prepare(sheet)
    db.type_all(sheet)
    return view(read(question, db, [sheet]), sheet)


def test_a_column_named_by_a_short_form_is_named_by_the_words_in_full():
    q = _view("Which airport has the highest altitude?")
    assert q.column_match[1][0] == 1.0 and q.short_match == {1: 1.0}
    q = _view("What is the average departure delay?")
    assert q.column_match[3][0] == 1.0 and q.short_match == {3: 0.5}
    q = _view("Which airport has the highest latitude?")
    assert q.column_match[1][0] == 0.0 and not q.short_match


def test_a_column_named_by_one_letter_is_seen_where_a_word_starts_with_it():
    assert _view("Which airport had the most wins?").letter == {2}
    assert _view("Which airport is the highest?").letter == set()  # "which": a function word


def _economy(question: str):
    db = Database()
    rows = [
        ["1", "5200", "88.5", "91.2", "41", "1988"],
        ["2", "5650", "90.1", "93.0", "42", "1989"],
    ]
    header = ["Obs", "TOTSALES", "CPI", "CPIFOOD", "age", "YEAR"]
    db.add(TableChunk("economy", header, rows))
    sheet = db.sheets["economy"]
    db.prepare(sheet)
    db.type_all(sheet)
    return view(read(question, db, [sheet]), sheet)


def test_a_name_run_together_may_hold_a_word_too_common_to_name_a_cell():
    q = _economy("What were the total sales in 1989?")  # TOTSALES: total sales
    assert q.column_match[1][0] == 1.0 and q.short_match == {1: 1.0}


def test_a_column_named_inside_the_words_naming_another_is_not_named():
    q = _economy("What was the average CPI food?")  # CPIFOOD, not CPI
    assert q.column_match[3][0] == 1.0
    assert q.column_match[2] == (0.0, 0.0)
    assert _economy("What was the average CPI?").column_match[2] == (1.0, 1.0)


def test_how_old_asks_the_age():
    assert _economy("How old was the economy in 1989?").column_match[4][0] == 1.0
    assert _economy("What was the economy in 1989?").column_match[4][0] == 0.0


def test_initials_name_no_words_another_column_is_named_inside():
    db = Database()
    rows = [["Detroit", "1800", "1600000"], ["Boston", "1400", "2900000"]]
    db.add(TableChunk("teams", ["name", "HA", "attendance"], rows))
    sheet = db.sheets["teams"]
    db.prepare(sheet)
    db.type_all(sheet)
    q = view(read("Which team had the highest attendance?", db, [sheet]), sheet)
    assert q.column_match[2] == (1.0, 1.0)  # HA's initials "highest attendance" take none


def test_the_places_an_answer_is_rounded_to_are_no_number_left_out():
    from prism_edge.methods.tables.features import query_features
    from prism_edge.methods.tables.space import Query

    q = _economy("What was the average CPI, rounded to 2 decimal places?")
    assert query_features(q, Query("economy", "avg", 2))["left:numbers|agg"] == 0.0
    q = _economy("What was the average CPI above 89?")
    assert query_features(q, Query("economy", "avg", 2))["left:numbers|agg"] == 1.0
