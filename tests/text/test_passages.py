"""Sentences a summary may quote: no scanning damage, no sentence that starts mid-thought."""

from __future__ import annotations

from prism_edge.text.passages import clean, garbled, mid_thought, quotable, sentences
from prism_edge.text.structure import blocks


def test_scanning_damage_is_garbled_and_clean_prose_is_not():
    assert garbled("P0RTRA1Ts 0 *â* ââJâÂ»`; w I ,A,I I A I IIIAI")
    assert garbled("I . >PEARE would justify the tradition * that he left")
    assert garbled("The cafÃ© was full of people who had come to hear him.")
    assert not garbled("The Janssen or Somerset portrait is, of all of them, the finest.")
    assert not garbled("He paused -- and then, at last, went on with the story.")


def test_a_garbled_sentence_is_not_quoted():
    said = sentences(blocks("I . >PEARE would justify the tradition * that he left London early."))
    assert said and not any(quotable(s) for s in said)


def test_an_apostrophe_decoded_wrongly_is_shown_as_one():
    assert clean("Shakespeareâs plays and the authorâs life") == (
        "Shakespeare’s plays and the author’s life"
    )


def test_a_sentence_opening_on_a_connective_starts_mid_thought():
    for opening in ("Instead, another example", "In addition, the tool", "Similarly, a list",
                    "For example, the function", "On the other hand, a tuple"):  # fmt: skip
        assert mid_thought(f"{opening} is shown in the next section of the text.")
    assert not mid_thought("Instructions for the tool are shown in the next section.")


def test_a_version_number_keeps_its_digits_and_a_footnote_mark_goes():
    assert clean("CPython 3.11 is faster than CPython 3.10 in the 3.0 (quilt) format.") == (
        "CPython 3.11 is faster than CPython 3.10 in the 3.0 (quilt) format."
    )
    assert clean("Put the file on ext4 with python3 and utf8 names.") == (
        "Put the file on ext4 with python3 and utf8 names."
    )
    assert clean("as the court had said.12 Then it rose, 3 times.") == (
        "as the court had said. Then it rose, 3 times."
    )
    assert clean("the Act of 1643[7] and its ordinance{12} of licensing") == (
        "the Act of 1643 and its ordinance of licensing"
    )
