"""Cells a question names in words: a code by its initials, a yes-or-no column by its name
(issue 53, the databases)."""

from __future__ import annotations

from prism_edge.methods.tables import codes
from prism_edge.methods.tables.db import Database
from prism_edge.methods.tables.words import tokens
from prism_edge.text.tables import TableChunk


def sheet_of(header, rows):
    db = Database()
    db.add(TableChunk("t", header, rows))
    sheet = db.sheets["t"]
    db.type_all(sheet)
    return db, sheet


def test_a_code_is_said_by_the_initials_of_capitalised_words():
    db, sheet = sheet_of(["lgID", "name"], [["AL", "Astros"], ["NL", "Braves"], ["AL", "Twins"]])
    question = "What was the average ERA of American League teams?"
    found = codes.initials(question, tokens(question), sheet, sheet.columns[0])
    assert [(s.value, s.start, s.end) for s in found] == [("al", 6, 8)]
    lower = "what was the average era of american league teams?"
    assert codes.initials(lower, tokens(lower), sheet, sheet.columns[0]) == []  # no name said
    db.close()


def test_a_yes_or_no_column_is_said_by_its_name_and_a_negation_says_no():
    db, sheet = sheet_of(["franchID", "active", "WSWin"],
                         [["BOS", "Y", "N"], ["BLU", "N", "Y"], ["HOU", "Y", "N"]])  # fmt: skip
    for question, column, value in (
        ("How many franchises are still active?", 1, "y"),
        ("How many franchises are not active?", 1, "n"),
        ("Which team won the World Series?", 2, "y"),  # "won" for win, "WS" by initials
    ):
        words = tokens(question)
        found = codes.flags(words, sheet, sheet.columns[column])
        assert [s.value for s in found] == [value], question
    assert codes.flags(tokens("How many franchises are there?"), sheet, sheet.columns[1]) == []
    db.close()


def test_a_name_is_told_by_how_the_question_writes_it():
    question = "What was the average delay of flights from JFK for JetBlue and the type of death?"
    words = tokens(question)
    assert codes.written_as_name(question, words, 8, 9)  # JFK
    assert codes.written_as_name(question, words, 10, 11)  # JetBlue
    assert not codes.written_as_name(question, words, 15, 16)  # death
