"""Table questions at scale: time and peak memory of `prism-edge run --task table-qa` over
generated CSV files of a given size (by hand, alone on the machine).

    python benchmarks/tables/table_scale.py 1 10 [100]

Each size gets a CSV of sales records (id, region, product, units, price), the question "How
many sales are in the region North?", and one run of the default table method on the embedded
model; the wall time and the child's peak resident set (getrusage) are printed, and the answer
is checked against the count computed here.
"""

from __future__ import annotations

import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REGIONS = ("North", "South", "East", "West", "Central")
PRODUCTS = ("apples", "pears", "plums", "figs", "dates", "limes")


def write_csv(path: Path, megabytes: float) -> int:
    """A CSV of about ``megabytes``; returns how many rows are in the region North."""
    rng = random.Random(7)
    target = int(megabytes * 1_000_000)
    north = 0
    with path.open("w", encoding="utf-8") as out:
        out.write("id,region,product,units,price\n")
        written, i = 0, 0
        while written < target:
            region = rng.choice(REGIONS)
            north += region == "North"
            units, price = rng.randint(1, 500), rng.randint(100, 9999) / 100
            line = f"{i},{region},{rng.choice(PRODUCTS)},{units},{price}\n"
            out.write(line)
            written += len(line)
            i += 1
    return north


def main() -> None:
    sizes = [float(s) for s in sys.argv[1:]] or [1.0, 10.0]
    print("| MB | rows in North | answer | right | wall s | peak RSS MB |")
    print("|---|---|---|---|---|---|")
    for size in sizes:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "sales.csv"
            north = write_csv(path, size)
            command = [
                sys.executable, "-m", "prism_edge", "run", str(path), "--task", "table-qa",
                "--query", "How many sales are in the region North?", "--no-log", "-q",
                "--run-dir", str(Path(folder) / "run"),
            ]  # fmt: skip
            start = time.perf_counter()
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            wall = time.perf_counter() - start
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            answer = done.stdout.strip() or done.stderr.strip()[-80:]
            print(
                f"| {size:g} | {north} | {answer} | {answer == str(north)} | {wall:.1f} | "
                f"{peak:.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
