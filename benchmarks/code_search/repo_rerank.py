"""How the model can re-rank a repository-scale BM25 shortlist within a question's time budget:
every candidate of BM25's top N scored by the model in ways that share the question's prompt,
each score saved per candidate, so ranking rules can be compared afterwards without the model
(by hand).

    python benchmarks/code_search/repo_rerank.py [--size 64]

For each needle of benchmarks/data/repo-needles (both splits; the rules are chosen on the rule
needles, see ``--analyse``), each candidate gets:

* ``bm25``: its BM25 score;
* ``named``: log P(its signature | the description), the signature as the model's reply to
  "which function is described?", every candidate a continuation of one shared prompt;
* ``prior``: log P(its signature | a description that says nothing), the same prompt with
  the description left out (``named - prior`` is the pointwise mutual information);

Writes benchmarks/results/repo-rerank-scores.json, a needle at a time; ``--analyse`` prints
and writes benchmarks/results/repo-rerank.txt.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from repo_search import FOLDERS, RESULTS, index_of, is_needle, needles

from prism_edge.methods.definitions import (
    DefinitionSearch,
    named_prompt,
    signature_of,
)

SCORES = RESULTS / "repo-rerank-scores.json"
NEUTRAL = "a function or a class of this code base."


def measure(size: int, reads: str) -> None:
    from prism_edge.backends.factory import open_backend

    backend = open_backend(None, n_ctx=4096)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as cache:
        for repo in FOLDERS:
            search = DefinitionSearch(index_of(repo, Path(cache)), reads)  # type: ignore[arg-type]
            for needle in [n for n in needles() if n["repo"] == repo]:
                ranked = search.ranked(needle["query"])[:size]
                signatures = [signature_of(x.definition) for x, _ in ranked]
                start = time.perf_counter()
                named = backend.score(named_prompt(needle["query"]), signatures)
                named_s = time.perf_counter() - start
                prior = backend.score(named_prompt(NEUTRAL), signatures)
                rows.append({
                    "repo": repo, "expected": needle["expected"], "split": needle["split"],
                    "named_s": round(named_s, 2),
                    "candidates": [
                        {"key": x.key, "right": is_needle(x, needle), "bm25": b,
                         "named": n.logprob, "prior": p.logprob, "tokens": n.tokens}
                        for (x, b), n, p in zip(ranked, named, prior, strict=True)
                    ],
                })  # fmt: skip
                print(needle["expected"], f"{named_s:.1f} s", file=sys.stderr, flush=True)
                SCORES.write_text(json.dumps(rows, indent=1) + "\n")


RULES = {
    "bm25": lambda c, i: c["bm25"],
    "named": lambda c, i: c["named"],
    "named per token": lambda c, i: c["named"] / max(1, c["tokens"]),
    "pmi": lambda c, i: c["named"] - c["prior"],
}


def analyse() -> None:
    rows = json.loads(SCORES.read_text())
    lines = []
    for size in (4, 8, 16, 32, 64):
        lines += [f"## shortlist {size}", "", "| rule | rule needles | held-out needles |",
                  "|---|---|---|"]  # fmt: skip
        for name, rule in RULES.items():
            found = {"rule": 0, "held-out": 0}
            count = {"rule": 0, "held-out": 0}
            for row in rows:
                count[row["split"]] += 1
                cands = row["candidates"][:size]
                best = max(range(len(cands)), key=lambda i: rule(cands[i], i)) if cands else None
                if best is not None and cands[best]["right"]:
                    found[row["split"]] += 1
            lines.append(f"| {name} | {found['rule']}/{count['rule']} | "
                         f"{found['held-out']}/{count['held-out']} |")  # fmt: skip
        lines.append("")
    seconds = [r["named_s"] for r in rows]
    lines.append(f"model time per question (one shared prompt, {len(rows[0]['candidates'])} "
                 f"candidates): mean {sum(seconds) / len(seconds):.1f} s")  # fmt: skip
    text = "\n".join(lines) + "\n"
    (RESULTS / "repo-rerank.txt").write_text(text)
    print(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--size", type=int, default=64)
    parser.add_argument("--reads", default="both")
    parser.add_argument("--analyse", action="store_true")
    args = parser.parse_args()
    if args.analyse:
        analyse()
    else:
        measure(args.size, args.reads)


if __name__ == "__main__":
    main()
