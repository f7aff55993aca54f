"""Every revision the local model emits under the grammar parses and applies (run by hand).

With the embedded model, for each preset schema, PRISM over 30 chunks of Moby-Dick; prints the
revisions applied, rejected as invalid, dropped as repeats, and cut at the token budget.

    python benchmarks/decoding/grammar_validity.py [--chunks 30] [--chunk-tokens 512]
"""

from __future__ import annotations

import argparse
import json
import time
from itertools import islice
from pathlib import Path

from prism_edge.backends.llama_cpp import LlamaCppBackend
from prism_edge.engine.runner import BudgetExceeded, PrismConfig, PrismRunner
from prism_edge.methods.presets import TASKS
from prism_edge.text.chunking import chunk_document

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "moby-dick.txt"
QUESTIONS = {
    "code-search": "Find the function that counts the whales a ship has sighted.",
    "table-qa": "How many whales did the Pequod sight?",
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunks", type=int, default=30)
    parser.add_argument("--chunk-tokens", type=int, default=512)
    args = parser.parse_args()
    backend = LlamaCppBackend(n_ctx=8192)
    count = lambda t: len(backend.tokenize(t))  # noqa: E731
    text = DATA.read_text(encoding="utf-8")[30000:]
    chunks = list(
        islice(chunk_document("moby-dick", text, "prose", args.chunk_tokens, count), args.chunks)
    )
    rows = []
    for name, task in TASKS.items():
        config = PrismConfig(
            question=task.default_question or QUESTIONS[name],
            example=task.example,
            answer_instruction=task.answer_instruction,
            answer_choices=task.answer_choices,
            max_tokens=256,
            answer_max_tokens=64,
        )
        runner = PrismRunner(backend, task.schema, config)
        start = time.perf_counter()
        stopped = ""
        try:
            for _ in runner.run(chunks):
                pass
        except BudgetExceeded as exc:  # the memory filled the context: count what was done
            stopped = str(exc)
        r = runner.result
        emitted = r.applied + r.rejected + r.duplicates + r.cut
        rows.append(
            {
                "schema": name,
                "steps": r.steps,
                "emitted": emitted,
                "applied": r.applied,
                "rejected": r.rejected,
                "duplicates": r.duplicates,
                "cut": r.cut,
                "fallbacks": backend.grammar_fallbacks,
                "seconds": round(time.perf_counter() - start, 1),
                "reasons": sorted({e.reason for e in r.rejections if e.kind == "invalid"}),
                "stopped": stopped,
            }
        )
    print(
        "| schema | steps | revisions emitted | applied | invalid | repeats dropped | "
        "cut at budget |"
    )
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print(
            f"| {row['schema']} | {row['steps']} | {row['emitted']} | {row['applied']} | "
            f"{row['rejected']} | {row['duplicates']} | {row['cut']} |"
        )
    print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
