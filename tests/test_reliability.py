"""Issue 54, one test (or more) per defect, numbered as the issue numbers them: nothing a path,
a folder, a server, a saved run or the history holds turns against the user. No model: the
scripted backend and fake servers in process; large inputs are sparse files."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from prism_edge.backends import factory
from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.engine.checkpoint import RunFolder, read_state
from prism_edge.engine.runner import PrismConfig, PrismRunner, StepDone
from prism_edge.methods.presets import TASKS
from tests.cli_harness import invoke
from tests.run_state import run_state

SCHEMA = TASKS["summarize"].schema
ADD = '[OBJECTS FOR ADD]\n{"$.\'attributes\'.\'%s\'": {"add": ["%s is here."]}}'


def _runner(steps: int = 4) -> PrismRunner:
    outputs = [ADD % (f"Name{i}", f"Name{i}") for i in range(steps)] + ["An answer."]
    return PrismRunner(ScriptedBackend(outputs=outputs), SCHEMA, PrismConfig(question="Sum."))


CHUNKS = [f"Chunk {i} of the tale." for i in range(4)]


def _interrupted(folder: RunFolder, after: int) -> None:
    """A run saved after ``after`` steps (a base and a journal), then stopped."""
    runner = _runner()
    for event in runner.run(CHUNKS):
        if isinstance(event, StepDone):
            folder.save(runner)
            if runner.result.steps == after:
                break
    folder.unlock()


def _names(folder: RunFolder) -> tuple[int, list[str]]:
    """The steps and the names of the state saved in ``folder``, as a resumed run has them."""
    fresh = _runner()
    folder.restore(fresh, SCHEMA, folder.load())
    return fresh.result.steps, sorted(fresh.memory.data.get("attributes", {}))


# -- 2: runs rm removes only what the program wrote ---------------------------------------------


def test_54_2_runs_rm_all_leaves_the_users_own_files_in_a_shared_folder(
    harness, story, tmp_path, monkeypatch
):
    shared = tmp_path / "Documents"
    shared.mkdir()
    monkeypatch.setenv("PRISM_EDGE_STATE", str(shared))
    monkeypatch.setenv("PRISM_EDGE_CACHE", str(shared))
    mine = {
        "state-of-the-art.md": "# my notes\n",
        "state-2024.json": '{"budget": 3}\n',
        "state-0123456789abcdef.json": json.dumps({"version": 1, "settings_hash": "x"}),
        "state-0123456789abcdef.journal": "my journal\n",
        "index-2024.jsonl": '{"p": "mine"}\n',
        "index-0123456789abcdef.jsonl": '{"p": "also mine", "d": "x", "v": "1", "defs": []}\n',
    }
    for name, text in mine.items():
        (shared / name).write_text(text, encoding="utf-8")
    assert invoke("run", str(story), "--chunk-tokens", "200").exit_code == 0
    listed = invoke("runs")
    assert listed.exit_code == 0
    assert len(listed.stdout.splitlines()) == 1  # the run's own state, none of the user's files
    out = invoke("runs", "rm", "--all")
    assert out.exit_code == 0, out.output
    for name, text in mine.items():
        assert (shared / name).read_text(encoding="utf-8") == text, name
    assert not [p for p in shared.iterdir() if p.name not in mine]  # the run's files are gone


def test_54_2_an_index_is_removed_only_when_the_program_wrote_it(tmp_path, monkeypatch):
    from prism_edge.engine.index import CodeIndex, index_key
    from prism_edge.text.inputs import collect

    shared = tmp_path / "shared"
    monkeypatch.setenv("PRISM_EDGE_CACHE", str(shared))
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.py").write_text("def add(a, b):\n    return a + b\n")
    index = CodeIndex(shared, index_key([str(src)]), [str(src)])
    for _ in index.update(collect([str(src)], hold_code=False).documents):
        pass
    (shared / "index-notes.jsonl").write_text('{"mine": true}\n')
    listed = invoke("runs")
    assert len(listed.stdout.splitlines()) == 1 and str(src) in listed.stdout  # labelled
    assert invoke("runs", "rm", "--all").exit_code == 0
    assert not index.path.exists() and (shared / "index-notes.jsonl").is_file()


# -- 3: a crash while a run starts over never applies a journal twice ---------------------------


class _Crash(BaseException):
    pass


@pytest.mark.parametrize("crash_at", range(6))
def test_54_3_a_crash_while_a_run_starts_over_leaves_a_state_that_resumes(
    tmp_path, monkeypatch, crash_at
):
    folder = RunFolder(tmp_path / "run", "settings", "inputs")
    _interrupted(folder, after=3)  # a base and a journal of two lines
    assert folder.journal_file.is_file()
    before = read_state(folder.state_file)
    calls = {"n": 0}
    real_replace, real_unlink = os.replace, Path.unlink

    def counted(real):  # type: ignore[no-untyped-def]
        def op(*args, **kwargs):  # type: ignore[no-untyped-def]
            calls["n"] += 1
            if calls["n"] > crash_at:
                raise _Crash
            return real(*args, **kwargs)

        return op

    monkeypatch.setattr(os, "replace", counted(real_replace))
    monkeypatch.setattr(Path, "unlink", counted(real_unlink))
    again = RunFolder(folder.path, "settings", "inputs")
    try:  # the same command again, without --resume: it starts over, and crashes
        again.previous()
        runner = _runner()
        for event in runner.run(CHUNKS):
            if isinstance(event, StepDone):
                again.save(runner)
    except _Crash:
        pass
    monkeypatch.setattr(os, "replace", real_replace)
    monkeypatch.setattr(Path, "unlink", real_unlink)
    again.unlock()
    if not folder.state_file.exists():
        return  # nothing left to resume: refused as such, never a wrong state
    steps, names = _names(RunFolder(folder.path, "settings", "inputs"))  # never "damaged"
    assert names == [f"Name{i}" for i in range(steps)]  # each step applied once
    assert steps in (before["counts"]["steps"], 1, 2, 3, 4)


# -- 4: a rerun replaces its own state; runs are labelled ---------------------------------------


def test_54_4_reruns_keep_one_state_labelled_by_input_and_task(harness, story):
    state = Path(os.environ["PRISM_EDGE_STATE"])
    for _ in range(5):
        out = invoke("run", str(story), "--chunk-tokens", "200")
        assert out.exit_code == 0, out.output
    assert len(list(state.glob("state-*.json"))) == 1  # no copies of the input's excerpts
    listed = invoke("runs")
    (line,) = listed.stdout.splitlines()
    assert "finished" in line and "summarize" in line and "story.txt" in line


def test_54_4_a_fresh_run_replaces_an_unfinished_state_only_when_it_saves(harness, story):
    run_dir = Path(os.environ["PRISM_EDGE_STATE"])
    base = ["run", str(story), "--chunk-tokens", "200"]
    harness.backends.clear()
    assert invoke(*base).exit_code == 0
    saved = run_state(run_dir)
    data = read_state(saved)
    data["finished"], data["answer"] = False, None
    saved.write_text(json.dumps(data))
    saved.with_suffix(".journal").unlink(missing_ok=True)
    out = invoke(*base)
    assert out.exit_code == 0, out.output
    assert "starts over" in out.stderr
    assert read_state(run_state(run_dir))["finished"] is True
    assert len(list(run_dir.glob("state-*.json"))) == 1


# -- 25 (runs): a folder or a dangling link named state-* ---------------------------------------


def test_54_25_a_folder_or_a_dangling_link_named_state_does_not_break_runs(harness, story):
    state = Path(os.environ["PRISM_EDGE_STATE"])
    assert invoke("run", str(story), "--chunk-tokens", "200").exit_code == 0
    (state / "state-archive").mkdir()
    (state / "state-0123456789abcdef.json.d").mkdir()
    (state / "state-gone.json").symlink_to(state / "nowhere")
    listed = invoke("runs")
    assert listed.exit_code == 0, listed.output
    assert len(listed.stdout.splitlines()) == 1
    assert invoke("runs", "rm", "--all").exit_code == 0
    assert (state / "state-archive").is_dir() and (state / "state-gone.json").is_symlink()


# -- 27 (journal): a line of the wrong shape ----------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        {"generation": None, "ops": [["set", [], 1]]},
        {"generation": None, "ops": [["append", ["memory", "records", 5, 2], [1]]]},
        {"generation": None, "ops": [["update", ["counts"], [1, 2]]]},
        {"generation": None, "ops": [["set", ["counts", "steps"], 9], ["del"]]},
        {"generation": None, "ops": "set"},
        {"generation": None, "ops": [["set", [{"a": 1}], 1]]},
    ],
)
def test_54_27_a_journal_line_of_the_wrong_shape_ends_the_journal_whole(
    tmp_path, monkeypatch, line
):
    folder = RunFolder(tmp_path / "run", "settings", "inputs")
    _interrupted(folder, after=2)
    generation = json.loads(folder.state_file.read_text())["generation"]
    line = {**line, "generation": generation}
    with folder.journal_file.open("a") as journal:
        journal.write(json.dumps(line) + "\n")
    state = RunFolder(folder.path, "settings", "inputs").load()
    assert state.counts.steps == 2  # the damaged line and what follows it are not applied
    raw = read_state(folder.state_file)
    assert raw["counts"]["steps"] == 2
    monkeypatch.setenv("PRISM_EDGE_STATE", str(folder.path))
    listed = invoke("runs")
    assert listed.exit_code == 0 and "after step 2" in listed.stdout


# -- 16: a minified bundle ---------------------------------------------------------------------


def test_54_16_a_minified_bundle_keeps_each_definitions_own_head():
    from prism_edge.text.code import MAX_SOURCE_CHARS, file_definitions

    body = "".join(
        f"function f{i}(a,b){{var c=a+b*{i};return c>{i}?c:g(c)}}class K{i}{{m(x){{return x}}}}"
        for i in range(1500)
    )
    bundle = "/*! lib */\n!function(){" + body + "}();\n"  # one line of 120 KB
    found = file_definitions("lib.min.js", bundle)
    assert len(found) == 4500
    by_name = {d.name: d for d in found}
    assert by_name["f700"].source.startswith("function f700(a,b)")
    assert by_name["K9"].source.startswith("class K9{")
    assert by_name["K9.m"].source.startswith("m(x)")
    assert all(len(d.source) <= MAX_SOURCE_CHARS for d in found)
    assert sum(len(d.source) for d in found) < 2 * len(bundle)  # not 800 characters each


# -- 17: a damaged index line that is still valid JSON ------------------------------------------


def test_54_17_an_index_line_damaged_into_valid_json_is_parsed_again_and_repaired(tmp_path):
    from prism_edge.engine.index import CodeIndex, index_key
    from prism_edge.text.inputs import collect

    src = tmp_path / "src"
    src.mkdir()
    (src / "a.py").write_text('def clamp(v, lo, hi):\n    """Limit a number."""\n    return v\n')
    (src / "b.py").write_text("def shout(s):\n    return s.upper()\n")

    def read() -> CodeIndex:
        index = CodeIndex(tmp_path / "cache", index_key([str(src)]), [str(src)])
        for _ in index.update(collect([str(src)], hold_code=False).documents):
            pass
        return index

    store = read().path
    data = store.read_bytes()
    assert data.count(b'"clamp"') == 1
    store.write_bytes(data.replace(b'"clamp"', b'"clasp"'))  # still JSON, no longer true
    again = read()
    names = {located.definition.name for located in again.located()}
    assert names == {"clamp", "shout"} and again.change.changed + again.change.new == 1
    third = read()  # repaired: nothing parsed again
    assert third.change.unchanged == 2 and third.written == 0


# -- 25 (cache): a read-only, full or misplaced cache folder ------------------------------------


@pytest.fixture
def scoring(monkeypatch: pytest.MonkeyPatch) -> ScriptedBackend:
    def scorer(prompt: Any, text: str) -> float:
        document = prompt.of_kind("document").lower()
        return float(sum(word in document for word in text.lower().split()))

    backend = ScriptedBackend(scorer=scorer, parameters=135_000_000)
    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: backend)
    return backend


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "numbers.py").write_text(
        'def clamp(v, lo, hi):\n    """Limit a number to a range."""\n    return v\n'
    )
    (root / "pkg" / "texts.py").write_text(
        'def shout(s):\n    """Upper-case a text."""\n    return s.upper()\n'
    )
    return root


def _search(root: Path, query: str, *more: str) -> Any:
    return invoke("run", str(root), "--task", "code-search", "--query", query, *more)


def test_54_25_a_misplaced_cache_folder_costs_a_warning_not_the_search(
    scoring, repo, tmp_path, monkeypatch
):
    misplaced = tmp_path / "cache-is-a-file"
    misplaced.write_text("the user's file\n")
    monkeypatch.setenv("PRISM_EDGE_CACHE", str(misplaced))
    out = _search(repo, "limit a number to a range")
    assert out.exit_code == 0, out.output
    assert out.stdout.strip().endswith("numbers.py:1: clamp")
    assert "warning: the index is not kept in" in out.stderr and "read in memory" in out.stderr
    assert misplaced.read_text() == "the user's file\n"


def test_54_25_a_full_disk_while_the_index_is_written_costs_a_warning_not_the_search(
    scoring, repo, monkeypatch
):
    import errno

    from prism_edge.engine import index as index_module

    def full(self, line):  # type: ignore[no-untyped-def]
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(index_module._Store, "_write", full)
    out = _search(repo, "upper-case a text")
    assert out.exit_code == 0, out.output
    assert out.stdout.strip().endswith("texts.py:1: shout")
    assert "No space left on device" in out.stderr and "read in memory" in out.stderr


def test_54_25_a_file_of_the_users_at_the_index_name_is_left_as_it_is(scoring, repo, monkeypatch):
    from prism_edge.engine.index import cache_folder, index_key

    cache = cache_folder()
    cache.mkdir(parents=True)
    theirs = cache / f"index-{index_key([str(repo)])}.jsonl"
    theirs.write_text("my own notes\n")
    out = _search(repo, "limit a number to a range")
    assert out.exit_code == 0 and out.stdout.strip().endswith("numbers.py:1: clamp")
    assert "not an index of prism-edge's" in out.stderr
    assert theirs.read_text() == "my own notes\n"
