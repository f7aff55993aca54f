"""What a summary may quote and which quotes say most: the program's rules, no model."""

from __future__ import annotations

import pytest

from prism_edge.text.grounding import is_verse, names_of
from prism_edge.text.prose import (
    content_counts,
    description_score,
    event_score,
    is_prose,
    plausible_name,
    title_of,
)


@pytest.mark.parametrize(
    "name", ["I'm", "Don't", "Thy", "Thou", "Chapter", "July", "Everybody", "school", "1893"]
)
def test_contractions_pronouns_headings_and_lower_case_words_are_no_names(name):
    assert not plausible_name(name)


@pytest.mark.parametrize("name", ["Mowgli", "Shere Khan", "Mr. Bennet", "Bandar-log", "OPEC"])
def test_names_are_names(name):
    assert plausible_name(name)


@pytest.mark.parametrize(
    "sentence",
    [
        "[Footnote 5: Tankei is the name of a place in China where they make ink.]",
        "CHAPTER IV. THE RETURN OF THE WOLF.",
        "Chapter 1. Introduction to the project.",
        "1.2. Pronouncing Debian is easy for everyone.",
        "Mowgli's Brothers ........ 3",
        "This document may be freely redistributed or modified in any form.",
        "Copyright © 1999-2020 Debian Documentation Team and the others.",
        "The Jungle Book By Rudyard Kipling And Friends.",
        ">>> for num in range(2, 10): print(num) ...",
        "Too short.",
        "A line without an end that goes on",
    ],
)
def test_footnotes_headings_contents_licences_titles_and_code_are_not_quoted(sentence):
    assert not is_prose(sentence)


def test_narration_is_quoted():
    assert is_prose("Akela, the great gray Lone Wolf, lay out at full length on his rock.")
    assert is_prose('"Shere Khan does us great honor," said Father Wolf, but his eyes were angry.')


def test_the_title_line_is_found_at_the_head_and_credits_are_not_titles():
    assert title_of("THE JUNGLE BOOK\n\nContents\n\nMowgli's Brothers\n") == "THE JUNGLE BOOK"
    assert title_of("Produced by Someone Else\n\n\nMOBY DICK; OR THE WHALE\n\nBy Herman") == (
        "MOBY DICK; OR THE WHALE"
    )
    assert title_of("A Brief History of Debian\n\nversion: 2.28\n") == "A Brief History of Debian"
    assert title_of("It was a dark and stormy night; the rain fell in torrents.\n") is None


def test_a_sentence_that_says_who_a_name_is_outscores_one_that_mentions_it():
    name = "Akela"
    says = "Akela, the great gray Lone Wolf, led all the Pack by strength and cunning."
    copula = "Akela was a wolf of the old days, and he led the Pack well."
    mentions = "At last they all went down the hill, and only Akela was left."
    dialogue = '"Look well, Akela!" cried the wolves.'
    scores = [description_score(s, name) for s in (says, copula, mentions, dialogue)]
    assert scores[0] > scores[2] and scores[1] > scores[2] and scores[2] > scores[3]
    assert description_score("Baloo slept.", name) == 0.0  # does not name it


def test_a_central_narrating_sentence_carries_the_part():
    part = (
        "The wolves met at the Council Rock. Akela watched the wolves at the rock. "
        "The weather was fine. The wolves argued at the Council Rock about the cub."
    )
    counts = content_counts(part)
    central = event_score("The wolves argued at the Council Rock about the cub.", counts, ["Akela"])
    aside = event_score("The weather was fine and the sky was blue today.", counts, ["Akela"])
    assert central > aside > 0
    assert event_score("CHAPTER IV. THE RETURN.", counts) == 0.0


def test_in_verse_a_capital_at_a_line_head_is_no_evidence_of_a_name():
    verse = "\n".join(
        [
            "From the besieged Ardea all in post,",
            "Borne by the trustless wings of false desire,",
            "Lust-breathed Tarquin leaves the Roman host,",
            "And to Collatium bears the lightless fire",
            "Which, in pale embers hid, lurks to aspire",
            "Thy beauty, Lucrece, where Tarquin sees thee lie,",
            "Whose chastity with Lucrece doth comply;",
            "Haply that name of chaste unhappily set",
            "This bateless edge on his keen appetite;",
        ]
    )
    assert is_verse(verse)
    found = names_of(verse, min_mentions=2)
    assert "Tarquin" in found and "Lucrece" in found
    assert not {"Thy", "Whose", "Which", "Borne", "Haply"} & set(found)
    prose = "Mowgli ran.\nHe went to\nthe rock where\nAkela sat and\nwaited for him\nall night"
    prose += " and\nthen Mowgli\nslept a while.\n"
    assert not is_verse(prose)
