"""A generation fallen into a loop: the same short piece of tokens, over and over.

Small models decoding greedily fall into loops (SmolLM2-135M writing ``}}}}}}...`` or
``]]]]...`` inside a JSON string until the line's budget forces it closed): once the last
:data:`LOOP_SPAN` tokens (and at least three pieces) are one piece of at most
:data:`LOOP_PERIOD` tokens repeated, greedy decoding has nothing left to say but the piece
again. A backend that sees it stops the loop there instead of decoding the rest of the budget
(``benchmarks/decoding/loop_stop.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from typing import TypeVar

T = TypeVar("T")

LOOP_PERIOD = 16
"""The longest piece (in tokens) whose repetition counts as a loop: a phrase (SmolLM2 writing
", and his daughter is Elizabeth Bennet" over and over) as well as a character."""
LOOP_SPAN = 32
"""Trailing tokens that must all be the piece repeated, and at least three whole pieces: longer
than the runs of one character that text does hold (a rule of ``=``, an ellipsis), and no
phrase of a summary comes three times running."""


def loop_start(
    tokens: Sequence[int],
    period: int = LOOP_PERIOD,
    span: int = LOOP_SPAN,
    numerals: Container[int] = (),
) -> int | None:
    """Where the loop ending ``tokens`` began, when their tail is one piece of at most
    ``period`` tokens repeated over ``span`` tokens and at least three times: the index just
    after the piece's first whole occurrence (what the output keeps); else None.

    A run of tokens in ``numerals`` (those spelling only digits) counts as one token, so
    counting is a loop too: SmolLM2 writing ``1. 2. 3. ... 10. 11. ...`` into a string is the
    piece ``N. `` over and over, with nothing left to say but the next number. Called after
    every decoded token, it collapses only a tail of the output unless that tail loops."""
    if not numerals:
        return _periodic_start(tokens, period, span)

    def is_digit(token: int) -> bool:
        return token in numerals

    need = max(span, 3 * period) + 1
    tail = tokens[-4 * need :]
    if len(tail) < len(tokens):
        shape, _ = _collapsed(tail, is_digit)
        if len(shape) >= need and _periodic_start(shape, period, span) is None:
            return None  # the last items decide whether the output ends in a loop
    shape, where = _collapsed(tokens, is_digit)
    start = _periodic_start(shape, period, span)
    return None if start is None else where[start]


def _periodic_start(items: Sequence[object], period: int, span: int) -> int | None:
    """:func:`loop_start` on items compared as they are."""
    n = len(items)
    for p in range(1, period + 1):
        run = max(span, 3 * p)
        if n < run:
            return None
        if all(items[i] == items[i - p] for i in range(n - run + p, n)):
            start = n - run
            while start > 0 and items[start - 1] == items[start - 1 + p]:
                start -= 1
            return start + p
    return None


def _collapsed(
    items: Sequence[T], is_digit: Callable[[T], bool]
) -> tuple[list[T | None], list[int]]:
    """``items`` with each run of digits as one item (None), and where each collapsed item
    begins in ``items`` (one more entry: the end)."""
    shape: list[T | None] = []
    where: list[int] = []
    for i, item in enumerate(items):
        digit = is_digit(item)
        if digit and shape and shape[-1] is None:
            continue  # the run of digits goes on
        shape.append(None if digit else item)
        where.append(i)
    where.append(len(items))
    return shape, where


def trim_loop(text: str, period: int = 128) -> str:
    """``text`` without the loop it ends in: when its tail is one piece of at most ``period``
    characters repeated at least three times, the text up to the piece's first occurrence
    (the piece kept once, to the end of a word it splits; of several such pieces, the one
    whose loop began first); else ``text`` as it is. The character-level twin of
    :func:`loop_start`, for a string the decoder closed in a loop; a run of digits counts as
    one character, so a count (``1. 2. 3. ...``) is a loop too."""
    shape, where = _collapsed(text, str.isdigit)
    n = len(shape)
    best = n
    for p in range(1, min(period, n // 3) + 1):
        start = n - p
        while start > 0 and shape[start - 1] == shape[start - 1 + p]:
            start -= 1
        if n - start >= 3 * p:
            cut = start + p
            # the piece's phase may split a word: end it (within the next piece)
            while cut < start + 2 * p - 1 and _in_word(shape[cut]):
                cut += 1
            best = min(best, cut)
    return text[: where[best]]


def _in_word(char: str | None) -> bool:
    """A character of a word (a run of digits, collapsed to None, is one)."""
    return char is None or char.isalnum()
