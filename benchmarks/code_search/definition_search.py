"""Code-search needles with definition-grounded PRISM (two ways of asking the model to score)
against BM25 over the same definitions, one needle at a time, results saved as they come (by
hand).

    python benchmarks/code_search/definition_search.py [--model smollm2-135m] [--methods ...]

Writes benchmarks/results/definition-search-<model>.{json,txt}.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from prism_edge.backends.factory import open_backend
from prism_edge.engine.runner import run_prism
from prism_edge.engine.session import counter
from prism_edge.eval.quality import load_needles, names_function
from prism_edge.methods import make
from prism_edge.methods.definitions import bm25_search
from prism_edge.methods.presets import TASKS
from prism_edge.text.chunking import chunk_document

ROOT = Path(__file__).resolve().parents[2]
METHODS: dict[str, dict[str, object] | None] = {
    "BM25 definitions": None,
    "PRISM definitions (likelihood)": {"formulation": "likelihood"},
    "PRISM definitions (yes-no)": {"formulation": "yes-no"},
    "PRISM definitions + BM25 top 8 (likelihood)": {"formulation": "likelihood", "shortlist": 8},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--model", default=None)
    parser.add_argument("--methods", default=",".join(METHODS))
    parser.add_argument("--chunk-tokens", type=int, default=2048)
    args = parser.parse_args()
    backend = open_backend(args.model, n_ctx=args.chunk_tokens * 2 + 1024)
    code = (ROOT / "benchmarks" / "data" / "jinja2_filters.py").read_text()
    chunks = list(
        chunk_document("jinja2/filters.py", code, "code", args.chunk_tokens, counter(backend))
    )
    needles = load_needles(ROOT / "benchmarks" / "data" / "jinja2-filters-needles.jsonl")
    stem = Path(backend.name).stem.split(".")[0].lower()
    out = ROOT / "benchmarks" / "results" / f"definition-search-{stem}"
    report: dict[str, list[dict[str, object]]] = {}
    for name in args.methods.split(","):
        rows = report.setdefault(name, [])
        for needle in needles:
            start = time.perf_counter()
            if METHODS[name] is None:
                ranking = bm25_search(chunks, needle.query)
                answer, calls, net, cost = ranking[0][0], 0, 0, 0.0
            else:
                options = METHODS[name]
                assert options is not None
                task = TASKS["code-search"]
                config = task.configure(needle.query)
                method = make("definitions", task.schema, config, **options)
                result = run_prism(backend, task.schema, config, chunks, method)
                ranking, answer = result.ranking, result.answer or ""
                m = result.metrics
                calls, net, cost = len(m.calls), m.net_tokens, m.cost_index
            names = [n for n, _ in ranking]
            rows.append(
                {
                    "expected": needle.expected,
                    "answer": answer,
                    "hit": names_function(answer, needle.expected),
                    "rank": names.index(needle.expected) + 1 if needle.expected in names else None,
                    "score_expected": dict(ranking).get(needle.expected),
                    "score_answer": ranking[0][1] if ranking else None,
                    "calls": calls,
                    "net_tokens": net,
                    "cost_index": cost,
                    "seconds": round(time.perf_counter() - start, 1),
                }
            )
            print(name, rows[-1], flush=True)
            out.with_suffix(".json").write_text(json.dumps(report, indent=1) + "\n")
    lines = [
        f"model {backend.name}, {len(chunks)} chunks of up to {args.chunk_tokens} tokens, "
        f"{len(needles)} needles (benchmarks/data/jinja2-filters-needles.jsonl)",
        "",
        "| method | found | mean cost index | mean seconds | rank of the right one |",
        "|---|---|---|---|---|",
    ]
    for name, rows in report.items():
        hits = sum(bool(r["hit"]) for r in rows)
        cost = sum(float(r["cost_index"]) for r in rows) / len(rows)  # type: ignore[arg-type]
        secs = sum(float(r["seconds"]) for r in rows) / len(rows)  # type: ignore[arg-type]
        ranks = ",".join(str(r["rank"]) for r in rows)
        lines.append(f"| {name} | {hits}/{len(rows)} | {cost:.4f} | {secs:.1f} | {ranks} |")
    text = "\n".join(lines) + "\n"
    print(text)
    out.with_suffix(".txt").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
