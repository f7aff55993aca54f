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
