from __future__ import annotations

from prism_edge.grounding import FUNCTION_WORDS, SPAN_WORDS, Grounding, case_variants, words_of

TEXT = """Mowgli ran to Father Wolf's cave; Shere Khan, the tiger, followed him.

Baloo taught the Law."""


def test_words_keep_apostrophes_and_get_case_variants():
    assert words_of("Father Wolf's cave, don't") == ["Father", "Wolf's", "cave", "don't"]
    assert case_variants(["tiger", "Law"]) == {"tiger", "Tiger", "Law", "law"}
    g = Grounding.of(TEXT)
    assert {"Mowgli", "mowgli", "tiger", "Tiger", "Wolf's", "Law", "law"} <= g.words
    assert "Bagheera" not in g.words


def test_spans_are_consecutive_words_within_punctuation_and_paragraphs():
    g = Grounding.of(TEXT)
    assert {"Mowgli", "Mowgli ran", "Father Wolf's", "Shere Khan", "Law"} <= g.spans
    assert "Mowgli ran to Father" not in g.spans  # longer than SPAN_WORDS
    # no span starts or ends with a function word
    assert not {"Mowgli ran to", "to Father", "the tiger", "the", "him"} & g.spans
    assert SPAN_WORDS == 3
    assert "cave Shere" not in g.spans  # across a semicolon
    assert "Khan the" not in g.spans  # across a comma
    assert "him Baloo" not in g.spans  # across a paragraph
    assert "Baloo taught" in g.spans and "Baloo taught the" not in g.spans
    assert "mowgli" not in g.spans  # spans as written


def test_extra_words_join_the_strings_vocabulary():
    g = Grounding.of("Kaa", extra_words=FUNCTION_WORDS)
    assert {"Kaa", "the", "and"} <= g.words and g.spans == frozenset({"Kaa"})
