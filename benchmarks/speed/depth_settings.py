"""Attention and cache settings at depth, both shipped models, one table in one run (by hand).

For each model and each setting (flash attention off/on, KV cache f16/q8_0, micro-batch size,
thread count) this evaluates D tokens, then times prefilling a window of 512 tokens on top of
them and decoding 16 tokens after that, at depths 0, 2048, 4096 and 6144; settings interleaved
at each depth, median of 3 (the depth itself is evaluated once per setting). Rows are written
as they come (``--out``), so a long run keeps what it measured.

    python benchmarks/speed/depth_settings.py [--models smollm2-135m,gemma3-270m] \
        [--depths 0,2048,4096,6144] [--out benchmarks/results/depth_settings.txt]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from prism_edge.backends.catalog import resolve_model
from prism_edge.backends.llama_cpp import LlamaCppBackend, physical_cores

SETTINGS = {
    "flash off, f16, batch 512": {"flash_attn": False},  # micro-batch PLAIN_UBATCH
    "flash off, f16, batch 512, micro-batch 512": {"flash_attn": False, "n_ubatch": 512},
    "flash on, f16, batch 512": {"flash_attn": True},
    "flash on, q8_0, batch 512": {"flash_attn": True, "kv_type": "q8_0"},
    "flash off, f16, batch 256": {"flash_attn": False, "n_batch": 256},
    "flash off, f16, batch 512, micro-batch 256": {"flash_attn": False, "n_ubatch": 256},
    "flash off, f16, batch 512, micro-batch 128": {"flash_attn": False, "n_ubatch": 128},
    "flash off, f16, batch 512, micro-batch 64": {"flash_attn": False, "n_ubatch": 64},
    "flash off, f16, batch 1024": {"flash_attn": False, "n_batch": 1024},
    "flash off, f16, 1 thread": {"flash_attn": False, "n_threads": 1},
    "flash on, f16, batch 256": {"flash_attn": True, "n_batch": 256},
    "flash on, f16, batch 512, micro-batch 256": {"flash_attn": True, "n_ubatch": 256},
    "flash on, f16, batch 128": {"flash_attn": True, "n_batch": 128},
    "flash on, f16, 1 thread": {"flash_attn": True, "n_threads": 1},
}


def rates(backend: LlamaCppBackend, depth: int, window: int, decode: int) -> tuple[float, float]:
    """Prefill of ``window`` tokens on top of ``depth`` cached ones, then decoding; the depth is
    evaluated once per setting and depth, and each repeat drops what the last one added."""
    filler = backend.tokenize("The quick brown fox jumps over the lazy dog. " * 200)
    tokens = (filler * ((depth + window) // len(filler) + 1))[: depth + window]
    if backend.cached_tokens()[:depth] != tokens[:depth] or backend.llama.n_tokens < depth:
        backend.reset_cache()
        if depth:
            backend._prefill(tokens[:depth])
    backend.llama.n_tokens = depth  # the window and the decoded tokens of the last repeat go
    start = time.perf_counter()
    backend._prefill(tokens)  # reuses the first `depth`, evaluates the window
    prefill = window / (time.perf_counter() - start)
    # decoding: the next filler tokens fed one at a time (the same tokens for every setting;
    # sampling would stop early where the loop stop sees the filler repeat itself)
    following = (filler * 2)[:decode]
    start = time.perf_counter()
    for token in following:
        backend.llama.eval([token])
    return prefill, len(following) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--models", default="smollm2-135m,gemma3-270m")
    parser.add_argument("--depths", default="0,2048,4096,6144")
    parser.add_argument("--window", type=int, default=512)
    parser.add_argument("--decode", type=int, default=16)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--only", default="", help="settings to measure, separated by |")
    args = parser.parse_args()
    only = [label.strip() for label in args.only.split("|") if label.strip()]
    chosen = {k: v for k, v in SETTINGS.items() if not only or k in only}
    depths = [int(d) for d in args.depths.split(",")]
    out = args.out.open("w", encoding="utf-8") if args.out else sys.stdout

    def say(line: str) -> None:
        print(line, file=out, flush=True)
        if out is not sys.stdout:
            print(line, flush=True)

    n_ctx = max(depths) + args.window + args.decode + 64
    say(f"threads by default: {physical_cores()}; window {args.window}, decode {args.decode}")
    head = " | ".join(f"prefill @{d}" for d in depths) + " | "
    head += " | ".join(f"decode @{d}" for d in depths)
    for name in args.models.split(","):
        path = resolve_model(name)
        backends = {
            label: LlamaCppBackend(path, n_ctx=n_ctx, **settings)  # type: ignore[arg-type]
            for label, settings in chosen.items()
        }
        say(f"\n### {path.name} (tokens/s, median of {args.repeats})\n")
        say(f"| setting | {head} |")
        say("|---|" + "---|" * (2 * len(depths)))
        found: dict[str, dict[int, tuple[float, float]]] = {label: {} for label in backends}
        for depth in depths:
            runs: dict[str, list[tuple[float, float]]] = {label: [] for label in backends}
            for _ in range(args.repeats):
                for label, backend in backends.items():
                    runs[label].append(rates(backend, depth, args.window, args.decode))
            for label, measured in runs.items():
                found[label][depth] = (
                    statistics.median(p for p, _ in measured),
                    statistics.median(d for _, d in measured),
                )
            print(f"  {path.name}: depth {depth} done", flush=True)
        for label, by_depth in found.items():
            prefill = " | ".join(f"{by_depth[d][0]:.0f}" for d in depths)
            decode = " | ".join(f"{by_depth[d][1]:.1f}" for d in depths)
            say(f"| {label} | {prefill} | {decode} |")
        for backend in backends.values():
            backend.llama.close()


if __name__ == "__main__":
    main()
