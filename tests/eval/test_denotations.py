"""The official WikiTableQuestions evaluator, ported: the cases its documentation states."""

from __future__ import annotations

from prism_edge.eval.denotations import correct, normalize, predictions, targets, unescape


def test_normalize_as_the_official_script():
    assert normalize("Café “Noir”") == 'cafe "noir"'
    assert normalize("Wolfe Tones[3]") == "wolfe tones"
    assert normalize("82.06 m (=PB)") == "82.06 m"
    assert normalize('"Dig a Hole"') == "dig a hole"
    assert normalize("St. Louis.") == "st. louis"


def test_numbers_match_as_numbers_and_strings_as_normalized_text():
    assert correct(targets(["12,467"]), predictions([12467.0]))
    assert correct(targets(["12,467"]), predictions(["12,467"]))
    assert correct(targets(["2"]), predictions([2.0]))
    assert not correct(targets(["2"]), predictions([3.0]))
    assert correct(targets(["Wolfe Tones"]), predictions(["wolfe tones"]))


def test_a_list_matches_one_to_one_in_any_order():
    target = targets(["Siim Ennemuist", "Andri Aganits"])
    assert correct(target, predictions(["Andri Aganits", "Siim Ennemuist"]))
    assert not correct(target, predictions(["Andri Aganits"]))
    assert not correct(target, predictions(["Andri Aganits", "Siim Ennemuist", "X"]))


def test_dates_match_as_dates_and_a_bare_year_as_a_number():
    assert correct(targets(["August 15, 2004"]), predictions(["2004-08-15"]))
    assert correct(targets(["1987"]), predictions([1987.0]))


def test_the_dataset_escapes():
    assert unescape(r"a\nb\pc\\d") == "a\nb|c\\d"
