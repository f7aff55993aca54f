"""A generation fallen into a loop: the same short piece of tokens, over and over.

Small models decoding greedily fall into loops (SmolLM2-135M writing ``}}}}}}...`` or
``]]]]...`` inside a JSON string until the line's budget forces it closed): once the last
:data:`LOOP_SPAN` tokens are one piece of at most :data:`LOOP_PERIOD` tokens repeated, greedy
decoding has nothing left to say but the piece again. A backend that sees it ends the output
there instead of decoding the rest of the budget (``benchmarks/loop_stop.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

LOOP_PERIOD = 8
"""The longest piece (in tokens) whose repetition counts as a loop."""
LOOP_SPAN = 32
"""Trailing tokens that must all be the piece repeated: at least four times the longest
piece, longer than the runs of one character that text does hold (a rule of ``=``, an
ellipsis)."""


def loop_start(
    tokens: Sequence[int], period: int = LOOP_PERIOD, span: int = LOOP_SPAN
) -> int | None:
    """Where the loop ending ``tokens`` began, when the last ``span`` tokens are one piece of
    at most ``period`` tokens repeated: the index just after the piece's first whole
    occurrence (what the output keeps); else None."""
    n = len(tokens)
    if n < span:
        return None
    for p in range(1, period + 1):
        if all(tokens[i] == tokens[i - p] for i in range(n - span + p, n)):
            start = n - span
            while start > 0 and tokens[start - 1] == tokens[start - 1 + p]:
                start -= 1
            return start + p
    return None
