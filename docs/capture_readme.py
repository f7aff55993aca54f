"""Capture the README's example sessions: each command run as a user runs it, in a fresh
temporary folder with its own history and config, its stdout and stderr printed as the README
shows them (paste them in by hand).

    python docs/capture_readme.py

The code-search example reads ``src/filters.py``: Jinja2's filters, as benchmarks/data holds
them. Runs one model process at a time, about a minute on two cores.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = str(Path(sys.executable).with_name("prism-edge"))
SESSIONS = [
    [["run", "examples/mowglis-brothers.txt", "--length", "250w"]],
    [
        [
            "run",
            "src/",
            "--task",
            "code-search",
            "--query",
            "Find the function that rounds a number to a given precision",
        ]
    ],
    [
        [
            "run",
            "examples/iowa-electricity.csv",
            "--task",
            "table-qa",
            "--query",
            "Which source generated the most electricity in 2005?",
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
        }
        for i, session in enumerate(SESSIONS):
            work = Path(home) / f"work{i}"  # a fresh folder each, as a user's would be
            (work / "src").mkdir(parents=True)
            shutil.copytree(ROOT / "examples", work / "examples")
            shutil.copy(ROOT / "benchmarks/data/jinja2_filters.py", work / "src/filters.py")
            print("```console")
            print(
                "$ prism-edge "
                + " && prism-edge ".join(" ".join(_quote(a) for a in c) for c in session)
            )
            for command in session:
                out = subprocess.run(
                    [CLI, *command],
                    cwd=work,
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
