"""Checkpoints: a damaged state is refused with one clear error, whatever its shape; a new run
replaces its own previous state when it first saves, and leaves other runs' states in the
folder as they are."""

from __future__ import annotations

import contextlib
import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.engine.checkpoint import ResumeError, RunFolder
from prism_edge.engine.runner import PrismConfig, PrismRunner, StepDone
from prism_edge.methods.presets import TASKS

SCHEMA = TASKS["summarize"].schema
OUTPUT = '[OBJECTS FOR ADD]\n{"$.\'attributes\'.\'Mowgli\'": {"add": ["A boy."]}}'


def runner() -> PrismRunner:
    backend = ScriptedBackend(outputs=[OUTPUT, "[OBJECTS FOR ADD]", "An answer."])
    return PrismRunner(backend, SCHEMA, PrismConfig(question="Summarize."))


@pytest.fixture
def saved(tmp_path: Path) -> dict[str, Any]:
    """A real state saved after the first of two steps."""
    folder = RunFolder(tmp_path / "run", "settings", "inputs")
    first = runner()
    for event in first.run(["Mowgli was a boy.", "He lived with wolves."]):
        if isinstance(event, StepDone):
            folder.save(first)
            break
    state: dict[str, Any] = json.loads(folder.state_file.read_text())
    return state


def load(tmp_path: Path, state: Any, name: str = "damaged") -> RunFolder:
    folder = RunFolder(tmp_path / name, "settings", "inputs")
    folder.path.mkdir(parents=True, exist_ok=True)
    folder.state_file.write_text(json.dumps(state))
    return folder


def test_a_good_state_restores(tmp_path: Path, saved: dict[str, Any]) -> None:
    folder = load(tmp_path, saved, "good")
    fresh = runner()
    folder.restore(fresh, SCHEMA, folder.load())
    assert fresh.position.consumed == 1 and fresh.result.steps == 1
    assert fresh.memory.data == {"attributes": {"Mowgli": ["A boy."]}}


def _without(state: dict[str, Any], *path: str) -> dict[str, Any]:
    out = copy.deepcopy(state)
    node = out
    for key in path[:-1]:
        node = node[key]
    del node[path[-1]]
    return out


def _with(state: dict[str, Any], value: Any, *path: str) -> dict[str, Any]:
    out = copy.deepcopy(state)
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out


@pytest.mark.parametrize(
    "damage",
    [
        lambda s: [],
        lambda s: _without(s, "memory"),
        lambda s: _with(s, {}, "metrics"),
        lambda s: _with(s, None, "position", "pending"),
        lambda s: _with(s, [1, 2], "counts"),
        lambda s: _with(s, ["not", "a", "record"], "memory", "records"),
        lambda s: _with(s, ['{"$.x": 1}'], "memory", "records"),
        lambda s: _with(s, {"attributes": "???"}, "memory", "base"),
        lambda s: _with(s, -3, "position", "consumed"),
        lambda s: _with(s, "1", "counts", "steps"),
        lambda s: _with(s, [{"kind": "revise"}], "metrics", "calls"),
    ],
)
def test_a_damaged_state_is_one_resume_error(tmp_path: Path, saved: dict[str, Any], damage) -> None:
    folder = load(tmp_path, damage(saved))
    with pytest.raises(ResumeError, match=r"damaged|does not restore|version") as error:
        folder.restore(runner(), SCHEMA, folder.load())
    assert str(folder.path) in str(error.value)


def test_invalid_utf8_names_the_file(tmp_path: Path) -> None:
    folder = RunFolder(tmp_path / "bytes", "settings", "inputs")
    folder.path.mkdir()
    folder.state_file.write_bytes(b'{"version": 1, "answer": "\xff\xfe"}')
    with pytest.raises(ResumeError, match="not UTF-8") as error:
        folder.load()
    assert str(folder.state_file) in str(error.value)


_json = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text()),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(), inner)),
    max_leaves=10,
)


@given(data=st.data())
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_any_replaced_part_restores_or_is_refused(tmp_path: Path, saved, data) -> None:
    state = copy.deepcopy(saved)
    node = state
    while isinstance(node, dict) and node and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(node)))
        if not isinstance(node[key], dict):
            break
        node = node[key]
    if isinstance(node, dict) and node:
        node[data.draw(st.sampled_from(sorted(node)))] = data.draw(_json)
    folder = load(tmp_path, state, "fuzzed")
    with contextlib.suppress(ResumeError):
        folder.restore(runner(), SCHEMA, folder.load())


def test_a_new_run_replaces_the_previous_state_at_its_first_save(
    tmp_path: Path, saved: dict[str, Any]
) -> None:
    folder = load(tmp_path, saved, "twice")
    previous = folder.previous()
    assert previous is not None and previous.counts.steps == 1 and not previous.finished
    assert folder.state_file.is_file()  # until the new run saves, the old one can be resumed
    again = runner()
    for event in again.run(["Mowgli was a boy.", "He lived with wolves."]):
        if isinstance(event, StepDone):
            folder.save(again)
    folder.save(again, finished=True)
    folder.unlock()
    assert [p.name for p in folder.path.glob("state-*.json")] == [folder.state_file.name]
    assert folder.load().finished
    assert RunFolder(tmp_path / "none", "settings", "inputs").previous() is None


def test_runs_of_other_settings_or_inputs_keep_their_own_states(
    tmp_path: Path, saved: dict[str, Any]
) -> None:
    folder = load(tmp_path, saved, "shared")  # settings "settings", inputs "inputs"
    other = RunFolder(folder.path, "other settings", "other inputs")
    hashes = {"settings_hash": "other settings", "inputs_hash": "other inputs"}
    other.state_file.write_text(json.dumps({**saved, **hashes}))
    assert other.state_file != folder.state_file
    assert other.previous() is not None  # a new run of the other command
    assert folder.state_file.is_file()  # this run's state is left as it was
    fresh = runner()
    folder.restore(fresh, SCHEMA, folder.load())
    assert fresh.result.steps == 1
    with pytest.raises(ResumeError, match="the settings changed since the checkpoint state-"):
        RunFolder(folder.path, "new settings", "inputs").load()
    with pytest.raises(ResumeError, match="the inputs changed since the checkpoint state-"):
        RunFolder(folder.path, "settings", "new inputs").load()
    with pytest.raises(ResumeError, match=r"nothing to resume .* \(2 saved there"):
        RunFolder(folder.path, "new settings", "new inputs").load()
    with pytest.raises(ResumeError, match=r"nothing to resume .* these inputs and settings$"):
        RunFolder(tmp_path / "empty", "settings", "inputs").load()


def test_the_single_state_of_earlier_versions_is_resumed(
    tmp_path: Path, saved: dict[str, Any]
) -> None:
    folder = RunFolder(tmp_path / "old", "settings", "inputs")
    folder.path.mkdir()
    (folder.path / "state.json").write_text(json.dumps(saved))
    fresh = runner()
    folder.restore(fresh, SCHEMA, folder.load())
    assert fresh.result.steps == 1
    with pytest.raises(ResumeError, match="settings changed"):
        RunFolder(folder.path, "new settings", "inputs").load()
