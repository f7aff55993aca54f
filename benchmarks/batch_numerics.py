"""Logits of the same tokens evaluated in one batch and one at a time (by hand).

Why jump-forward decoding cannot promise the token-by-token output: after the same 500-token
prompt, 40 tokens of the Jungle Book are evaluated one at a time and then as one batch with
every position's logits; this prints the largest logit difference and how often the argmax
differs, with flash attention on and off.

    python benchmarks/batch_numerics.py > benchmarks/results/batch_numerics.txt
"""

from __future__ import annotations

from pathlib import Path

import llama_cpp
import numpy as np

from prism_edge.backends.llama_cpp import LlamaCppBackend

TEXT = Path(__file__).resolve().parents[2] / "shared" / "data" / "jungle-book.txt"


def last(backend: LlamaCppBackend) -> np.ndarray:
    """The logits after the last evaluated token."""
    pointer = llama_cpp.llama_get_logits_ith(backend.llama.ctx, -1)
    return np.ctypeslib.as_array(pointer, shape=(backend.llama.n_vocab(),)).copy()


def main() -> None:
    text = TEXT.read_text(encoding="utf-8")[5000:9000]
    for flash in (True, False):
        backend = LlamaCppBackend(n_ctx=2048, flash_attn=flash)
        tokens = backend.tokenize(text)[:540]
        prompt, following = tokens[:500], tokens[500:540]
        backend.reset_cache()
        backend._prefill(prompt)
        one_by_one = []
        for token in following:
            one_by_one.append(last(backend))
            backend.llama.eval([token])
        backend.reset_cache()
        backend._prefill(prompt)
        batched = [last(backend), *backend._eval_all_logits(following[:-1])]
        diff = max(float(np.abs(a - b).max()) for a, b in zip(one_by_one, batched, strict=True))
        flips = sum(
            int(np.argmax(a) != np.argmax(b)) for a, b in zip(one_by_one, batched, strict=True)
        )
        print(
            f"flash attention {'on' if flash else 'off'}: largest logit difference {diff:.2f}, "
            f"argmax differs at {flips} of {len(batched)} positions"
        )


if __name__ == "__main__":
    main()
