"""The README's sessions print what it shows, on the embedded model, from a fresh clone's root
(the commands as written; tests/test_docs.py runs every command of the docs on a scripted
model, and tests/test_python_api_doc.py the README's library example)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
STDERR = re.compile(
    r"^(plan|plan details|index|from|query|computed|runner-up|runner-up query|done|note|warning): "
    r"|^answered "
)
"""The lines of a session that are the program's account on stderr, not its answers."""
WHEN = re.compile(r"\b\d{4}-\d\d-\d\d \d\d:\d\d\b")


def sessions() -> list[tuple[list[list[str]], list[str]]]:
    """Each console block: its commands (a ``&&`` chain), and the lines it shows on stdout."""
    import shlex

    found = []
    for block in re.findall(r"```console\n(.*?)\n```", README.read_text("utf-8"), flags=re.S):
        first, *shown = block.splitlines()
        commands = [shlex.split(c)[1:] for c in first.removeprefix("$ ").split(" && ")]
        found.append((commands, [line for line in shown if not STDERR.match(line)]))
    return found


@pytest.mark.model
def test_the_readme_sessions_print_what_it_shows(tmp_path):
    env = {
        **os.environ,
        "PRISM_EDGE_LOGS": str(tmp_path / "logs.db"),
        "PRISM_EDGE_STATE": str(tmp_path / "state"),
        "PRISM_EDGE_CACHE": str(tmp_path / "cache"),
        "PRISM_EDGE_CONFIG": str(tmp_path / "config.toml"),
        "COLUMNS": "100",
    }
    found = sessions()
    assert len(found) == 4
    for commands, shown in found:
        printed = []
        for args in commands:
            done = subprocess.run(
                [sys.executable, "-m", "prism_edge", *args],
                cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False,
            )  # fmt: skip
            assert done.returncode == 0, (args, done.stderr)
            printed += done.stdout.splitlines()
        assert [WHEN.sub("DATE", x) for x in printed] == [WHEN.sub("DATE", x) for x in shown], (
            "the README shows another output: python docs/capture_readme.py"
        )


@pytest.mark.model
def test_the_librarys_summary_is_the_commands(tmp_path, monkeypatch):
    import prism_edge

    monkeypatch.chdir(ROOT)
    result = prism_edge.summarize("examples/mowglis-brothers.txt")
    done = subprocess.run(
        [sys.executable, "-m", "prism_edge", "run", "examples/mowglis-brothers.txt",
         "--no-log", "-q", "--run-dir", str(tmp_path / "r")],
        capture_output=True, text=True, timeout=600, check=False, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert result.answer and done.stdout == result.answer + "\n"
