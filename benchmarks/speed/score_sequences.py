"""Candidates scored one call each against side by side in one call (by hand, alone on the
machine).

The same work on backends whose scoring groups 1 and 32 candidates a call (each backend in
turn, twice, in alternating order): ten passages of the Jungle Book, each with the names it
holds as candidates (what the summary by names scores), then a plain prompt evaluated and
64 tokens generated (what every context does, to show the sequences cost nothing there).
Prints seconds per part and whether the scores are identical.

    python benchmarks/speed/score_sequences.py > benchmarks/results/score_sequences.txt
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from prism_edge.backends.base import Sampling
from prism_edge.backends.llama_cpp import LlamaCppBackend
from prism_edge.methods.names import _prompt
from prism_edge.prompts import Part, Prompt
from prism_edge.text.grounding import names_of

TEXT = Path(__file__).resolve().parents[3] / "shared" / "data" / "jungle-book.txt"


def passages() -> list[str]:
    text = TEXT.read_text(encoding="utf-8")
    return [text[20000 + i * 2200 : 22200 + i * 2200] for i in range(10)]


def measure(sequences: int) -> tuple[dict[str, float], list[float]]:
    backend = LlamaCppBackend(n_ctx=2048, score_sequences=sequences)
    backend.score(_prompt("A warm-up passage."), [" warm", " up"])
    seconds: dict[str, float] = {}
    scores: list[float] = []
    start = time.perf_counter()
    candidates = 0
    for passage in passages():
        names = [f" {n}" for n in names_of(passage)[:24]] or [" Mowgli"]
        candidates += len(names)
        scores += [s.logprob for s in backend.score(_prompt(passage), names)]
    seconds["score 10 passages"] = time.perf_counter() - start
    seconds["candidates"] = candidates
    prompt = Prompt((Part(passages()[0] + passages()[1], "document"),))
    start = time.perf_counter()
    backend.generate(prompt, Sampling(max_tokens=64, temperature=0.0), None)
    seconds["prefill + 64 tokens"] = time.perf_counter() - start
    return seconds, scores


def main() -> None:
    runs: dict[int, list[dict[str, float]]] = {1: [], 32: []}
    scores: dict[int, list[float]] = {}
    for sequences in (1, 32, 32, 1):
        seconds, scores[sequences] = measure(sequences)
        runs[sequences].append(seconds)
    print("| candidates a call | score 10 passages (s) | candidates | prefill + 64 tokens (s) |")
    print("|---|---|---|---|")
    for sequences, found in runs.items():
        cells = [statistics.median(r[k] for r in found) for k in found[0]]
        print(f"| {sequences} | {cells[0]:.2f} | {cells[1]:.0f} | {cells[2]:.2f} |")
    print(f"\nscores identical: {scores[1] == scores[32]}")


if __name__ == "__main__":
    main()
