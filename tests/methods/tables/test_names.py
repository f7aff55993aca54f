"""Names as people say them (issue 53, round 4): a capitalised phrase names a cell written
longer or otherwise ("Kennedy International": ``John F Kennedy Intl``), over made-up tables."""

from __future__ import annotations

from prism_edge.methods.tables import names
from prism_edge.methods.tables.db import Database, Link
from prism_edge.methods.tables.words import tokens
from prism_edge.text.tables import TableChunk
from tests.methods.tables.made_up import ask


def phrase(question: str) -> names.Phrase:
    return names.phrases(question, tokens(question))[0]


def cells(*values: str) -> names.Cells:
    return names.column_cells([" ".join(tokens(v)) for v in values])


def test_short_forms_and_kind_words_are_read_alike():
    assert names.normal(tokens("John F. Kennedy International Airport")) == (
        "john", "f", "kennedy", "intl")  # fmt: skip
    assert names.normal(tokens("Saint Louis")) == names.normal(tokens("St. Louis"))
    assert names.normal(tokens("Delta Air Lines Inc.")) == ("delta",)


def test_capitalised_phrases_longest_first_never_the_question_word():
    found = names.phrases("Which park is in Saint Louis?", tokens("Which park is in Saint Louis?"))
    assert [p.words for p in found] == [("st", "louis"), ("st",), ("louis",)]
    assert names.phrases("how many flights?", tokens("how many flights?")) == []


def test_a_phrase_names_a_cell_by_its_words_in_order_or_written_together():
    column = cells("John F Kennedy Intl", "La Guardia", "Newark Liberty Intl", "Kennedy Field")
    assert names.named(phrase("From Kennedy International?"), column) == (
        ["john f kennedy intl"], False)  # fmt: skip
    assert names.named(phrase("To LaGuardia?"), column) == (["la guardia"], True)
    assert names.named(phrase("To Liberty Newark?"), column) == ([], False)  # out of order


def test_a_phrase_that_names_many_cells_names_none():
    column = cells(*[f"Chicago Park {n}" for n in range(6)])
    assert names.named(phrase("In Chicago?"), column) == ([], False)


AIRPORTS = [["EWR", "Newark Liberty Intl", "18"], ["LGA", "La Guardia", "22"],
            ["JFK", "John F Kennedy Intl", "13"], ["MDW", "Chicago Midway Intl", "620"],
            ["ORD", "Chicago Ohare Intl", "668"]]  # fmt: skip
AIRLINES = [["DL", "Delta Air Lines Inc."], ["UA", "United Air Lines Inc."]]


def airports_db() -> Database:
    db = Database()
    db.add(TableChunk("airports", ["faa", "name", "alt"], [list(r) for r in AIRPORTS]))
    db.add(TableChunk("airlines", ["carrier", "name"], [list(r) for r in AIRLINES]))
    db.add(TableChunk("flights", ["carrier", "flight", "dest"],
                      [["DL", "10", "MDW"], ["DL", "11", "ORD"], ["UA", "12", "MDW"]]))  # fmt: skip
    db.declared = [Link("flights", "carrier", "airlines", "carrier")]
    return db


def test_everyday_names_answer_over_a_database():
    db = airports_db()
    assert ask(db, "What is the altitude of Kennedy International?") == ["13"]
    assert ask(db, "What is the altitude of LaGuardia?") == ["22"]
    assert ask(db, "What is the altitude of Midway?") == ["620"]
    db.close()


def test_a_name_nothing_holds_is_still_not_in_the_table():
    db = airports_db()
    (said_,) = ask(db, "What is the altitude of Heathrow?")
    assert "Heathrow" in said_
    db.close()
