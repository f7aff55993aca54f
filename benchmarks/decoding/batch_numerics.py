"""Logits of the same tokens evaluated in one batch and one at a time (by hand).

Why jump-forward decoding (and any draft verified in one batch) cannot promise the
token-by-token output: after the same 500-token prompt, 40 tokens of the Jungle Book are
evaluated one at a time and then as one batch with every position's logits. For each attention
setting this prints the largest logit difference, how often the argmax differs, and at which
positions of the batch the logits are bit for bit those of the token evaluated alone; then,
for short batches (a draft of 2-16 tokens) after prompts of six lengths, how many rows are
exact and whether the token after the batch is.

    python benchmarks/decoding/batch_numerics.py --out benchmarks/results/batch_numerics.txt
"""

from __future__ import annotations

import argparse
import subprocess
import time
from pathlib import Path

import llama_cpp
import numpy as np

from prism_edge.backends.llama_cpp import LlamaCppBackend

TEXT = Path(__file__).resolve().parents[3] / "shared" / "data" / "jungle-book.txt"


def last(backend: LlamaCppBackend) -> np.ndarray:
    """The logits after the last evaluated token."""
    pointer = llama_cpp.llama_get_logits_ith(backend.llama.ctx, -1)
    return np.ctypeslib.as_array(pointer, shape=(backend.llama.n_vocab(),)).copy()


def small_batches(backend: LlamaCppBackend) -> list[str]:
    """Could short drafts be exact? After prompts of six lengths, batches of 2-16 tokens of
    Moby-Dick: how many of a batch's rows have the one-at-a-time logits bit for bit, and
    whether the token evaluated alone after the batch does (its keys and values)."""
    moby = (TEXT.parent / "moby-dick.txt").read_text(encoding="utf-8")[20000:60000]
    tokens = backend.tokenize(moby)
    lines = []
    for start in (37, 300, 511, 700, 1500, 1900):
        prompt, following = tokens[:start], tokens[start : start + 17]
        backend.reset_cache()
        backend._prefill(prompt)
        alone = []
        for token in following:
            backend.llama.eval([token])
            alone.append(last(backend))
        cells = []
        for k in (2, 3, 4, 6, 8, 16):
            backend.reset_cache()
            backend._prefill(prompt)
            rows = backend._eval_all_logits(following[:k])
            same = sum(np.array_equal(r, a) for r, a in zip(rows, alone, strict=False))
            backend.llama.eval([following[k]])
            after = "the next one too" if np.array_equal(last(backend), alone[k]) else "not"
            cells.append(f"{k}: {same} exact, {after}")
        lines.append(f"  after {start} tokens, a batch of " + "; ".join(cells))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    command = "$ python benchmarks/decoding/batch_numerics.py"
    lines = [f"{command}   ({time.strftime('%Y-%m-%d')}, commit {commit})"]
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
        pairs = list(zip(one_by_one, batched, strict=True))
        diff = max(float(np.abs(a - b).max()) for a, b in pairs)
        flips = sum(int(np.argmax(a) != np.argmax(b)) for a, b in pairs)
        # position 0 is the prompt's last token (evaluated alone both ways)
        exact = [i for i, (a, b) in enumerate(pairs[1:], 1) if np.array_equal(a, b)]
        lines.append(
            f"flash attention {'on' if flash else 'off'}: largest logit difference {diff:.2f}, "
            f"argmax differs at {flips} of {len(pairs)} positions; batch positions whose "
            f"logits are bit for bit the token's alone: {exact or 'none'} of 1-{len(pairs) - 1}"
        )
        lines.extend(small_batches(backend))
        backend.llama.close()
    report = "\n".join(lines)
    print(report)
    if args.out:
        args.out.write_text(report + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
