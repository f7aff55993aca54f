"""Re-score the answers in a ``prism-edge bench --json-out`` report against an entity list.

For reports written before a change to the entity-recall measure (by hand):

    python benchmarks/summaries/rescore_entities.py benchmarks/results/jungle-quality-smollm2.json \
        [--entities benchmarks/data/jungle-book-entities.txt]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from prism_edge.eval.quality import entity_recall, load_entities

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", type=Path, nargs="+")
    parser.add_argument(
        "--entities", type=Path, default=ROOT / "benchmarks" / "data" / "jungle-book-entities.txt"
    )
    args = parser.parse_args()
    entities = load_entities(args.entities)
    print(f"| report | method | entity recall (of {len(entities)}) | named |")
    print("|---|---|---|---|")
    for report in args.reports:
        for method in json.loads(report.read_text(encoding="utf-8"))["methods"]:
            recall = entity_recall(method.get("answer"), entities)
            print(
                f"| {report.name} | {method['name']} | {recall.value:.2f} "
                f"({len(recall.found)}/{len(entities)}) | {', '.join(recall.found)} |"
            )


if __name__ == "__main__":
    main()
