"""What the progress display costs in CPU while a run waits on llama.cpp (by hand).

llama.cpp runs one thread per physical core; any CPU the console takes is taken from it. This
drives the progress bar `prism-edge run` shows (the same columns and figures), updated once a
step, while the main thread sleeps as it would inside llama.cpp, and reports the process CPU
seconds per wall second at several refresh rates, on a terminal (rendered to memory) and on a
pipe.

    python benchmarks/runs/progress_cost.py --seconds 10 --out benchmarks/results/progress_cost.txt
"""

from __future__ import annotations

import argparse
import io
import time
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn


def cpu_per_second(rate: float, terminal: bool, seconds: float) -> float:
    console = Console(file=io.StringIO(), force_terminal=terminal, width=120)
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[stats]}"),
        TimeElapsedColumn(),
        console=console,
        refresh_per_second=rate,
    )
    with progress:
        bar = progress.add_task("chunk 0/29", total=26561, stats="")
        start_cpu, start = time.process_time(), time.perf_counter()
        step = 0
        while time.perf_counter() - start < seconds:
            time.sleep(0.5)  # a step's llama.cpp work (the GIL released)
            step += 1
            progress.update(
                bar,
                completed=step * 900,
                description=f"chunk {step}/29",
                stats="input 145 tok/s, prefill 287 tok/s, decode 60 tok/s, cache 40%, "
                "memory 1890 tok, ETA 1:20",
            )
        return (time.process_time() - start_cpu) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    lines = [
        f"$ python benchmarks/runs/progress_cost.py --seconds {args.seconds:g}",
        "| refresh per second | terminal: CPU s per s | pipe: CPU s per s |",
        "|---|---|---|",
    ]
    for rate in (10.0, 4.0, 2.0, 1.0):
        term = cpu_per_second(rate, True, args.seconds)
        pipe = cpu_per_second(rate, False, args.seconds)
        lines.append(f"| {rate:g} | {term:.4f} | {pipe:.4f} |")
        print(lines[-1], flush=True)
    if args.out:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
