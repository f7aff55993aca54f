"""A repository read once answers many descriptions: ``prism-edge ask`` against fresh runs.

    python benchmarks/code_search/ask_cost.py benchmarks/data/click \
        benchmarks/data/click-needles.jsonl

One fresh ``prism-edge run --task code-search`` per description (the answer a user gets
today, and its time), then one ``run`` for the first description followed by ``ask`` for
every other, from that run's memory (no chunk read again: each ask's prompt tokens are the
stored entries it scores). Prints, per description, both answers and times, and the totals:
how many each way found the expected definition, and the mean time of an ask over the mean
time of a fresh run. The history and config live in a temporary folder.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLI = str(Path(sys.executable).with_name("prism-edge"))


def _call(args: list[str], env: dict[str, str]) -> tuple[dict, float]:
    start = time.perf_counter()
    out = subprocess.run(
        [CLI, *args, "--json"], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout), time.perf_counter() - start


def main() -> None:
    code, needles_path = str(Path(sys.argv[1]).resolve()), Path(sys.argv[2]).resolve()
    needles = [json.loads(line) for line in needles_path.read_text().splitlines() if line]
    with tempfile.TemporaryDirectory() as home:
        env = {
            **os.environ,
            "PRISM_EDGE_LOGS": f"{home}/logs.db",
            "PRISM_EDGE_CONFIG": f"{home}/c.toml",
        }
        rows = []
        for i, needle in enumerate(needles):
            fresh, seconds = _call(
                [
                    "run",
                    code,
                    "--task",
                    "code-search",
                    "--query",
                    needle["query"],
                    "--run-dir",
                    f"{home}/run-{i}",
                    "-q",
                ],
                env,
            )
            rows.append(
                {
                    "expected": needle["expected"],
                    "fresh": fresh["answer"],
                    "fresh_s": seconds,
                    "fresh_steps": fresh["steps"],
                    "log_id": fresh["log_id"],
                }
            )
            print(f"fresh {needle['expected']}: {fresh['answer']} ({seconds:.1f} s)", flush=True)
        run_id = rows[-1]["log_id"]
        # the last fresh run answered the last needle; ask every needle of that memory
        for row, needle in zip(rows, needles, strict=True):
            asked, seconds = _call(["ask", str(run_id), needle["query"], "-q"], env)
            row.update(ask=asked["answer"], ask_s=seconds, ask_steps=asked["steps"])
            print(f"ask {needle['expected']}: {asked['answer']} ({seconds:.1f} s)", flush=True)
    found_fresh = sum(r["fresh"] == r["expected"] for r in rows)
    found_ask = sum(r["ask"] == r["expected"] for r in rows)
    mean_fresh = sum(r["fresh_s"] for r in rows) / len(rows)
    mean_ask = sum(r["ask_s"] for r in rows) / len(rows)
    print("| description | fresh run | s | chunks read | ask | s | chunks read |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['expected']} | {r['fresh']} | {r['fresh_s']:.1f} | {r['fresh_steps']} | "
            f"{r['ask']} | {r['ask_s']:.1f} | {r['ask_steps']} |"
        )
    print(
        f"found: fresh runs {found_fresh}/{len(rows)}, asks {found_ask}/{len(rows)}; "
        f"mean time: fresh {mean_fresh:.1f} s, ask {mean_ask:.1f} s "
        f"({mean_ask / mean_fresh:.3f} of a fresh run, model load included in both)"
    )


if __name__ == "__main__":
    main()
