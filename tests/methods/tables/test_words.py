"""Column names as the question says them: a short form of its words is its words."""

from __future__ import annotations

import pytest

from prism_edge.methods.tables.words import column_words, short_form


@pytest.mark.parametrize(
    ("name_word", "said", "span"),
    [
        ("alt", ["airport", "highest", "altitude"], (2, 3)),  # the start of a word
        ("dep", ["average", "departure", "delay"], (1, 2)),
        ("hr", ["home", "runs", "mike", "trout"], (0, 2)),  # initials of words in a row
        ("copperprice", ["copper", "price", "1990"], (0, 2)),  # two words run together
        ("totemp", ["total", "employment", "1955"], (0, 2)),  # their starts run together
        ("gnpdeflator", ["average", "gnp", "deflator"], (1, 3)),
        ("totemp", ["total", "employees"], (0, 2)),
        ("totemp", ["top", "temperature"], None),  # "to": too short a start of "top"
        ("al", ["altitude"], None),  # too short to be cut from a word's start
        ("alt", ["alt"], None),  # the same word is no short form of it
        ("hr", ["runs", "home"], None),  # initials out of order
        ("lat", ["highest", "altitude"], None),
        ("2019", ["2019"], None),
    ],
)
def test_a_short_form_of_the_questions_words(name_word, said, span):
    assert short_form(name_word, said) == span


def test_column_names_split_into_words():
    assert column_words("dep_delay") == ["dep", "delay"]
    assert column_words("ArtistId") == ["artist", "id"]
    assert column_words("enrl_tot") == ["enrl", "enrollment", "tot", "total"]
