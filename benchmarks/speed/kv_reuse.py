"""What KV prefix reuse saves, side by side in one run (run by hand).

On 10 chunks of the Jungle Book with the embedded model: the model's prefill and decode
tokens/s, then an amendments PRISM run with the KV cache reused across calls, then the same run
with the cache reset before every call (so every prompt token is evaluated again).

    python benchmarks/speed/kv_reuse.py [--chunks 10] [--chunk-tokens 1024]
"""

from __future__ import annotations

import argparse
import json
import time
from itertools import islice
from pathlib import Path
from typing import Any

from prism_edge.backends import Backend, Completion, Grammar, Sampling
from prism_edge.backends.llama_cpp import LlamaCppBackend
from prism_edge.engine.runner import PrismRunner
from prism_edge.methods.presets import TASKS
from prism_edge.prompts import Prompt
from prism_edge.text.chunking import chunk_document

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "jungle-book.txt"


class ColdCache(Backend):
    """The same backend, its KV cache forgotten before every call."""

    supports_grammar = True

    def __init__(self, backend: LlamaCppBackend) -> None:
        self._backend = backend
        self.name, self.n_ctx = backend.name, backend.n_ctx
        self.reports_reused_tokens = backend.reports_reused_tokens

    def tokenize(self, text: str) -> list[int]:
        return self._backend.tokenize(text)

    def count_tokens(self, prompt: Prompt) -> int:
        return self._backend.count_tokens(prompt)

    def generate(self, prompt: Prompt, sampling: Sampling, grammar: Grammar | None) -> Completion:
        self._backend.reset_cache()
        return self._backend.generate(prompt, sampling, grammar)


def run(backend: Any, chunks: list[str]) -> dict[str, Any]:
    task = TASKS["summarize"]
    config = task.configure(encoding="amendments", answer_max_tokens=128)
    runner = PrismRunner(backend, task.schema, config)
    start = time.perf_counter()
    for _ in runner.run(chunks):
        pass
    wall = time.perf_counter() - start
    answer = runner.metrics.calls[-1]
    return {
        **runner.metrics.to_dict(),
        "wall_s": round(wall, 2),
        "answer_call": {
            "prompt_tokens": answer.prompt_tokens,
            "reused_tokens": answer.reused_tokens,
        },
        "memory": runner.memory.data,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunks", type=int, default=10)
    parser.add_argument("--chunk-tokens", type=int, default=1024)
    args = parser.parse_args()
    backend = LlamaCppBackend(n_ctx=4096)
    profile = backend.calibrate(max_depth=2048)
    count = lambda t: len(backend.tokenize(t))  # noqa: E731
    text = DATA.read_text(encoding="utf-8")
    chunks = list(
        islice(chunk_document("jungle-book", text, "prose", args.chunk_tokens, count), args.chunks)
    )
    warm = run(backend, chunks)
    cold = run(ColdCache(backend), chunks)
    same = warm.pop("memory") == cold.pop("memory")
    print(f"model {backend.name}: {profile.describe()}")
    print("| run | prompt tokens | reused | net | decoded | wall s |")
    print("|---|---|---|---|---|---|")
    for name, r in (("reuse", warm), ("cache reset every call", cold)):
        print(
            f"| {name} | {r['prompt_tokens']} | {r['reused_tokens']} | {r['net_tokens']} | "
            f"{r['decoded_tokens']} | {r['wall_s']} |"
        )
    print(
        f"wall time with reuse / without: {warm['wall_s'] / cold['wall_s']:.2f}; "
        f"same final memory: {same}"
    )
    a = warm["answer_call"]
    print(
        f"final answer call (with reuse): {a['reused_tokens']} of {a['prompt_tokens']} prompt "
        "tokens reused from the last revision call"
    )
    print(
        json.dumps(
            {"calibration": profile.to_dict(), "reuse": warm, "cold": cold},
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
