"""Learn whether a question is one its table answers at all (``methods/tables/answerable.py``)
from WikiTableQuestions' training questions, and measure it on the dev split.

    python benchmarks/tables/learn_answerable.py collect --split train \\
        --out /tmp/wtq/answerable-train.jsonl
    python benchmarks/tables/learn_answerable.py fit /tmp/wtq/answerable-train.jsonl \\
        --write prism_edge/methods/tables/answerable.json
    python benchmarks/tables/learn_answerable.py collect --split dev \\
        --out /tmp/wtq/answerable-dev.jsonl
    python benchmarks/tables/learn_answerable.py measure /tmp/wtq/answerable-dev.jsonl \\
        --out table-answerable-dev

Each question is asked of its own table (answerable: every WikiTableQuestions question is
answered by its table) and of another table of the same split drawn at random (not: a question
about one Wikipedia table asked of another), as a run asks it (``answer``, the shipped
ranker). ``collect`` keeps, for each pair the ranker would call sure (its best candidate's
probability at least 0.5: the answers the model decides on), how much of the question the
table accounts for (:class:`answerable.Accounted`), whether it was the question's own table
and whether the answer was right. ``fit`` learns a logistic regression (scipy's L-BFGS, an L2
penalty) of own against other on those features and writes the weights; ``measure`` says, on
the dev split's pairs, how many answers are called sure with and without the model, and how
many of them are right (own) or answer a question the table does not hold (other).

The data: WikiTableQuestions 1.0.2 (Pasupat and Liang, ACL 2015; CC BY-SA 4.0), the training
portion in ../shared/datasets/wtq (the authors' random split 1); the test portion is never
read here.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
from scipy import optimize

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wtq_common import examples

from prism_edge.eval.denotations import correct, predictions, targets
from prism_edge.methods.tables import answerable
from prism_edge.methods.tables.answer import SURE, answer, held_by, load

RESULTS = Path(__file__).resolve().parents[1] / "results"
SEED = 20261127
L2 = 1.0
FEATURES = ("bias", "share", "all", "exact", "unheld")


def collect(split: str, out: Path, limit: int | None) -> None:
    chosen = examples(split)[:limit] if limit else examples(split)
    rng = random.Random(SEED)
    kept = 0
    with open(out, "w", encoding="utf-8") as f:
        for example in chosen:
            other = rng.choice(chosen)
            while other.table == example.table:
                other = rng.choice(chosen)
            for own, path in ((True, example.path), (False, other.path)):
                try:
                    db, _ = load(path)
                except Exception as exc:  # a table the reader refuses: left out, said
                    print(f"{example.id}: {exc}", file=sys.stderr)
                    continue
                try:
                    result, _ = answer(db, example.question)
                    held = held_by(db, example.question)
                finally:
                    db.close()
                best = result.best
                if best is None or held is None or best.probability < SURE:
                    continue
                right = own and correct(targets(example.target), predictions(result.values))
                record = {"id": example.id, "own": own, "right": right,
                          "features": held.features(), "unheld": list(held.unheld)}  # fmt: skip
                f.write(json.dumps(record) + "\n")
                kept += 1
    print(f"{len(chosen)} questions, {kept} pairs called sure")


def _rows(path: Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def _read(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows = _rows(path)
    x = np.array([[r["features"][k] for k in FEATURES] for r in rows], dtype=float)
    return x, np.array([r["own"] for r in rows]), np.array([r["right"] for r in rows])


def fit(data: Path, l2: float, write: Path | None) -> None:
    x, y, _ = _read(data)

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = x @ w
        p = 1.0 / (1.0 + np.exp(-z))
        nll = np.logaddexp(0.0, z).sum() - z[y].sum()
        penalty = 0.5 * l2 * (w[1:] ** 2).sum()  # no penalty on the bias
        grad = x.T @ (p - y) + l2 * np.concatenate(([0.0], w[1:]))
        return float(nll + penalty), grad

    w = optimize.minimize(loss, np.zeros(len(FEATURES)), jac=True, method="L-BFGS-B").x
    weights = {k: round(float(v), 6) for k, v in zip(FEATURES, w, strict=True)}
    print(f"{len(y)} pairs ({int(y.sum())} own): {weights}")
    if write is not None:
        model = {
            "learned": {
                "source": "WikiTableQuestions 1.0.2, random-split-1-train: each question asked "
                "of its own table and of another drawn at random, the pairs the ranker calls "
                "sure (benchmarks/tables/learn_answerable.py)",
                "pairs": len(y),
                "l2": l2,
            },
            "weights": weights,
        }
        write.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")


def measure(data: Path, out: str) -> None:
    rows = _rows(data)
    lines = [f"WikiTableQuestions dev: each question asked of its own table and of another drawn "
             f"at random (seed {SEED}); the {len(rows)} pairs the ranker calls sure"]  # fmt: skip
    for name, keep in (
        ("the ranker alone", lambda r: True),
        ("with the answerable model",
         lambda r: answerable.chance(r["features"]) >= answerable.AT_LEAST),
    ):  # fmt: skip
        sure = [r for r in rows if keep(r)]
        own = [r for r in sure if r["own"]]
        lines.append(
            f"{name}: sure {len(own)} on their own table, {sum(r['right'] for r in own)} right "
            f"({sum(r['right'] for r in own) / max(1, len(own)):.3f}); sure "
            f"{len(sure) - len(own)} on another table (answers to what it does not hold)"
        )
    (RESULTS / f"{out}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--split", default="train", choices=("train", "dev"))
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--limit", type=int)
    f = sub.add_parser("fit")
    f.add_argument("data", type=Path)
    f.add_argument("--l2", type=float, default=L2)
    f.add_argument("--write", type=Path)
    m = sub.add_parser("measure")
    m.add_argument("data", type=Path)
    m.add_argument("--out", default="table-answerable-dev")
    args = parser.parse_args()
    if args.step == "collect":
        collect(args.split, args.out, args.limit)
    elif args.step == "fit":
        fit(args.data, args.l2, args.write)
    else:
        measure(args.data, args.out)


if __name__ == "__main__":
    main()
