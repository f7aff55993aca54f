"""Learn the table ranker's weights from WikiTableQuestions' training questions, and write
them where the package reads them (prism_edge/methods/tables/ranker.json).

    python benchmarks/tables/train_ranker.py collect --split train --out /tmp/wtq-train.pkl
    python benchmarks/tables/train_ranker.py fit /tmp/wtq-train.pkl --l2 0.01 \\
        --write prism_edge/methods/tables/ranker.json
    python benchmarks/tables/train_ranker.py choose /tmp/wtq-train.pkl   # the l2, on train only

Weak supervision, as in the literature (Pasupat and Liang 2015): the questions come with
their answers, not their queries, so every candidate whose answer matches the target (by the
official evaluator's rules, :mod:`prism_edge.eval.denotations`) is a positive. The model is
log-linear over a question's candidates; it maximises the log of the probability of its
positives together (the marginal likelihood) with an L2 penalty, by SciPy's L-BFGS. Each
question keeps all its positives (at most ``MAX_POSITIVES``) and a fixed-seed sample of
``NEGATIVES`` of its other candidates. Questions with no positive teach nothing and are left
out. ``choose`` picks the penalty by the accuracy, every candidate scored, on the questions of a
fifth of the training tables held apart (the dev split is never read here); ``fit`` on the
whole training split writes the shipped file, the same file for the same data and code
(sorted keys, rounded weights).

The data: WikiTableQuestions 1.0.2 (Pasupat and Liang, ACL 2015; CC BY-SA 4.0), the training
portion in ../shared/datasets/wtq (the authors' random split 1).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import pickle
import random
import sys
import time
from array import array
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
from scipy import optimize, sparse

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wtq_common import Example, examples

from prism_edge.eval.denotations import correct, predictions, targets
from prism_edge.methods.tables.answer import load, rank_all

NEGATIVES = 150
MAX_POSITIVES = 50
SEED = 13
L2 = 3.0
"""The penalty ``choose`` picked (benchmarks/results/table-ranker-choose.txt)."""
MIN_QUESTIONS = 10
"""Questions a feature must occur in to get a weight."""


def _collect_one(example: Example) -> dict[str, Any] | None:
    try:
        db, sheet = load(example.path)
    except Exception as exc:
        print(f"{example.id}: {exc}", file=sys.stderr)
        return None
    try:
        scored = rank_all(db, sheet, example.question, {})
    finally:
        db.close()
    target = targets(example.target)
    pos, neg = [], []
    for candidate, feats, _ in scored:
        (pos if correct(target, predictions(candidate.values)) else neg).append(feats)
    rng = random.Random(f"{SEED}:{example.id}")
    if len(neg) > NEGATIVES:
        neg = rng.sample(neg, NEGATIVES)
    if len(pos) > MAX_POSITIVES:
        pos = rng.sample(pos, MAX_POSITIVES)
    return {"id": example.id, "table": example.table, "pos": pos, "neg": neg}


class Data:
    """Candidates' features as one sparse matrix (a row a candidate), built as questions
    arrive so that only compact arrays are held: the vocabulary of feature names, the
    matrix's entries, each row's label (a positive) and group (its question)."""

    def __init__(self) -> None:
        self.vocab: dict[str, int] = {}
        self.rows, self.cols = array("i"), array("i")
        self.vals = array("f")
        self.labels, self.groups = array("b"), array("i")
        self.questions: list[tuple[str, str]] = []
        """(id, table) of each group."""

    def add(self, record: dict[str, Any]) -> None:
        if not record["pos"]:
            return
        group = len(self.questions)
        self.questions.append((record["id"], record["table"]))
        for label, rows in ((1, record["pos"]), (0, record["neg"])):
            for feats in rows:
                row = len(self.labels)
                for name, value in feats.items():
                    index = self.vocab.setdefault(name, len(self.vocab))
                    self.rows.append(row)
                    self.cols.append(index)
                    self.vals.append(value)
                self.labels.append(label)
                self.groups.append(group)

    def select(self, groups: set[int]) -> tuple[sparse.csr_matrix, np.ndarray, np.ndarray]:
        """The matrix, labels and groups of the chosen questions."""
        x = sparse.csr_matrix(
            (
                np.frombuffer(self.vals, np.float32),
                (np.frombuffer(self.rows, np.int32), np.frombuffer(self.cols, np.int32)),
            ),
            shape=(len(self.labels), len(self.vocab)),
        )
        g = np.frombuffer(self.groups, np.int32)
        keep = np.isin(g, np.fromiter(groups, np.int32))
        return x[keep], np.frombuffer(self.labels, np.int8)[keep].astype(bool), g[keep]


def collect(split: str, out: Path, limit: int | None, workers: int) -> None:
    chosen = examples(split)[:limit] if limit else examples(split)
    start = time.time()
    data, seen = Data(), 0
    with multiprocessing.Pool(workers) as pool:
        for record in pool.imap(_collect_one, chosen, chunksize=8):
            seen += 1
            if record is not None:
                data.add(record)
            if seen % 1000 == 0:
                print(f"{seen} questions, {time.time() - start:.0f} s", flush=True)
    with open(out, "wb") as f:
        pickle.dump(data, f)
    print(f"{seen} questions, {len(data.questions)} with a positive, {time.time() - start:.0f} s")


def _loss(
    w: np.ndarray,
    x: sparse.csr_matrix,
    pos: np.ndarray,
    starts: np.ndarray,
    sizes: np.ndarray,
    l2: float,
) -> tuple[float, np.ndarray]:
    s = x @ w
    top = np.maximum.reduceat(s, starts)
    e = np.exp(s - np.repeat(top, sizes))
    all_sum = np.add.reduceat(e, starts)
    pos_sum = np.add.reduceat(np.where(pos, e, 0.0), starts)
    loss = float(np.sum(np.log(all_sum) - np.log(pos_sum)))
    p_all = e / np.repeat(all_sum, sizes)
    p_pos = np.where(pos, e / np.repeat(pos_sum, sizes), 0.0)
    grad = x.T @ (p_all - p_pos)
    return loss + l2 * float(w @ w), grad + 2 * l2 * w


def fit(data: Data, groups: set[int], l2: float, min_questions: int) -> dict[str, float]:
    x, pos, g = data.select(groups)
    x = x[:, _common(x, g, min_questions)]
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    sizes = np.diff(np.r_[starts, len(g)])
    result = optimize.minimize(
        _loss,
        np.zeros(x.shape[1]),
        args=(x.astype(np.float64), pos, starts, sizes, l2),
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": 500},
    )
    names = sorted(data.vocab, key=data.vocab.__getitem__)
    kept = [names[i] for i in np.flatnonzero(_common(*data.select(groups)[::2], min_questions))]
    return {
        name: round(float(w), 4) for name, w in zip(kept, result.x, strict=True) if abs(w) >= 1e-4
    }


def _common(x: sparse.csr_matrix, g: np.ndarray, min_questions: int) -> np.ndarray:
    """The features that occur in the candidates of at least ``min_questions`` questions
    (rarer ones fit a question or two, not the language)."""
    coo = x.tocoo()
    pairs = np.unique(np.stack([g[coo.row], coo.col]), axis=1)
    counts = np.bincount(pairs[1], minlength=x.shape[1])
    return counts >= min_questions


def accuracy(data: Data, groups: set[int], w: dict[str, float]) -> float:
    """Of the chosen questions (those with a positive), the share whose best-scored
    sampled candidate is a positive (a quick proxy: the benchmark scores every candidate)."""
    x, pos, g = data.select(groups)
    names = sorted(data.vocab, key=data.vocab.__getitem__)
    s = x @ np.array([w.get(n, 0.0) for n in names])
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    best_pos = np.maximum.reduceat(np.where(pos, s, -np.inf), starts)
    best_neg = np.maximum.reduceat(np.where(pos, -np.inf, s), starts)
    return float(np.mean(best_pos > best_neg))


def held_tables(tables: Iterable[str]) -> set[str]:
    """The fifth of the training tables (those of the questions with a positive) held
    apart, to choose on (the lexicon's threshold too: ``learn_lexicon.py``)."""
    ordered = sorted(set(tables))
    return set(random.Random(SEED).sample(ordered, len(ordered) // 5))


def _tables_split(data: Data) -> tuple[set[int], set[int]]:
    """The training questions in two by table: four fifths to learn on, a fifth held apart
    to choose the penalty on."""
    held = held_tables(t for _, t in data.questions)
    learn = {i for i, (_, t) in enumerate(data.questions) if t not in held}
    return learn, set(range(len(data.questions))) - learn


def _held_examples(data: Data, limit: int | None = None) -> list[Example]:
    """The training questions (with a positive or not) of the tables held apart, every one
    or a fixed-seed sample of ``limit``."""
    held = held_tables(t for _, t in data.questions)
    chosen = [e for e in examples("train") if e.table in held]
    if limit is not None and limit < len(chosen):
        chosen = random.Random(SEED).sample(chosen, limit)
    return chosen


def _answer_one(job: tuple[Example, dict[str, float]]) -> bool:
    example, w = job
    db, sheet = load(example.path)
    try:
        scored = rank_all(db, sheet, example.question, w)
    finally:
        db.close()
    return bool(scored) and correct(targets(example.target), predictions(scored[0][0].values))


def end_to_end(chosen: list[Example], w: dict[str, float]) -> float:
    """The share of ``chosen`` answered right with weights ``w``, every candidate scored."""
    with multiprocessing.Pool(2) as pool:
        right = sum(pool.imap(_answer_one, [(e, w) for e in chosen], chunksize=16))
    return right / max(1, len(chosen))


def _load(path: Path) -> Data:
    with open(path, "rb") as fh:
        loaded = pickle.load(fh)
    if isinstance(loaded, Data):
        return loaded
    data = Data()  # an older collection: a list of records
    for record in loaded:
        data.add(record)
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--split", default="train")
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--limit", type=int)
    c.add_argument("--workers", type=int, default=2)
    f = sub.add_parser("fit")
    f.add_argument("data", type=Path)
    f.add_argument("--l2", type=float, default=L2)
    f.add_argument("--write", type=Path)
    f.add_argument(
        "--learn-part", action="store_true", help="only the four fifths (to measure on the rest)"
    )
    ch = sub.add_parser("choose")
    ch.add_argument("data", type=Path)
    ch.add_argument("--l2", type=float, nargs="+", default=[0.03, 0.1, 0.3, 1.0])
    ch.add_argument("--limit", type=int, help="a sample of the held-apart questions")
    for p in (f, ch):
        p.add_argument("--min-questions", type=int, default=MIN_QUESTIONS)
    args = parser.parse_args()
    if args.command == "collect":
        collect(args.split, args.out, args.limit, args.workers)
        return
    data = _load(args.data)
    if args.command == "choose":
        learn, _ = _tables_split(data)
        held = _held_examples(data, args.limit)
        for l2 in args.l2:
            w = fit(data, learn, l2, args.min_questions)
            print(
                f"l2 {l2}: {end_to_end(held, w):.3f} of the {len(held)} questions of the "
                f"held-apart training tables, {len(w)} weights",
                flush=True,
            )
        return
    everything = set(range(len(data.questions)))
    if args.learn_part:
        everything = _tables_split(data)[0]
    w = fit(data, everything, args.l2, args.min_questions)
    print(f"{len(w)} weights; on the training questions {accuracy(data, everything, w):.3f}")
    if args.write:
        meta = {"source": "WikiTableQuestions 1.0.2 random-split-1-train", "l2": args.l2,
                "negatives": NEGATIVES, "seed": SEED}  # fmt: skip
        args.write.write_text(
            json.dumps({"trained": meta, "weights": w}, sort_keys=True, indent=0) + "\n",
            encoding="utf-8",
        )


if __name__ == "__main__":
    main()
