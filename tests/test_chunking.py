from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.chunking import chunk_text, split_to_fit

COUNT = ScriptedBackend().tokenize


def count(text: str) -> int:
    return len(COUNT(text))


def test_paragraphs_are_preferred():
    text = "One two three. Four five.\n\nSix seven eight nine.\n\nTen."
    head, rest = split_to_fit(text, 14, count)
    assert head == "One two three. Four five.\n\n"
    assert head + rest == text


def test_sentences_before_words():
    text = "Alpha beta gamma. Delta epsilon zeta eta theta iota kappa lambda."
    head, _ = split_to_fit(text, 12, count)
    assert head == "Alpha beta gamma. "


def test_no_newline_giant_input_never_exceeds_budget():
    text = "x" * 5000 + " y" * 3000
    chunks = list(chunk_text(text, 50, count))
    assert "".join(chunks) == text
    assert all(count(c) <= 50 for c in chunks)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=400), st.integers(1, 40))
def test_chunks_cover_the_text_within_budget(text, budget):
    chunks = list(chunk_text(text, budget, count))
    assert "".join(chunks) == text
    assert all(c and count(c) <= budget for c in chunks)


@pytest.mark.parametrize("one_line", [False, True])
def test_chunking_work_grows_linearly_with_the_text(one_line):
    """The characters handed to the tokenizer grow in proportion to the input, not its square
    (each cut looks at a window of about two chunks, never the whole rest)."""
    paragraph = (
        "Mowgli ran with the wolves. Bagheera watched from a tree; Baloo taught the Law.\n\n"
    )

    def work(size: int) -> int:
        text = (paragraph * (size // len(paragraph) + 1))[:size]
        if one_line:
            text = text.replace("\n", " ")
        seen = [0]

        def count(piece: str) -> int:
            seen[0] += len(piece)
            return len(piece.split())

        chunks = list(chunk_text(text, 256, count))
        assert "".join(chunks) == text and all(count(c) <= 256 for c in chunks)
        return seen[0]

    small, large = work(50_000), work(500_000)
    counted = [small, large]
    assert large < 12 * small, counted
