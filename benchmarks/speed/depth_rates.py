"""Prefill and decode speed by KV depth, with llama.cpp's flash attention off and on (by hand).

Why: the bench's physical bound used rates measured on a 512-token prompt, but PRISM's prompts
run 2-6k tokens deep, and on a 135M model attention at depth 4k costs as much as the weights.
For each depth D this evaluates D tokens, then times prefilling 512 more tokens on top of them
and decoding 32 tokens after that; flash attention off and on, interleaved, median of 3.

    python benchmarks/speed/depth_rates.py [--model gemma3-270m] [--depths 0,1024,2048,4096,6144]
"""

from __future__ import annotations

import argparse
import statistics
import time

from prism_edge.backends.catalog import resolve_model
from prism_edge.backends.llama_cpp import LlamaCppBackend, _load


def rates(backend: LlamaCppBackend, depth: int, window: int, decode: int) -> tuple[float, float]:
    filler = backend.tokenize("The quick brown fox jumps over the lazy dog. " * 200)
    tokens = (filler * ((depth + window) // len(filler) + 1))[: depth + window]
    backend.reset_cache()
    if depth:
        backend._prefill(tokens[:depth])
    start = time.perf_counter()
    backend._prefill(tokens)  # reuses the first `depth`, evaluates the window
    prefill = window / (time.perf_counter() - start)
    start = time.perf_counter()
    out, _ = backend._decode(None, decode, 0.0, None, stop_at_eog=False)
    return prefill, len(out) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None)
    parser.add_argument("--depths", default="0,1024,2048,4096,6144")
    parser.add_argument("--window", type=int, default=512)
    parser.add_argument("--decode", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    depths = [int(d) for d in args.depths.split(",")]
    path = resolve_model(args.model)
    n_ctx = max(depths) + args.window + args.decode + 64
    backends = {}
    for flash in (False, True):
        backend = LlamaCppBackend(path, n_ctx=n_ctx)
        backend.llama = _load(
            backend.path,
            swa_full=True,
            n_ctx=backend.n_ctx,
            n_threads=backend.threads,
            n_threads_batch=backend.threads,
            n_batch=512,
            flash_attn=flash,
        )
        backends[flash] = backend
    print(f"model {path.name}, threads {backends[False].threads}, window {args.window}")
    print("| depth | prefill tok/s | prefill tok/s (flash) | decode tok/s | decode tok/s (flash) |")
    print("|---|---|---|---|---|")
    for depth in depths:
        runs: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
        for _ in range(args.repeats):
            for flash, backend in backends.items():
                runs[flash].append(rates(backend, depth, args.window, args.decode))
        med = {
            f: (statistics.median(p for p, _ in r), statistics.median(d for _, d in r))
            for f, r in runs.items()
        }
        print(
            f"| {depth} | {med[False][0]:.0f} | {med[True][0]:.0f} | "
            f"{med[False][1]:.1f} | {med[True][1]:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
