"""The claim on the machine's cores: a second process that loads a local model learns whose
model runs already, and the lock is gone with the last model (or the process) that held it."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest

from prism_edge.backends.cpu_share import Claims
from prism_edge.backends.scripted import ScriptedBackend
from tests.cli_harness import invoke

HOLDER = """
import sys
from pathlib import Path
from prism_edge.backends.cpu_share import Claims
class Model: pass
model = Model()
print(Claims(Path(sys.argv[1])).claim(model), flush=True)
sys.stdin.read()  # held until the test closes stdin
"""


def other_process(lock: Path) -> tuple[subprocess.Popen[str], str]:
    """A process that claims the cores and holds them until its stdin closes; what its claim
    returned."""
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(lock)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    return child, child.stdout.readline().strip()


def done(child: subprocess.Popen[str]) -> None:
    assert child.stdin is not None and child.stdout is not None
    child.stdin.close()
    child.wait(timeout=60)
    child.stdout.close()


class Model:
    pass


def test_a_second_process_learns_whose_model_runs(tmp_path: Path):
    lock = tmp_path / "cache" / "local-model.lock"
    child, said = other_process(lock)
    assert said == "None"  # the first claim on the machine
    claims = Claims(lock)
    model = Model()
    assert claims.claim(model) == child.pid and not claims.held
    done(child)  # the other process ends: its lock with it
    assert claims.claim(model) is None and claims.held
    # (not read here: closing any file of the lock drops a POSIX lock of the process)
    second, said = other_process(lock)
    assert said == str(os.getpid())  # this process, as the lock file says
    done(second)


def test_the_lock_is_held_while_any_model_of_the_process_is_open(tmp_path: Path):
    lock = tmp_path / "local-model.lock"
    claims = Claims(lock)
    first, second = Model(), Model()
    assert claims.claim(first) is None and claims.claim(second) is None
    del first
    gc.collect()
    child, said = other_process(lock)
    assert claims.held and said == str(os.getpid())  # still held for the second
    done(child)
    del second
    gc.collect()
    assert not claims.held
    child, said = other_process(lock)
    assert said == "None"  # free once the last model is gone
    done(child)


def test_an_unwritable_cache_folder_costs_the_note_never_the_run(tmp_path: Path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert Claims(blocked / "local-model.lock").claim(Model()) is None


@pytest.mark.parametrize("other", [4321, 0])
def test_a_run_says_when_another_process_runs_a_model_here(harness, story, monkeypatch, other):
    monkeypatch.setattr(ScriptedBackend, "shares_cores_with", other, raising=False)
    result = invoke("run", str(story), "--chunk-tokens", "200")
    assert result.exit_code == 0, result.output
    who = f"another prism-edge process (pid {other})" if other else "another prism-edge process"
    assert f"warning: {who} has a local model open on this machine" in result.stderr
