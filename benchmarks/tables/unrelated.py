"""How the "not in the table" rule does on questions a table cannot answer: each of the first
N WikiTableQuestions training questions asked of its own table and of another training table
drawn at random (a question about one Wikipedia table asked of another is a question the
other does not hold), through the library's table question, as ``wtq.py`` asks.

    python benchmarks/tables/unrelated.py --limit 1000 --out table-unrelated

For each side it counts the answers that say "not in the table" and why (the question names
nothing of the table; a name, quoted text or year no cell holds; an attribute no column holds;
no row holds what it names) and the answers the ranker calls sure; on the own side, the answers
right by the official evaluator's rules. A refusal on the own side is a wrong answer (every
WikiTableQuestions question is answered by its table); on the other side it is the right one.
Training questions only: the dev split is for reporting, the test split is never read here.

Writes ``benchmarks/results/<out>.txt`` and ``<out>.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wtq_common import examples

import prism_edge
from prism_edge.eval.denotations import correct, predictions, targets

RESULTS = Path(__file__).resolve().parents[1] / "results"
SEED = 20261127


def reason(not_in_table: str) -> str:
    """The rule a refusal came from, its quoted part left out."""
    return re.sub(r"'.*'", "'...'", not_in_table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=1000)
    parser.add_argument("--out", default="table-unrelated")
    args = parser.parse_args()
    chosen = examples("train")[: args.limit]
    rng = random.Random(SEED)
    refused: dict[str, Counter[str]] = {"own": Counter(), "other": Counter()}
    right = 0
    sure = Counter[str]()
    with open(RESULTS / f"{args.out}.jsonl", "w", encoding="utf-8") as out:
        for example in chosen:
            other = rng.choice(chosen)
            while other.table == example.table:
                other = rng.choice(chosen)
            for side, path in (("own", example.path), ("other", other.path)):
                table = prism_edge.ask_table(path, example.question, no_model=True).result.table
                why = table.not_in_table if table is not None and table.best is None else ""
                ok = bool(
                    side == "own"
                    and table is not None
                    and table.best is not None
                    and correct(targets(example.target), predictions(table.values))
                )
                right += ok
                sure[side] += bool(table is not None and table.best is not None and table.sure)
                if why:
                    refused[side][reason(why)] += 1
                record = {"id": example.id, "side": side, "table": str(path.name),
                          "question": example.question, "refused": why, "right": ok,
                          "sure": bool(table and table.sure)}  # fmt: skip
                out.write(json.dumps(record) + "\n")
    n = len(chosen)
    lines = [
        f"WikiTableQuestions train, the first {n} questions, each asked of its own table and "
        f"of another drawn at random (seed {SEED})",
        f"own table: right {right}/{n}; 'not in the table' {sum(refused['own'].values())}/{n} "
        "(each a wrong answer)",
        f"another table: 'not in the table' {sum(refused['other'].values())}/{n} "
        "(each the right answer; the rest answer a question the table does not hold)",
        f"answers said sure: own {sure['own']}/{n}; another table {sure['other']}/{n}",
    ]
    for side in ("own", "other"):
        lines.append(f"{side}, by reason:")
        lines += [f"  {count:5} {why}" for why, count in refused[side].most_common()]
    (RESULTS / f"{args.out}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
