"""Tokens evaluated into the KV cache: a prompt after the longest prefix the cache already holds
(the comparison llama.cpp makes; the reused count is what a call reports), and a batch with the
logits of every position (what scoring and jump-forward decoding read)."""

from __future__ import annotations

from typing import Any

from prism_edge.backends import reused_prefix


def cached_tokens(llama: Any) -> list[int]:
    """The tokens whose KV activations the context holds now."""
    return [int(t) for t in llama._input_ids]


def reset(llama: Any) -> None:
    """Forget the KV cache."""
    llama.reset()
    llama._ctx.kv_cache_clear()


def prefill(llama: Any, tokens: list[int], *, reuse: bool) -> int:
    """Evaluate the prompt, reusing the longest cached prefix (``reuse``: the model's cache can
    be reused at all); return the reused count."""
    reused = reused_prefix(cached_tokens(llama), tokens) if reuse else 0
    if reused == 0:
        llama.reset()
    llama.n_tokens = reused
    llama.eval(tokens[reused:])  # drops the KV cells past the reused prefix first
    return reused


def prefill_head(llama: Any, tokens: list[int], *, reuse: bool) -> int:
    """Evaluate ``tokens`` (no logits needed), reusing the longest cached prefix; return how
    many were reused."""
    cached = cached_tokens(llama) if reuse else []
    reused = 0
    for a, b in zip(cached, tokens):  # noqa: B905 -- stops at the shorter on purpose
        if a != b:
            break
        reused += 1
    if reused == 0:
        llama.reset()
    llama.n_tokens = reused
    llama._ctx.kv_cache_seq_rm(-1, reused, -1)
    if tokens[reused:]:
        llama.eval(tokens[reused:])
    return reused


def eval_all_logits(llama: Any, tokens: list[int]) -> list[Any]:
    """Evaluate ``tokens`` after the cached ones, keeping the logits of every one (what
    ``Llama.eval`` does, with logits requested for the whole batch)."""
    import numpy as np

    llama._ctx.kv_cache_seq_rm(-1, llama.n_tokens, -1)
    rows: list[Any] = []
    for i in range(0, len(tokens), llama.n_batch):
        batch = tokens[i : i + llama.n_batch]
        n_past = llama.n_tokens
        llama._batch.set_batch(batch=batch, n_past=n_past, logits_all=True)
        llama._ctx.decode(llama._batch)
        logits = np.ctypeslib.as_array(llama._ctx.get_logits(), shape=(len(batch), llama.n_vocab()))
        rows.extend(row.copy() for row in logits)
        llama.input_ids[n_past : n_past + len(batch)] = batch
        llama.n_tokens += len(batch)
    return rows
