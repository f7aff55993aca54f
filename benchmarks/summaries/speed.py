"""How long the default summary takes without the model, on every text of the development
sets cut to its first 120,000 characters (issue 52: under a second), in process, one after
another; and the same for the whole text.

    python benchmarks/summaries/speed.py   # -> benchmarks/results/summaries-speed.txt
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import score

from prism_edge.methods.outline import outline

CHARS = 120_000
RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"


def main() -> None:
    lines = [f"seconds of outline(text).render(), no model; text cut to {CHARS:,} characters", ""]
    worst = 0.0
    for case in score.cases():
        text = case.text[:CHARS]
        times = []
        for _ in range(3):
            start = time.perf_counter()
            outline(text).render()
            times.append(time.perf_counter() - start)
        best = min(times)
        worst = max(worst, max(times))
        lines.append(
            f"{case.name:24} {len(text):>8,} chars  {best:.2f} s (slowest of 3: {max(times):.2f} s)"
        )
    lines += ["", f"slowest of all: {worst:.2f} s"]
    out = "\n".join(lines) + "\n"
    (RESULTS / "summaries-speed.txt").write_text(out)
    print(out)


if __name__ == "__main__":
    main()
