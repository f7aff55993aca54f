"""Table questions at a database's speed (issue 53 point 5), each the whole command as a user
runs it (``prism-edge run FILE --task table-qa --query Q --no-log``), wall time from the
process's start, several runs (median), side by side with another checkout of the program
when one is given (``--against PATH``: its root, run with its own code).

    python benchmarks/tables/speed.py [--against /path/to/other/checkout] [--runs 3]

The inputs:
- a 60,000 x 24 TSV made here with a fixed seed (titles, years, lengths, budgets with "NA",
  ratings, votes, ten rating shares, a category with "NA", seven 0/1 flags);
- the 1.5 MB, 11-table Lahman database of ``databases.py`` (``prepare`` it first; $DBS);
- a WikiTableQuestions table (csv/204-csv/772.csv, 11 rows);
- plain CSV reading: the TSV's reading alone (records into the database), in MB/s.

Writes benchmarks/results/table-speed.txt.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wtq_common import WTQ

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"
DBS = Path(os.environ.get("DBS", "/tmp/table-dbs"))
BIG = Path("/tmp/table-speed/movies-60k.tsv")


def make_big() -> Path:
    if BIG.exists():
        return BIG
    BIG.parent.mkdir(parents=True, exist_ok=True)
    rng = random.Random(7)
    flags = ["Action", "Animation", "Comedy", "Drama", "Documentary", "Romance", "Short"]
    header = ["title", "year", "length", "budget", "rating", "votes"]
    header += [f"r{i}" for i in range(1, 11)] + ["mpaa"] + flags
    words = ["Night", "River", "Star", "Blue", "Last", "City", "Dream", "Road", "Iron", "Gold"]
    with BIG.open("w", encoding="utf-8") as out:
        out.write("\t".join(header) + "\n")
        for i in range(60_000):
            title = f"{rng.choice(words)} {rng.choice(words)} {i}"
            budget = "NA" if rng.random() < 0.9 else str(rng.randrange(10_000, 200_000_000))
            row = [title, str(rng.randrange(1893, 2006)), str(rng.randrange(1, 300)), budget,
                   f"{rng.uniform(1, 10):.1f}", str(rng.randrange(5, 150_000))]  # fmt: skip
            row += [f"{rng.uniform(0, 50):.1f}" for _ in range(10)]
            row.append(rng.choice(["NA", "NA", "NA", "R", "PG-13", "PG", "NC-17"]))
            row += [str(int(rng.random() < 0.2)) for _ in flags]
            out.write("\t".join(row) + "\n")
    return BIG


CASES = [
    ("60,000 x 24 TSV", lambda: make_big(), "What is the average rating of the movies from 1999?"),
    ("60,000 x 24 TSV", lambda: make_big(), "How many movies have a budget over 100000000?"),
    ("11-table database", lambda: DBS / "lahman.db",
     "How many home runs did Mike Trout hit in 2019?"),
    ("11-table database", lambda: DBS / "lahman.db", "Which team had the most wins in 2019?"),
    ("WikiTableQuestions table", lambda: WTQ / "csv/204-csv/772.csv",
     "which team won previous to crettyard?"),
]  # fmt: skip


def _time(root: Path, path: Path, question: str, runs: int) -> tuple[float, str]:
    command = [sys.executable, "-m", "prism_edge", "run", str(path), "--task", "table-qa",
               "--query", question, "--no-log", "-q"]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(root)}
    times, answer = [], ""
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=root)
        times.append(time.perf_counter() - start)
        answer = (done.stdout.strip() or done.stderr.strip().splitlines()[-1:] or [""])[0]
    return statistics.median(times), answer[:60]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", type=Path, help="another checkout to time side by side")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    lines = [f"median of {args.runs} runs, whole command, seconds"]
    for what, path_of, question in CASES:
        path = path_of()
        mine, answer = _time(ROOT, path, question, args.runs)
        line = f"{what}: {question!r}: {mine:.2f} s -> {answer}"
        if args.against:
            theirs, other = _time(args.against, path, question, args.runs)
            line += f"; against {theirs:.2f} s ({theirs / mine:.1f}x) -> {other}"
        lines.append(line)
        print(line, flush=True)
    size = BIG.stat().st_size / 1e6
    code = (
        "import time, sys; from pathlib import Path; from prism_edge.methods.tables.db import "
        "Database; from prism_edge.text.tables import records; p = Path(sys.argv[1]); "
        "t = time.perf_counter(); db = Database()\n"
        "with open(p, encoding='utf-8', newline='') as f:\n"
        "    for batch in records(p.name, f): db.add(batch)\n"
        "print(time.perf_counter() - t)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", code, str(BIG)]
    seconds = statistics.median(
        float(subprocess.run(command, capture_output=True, text=True, env=env, check=True).stdout)
        for _ in range(args.runs)
    )
    lines.append(f"reading plain CSV/TSV into the database: {size:.1f} MB in {seconds:.2f} s = "
                 f"{size / seconds:.1f} MB/s")  # fmt: skip
    print(lines[-1])
    (RESULTS / "table-speed.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
