"""Reading a table into the database at several batch sizes (records a batch), three shapes
of table, best of several runs each: what ``text.tables.BATCH_CELLS`` and ``BATCH_LEAST``
rest on.

    python benchmarks/tables/batches.py [--runs 3]

The shapes, made here with fixed seeds: speed.py's 60,000 x 24 TSV, a 6,000 x 200 CSV (a
third of its columns words, the rest numbers) and a 400,000 x 3 CSV. Each timing is a fresh
process reading the file as a run does (``records`` into a ``Database``, the collector
paused a batch), so no run warms another's caches. The default (``batch_rows``) is timed
beside the fixed sizes. Writes benchmarks/results/table-batches.txt.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from speed import make_big

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"
SIZES = (640, 1_000, 1_280, 2_560, 5_000)

READ = """
import sys, time
from pathlib import Path
from prism_edge.engine.tables import collector_paused
from prism_edge.methods.tables.db import Database
from prism_edge.text.tables import batch_rows, records
path, batch = Path(sys.argv[1]), int(sys.argv[2]) or None
start, db = time.perf_counter(), Database()
with open(path, encoding="utf-8", newline="") as lines:
    batches = records(path.name, lines, batch=batch)
    chunk_header: list[str] = []
    while True:
        with collector_paused():
            chunk = next(batches, None)
            if chunk is None:
                break
            db.add(chunk)
            chunk_header = chunk.header
print(time.perf_counter() - start, batch or batch_rows(len(chunk_header)))
"""


def _made(name: str, columns: int, rows: int, seed: int) -> Path:
    path = Path("/tmp/table-speed") / name
    if path.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    words = ["alpha", "beta", "gamma delta", "x y", "North", "South East"]
    with path.open("w", encoding="utf-8") as out:
        out.write(",".join(f"col{i}" for i in range(columns)) + "\n")
        for _ in range(rows):
            cells = [rng.choice(words) if i % 3 == 0 else str(rng.randrange(1000))
                     for i in range(columns)]  # fmt: skip
            if columns == 3:
                cells = [str(rng.randrange(10**6)), f"{rng.choice(words)} {rng.randrange(100)}",
                         f"{rng.random() * 1000:.2f}"]  # fmt: skip
            out.write(",".join(cells) + "\n")
    return path


def _best(path: Path, batch: int, runs: int) -> tuple[float, int]:
    """The least seconds of ``runs`` readings, and the records a batch they read."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", READ, str(path), str(batch)]
    said = [subprocess.run(command, capture_output=True, text=True, env=env, check=True)
            .stdout.split() for _ in range(runs)]  # fmt: skip
    return min(float(s[0]) for s in said), int(said[0][1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    shapes = [("60,000 x 24 TSV", make_big()),
              ("6,000 x 200 CSV", _made("wide-6k.csv", 200, 6_000, 3)),
              ("400,000 x 3 CSV", _made("narrow-400k.csv", 3, 400_000, 4))]  # fmt: skip
    lines = [f"seconds to read each table, best of {args.runs} runs, by records a batch "
             f"({os.cpu_count()} cores)"]  # fmt: skip
    for what, path in shapes:
        timed = [f"{n:,}: {_best(path, n, args.runs)[0]:.3f}" for n in SIZES]
        seconds, rows = _best(path, 0, args.runs)
        timed.append(f"default ({rows:,}): {seconds:.3f}")
        lines.append(f"{what}: " + "; ".join(timed))
        print(lines[-1], flush=True)
    (RESULTS / "table-batches.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
