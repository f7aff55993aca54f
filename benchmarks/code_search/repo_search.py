"""Code search at repository scale: is the right definition in BM25's shortlist, and does the
model's score of the shortlist find it, on needles written before any tuning (by hand).

    python benchmarks/code_search/repo_search.py shortlist  # BM25 recall by shortlist size
    python benchmarks/code_search/repo_search.py model --shortlist 8
        # BM25 top 1 vs the default search

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
from dataclasses import replace
from pathlib import Path
from typing import Any

from prism_edge.engine.index import CodeIndex, index_key
from prism_edge.methods.definitions import DefinitionSearch, entry_text
from prism_edge.text.bm25 import words
from prism_edge.text.code import Located
from prism_edge.text.inputs import collect

ROOT = Path(__file__).resolve().parents[2]
NEEDLES = ROOT / "benchmarks" / "data" / "repo-needles"
RESULTS = ROOT / "benchmarks" / "results"
REPOS = Path(os.environ.get("REPOS", "/tmp/repos"))
FOLDERS = {"django": REPOS / "Django-5.1.4" / "django", "three": REPOS / "three" / "src"}
DATA = ROOT / "benchmarks" / "data"
MODULES = {
    "click": (DATA / "click", DATA / "click-needles.jsonl"),
    "jinja2": (DATA / "jinja2_filters.py", DATA / "jinja2-filters-needles.jsonl"),
    "semver": (DATA / "semver", DATA / "semver-needles.jsonl"),
}
"""The module-scale development sets (their needles were tuned on before: all ``rule``)."""
SIZES = (1, 2, 4, 8, 16, 32, 64, 128)
READS = ("source", "entry", "both")


def needles() -> list[dict[str, Any]]:
    out = []
    for repo in FOLDERS:
        for line in (NEEDLES / f"{repo}.jsonl").read_text().splitlines():
            if line.strip():
                out.append({**json.loads(line), "repo": repo})
    return out


def stems(found: list[str]) -> list[str]:
    """English stems (Snowball, the bench extra's ``snowballstemmer``): what stemming would
    add to BM25, measured here (not chosen: benchmarks/results/repo-search-shortlist.txt)."""
    import snowballstemmer

    return snowballstemmer.stemmer("english").stemWords(found)  # type: ignore[no-any-return]


def stemmed(located: Located) -> Located:
    """A definition whose name, lines and entry BM25 reads as stems."""
    d = located.definition

    def s(text: str) -> str:
        return " ".join(stems(words(text)))

    return Located(located.path, replace(d, name=s(d.name), source=s(d.source),
                   purpose=s(d.purpose), inputs=s(d.inputs), output=s(d.output),
                   procedure=s(d.procedure)))  # fmt: skip


def module_needles(name: str) -> list[dict[str, Any]]:
    lines = MODULES[name][1].read_text().splitlines()
    return [{**json.loads(x), "repo": name, "split": "rule"} for x in lines if x.strip()]


def index_of(repo: str, cache: Path) -> list[Located]:
    folder = FOLDERS[repo] if repo in FOLDERS else MODULES[repo][0]
    documents = collect([str(folder)], hold_code=False).documents
    index = CodeIndex(cache, index_key([str(folder)]))
    for _ in index.update(documents):
        pass
    return index.located()


def is_needle(located: Located, needle: dict[str, Any]) -> bool:
    return located.definition.name == needle["expected"] and located.path.endswith(
        needle.get("file", "")
    )


def rank_of(ranked: list[Located], needle: dict[str, Any]) -> int | None:
    return next((i + 1 for i, x in enumerate(ranked) if is_needle(x, needle)), None)


def shortlist(cache: Path) -> None:
    sets = {"repository scale": list(FOLDERS), "module scale (development sets)": list(MODULES)}
    lines = ["BM25 over the index: is the needle in the top k (recall), by what BM25 reads", ""]
    everything: dict[str, Any] = {}
    for scale, repos in sets.items():
        rows: dict[str, list[dict[str, Any]]] = everything.setdefault(scale, {})
        for reads, stem in [(r, s) for s in (False, True) for r in READS]:
            for repo in repos:
                found = index_of(repo, cache)
                search = DefinitionSearch([stemmed(x) for x in found] if stem else found, reads)  # type: ignore[arg-type]
                back = {id(s): x for s, x in zip(search.found, found, strict=True)}
                mine = needles() if repo in FOLDERS else module_needles(repo)
                for needle in [n for n in mine if n["repo"] == repo]:
                    question = " ".join(stems(words(needle["query"]))) if stem else needle["query"]
                    ranked = [back[id(x)] for x, _ in search.ranked(question)]
                    rows.setdefault(reads + (" stemmed" if stem else ""), []).append(
                        {"repo": repo, "expected": needle["expected"], "split": needle["split"],
                         "rank": rank_of(ranked, needle)}
                    )  # fmt: skip
        for split in ("rule", "held-out"):
            if not any(r["split"] == split for found in rows.values() for r in found):
                continue
            lines += [f"## {scale}: {split} needles", "",
                      "| reads | " + " | ".join(f"@{k}" for k in SIZES) + " | ranks |",
                      "|---|" + "---|" * (len(SIZES) + 1)]  # fmt: skip
            for reads, found in rows.items():
                mine = [r for r in found if r["split"] == split]
                recall = [sum(1 for r in mine if r["rank"] and r["rank"] <= k) for k in SIZES]
                ranks = ",".join(str(r["rank"] or "-") for r in mine)
                lines.append(f"| {reads} | " + " | ".join(f"{n}/{len(mine)}" for n in recall)
                             + f" | {ranks} |")  # fmt: skip
            lines.append("")
    write("repo-search-shortlist", everything, lines)


SCORED = {
    "source": lambda d: d.source,
    "source400": lambda d: d.source[:400],
    "entry": lambda d: entry_text(d.name, d.describe()),
}
"""What the model reads of each shortlisted definition (``source``: the product's)."""


def model(cache: Path, size: int, reads: str, formulation: str, scored: str = "source") -> None:
    from prism_edge.backends.factory import open_backend
    from prism_edge.core.events import RunResult
    from prism_edge.core.memory import Memory
    from prism_edge.core.metrics import RunMetrics
    from prism_edge.engine.runner import PrismRunner
    from prism_edge.methods import definitions
    from prism_edge.methods.definitions import DefinitionsOptions, ScoredDefinitions
    from prism_edge.methods.presets import TASKS

    definitions.scored_text = SCORED[scored]  # type: ignore[assignment]
    backend = open_backend(None, n_ctx=2048)
    task = TASKS["code-search"]
    rows: list[dict[str, Any]] = []
    name = f"repo-search-model-{formulation}-{reads}-{size}" + (
        "" if scored == "source" else f"-{scored}"
    )
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
            write(name, rows, table(rows, size, reads, formulation, backend.name, scored))


def table(
    rows: list[dict[str, Any]], size: int, reads: str, formulation: str, model: str, scored: str
) -> list[str]:
    lines = [f"model {model}; BM25 reads {reads}; shortlist {size}; {formulation}; "
             f"the model reads {scored}", ""]  # fmt: skip
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
    parser.add_argument("--scored", default="source", choices=list(SCORED))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        if args.what == "shortlist":
            shortlist(Path(cache))
        else:
            model(Path(cache), args.shortlist, args.reads, args.formulation, args.scored)


if __name__ == "__main__":
    main()
