"""A token picked from a position's logits: greedy or top-k with temperature, llama.cpp's repeat
penalty, and the pick fully constrained sampling would make, found by checking the best
candidates one by one before the grammar filters the whole vocabulary."""

from __future__ import annotations

from typing import Any

REPEAT_WINDOW = 64
"""Generated tokens the repeat penalty looks back on (llama.cpp's default)."""
TOP_K = 40
"""Top-k sampling as in the paper (k = 40)."""
SCAN = 256
"""Candidates checked one by one, best first, before the grammar filters the vocabulary."""


def _constrained_pick(logits: Any, constraint: Any, temperature: float, rng: Any) -> int:
    """The token fully constrained sampling would pick, checking candidates best first.

    Greedy needs the best allowed token; top-k needs the k best allowed tokens. Both are found
    by checking single tokens in descending logit order; only when the best ``SCAN`` candidates
    do not hold enough allowed tokens does the grammar filter the whole vocabulary.
    """
    import numpy as np

    wanted = 1 if temperature <= 0 else TOP_K
    scan = min(SCAN, len(logits))
    best = np.argpartition(logits, -scan)[-scan:]
    best = best[np.argsort(-logits[best], kind="stable")]
    allowed: list[int] = []
    for token in best:
        if constraint.allows(int(token)):
            allowed.append(int(token))
            if len(allowed) == wanted:
                break
    if len(allowed) < wanted:
        return _pick(constraint.mask(logits), temperature, rng)
    if temperature <= 0:
        return allowed[0]
    chosen = np.array(allowed)
    scaled = logits[chosen].astype(np.float64) / temperature
    weights = np.exp(scaled - scaled.max())
    return int(rng.choice(chosen, p=weights / weights.sum()))


def _penalize(logits: Any, recent: list[int], penalty: float) -> Any:
    """llama.cpp's repeat penalty: recent tokens' logits divided (or, if negative, multiplied)."""
    import numpy as np

    out = np.array(logits, dtype=np.float32)
    ids = np.unique(np.array(recent))
    values = out[ids]
    out[ids] = np.where(values > 0, values / penalty, values * penalty)
    return out


def _pick(logits: Any, temperature: float, rng: Any, top_k: int = TOP_K) -> int:
    """Greedy at temperature 0; otherwise top-k (40, as in the paper) with temperature."""
    import numpy as np

    if temperature <= 0:
        return int(np.argmax(logits))
    finite = np.flatnonzero(np.isfinite(logits))
    k = min(top_k, len(finite))
    top = finite[np.argpartition(logits[finite], -k)[-k:]]
    scaled = logits[top].astype(np.float64) / temperature
    weights = np.exp(scaled - scaled.max())
    return int(rng.choice(top, p=weights / weights.sum()))
