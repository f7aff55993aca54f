"""Check that a table question's candidates do not depend on Python's string hashing.

    python benchmarks/tables/deterministic.py --limit 600 --seeds 0 1 2 3

Python randomises the hash of a text per process, so anything that iterates a set of texts
can take a different order in each run. The ranker is fitted from the candidates in their
order (``train_ranker.py`` samples its negatives from that list), and the command answers the
first of a tie, so an order that follows the hash makes neither the shipped weights nor the
answers reproducible. This runs the first ``--limit`` WikiTableQuestions training questions
in one child process per hash seed, each child writing one digest per question of every
candidate in order (its query, its values, its features and its score with no weights), and
reports the questions whose digests differ between seeds.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wtq_common import examples


def digests(limit: int) -> None:
    """Print one line per question: its id and the digest of its candidates in order."""
    from prism_edge.methods.tables.answer import load, rank_all

    for example in examples("train")[:limit]:
        h = hashlib.sha256()
        try:
            db, sheet = load(example.path)
            try:
                for candidate, feats, score in rank_all(db, sheet, example.question, {}):
                    h.update(repr((candidate, sorted(feats.items()), score)).encode())
            finally:
                db.close()
        except Exception as exc:  # a question that fails must fail the same way
            h.update(f"{type(exc).__name__}: {exc}".encode())
        print(json.dumps([example.id, h.hexdigest()[:16]]), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=600)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3])
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        digests(args.limit)
        return 0
    runs: dict[int, dict[str, str]] = {}
    for seed in args.seeds:
        env = {**os.environ, "PYTHONHASHSEED": str(seed)}
        out = subprocess.run(
            [sys.executable, __file__, "--child", "--limit", str(args.limit)],
            env=env, capture_output=True, text=True, check=True,
        )  # fmt: skip
        runs[seed] = dict(json.loads(line) for line in out.stdout.splitlines())
    first, *rest = args.seeds
    differ = sorted({q for s in rest for q, d in runs[s].items() if runs[first].get(q) != d})
    print(f"{len(runs[first])} questions, hash seeds {args.seeds}: {len(differ)} differ")
    for q in differ:
        print(f"  {q}: " + " ".join(runs[s].get(q, "-") for s in args.seeds))
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
