"""WikiTableQuestions, end to end: each question of a split asked of its table through the
library's table question (``prism_edge.ask_table``, the path of ``prism-edge run TABLE --task
table-qa --query Q``) and scored by the official evaluator's rules
(:mod:`prism_edge.eval.denotations`).

    python benchmarks/tables/wtq.py dev --out wtq-dev            # the authors' dev split
    python benchmarks/tables/wtq.py dev --limit 300 --model      # with the model's feature
    python benchmarks/tables/wtq.py train --limit 500            # a look at the training side

Writes ``benchmarks/results/<out>.txt`` (accuracy overall and by kind of question, seconds per
question, errors) and ``<out>.jsonl`` (every question: its answer, the target, right or not,
the ranker's margin), a question at a time, so a stopped run keeps what it measured. Choose on
train, report dev; the test portion is never read here.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import TextIO

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wtq_common import Example, examples

import prism_edge
from prism_edge.eval.denotations import correct, predictions, targets

RESULTS = Path(__file__).resolve().parents[1] / "results"

_KINDS = (
    ("difference / A or B", r"\b(difference|more|less|fewer|than|or)\b.*\b(than|or|between)\b"),
    ("count", r"\bhow many\b|\bnumber of\b|\btotal\b"),
    ("row order", r"\b(first|last|next|previous|before|after|preceding|following|above|below"
                  r"|listed)\b"),
    ("superlative", r"\b(most|least|\w+est|top|highest|lowest|largest|smallest|best|worst)\b"),
)  # fmt: skip


def kind(question: str) -> str:
    """The kind of question, for the report only (the first pattern that fits)."""
    for name, pattern in _KINDS:
        if re.search(pattern, question.lower()):
            return name
    return "lookup"


def ask(example: Example, no_model: bool) -> tuple[list[str | float], dict[str, object]]:
    answer = prism_edge.ask_table(example.path, example.question, no_model=no_model)
    table = answer.result.table
    return (table.values if table else []), (table.to_dict() if table else {})


def _run(
    chosen: list[Example], lines: TextIO, no_model: bool
) -> tuple[dict[str, Counter[str]], list[float], Counter[str]]:
    by_kind: dict[str, Counter[str]] = defaultdict(Counter)
    seconds: list[float] = []
    errors: Counter[str] = Counter()
    for n, example in enumerate(chosen, 1):
        start = time.perf_counter()
        try:
            values, detail = ask(example, no_model)
            error = ""
        except Exception as exc:
            values, detail, error = [], {}, f"{type(exc).__name__}: {exc}"
            errors[type(exc).__name__] += 1
        seconds.append(time.perf_counter() - start)
        right = not error and correct(targets(example.target), predictions(values))
        k = kind(example.question)
        by_kind[k]["right" if right else "wrong"] += 1
        record = {
            "id": example.id, "question": example.question, "kind": k,
            "target": list(example.target), "answer": values, "right": right,
            "detail": detail, "error": error, "seconds": round(seconds[-1], 3),
        }  # fmt: skip
        lines.write(json.dumps(record, ensure_ascii=False) + "\n")
        lines.flush()
        if n % 200 == 0:
            done = sum(c["right"] for c in by_kind.values())
            print(f"{n}: {done / n:.3f}", file=sys.stderr, flush=True)
    return by_kind, seconds, errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("split", choices=("dev", "train"))
    parser.add_argument("--limit", type=int)
    parser.add_argument("--model", action="store_true", help="with the model's feature")
    parser.add_argument("--out")
    args = parser.parse_args()
    chosen = examples(args.split)[: args.limit] if args.limit else examples(args.split)
    out = args.out or f"wtq-{args.split}{'-model' if args.model else ''}"
    RESULTS.mkdir(exist_ok=True)
    with open(RESULTS / f"{out}.jsonl", "w", encoding="utf-8") as lines:
        by_kind, seconds, errors = _run(chosen, lines, not args.model)
    total = len(chosen)
    right = sum(c["right"] for c in by_kind.values())
    report = [
        f"WikiTableQuestions {args.split} (random split 1), {total} questions, "
        f"{'with' if args.model else 'without'} the model's feature",
        f"accuracy {right}/{total} = {right / max(1, total):.3f}",
        f"seconds per question: median {statistics.median(seconds):.3f}, "
        f"max {max(seconds):.3f}, total {sum(seconds):.0f}",
        f"errors: {dict(errors) or 'none'}",
        "",
        "by kind of question (the report's own grouping, by the question's words):",
    ]
    for name in sorted(by_kind, key=lambda k: -sum(by_kind[k].values())):
        c = by_kind[name]
        n = c["right"] + c["wrong"]
        report.append(f"  {name:<22} {c['right']:>5}/{n:<5} {c['right'] / n:.3f}")
    text = "\n".join(report) + "\n"
    (RESULTS / f"{out}.txt").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
