"""Join needle reports of several `prism-edge bench --needles` runs into one report and table.

Usage: python benchmarks/code_search/join_needles.py OUT.json REPORT.json [REPORT.json ...]
(the ten Jinja2 needles were run as two halves so each half's results were saved on its own)
"""

import json
import sys
from pathlib import Path

from prism_edge.eval.bench import NeedleRow, needle_report, needle_table
from prism_edge.eval.quality import Needle

out = Path(sys.argv[1])
needles: list[Needle] = []
rows: dict[str, NeedleRow] = {}
for name in sys.argv[2:]:
    report = json.loads(Path(name).read_text())
    methods = [m["name"] for m in report["methods"]]
    if rows and methods != list(rows):
        sys.exit(f"{name}: methods {methods} differ from the first report's {list(rows)}")
    needles += [Needle(n["query"], n["expected"]) for n in report["needles"]]
    for m in report["methods"]:
        row = rows.setdefault(m["name"], NeedleRow(m["name"], [], []))
        row.hits += m["hits"]
        row.answers += m["answers"]
out.write_text(
    json.dumps(needle_report(list(rows.values()), needles), ensure_ascii=False, indent=2) + "\n"
)
print(needle_table(list(rows.values()), needles))
