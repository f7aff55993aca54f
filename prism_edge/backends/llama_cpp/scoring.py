"""Continuations scored after a prompt: the log-probability of each, computed the same way
whatever the order of the candidates or what the cache held."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from prism_edge.backends import Scored
from prism_edge.core.errors import BackendError, ContextOverflow
from prism_edge.prompts import Prompt

if TYPE_CHECKING:
    from prism_edge.backends.llama_cpp.backend import LlamaCppBackend

SCORE_SEQUENCES = 32
"""Candidates scored side by side in one llama.cpp call (each its own sequence)."""


def score(backend: LlamaCppBackend, prompt: Prompt, continuations: Sequence[str]) -> list[Scored]:
    """Log-probabilities of each continuation after the prompt.

    The prompt but its last token is evaluated once (reusing the cache), then its last
    token alone, whose logits give every continuation's first token. A continuation of
    more tokens has its other tokens evaluated after the prompt, with logits for every
    position: up to ``score_sequences`` continuations side by side in one llama.cpp call,
    each in its own sequence sharing the prompt's cache (so none sees another), or one
    call each when ``score_sequences`` is 1. Every score is so computed the same way,
    whatever the order of the candidates or what the cache held: a resumed run scores as
    an uninterrupted one. A call of fewer than 64 candidate tokens gives each candidate
    what it gets alone; a larger one, with flash attention, takes llama.cpp's tiled path,
    whose numbers depend on which candidates share the call (up to 0.6 on a call of 140,
    ``benchmarks/results/score_batches.txt``), so the same list scores the same, another
    list a little differently. Each call's time is shared among its candidates; the first
    pays for the prompt."""
    import numpy as np

    tokens = backend.prompt_tokens(prompt)
    if not tokens:
        raise BackendError("cannot score after an empty prompt")
    wanted = [backend._tokenize(text, special=False) for text in continuations]
    for w in wanted:
        if len(tokens) + len(w) > backend.n_ctx:
            raise ContextOverflow(
                len(tokens) + len(w), backend.n_ctx, "a prompt and a candidate to score"
            )
    begun = time.perf_counter()
    reused = backend._prefill_head(tokens[:-1])
    (after_prompt,) = backend._eval_all_logits(tokens[-1:])  # alone: the same whatever came
    first = [_logprob([after_prompt], w[:1], np) if w else 0.0 for w in wanted]
    head_seconds = time.perf_counter() - begun
    rest: dict[int, tuple[float, float]] = {}
    groups = _score_groups(
        wanted,
        len(tokens),
        sequences=backend.score_sequences,
        n_batch=backend.llama.n_batch,
        n_ctx=backend.n_ctx,
    )
    for group in groups:
        start = time.perf_counter()
        logprobs = _score_group(backend.llama, len(tokens), [wanted[i] for i in group])
        seconds = (time.perf_counter() - start) / len(group)
        rest.update({i: (lp, seconds) for i, lp in zip(group, logprobs, strict=True)})
    out = []
    for i, w in enumerate(wanted):
        more, seconds = rest.get(i, (0.0, 0.0))
        seconds += head_seconds if i == 0 else 0.0  # the first pays for the prompt
        out.append(Scored(first[i] + more, len(w), len(tokens), reused, seconds))
        reused = len(tokens) - 1  # the others find the prompt in the cache
    return out


def _score_groups(
    wanted: list[list[int]], prompt: int, *, sequences: int, n_batch: int, n_ctx: int
) -> list[list[int]]:
    """The candidates of more than one token (by index) in groups evaluated by one call
    each: at most ``sequences`` a group, within one batch and the context."""
    groups: list[list[int]] = []
    size = 0
    room = min(n_batch, n_ctx - prompt)
    for i, w in enumerate(wanted):
        if len(w) < 2:
            continue
        if groups and len(groups[-1]) < sequences and size + len(w) <= room:
            groups[-1].append(i)
            size += len(w) - 1
        else:
            groups.append([i])
            size = len(w) - 1
    return groups


def _score_group(llama: Any, prompt: int, group: list[list[int]]) -> list[float]:
    """The log-probability of each candidate of ``group`` but its first token, after the
    ``prompt`` tokens in the cache: one llama.cpp call, candidate k in sequence k
    (sharing sequence 0's cells of the prompt); the candidates' cells are removed after."""
    import numpy as np

    ctx = llama._ctx
    batch = llama._batch.batch
    n = 0
    for k, candidate in enumerate(group, start=1):
        ctx.kv_cache_seq_cp(0, k, -1, -1)  # the prompt, shared (no copy in a unified cache)
        for j, token in enumerate(candidate[:-1]):
            batch.token[n] = token
            batch.pos[n] = prompt + j
            batch.seq_id[n][0] = k
            batch.n_seq_id[n] = 1
            batch.logits[n] = True
            n += 1
    if n == 1:  # a batch of one token is computed another way (llama.cpp's matrix-vector
        # path, whose logits differ): a token in a sequence of its own keeps it a matrix
        batch.token[1], batch.pos[1] = batch.token[0], batch.pos[0]
        batch.seq_id[1][0], batch.n_seq_id[1], batch.logits[1] = len(group) + 1, 1, False
    batch.n_tokens = max(n, 2)
    try:
        ctx.decode(llama._batch)
        logits = np.ctypeslib.as_array(ctx.get_logits(), shape=(n, llama.n_vocab()))
        out, at = [], 0
        for candidate in group:
            rows = logits[at : at + len(candidate) - 1]
            out.append(_logprob(rows, candidate[1:], np))
            at += len(candidate) - 1
        return out
    finally:
        for k in range(1, len(group) + 2):
            ctx.kv_cache_seq_rm(k, -1, -1)
        llama.n_tokens = prompt


def _logprob(rows: Any, tokens: list[int], np: Any) -> float:
    """The sum of each token's log-probability under the logits row before it."""
    total = 0.0
    for row, token in zip(rows, tokens, strict=True):
        shifted = row.astype(np.float64) - row.max()
        total += float(shifted[token] - np.log(np.exp(shifted).sum()))
    return total
