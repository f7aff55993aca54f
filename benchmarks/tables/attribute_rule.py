"""How often the rule "no column holds the attribute asked" (``answer.attribute``) fires on
WikiTableQuestions' training questions, where every question is answerable: each firing is a
wrong "not in the table". The dev split is not read.

    python benchmarks/tables/attribute_rule.py [--limit N]

Writes benchmarks/results/table-attribute-rule.txt.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wtq_common import examples

from prism_edge.methods.tables.answer import attribute, load
from prism_edge.methods.tables.mentions import read

RESULTS = Path(__file__).resolve().parents[1] / "results"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int)
    args = parser.parse_args()
    asked = fired = 0
    lines = []
    for example in examples("train")[: args.limit]:
        db, sheet = load(example.path)
        try:
            reading = read(example.question, db, [sheet])
            said = attribute(example.question, [sheet], {sheet.name: reading})
        finally:
            db.close()
        asked += 1
        if said:
            fired += 1
            lines.append(f"  {example.question}  ({said}; columns: "
                         f"{', '.join(c.name for c in sheet.columns)})")  # fmt: skip
    out = [
        "The rule 'no column holds the attribute asked' on WikiTableQuestions' training "
        "questions (every one answerable: each firing is a wrong 'not in the table').",
        "python benchmarks/tables/attribute_rule.py"
        + (f" --limit {args.limit}" if args.limit else ""),
        f"fired on {fired} of {asked} questions ({fired / max(asked, 1):.2%})",
        *lines,
    ]
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "table-attribute-rule.txt").write_text("\n".join(out) + "\n", encoding="utf-8")
    print("\n".join(out[:3]))


if __name__ == "__main__":
    main()
