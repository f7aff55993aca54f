"""Peak RSS per measured part, and what a loaded model occupies by design."""

from __future__ import annotations

import sys

import pytest

from prism_edge.core.footprint import peak_rss_bytes, reset_peak


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/self/clear_refs: Linux")
def test_the_peak_is_reset_between_parts():
    assert reset_peak()
    base = peak_rss_bytes()
    block = bytearray(200 * 2**20)  # 200 MB touched
    block[::4096] = b"x" * len(block[::4096])
    high = peak_rss_bytes()
    assert high - base > 150 * 2**20
    del block
    assert reset_peak()
    assert peak_rss_bytes() < high - 150 * 2**20  # the next part does not inherit the peak


@pytest.mark.model
def test_the_embedded_models_footprint():
    from prism_edge.backends.llama_cpp import LlamaCppBackend

    backend = LlamaCppBackend(n_ctx=2048)
    footprint = backend.footprint()
    assert footprint.model_bytes == backend.path.stat().st_size
    # SmolLM2-135M: 30 layers, 3 KV heads of 64: 2048 x 30 x 3 x (64 + 64) x 2 bytes
    assert footprint.kv_bytes == 2048 * 30 * 3 * 128 * 2
