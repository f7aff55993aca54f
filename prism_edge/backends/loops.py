"""A generation fallen into a loop: the same short piece of tokens, over and over.

Small models decoding greedily fall into loops (SmolLM2-135M writing ``}}}}}}...`` or
``]]]]...`` inside a JSON string until the line's budget forces it closed): once the last
:data:`LOOP_SPAN` tokens (and at least three pieces) are one piece of at most
:data:`LOOP_PERIOD` tokens repeated, greedy decoding has nothing left to say but the piece
again. A backend that sees it stops the loop there instead of decoding the rest of the budget
(``benchmarks/loop_stop.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

LOOP_PERIOD = 16
"""The longest piece (in tokens) whose repetition counts as a loop: a phrase (SmolLM2 writing
", and his daughter is Elizabeth Bennet" over and over) as well as a character."""
LOOP_SPAN = 32
"""Trailing tokens that must all be the piece repeated, and at least three whole pieces: longer
than the runs of one character that text does hold (a rule of ``=``, an ellipsis), and no
phrase of a summary comes three times running."""


def loop_start(
    tokens: Sequence[int], period: int = LOOP_PERIOD, span: int = LOOP_SPAN
) -> int | None:
    """Where the loop ending ``tokens`` began, when their tail is one piece of at most
    ``period`` tokens repeated over ``span`` tokens and at least three times: the index just
    after the piece's first whole occurrence (what the output keeps); else None."""
    n = len(tokens)
    for p in range(1, period + 1):
        run = max(span, 3 * p)
        if n < run:
            return None
        if all(tokens[i] == tokens[i - p] for i in range(n - run + p, n)):
            start = n - run
            while start > 0 and tokens[start - 1] == tokens[start - 1 + p]:
                start -= 1
            return start + p
    return None


def trim_loop(text: str, period: int = 128) -> str:
    """``text`` without the loop it ends in: when its tail is one piece of at most ``period``
    characters repeated at least three times, the text up to the piece's first occurrence
    (the piece kept once, to the end of a word it splits; of several such pieces, the one
    whose loop began first); else ``text`` as it is. The character-level twin of
    :func:`loop_start`, for a string the decoder closed in a loop."""
    n = len(text)
    best = n
    for p in range(1, min(period, n // 3) + 1):
        start = n - p
        while start > 0 and text[start - 1] == text[start - 1 + p]:
            start -= 1
        if n - start >= 3 * p:
            cut = start + p
            # the piece's phase may split a word: end it (within the next piece)
            while cut < start + 2 * p - 1 and text[cut].isalnum():
                cut += 1
            best = min(best, cut)
    return text[:best]
