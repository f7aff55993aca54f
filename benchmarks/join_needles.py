"""Join needle reports of several `prism-edge bench --needles` runs into one report and table.

Usage: python benchmarks/join_needles.py OUT.json REPORT.json [REPORT.json ...]
(the ten Jinja2 needles were run as two halves so each half's results were saved on its own)
"""

import json
import sys
from pathlib import Path

from prism_edge.bench import NeedleRow, needle_table
from prism_edge.quality import Needle

out = Path(sys.argv[1])
needles: list[Needle] = []
rows: dict[str, NeedleRow] = {}
for name in sys.argv[2:]:
    report = json.loads(Path(name).read_text())
    needles += [Needle(n["query"], n["expected"]) for n in report["needles"]]
    for m in report["methods"]:
        row = rows.setdefault(m["name"], NeedleRow(m["name"], [], []))
        row.hits += m["hits"]
        row.answers += m["answers"]
payload = {
    "needles": [{"query": n.query, "expected": n.expected} for n in needles],
    "methods": [
        {"name": r.name, "accuracy": r.accuracy, "hits": r.hits, "answers": r.answers}
        for r in rows.values()
    ],
}
out.write_text(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
print(needle_table(list(rows.values()), needles))
