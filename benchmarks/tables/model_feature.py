"""The model's part in table questions, measured: its log-probability of the question after
each of the ranker's best queries in words (against after none) as one more feature, its
weight learned on training questions; where to ask it (only where the ranker is not sure:
a gate on the ranker's probability) and over how many queries, learned there too; the
variants measured side by side on dev, with their time.

    flock /tmp/llama.lock python benchmarks/tables/model_feature.py learn --limit 300
    flock /tmp/llama.lock python benchmarks/tables/model_feature.py measure --limit 300 \\
        --weight W --gate G --shortlist N

``learn`` takes training questions (the fifth of the training tables that
``train_ranker.py choose`` holds apart, so the ranker's own fit does not flatter it), scores
the ranker's best ``SHORTLIST`` candidates with the embedded model and picks the weight that
answers most of them right (a grid; ties to the smaller weight), then, at that weight, the
gate and the shortlist (ties to the gate that asks the model least, then to the shorter
shortlist). ``measure`` answers dev questions never asking the model, always asking it and
asking it through the gate, side by side on the same candidates, with the seconds each
takes: the ranker's, the model's scoring and, for a command (one question a process), the
model's loading where it is asked. Writes
``benchmarks/results/table-model-feature-<learn|measure>.txt``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wtq_common import Example, examples

from prism_edge.backends.factory import Engine, open_backend
from prism_edge.core.metrics import RunMetrics
from prism_edge.eval.denotations import correct, predictions, targets
from prism_edge.methods.tables.answer import decide, load, rank_all
from prism_edge.methods.tables.method import question_given

RESULTS = Path(__file__).resolve().parents[1] / "results"
GRID = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0)
GATES = (0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.01)
"""The ranker's probabilities under which the model is asked (0: never; 1.01: always)."""
SHORTLIST = 8
"""The ranker's best candidates the model's feature is computed for (a shorter shortlist is
their first N)."""
SHORTLISTS = (4, SHORTLIST)
SEED = 13


@dataclass
class Row:
    """One question over the ranker's shortlist: its scores, the model's feature, which
    candidates are right; the ranker's probability of its best answer; seconds."""

    scores: list[float]
    model: list[float]
    right: list[bool]
    sure: float
    ranker_s: float
    model_s: float


def _rows(chosen: list[Example], threads: int | None = None) -> tuple[list[Row], float]:
    """The questions' rows, and the seconds the model took to load."""
    start = time.perf_counter()
    backend = open_backend(None, n_ctx=2048, engine=Engine(threads=threads))
    loading = time.perf_counter() - start
    metrics = RunMetrics()
    out = []
    start = time.time()
    for n, example in enumerate(chosen, 1):
        began = time.perf_counter()
        db, sheet = load(example.path)
        try:
            scored = rank_all(db, sheet, example.question)
            sure = decide(db, example.question, scored).best.probability if scored else 1.0
            scored = scored[:SHORTLIST]
            said = [c.query.render(sheet) for c, _, _ in scored]
        finally:
            db.close()
        ranker_s = time.perf_counter() - began
        if not scored:
            continue
        target = targets(example.target)
        right = [correct(target, predictions(c.values)) for c, _, _ in scored]
        began = time.perf_counter()
        model = question_given(backend, example.question, said, metrics)
        model_s = time.perf_counter() - began
        out.append(Row([s for _, _, s in scored], model, right, sure, ranker_s, model_s))
        if n % 25 == 0:
            print(f"{n} questions, {time.time() - start:.0f} s", file=sys.stderr, flush=True)
    backend.close()
    return out, loading


def _right(row: Row, weight: float, gate: float = 1.01, shortlist: int = SHORTLIST) -> bool:
    """Whether the answer is right with the model asked through ``gate`` over the best
    ``shortlist`` (more than one candidate: else there is nothing to choose)."""
    if row.sure >= gate or len(row.scores) < 2:
        return row.right[0]
    n = min(shortlist, len(row.scores))
    combined = [s + weight * m for s, m in zip(row.scores[:n], row.model[:n], strict=True)]
    return row.right[combined.index(max(combined))]


def _accuracy(rows: list[Row], weight: float, gate: float = 1.01, shortlist: int = 8) -> int:
    return sum(_right(row, weight, gate, shortlist) for row in rows)


