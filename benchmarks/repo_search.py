"""Code search at repository scale: is the right definition in BM25's shortlist, and does the
model's score of the shortlist find it, on needles written before any tuning (by hand).

    python benchmarks/repo_search.py shortlist            # BM25 recall by shortlist size
    python benchmarks/repo_search.py model --shortlist 8  # BM25 top 1 vs the default search

The repositories come from the registries (not committed; fetched into REPOS):

    pip download --no-deps --no-binary :all: django==5.1.4 -d $REPOS && tar xzf ... (django/)
    npm pack three@0.170.0 && tar xzf ... (package/src)

Needles: benchmarks/data/repo-needles/*.jsonl, each with its split (``rule``: sizes and
settings are chosen on these; ``held-out``: written down first, only ever measured). Rule and
held-out figures are reported apart. Writes benchmarks/results/repo-search-*.{json,txt}, a
needle at a time (an interrupted run keeps what it measured).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from prism_edge.engine.index import CodeIndex, index_key
from prism_edge.methods.definitions import DefinitionSearch
from prism_edge.text.code import Located
from prism_edge.text.inputs import collect

ROOT = Path(__file__).resolve().parents[1]
NEEDLES = ROOT / "benchmarks" / "data" / "repo-needles"
RESULTS = ROOT / "benchmarks" / "results"
REPOS = Path(os.environ.get("REPOS", "/tmp/repos"))
FOLDERS = {"django": REPOS / "Django-5.1.4" / "django", "three": REPOS / "three" / "src"}
SIZES = (1, 2, 4, 8, 16, 32, 64, 128)
READS = ("source", "entry", "both")


def needles() -> list[dict[str, Any]]:
    out = []
    for repo in FOLDERS:
        for line in (NEEDLES / f"{repo}.jsonl").read_text().splitlines():
            if line.strip():
                out.append({**json.loads(line), "repo": repo})
    return out


def index_of(repo: str, cache: Path) -> list[Located]:
    folder = FOLDERS[repo]
    documents = collect([str(folder)], hold_code=False).documents
    index = CodeIndex(cache, index_key([str(folder)]))
    for _ in index.update(documents):
        pass
    return index.located()


def is_needle(located: Located, needle: dict[str, Any]) -> bool:
    return located.definition.name == needle["expected"] and located.path.endswith(needle["file"])


def rank_of(ranked: list[Located], needle: dict[str, Any]) -> int | None:
    return next((i + 1 for i, x in enumerate(ranked) if is_needle(x, needle)), None)


def shortlist(cache: Path) -> None:
    rows: dict[str, list[dict[str, Any]]] = {}
    for reads in READS:
        for repo in FOLDERS:
            search = DefinitionSearch(index_of(repo, cache), reads)  # type: ignore[arg-type]
            for needle in [n for n in needles() if n["repo"] == repo]:
                ranked = [x for x, _ in search.ranked(needle["query"])]
                rows.setdefault(reads, []).append(
                    {"repo": repo, "expected": needle["expected"], "split": needle["split"],
                     "rank": rank_of(ranked, needle)}
                )  # fmt: skip
    lines = ["BM25 over the index: is the needle in the top k (recall), by what BM25 reads", ""]
    for split in ("rule", "held-out"):
        lines += [f"## {split} needles", "", "| reads | " + " | ".join(f"@{k}" for k in SIZES)
                  + " | ranks |", "|---|" + "---|" * (len(SIZES) + 1)]  # fmt: skip
        for reads, found in rows.items():
            mine = [r for r in found if r["split"] == split]
            recall = [sum(1 for r in mine if r["rank"] and r["rank"] <= k) for k in SIZES]
            ranks = ",".join(str(r["rank"] or "-") for r in mine)
            lines.append(f"| {reads} | " + " | ".join(f"{n}/{len(mine)}" for n in recall)
                         + f" | {ranks} |")  # fmt: skip
        lines.append("")
    write("repo-search-shortlist", rows, lines)


def model(cache: Path, size: int, reads: str, formulation: str) -> None:
    from prism_edge.backends.factory import open_backend
    from prism_edge.core.events import RunResult
    from prism_edge.core.memory import Memory
    from prism_edge.core.metrics import RunMetrics
    from prism_edge.engine.runner import PrismRunner
    from prism_edge.methods.definitions import DefinitionsOptions, ScoredDefinitions
    from prism_edge.methods.presets import TASKS

    backend = open_backend(None, n_ctx=2048)
    task = TASKS["code-search"]
    rows: list[dict[str, Any]] = []
    name = f"repo-search-model-{formulation}-{reads}-{size}"
    for repo in FOLDERS:
        search = DefinitionSearch(index_of(repo, cache), reads)  # type: ignore[arg-type]
        for needle in [n for n in needles() if n["repo"] == repo]:
            config = task.configure(needle["query"])
            options = DefinitionsOptions(formulation=formulation, shortlist=size)  # type: ignore[arg-type]
            method = ScoredDefinitions(config, options)
            runner = PrismRunner(backend, task.schema, config, method=method)
            runner.result = RunResult(None, Memory(task.schema), RunMetrics(), method="definitions")
            runner.memory = runner.result.memory
            runner.metrics = runner.result.metrics
            start = time.perf_counter()
            for _ in method.search(runner, search):
                pass
            seconds = time.perf_counter() - start
            ranked = [x for x, _ in search.ranked(needle["query"])]
            keys = [k for k, _ in runner.result.ranking]
            wanted = next((x.key for x in ranked if is_needle(x, needle)), None)
            rows.append({
                "repo": repo, "expected": needle["expected"], "split": needle["split"],
                "bm25_top": rank_of(ranked, needle) == 1,
                "in_shortlist": wanted in keys,
                "found": bool(keys) and keys[0] == wanted,
                "answer": runner.result.answer, "seconds": round(seconds, 2),
                "prompt_tokens": runner.metrics.prompt_tokens,
            })  # fmt: skip
            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
            write(name, rows, table(rows, size, reads, formulation, backend.name))


def table(
    rows: list[dict[str, Any]], size: int, reads: str, formulation: str, model: str
) -> list[str]:
    lines = [f"model {model}; BM25 reads {reads}; shortlist {size}; {formulation}", ""]
    lines += [
        "| split | needles | BM25 top 1 | in shortlist | PRISM (model) top 1 | "
        "mean s/question | mean prompt tokens |",
        "|---|---|---|---|---|---|---|",
    ]
    for split in ("rule", "held-out"):
        mine = [r for r in rows if r["split"] == split]
        if not mine:
            continue
        n = len(mine)
        lines.append(
            f"| {split} | {n} | {sum(r['bm25_top'] for r in mine)} | "
            f"{sum(r['in_shortlist'] for r in mine)} | {sum(r['found'] for r in mine)} | "
            f"{sum(r['seconds'] for r in mine) / n:.1f} | "
            f"{sum(r['prompt_tokens'] for r in mine) / n:.0f} |"
        )
    return lines


def write(name: str, rows: Any, lines: list[str]) -> None:
    (RESULTS / f"{name}.json").write_text(json.dumps(rows, indent=1) + "\n")
    (RESULTS / f"{name}.txt").write_text("\n".join(lines) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("what", choices=["shortlist", "model"])
    parser.add_argument("--shortlist", type=int, default=8)
    parser.add_argument("--reads", default="source", choices=READS)
    parser.add_argument("--formulation", default="likelihood")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        if args.what == "shortlist":
            shortlist(Path(cache))
        else:
            model(Path(cache), args.shortlist, args.reads, args.formulation)


if __name__ == "__main__":
    main()
