"""What the line guard costs: time spent checking that every open line can still end within the
output budget, against the whole revision call (by hand).

One 512-token revision call per case on the embedded model (code search over Jinja2's filters,
free and extractive summaries of a Jungle Book passage), temperature 1 with fixed seeds, the
guard's time measured around each of its checks.

    python benchmarks/decoding/line_guard.py

Writes benchmarks/results/line_guard.txt.
"""

from __future__ import annotations

import time
from pathlib import Path

from prism_edge.backends import llama_cpp
from prism_edge.backends.llama_cpp import LlamaCppBackend
from prism_edge.core.revisions import parse_output
from prism_edge.core.schema import prompt_text
from prism_edge.grammar.revision import GrammarLimits
from prism_edge.grammar.step import StepGrammar
from prism_edge.methods.presets import TASKS
from prism_edge.prompts import PromptBuilder
from prism_edge.text.grounding import Grounding

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    backend = LlamaCppBackend(n_ctx=4096)
    book = (ROOT.parent / "shared" / "data" / "jungle-book.txt").read_text()[20000:26000]
    code = (ROOT / "benchmarks" / "data" / "jinja2_filters.py").read_text()[:5000]
    spent = {"seconds": 0.0, "checks": 0}
    check = llama_cpp._LineGuard.check

    def timed(self: llama_cpp._LineGuard, token: int, left: int, eog: bool) -> int | None:
        start = time.perf_counter()
        try:
            return check(self, token, left, eog)
        finally:
            spent["seconds"] += time.perf_counter() - start
            spent["checks"] += 1

    llama_cpp._LineGuard.check = timed  # type: ignore[method-assign]
    cases = [
        ("code-search", code, None, "Find the function that escapes HTML."),
        ("summarize", book, None, "Summarize."),
        ("summarize", book, "extractive", "Summarize."),
    ]
    lines = [
        "| task | grounding | decoded tokens | call s | guard s | guard share | revisions | "
        "rejected lines |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, text, grounding, question in cases:
        schema = TASKS[name].schema
        prompt = PromptBuilder(question, prompt_text(schema)).revise([], text)
        backend.complete(prompt, max_tokens=1)  # the prompt's prefill, out of the timing
        for seed in (7, 8):
            spent.update(seconds=0.0, checks=0)
            grammar = StepGrammar(
                schema,
                schema.empty_memory(),
                limits=GrammarLimits(max_string=256),
                grounding=Grounding.of(text, kind=grounding, max_chars=256) if grounding else None,
            )
            start = time.perf_counter()
            out = backend.complete(
                prompt,
                grammar=grammar,
                max_tokens=512,
                temperature=1.0,
                seed=seed,
                repeat_penalty=1.15,
            )
            took = time.perf_counter() - start
            parsed = parse_output(out.text)
            lines.append(
                f"| {name} | {grounding or 'free'} | {out.decoded_tokens} | {took:.2f} | "
                f"{spent['seconds']:.2f} | {spent['seconds'] / took:.1%} | "
                f"{len(parsed.revisions)} | {len(parsed.rejected)} |"
            )
            print(lines[-1], flush=True)
    text = "\n".join(lines) + "\n"
    (ROOT / "benchmarks" / "results" / "line_guard.txt").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