def _asked(rows: list[Row], gate: float) -> int:
    return sum(row.sure < gate and len(row.scores) > 1 for row in rows)


def _held_train(limit: int) -> list[Example]:
    chosen = examples("train")
    tables = sorted({e.table for e in chosen})
    held = set(random.Random(SEED).sample(tables, len(tables) // 5))
    chosen = [e for e in chosen if e.table in held]
    random.Random(1).shuffle(chosen)
    return chosen[:limit]


def _learn(limit: int, threads: int | None) -> list[str]:
    chosen = _held_train(limit)
    rows, _ = _rows(chosen, threads)
    lines = [f"held-apart training questions: {len(chosen)} (shortlist {SHORTLIST})"]
    lines += [f"weight {w}: {_accuracy(rows, w)} right" for w in GRID]
    weight = max(GRID, key=lambda w: (_accuracy(rows, w), -w))
    lines += [f"chosen weight: {weight}", "", "at that weight, the model asked only where the "
              "ranker's probability is under the gate, over the best N queries:"]  # fmt: skip
    for shortlist in SHORTLISTS:
        for gate in GATES:
            lines.append(f"  shortlist {shortlist}, gate {gate}: "
                         f"{_accuracy(rows, weight, gate, shortlist)} right, model asked for "
                         f"{_asked(rows, gate)} of {len(rows)}")  # fmt: skip
    gate, shortlist = max(
        ((g, n) for n in SHORTLISTS for g in GATES),
        key=lambda c: (_accuracy(rows, weight, *c), -_asked(rows, c[0]), -c[1]),
    )
    lines.append(f"chosen: gate {gate}, shortlist {shortlist}")
    return lines


def _scoring(row: Row, shortlist: int) -> float:
    """The model's seconds for the row's best ``shortlist`` (each scoring, and the one of
    the question alone, about alike)."""
    n = len(row.scores)
    return row.model_s * (min(shortlist, n) + 1) / (n + 1)


def _measure(
    limit: int, weight: float, gate: float, shortlist: int, threads: int | None
) -> list[str]:
    chosen = examples("dev")
    random.Random(2).shuffle(chosen)
    chosen = chosen[:limit]
    rows, loading = _rows(chosen, threads)
    ranker = statistics.mean(r.ranker_s for r in rows)
    lines = [
        f"dev questions: {len(chosen)} ({len(rows)} with a candidate); the model loads in "
        f"{loading:.2f} s (once a command); the ranker takes {ranker:.3f} s a question",
        "variant: right, model asked, mean seconds a question (the ranker, and the model's "
        "scoring where asked; a command adds the model's load where asked)",
    ]
    variants = (
        ("never", weight, 0.0, shortlist),
        (f"always (weight {weight}, shortlist {shortlist})", weight, 1.01, shortlist),
        (f"gated under {gate} (weight {weight}, shortlist {shortlist})", weight, gate, shortlist),
        ("always, the earlier setting (weight 0.1, shortlist 8)", 0.1, 1.01, SHORTLIST),
    )
    for name, w, g, n in variants:
        asked = [r for r in rows if r.sure < g and len(r.scores) > 1]
        seconds = ranker + sum(_scoring(r, n) for r in asked) / len(rows)
        command = seconds + loading * len(asked) / len(rows)
        lines.append(f"  {name}: {_accuracy(rows, w, g, n)} right, model asked for "
                     f"{len(asked)}, {seconds:.3f} s in one process, {command:.3f} s a "
                     "command")  # fmt: skip
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("step", choices=("learn", "measure"))
    parser.add_argument("--limit", type=int, default=200)
    parser.add_argument("--weight", type=float, default=0.0)
    parser.add_argument("--gate", type=float, default=1.01)
    parser.add_argument("--shortlist", type=int, default=SHORTLIST)
    parser.add_argument("--threads", type=int, help="llama.cpp's (default: the cores)")
    args = parser.parse_args()
    if args.step == "learn":
        lines = _learn(args.limit, args.threads)
    else:
        lines = _measure(args.limit, args.weight, args.gate, args.shortlist, args.threads)
    text = "\n".join(lines) + "\n"
    (RESULTS / f"table-model-feature-{args.step}.txt").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
