"""Cell values as people write them (issue 53 point 4; issue 54 defects 6 and 7)."""

from __future__ import annotations

import pytest

from prism_edge.text.values import fold, read_date, read_number, read_value, show_date


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("1,234", 1234.0),
        ("$1,234.50", 1234.5),
        ("-3.5", -3.5),
        ("12.5%", 12.5),
        ("1 1/8 miles", 1.125),
        ("½", 0.5),
        ("3rd", 3.0),
        ("82.06 m (=PB)", 82.06),
        ("1,200†", 1200.0),
        ("12[3]", 12.0),
        ("two", 2.0),
        ("1.5e3", 1500.0),
    ],
)
def test_numbers_as_people_write_them(text, number):
    assert read_value(text).number == pytest.approx(number)


@pytest.mark.parametrize(
    "text",
    ["4512e89", "1234567890123456789", "A12", "3-1", "12:30", "Team 7", "12 34", "1/0"],
)
def test_codes_ids_and_scores_are_no_numbers(text):
    """A code with an exponent's look, an id longer than a float holds, a score: text."""
    value = read_value(text)
    assert value.number is None and not value.missing


@pytest.mark.parametrize("text", ["", "-", "—", "NA", "N/A", "n/a", "NaN", "null", "?"])
def test_the_marks_of_no_value_are_missing(text):
    assert read_value(text).missing


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("2004-08-15", 20040815),
        ("August 15, 2004", 20040815),
        ("15 August 2004", 20040815),
        ("Aug. 2004", 20040800),
        ("8/15/2004", 20040815),
        ("2004", 20040000),
        ("21 December 1790", 17901221),
    ],
)
def test_dates_in_their_usual_forms_sort_as_dates(text, key):
    assert read_date(text) == key


def test_a_season_is_its_first_year_and_a_year_is_a_number_too():
    season = read_value("1987–88")
    assert season.number == 1987 and season.year == 1987
    year = read_value("2004")
    assert year.number == 2004 and year.date == 20040000


def test_words_are_no_dates_or_numbers():
    assert read_date("May") is None and read_date("Dundee United") is None
    assert read_number("may") is None


def test_folding_drops_accents_marks_and_case():
    assert fold("Örebro SK[1]") == "orebro sk"
    assert fold("  Mont–Blanc ") == "mont-blanc"


def test_a_date_key_is_shown_as_the_evaluator_writes_dates():
    assert show_date(20040815) == "2004-08-15" and show_date(20040800) == "2004-08-xx"
