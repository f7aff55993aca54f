"""Capture the README's example sessions: each command run as a user runs it on a fresh
clone (from the checkout's root, with a history, config, cache and state folder of its own),
its stdout and stderr printed as the README shows them (paste them in by hand;
``tests/test_readme.py`` checks that the stdout shown is what the commands print).

    python docs/capture_readme.py

The code-search example reads ``benchmarks/data/click/``: click's modules, as the checkout
holds them. Runs one model process at a time (under the machine's llama.cpp lock), about a
minute on two cores.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "prism_edge"]  # the checkout's own (PYTHONPATH), or the installed
SESSIONS = [
    [["run", "examples/mowglis-brothers.txt", "--length", "250w"]],
    [
        [
            "run",
            "benchmarks/data/click/",
            "--task",
            "code-search",
            "--query",
            "Find the function that wraps text to a width",
        ]
    ],
    [
        [
            "run",
            "examples/iowa-electricity.csv",
            "--task",
            "table-qa",
            "--query",
            "What was the net generation of Renewables in 2017?",
        ]
    ],
    [["logs"], ["ask", "1", "Who is Akela?"]],
]


def main() -> None:
    with tempfile.TemporaryDirectory() as home:
        env = {
            **os.environ,
            "PRISM_EDGE_LOGS": f"{home}/logs",
            "PRISM_EDGE_CONFIG": f"{home}/config.toml",
            "PRISM_EDGE_CACHE": f"{home}/cache",
            "PRISM_EDGE_STATE": f"{home}/state",
            "COLUMNS": "100",
            "PYTHONUNBUFFERED": "1",  # stdout and stderr in the order they were written
            "PYTHONPATH": str(ROOT),
        }
        for session in SESSIONS:
            print("```console")
            print(
                "$ prism-edge "
                + " && prism-edge ".join(" ".join(_quote(a) for a in c) for c in session)
            )
            for command in session:
                out = subprocess.run(
                    [*CLI, *command],
                    cwd=ROOT,
                    env=env,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    text=True,
                )
                print(out.stdout.rstrip("\n"))
            print("```\n")


def _quote(arg: str) -> str:
    return f'"{arg}"' if " " in arg else arg


if __name__ == "__main__":
    main()
