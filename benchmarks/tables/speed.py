"""Table questions at a database's speed (issue 53 point 5), each the whole command as a user
runs it (``prism-edge run FILE --task table-qa --query Q --no-log``, default settings), wall
time from the process's start, several runs (median), side by side with another checkout of
the program when one is given (``--against PATH``: its root, run with its own code).

    python benchmarks/tables/speed.py [--against /path/to/other/checkout] [--runs 3]

Each checkout runs with its modules compiled once beforehand, as an installed package's are
(their cache kept under /tmp, outside the checkout, whatever PYTHONDONTWRITEBYTECODE says).
Each line says whether the model was called (its run's closing line).

The inputs:
- a 60,000 x 24 TSV made here with a fixed seed (titles, years, lengths, budgets with "NA",
  ratings, votes, ten rating shares, a category with "NA", seven 0/1 flags);
- the 1.5 MB, 11-table Lahman database of ``databases.py`` (``prepare`` it first; $DBS),
  each of its questions there;
- a WikiTableQuestions table (csv/204-csv/772.csv, 11 rows);
- plain CSV reading: the TSV's reading alone (records into the database), in MB/s.

Writes benchmarks/results/table-speed.txt.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from databases import QUESTIONS
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
    ("60,000 x 24 TSV", make_big, "What is the average rating of the movies from 1999?"),
    ("60,000 x 24 TSV", make_big, "How many movies have a budget over 100000000?"),
    *[("11-table database", lambda: DBS / "lahman.db", q.question) for q in QUESTIONS
      if q.database == "lahman"],
    ("WikiTableQuestions table", lambda: WTQ / "csv/204-csv/772.csv",
     "which team won previous to crettyard?"),
]  # fmt: skip


def _env(root: Path) -> dict[str, str]:
    """The checkout's environment: its code, its compiled modules kept apart under /tmp."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    tag = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:12]
    env["PYTHONPYCACHEPREFIX"] = f"/tmp/prism-speed-pyc/{tag}"
    env["PYTHONPATH"] = str(root)
    return env


def _compile(root: Path) -> None:
    """The checkout's modules compiled once, as an installed package's are."""
    command = [sys.executable, "-m", "compileall", "-q", str(root / "prism_edge")]
    subprocess.run(command, env=_env(root), check=True, capture_output=True)


def _time(root: Path, path: Path, question: str, runs: int) -> tuple[str, str, str]:
    """The median seconds of the command (wall, and CPU: user and system, which another
    process's load on the cores inflates less), its answer (first line) and what the model
    did."""
    command = [sys.executable, "-m", "prism_edge", "run", str(path), "--task", "table-qa",
               "--query", question, "--no-log"]  # fmt: skip
    times, cpu, answer, model = [], [], "", ""
    for _ in range(runs):
        start, used = time.perf_counter(), _children_cpu()
        done = subprocess.run(command, capture_output=True, text=True, env=_env(root), cwd=root)
        times.append(time.perf_counter() - start)
        cpu.append(_children_cpu() - used)
        said = done.stdout.strip().splitlines() or done.stderr.strip().splitlines()[-1:] or [""]
        answer = said[0] if done.stdout.strip() else f"error: {said[0]}"
        closing = [ln for ln in done.stderr.splitlines() if ln.startswith("done:")]
        model = "no model" if any("no model call" in ln for ln in closing) else "model"
    seconds = f"{statistics.median(times):.2f} s (CPU {statistics.median(cpu):.2f} s)"
    return seconds, answer[:60], model


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _reading(root: Path, runs: int, size: float) -> str:
    """The big TSV's reading alone into the database, by the checkout's code."""
    code = (
        "import contextlib, time, sys; from pathlib import Path\n"
        "from prism_edge.methods.tables.db import Database\n"
        "from prism_edge.text.tables import records\n"
        "try:\n"
        "    from prism_edge.engine.tables import collector_paused\n"
        "except ImportError:  # a checkout from before it\n"
        "    collector_paused = contextlib.nullcontext\n"
        "p = Path(sys.argv[1]); t = time.perf_counter(); db = Database()\n"
        "with open(p, encoding='utf-8', newline='') as f:\n"
        "    batches = records(p.name, f)\n"
        "    while True:\n"
        "        with collector_paused():  # as a run reads\n"
        "            batch = next(batches, None)\n"
        "            if batch is None:\n"
        "                break\n"
        "            db.add(batch)\n"
        "print(time.perf_counter() - t)"
    )
    command = [sys.executable, "-c", code, str(BIG)]
    seconds = statistics.median(
        float(subprocess.run(command, capture_output=True, text=True, env=_env(root), cwd=root,
                             check=True).stdout)
        for _ in range(runs)
    )  # fmt: skip
    return f"{size:.1f} MB in {seconds:.2f} s = {size / seconds:.1f} MB/s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", type=Path, help="another checkout to time side by side")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    roots = [ROOT] + ([args.against] if args.against else [])
    for root in roots:
        _compile(root)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [f"median of {args.runs} runs, whole command, seconds (load average at the start: "
             f"{load}, on {os.cpu_count()} cores: others' work inflates wall times)"]  # fmt: skip
    for what, path_of, question in CASES:
        path = path_of()
        mine, answer, model = _time(ROOT, path, question, args.runs)
        line = f"{what}: {question!r}: {mine} ({model}) -> {answer}"
        if args.against:
            theirs, other, model = _time(args.against, path, question, args.runs)
            line += f"; against {theirs} ({model}) -> {other}"
        lines.append(line)
        print(line, flush=True)
    slowest = max((ln for ln in lines if ln.startswith("11-table")),
                  key=lambda ln: float(ln.split("': ")[1].split(" s")[0]))  # fmt: skip
    lines.append(f"slowest over the database: {slowest}")
    size = BIG.stat().st_size / 1e6
    line = "reading plain CSV/TSV into the database: " + _reading(ROOT, args.runs, size)
    if args.against:
        line += "; against " + _reading(args.against, args.runs, size)
    lines.append(line)
    print(lines[-2], lines[-1], sep="\n")
    (RESULTS / "table-speed.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
