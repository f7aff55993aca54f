"""Run states live in the user's state folder, not the folder a command runs from, and
``prism-edge runs`` lists and removes them."""

from __future__ import annotations

import os
from pathlib import Path

from tests.cli_harness import invoke


def test_a_run_writes_no_state_under_the_current_folder(harness, story, tmp_path, monkeypatch):
    here = tmp_path / "repository"
    here.mkdir()
    monkeypatch.chdir(here)
    out = invoke("run", str(story), "--chunk-tokens", "200")
    assert out.exit_code == 0, out.output
    assert list(here.iterdir()) == []  # nothing of the run beside the user's files
    state = Path(os.environ["PRISM_EDGE_STATE"])
    assert list(state.glob("state-*.json"))


def test_runs_lists_saved_states_and_removes_them(harness, story, tmp_path):
    for size in ("200", "160"):
        assert invoke("run", str(story), "--chunk-tokens", size).exit_code == 0
    listed = invoke("runs")
    assert listed.exit_code == 0
    lines = listed.stdout.splitlines()
    assert len(lines) == 2 and all("KB" in line and "finished" in line for line in lines)
    key = lines[0].split()[0]
    assert invoke("runs", "rm").exit_code == 2  # says which
    assert invoke("runs", "rm", key).exit_code == 0
    assert len(invoke("runs").stdout.splitlines()) == 1
    assert invoke("runs", "rm", "--all").exit_code == 0
    assert invoke("runs").stdout == ""
