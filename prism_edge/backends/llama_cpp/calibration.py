"""This machine measured with the model: prefill and decode speed by KV depth (what ``bench``'s
physical bound charges), and the attention a run takes (flash attention or not, by the rates of
both at the depth PRISM's prompts run, measured once per model and build)."""

from __future__ import annotations

import statistics
import time
from typing import TYPE_CHECKING

from prism_edge.backends import attention
from prism_edge.core.metrics import SpeedProfile

if TYPE_CHECKING:
    from prism_edge.backends.llama_cpp.backend import LlamaCppBackend

_FILLER = "The quick brown fox jumps over the lazy dog. " * 200
"""Text the speed measurements evaluate (its content does not change the rates)."""


def suit(backend: LlamaCppBackend, decode_share: float) -> str | None:
    """:meth:`LlamaCppBackend.suit`: the attention for a run that decodes this share of its
    prompt tokens, the context reopened with it if it has the other; a note saying why."""
    if backend._attention_chosen:
        return None
    note = None
    wanted = True
    if decode_share > 0:
        verdict = attention_verdict(backend)
        wanted, note = verdict.flash_for(decode_share), verdict.describe(decode_share)
    if wanted != backend.flash_attn:
        backend._reopen(wanted)
    return note


def attention_verdict(backend: LlamaCppBackend) -> attention.Verdict:
    """Both attention settings' rates for this model, build and settings: from the user's
    cache, else measured (:meth:`LlamaCppBackend._measure_attention`) and kept there."""
    keys = ("n_threads", "n_batch", "n_ubatch", "plain_ubatch", "type_k")
    settings = {k: backend._settings[k] for k in keys}
    key = attention.cache_key(backend.path, {**settings, "depth": attention_depth(backend)})
    verdict = attention.cached(key)
    if verdict is None:
        verdict = backend._measure_attention()
        attention.save(key, verdict, backend.path)
    return verdict


def attention_depth(backend: LlamaCppBackend) -> int:
    """The depth the rates are measured at: ``attention.DEPTH``, or less in a small
    context."""
    return max(1, min(attention.DEPTH, backend.n_ctx - attention.DECODED - 1))


def measure_attention(backend: LlamaCppBackend) -> attention.Verdict:
    """Both attention settings side by side: prefill ``attention.DEPTH`` tokens from an
    empty cache, then decode ``attention.DECODED`` at that depth (each setting warmed up
    first). The context is left with the setting measured last, its cache empty."""
    depth = attention_depth(backend)
    filler = backend.tokenize(_FILLER)
    tokens = (filler * ((depth + attention.DECODED) // len(filler) + 1))[
        : depth + attention.DECODED
    ]
    opened = backend.flash_attn
    rates: dict[bool, attention.Rates] = {}
    for flash in (opened, not opened):
        if flash != backend.flash_attn:
            backend._reopen(flash)
        backend.reset_cache()
        backend._prefill(tokens[:32])  # warm-up: the first evaluation pays for page faults
        backend.reset_cache()
        start = time.perf_counter()
        backend._prefill(tokens[:depth])
        prefill = depth / (time.perf_counter() - start)
        start = time.perf_counter()
        for token in tokens[depth:]:
            backend.llama.eval([token])
        decode = attention.DECODED / (time.perf_counter() - start)
        rates[flash] = attention.Rates(prefill, decode)
    backend.reset_cache()
    return attention.Verdict(rates[True], rates[False], depth)


def calibrate(
    backend: LlamaCppBackend, max_depth: int | None, window: int, decode_tokens: int, passes: int
) -> SpeedProfile:
    """:meth:`LlamaCppBackend.calibrate`: each point the median of the passes
    (:meth:`LlamaCppBackend._calibration_pass`)."""
    depth = min(max_depth or backend.n_ctx, backend.n_ctx) - decode_tokens - 1
    window = max(1, min(window, depth))
    filler = backend.tokenize(_FILLER)
    tokens = (filler * (depth // max(1, len(filler)) + 1))[:depth]
    runs = [backend._calibration_pass(tokens, window, decode_tokens) for _ in range(passes)]

    def median(points: list[list[tuple[float, float]]]) -> tuple[tuple[float, float], ...]:
        return tuple(
            (at[0][0], statistics.median(seconds for _, seconds in at))
            for at in zip(*points, strict=True)
        )

    return SpeedProfile(median([r[0] for r in runs]), median([r[1] for r in runs]))


def calibration_pass(
    backend: LlamaCppBackend, tokens: list[int], window: int, decode_tokens: int
) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """One calibration pass: (depth, seconds per token) of prefill and of decode."""
    prefill: list[tuple[float, float]] = []
    decode: list[tuple[float, float]] = []
    backend.reset_cache()
    for end in range(window, len(tokens) + 1, window):
        start = time.perf_counter()
        reused = backend._prefill(tokens[:end])
        prefill.append(((reused + end) / 2, (time.perf_counter() - start) / (end - reused)))
        start = time.perf_counter()
        out, _ = backend._decode(None, decode_tokens, 0.0, None, stop_at_eog=False)
        seconds = time.perf_counter() - start
        decode.append((end + len(out) / 2, seconds / max(1, len(out))))
    backend.reset_cache()
    return prefill, decode
