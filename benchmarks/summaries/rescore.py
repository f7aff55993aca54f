"""Re-score stored summaries (``benchmarks/results/summaries-LABEL/``) with the scorer as it
is now: entities in sentences and roles stated, the means of the texts that choose rules and
of the held-out texts apart. For figures written before a change to the measure:

    python benchmarks/summaries/rescore.py round2 [--split rule]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("label")
    parser.add_argument("--split", choices=("rule", "all"), default="all")
    args = parser.parse_args()
    folder = score.RESULTS / f"summaries-{args.label}"
    rows = []
    for case in score.cases():
        path = folder / f"{case.name}.txt"
        if args.split == "rule" and case.held_out:
            continue
        if case.entities and path.exists():
            rows.append(score.score(case, path.read_text().rstrip("\n"), 0.0, None))
    for held, label in ((False, "texts that choose rules"), (True, "held-out texts")):
        mine = [r for r in rows if r["held_out"] == held]
        if not mine:
            continue
        print(
            f"{args.label}, {label} ({len(mine)} with entities): entities in sentences "
            f"{score._mean([r['entities'] for r in mine])}, roles "  # type: ignore[misc]
            f"{score._mean([r['roles'] for r in mine])}"  # type: ignore[misc]
        )


if __name__ == "__main__":
    main()
