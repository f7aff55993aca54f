"""The model's part in table questions, measured: its log-probability of the question after
each of the ranker's best queries in words (against after none) as one more feature, its
weight learned on training questions, its effect measured on dev.

    flock /tmp/llama.lock python benchmarks/tables/model_feature.py learn --limit 200
    flock /tmp/llama.lock python benchmarks/tables/model_feature.py measure --limit 300 \\
        --weight W

``learn`` takes training questions (the fifth of the training tables that
``train_ranker.py choose`` holds apart, so the ranker's own fit does not flatter it), scores
the ranker's best ``SHORTLIST`` candidates with the embedded model and picks the weight that
answers most of them right (a grid; ties to the smaller weight). ``measure`` answers dev
questions with and without the feature at that weight, side by side on the same candidates.
Writes ``benchmarks/results/table-model-feature-<learn|measure>.txt``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wtq_common import Example, examples

from prism_edge.backends.factory import open_backend
from prism_edge.core.metrics import RunMetrics
from prism_edge.eval.denotations import correct, predictions, targets
from prism_edge.methods.tables.answer import load, rank_all
from prism_edge.methods.tables.method import MODEL_SHORTLIST, question_given

RESULTS = Path(__file__).resolve().parents[1] / "results"
GRID = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0)
SEED = 13


def _rows(chosen: list[Example]) -> list[tuple[list[float], list[float], list[bool]]]:
    """Per question, over the ranker's shortlist: its scores, the model's feature, which
    candidates are right."""
    backend = open_backend(None, n_ctx=2048)
    metrics = RunMetrics()
    out = []
    start = time.time()
    for n, example in enumerate(chosen, 1):
        db, sheet = load(example.path)
        try:
            scored = rank_all(db, sheet, example.question)[:MODEL_SHORTLIST]
            said = [c.query.render(sheet) for c, _, _ in scored]
        finally:
            db.close()
        if not scored:
            continue
        target = targets(example.target)
        right = [correct(target, predictions(c.values)) for c, _, _ in scored]
        model = question_given(backend, example.question, said, metrics)
        out.append(([s for _, _, s in scored], model, right))
        if n % 25 == 0:
            print(f"{n} questions, {time.time() - start:.0f} s", file=sys.stderr, flush=True)
    return out


def _accuracy(rows: list[tuple[list[float], list[float], list[bool]]], weight: float) -> int:
    right = 0
    for scores, model, good in rows:
        combined = [s + weight * m for s, m in zip(scores, model, strict=True)]
        right += good[combined.index(max(combined))]
    return right


def _held_train(limit: int) -> list[Example]:
    chosen = examples("train")
    tables = sorted({e.table for e in chosen})
    held = set(random.Random(SEED).sample(tables, len(tables) // 5))
    chosen = [e for e in chosen if e.table in held]
    random.Random(1).shuffle(chosen)
    return chosen[:limit]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("step", choices=("learn", "measure"))
    parser.add_argument("--limit", type=int, default=200)
    parser.add_argument("--weight", type=float, default=0.0)
    args = parser.parse_args()
    if args.step == "learn":
        chosen = _held_train(args.limit)
        rows = _rows(chosen)
        lines = [f"held-apart training questions: {len(chosen)} (shortlist {MODEL_SHORTLIST})"]
        lines += [f"weight {w}: {_accuracy(rows, w)} right" for w in GRID]
        best = max(GRID, key=lambda w: (_accuracy(rows, w), -w))
        lines.append(f"chosen weight: {best}")
    else:
        chosen = examples("dev")
        random.Random(2).shuffle(chosen)
        chosen = chosen[: args.limit]
        rows = _rows(chosen)
        lines = [
            f"dev questions: {len(chosen)} (shortlist {MODEL_SHORTLIST})",
            f"the ranker alone: {_accuracy(rows, 0.0)} right",
            f"with the model's feature at weight {args.weight}: "
            f"{_accuracy(rows, args.weight)} right",
        ]
    text = "\n".join(lines) + "\n"
    (RESULTS / f"table-model-feature-{args.step}.txt").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
