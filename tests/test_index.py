"""The repository index (engine/index.py): files parsed once, re-parsed only where their
content changed, an append-only store that survives a torn line, an interrupted reading and
another process, at the parser's speed."""

from __future__ import annotations

from pathlib import Path

import filelock
import pytest

from prism_edge.engine import index as index_module
from prism_edge.engine.index import CodeIndex, CodeIndexError, index_key
from prism_edge.text import code
from prism_edge.text.inputs import collect

MODULE = '''"""A module."""


def add(a, b):
    """Add two numbers."""
    return a + b


class Box:
    """Holds things."""

    def put(self, thing):
        self.things.append(thing)
'''


def repo(tmp_path: Path, files: int = 4) -> Path:
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    for i in range(files):
        (root / "pkg" / f"m{i}.py").write_text(MODULE.replace("add", f"add{i}"))
    (root / "README.md").write_text("# A repository\n\nNot code.\n")
    (root / "web.js").write_text("// Sum two numbers.\nfunction sum(a, b) { return a + b; }\n")
    return root


def indexed(root: Path, cache: Path) -> CodeIndex:
    index = CodeIndex(cache, index_key([str(root)]))
    documents = collect([str(root)], hold_code=False).documents
    for _ in index.update(documents):
        pass
    return index


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files the index parses (by name), in order."""
    seen: list[str] = []
    real = code.file_definitions

    def spy(path: str, text: str) -> list[code.Definition]:
        seen.append(Path(path).name)
        return real(path, text)

    monkeypatch.setattr(index_module, "file_definitions", spy)
    return seen


def keys(index: CodeIndex) -> list[str]:
    return [located.key for located in index.located()]


def test_a_fresh_reading_parses_every_code_file_and_locates_each_definition(
    tmp_path: Path, parsed: list[str]
) -> None:
    index = indexed(repo(tmp_path), tmp_path / "cache")
    assert sorted(parsed) == ["m0.py", "m1.py", "m2.py", "m3.py", "web.js"]
    change = index.change
    assert (change.files, change.new, change.unchanged, change.skipped) == (5, 5, 0, 1)
    assert change.definitions == 4 * 3 + 1
    found = {located.key.split("/repo/")[-1] for located in index.located()}
    assert "pkg/m0.py:4: add0" in found and "pkg/m0.py:12: Box.put" in found
    assert "web.js:2: sum" in found
    assert index.written == index.path.stat().st_size  # written once, nothing rewritten
    assert "5 code files: 5 new" in change.line() and "1 file not code" in change.line()


def test_a_second_reading_parses_only_the_file_that_changed_and_says_so(
    tmp_path: Path, parsed: list[str]
) -> None:
    root, cache = repo(tmp_path), tmp_path / "cache"
    first = keys(indexed(root, cache))
    parsed.clear()
    again = indexed(root, cache)
    assert parsed == [] and again.written == 0 and keys(again) == first
    assert again.change.line().startswith("5 code files: 5 unchanged")

    (root / "pkg" / "m2.py").write_text(MODULE.replace("add", "plus"))
    (root / "pkg" / "m9.py").write_text("def fresh():\n    return 1\n")
    (root / "pkg" / "m3.py").unlink()
    third = indexed(root, cache)
    assert sorted(parsed) == ["m2.py", "m9.py"]
    change = third.change
    assert (change.unchanged, change.changed, change.new, change.removed) == (3, 1, 1, 1)
    names = {located.definition.name for located in third.located()}
    assert "plus" in names and "add2" not in names and "add3" not in names and "fresh" in names
    assert "3 unchanged, 1 changed, 1 new, 1 removed" in change.line()


def test_touching_a_file_without_changing_it_parses_nothing(
    tmp_path: Path, parsed: list[str]
) -> None:
    root, cache = repo(tmp_path), tmp_path / "cache"
    indexed(root, cache)
    parsed.clear()
    target = root / "pkg" / "m1.py"
    target.write_text(target.read_text())  # a new modification time, the same content
    assert indexed(root, cache).change.unchanged == 5 and parsed == []


def test_a_new_parser_version_parses_everything_again(
    tmp_path: Path, parsed: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, cache = repo(tmp_path), tmp_path / "cache"
    indexed(root, cache)
    parsed.clear()
    monkeypatch.setattr(index_module, "PARSER_VERSION", "999")
    assert indexed(root, cache).change.changed == 5 and len(parsed) == 5


def test_an_interrupted_reading_continues_with_the_files_it_had_not_parsed(
    tmp_path: Path, parsed: list[str]
) -> None:
    root, cache = repo(tmp_path, files=6), tmp_path / "cache"
    whole = keys(indexed(root, tmp_path / "whole"))
    parsed.clear()
    index = CodeIndex(cache, index_key([str(root)]))
    reading = index.update(collect([str(root)], hold_code=False).documents)
    for _ in range(3):
        next(reading)
    reading.close()  # Ctrl-C between two files: the generator is closed
    assert len(parsed) == 3
    parsed.clear()
    resumed = indexed(root, cache)
    assert len(parsed) == 4 and resumed.change.unchanged == 3
    assert keys(resumed) == whole


def test_a_torn_last_line_is_dropped_and_cut_before_the_next_append(
    tmp_path: Path, parsed: list[str]
) -> None:
    root, cache = repo(tmp_path), tmp_path / "cache"
    whole = keys(indexed(root, cache))
    store = CodeIndex(cache, index_key([str(root)])).path
    lines = store.read_bytes().splitlines(keepends=True)
    store.write_bytes(b"".join(lines[:-1]) + lines[-1][:40])  # a crash mid-line
    parsed.clear()
    again = indexed(root, cache)
    assert len(parsed) == 1 and keys(again) == whole
    assert all(line.endswith(b"}\n") for line in store.read_bytes().splitlines(keepends=True))


def test_a_damaged_line_only_costs_its_file_a_new_parse(tmp_path: Path, parsed: list[str]) -> None:
    root, cache = repo(tmp_path), tmp_path / "cache"
    indexed(root, cache)
    store = CodeIndex(cache, index_key([str(root)])).path
    lines = store.read_bytes().splitlines(keepends=True)
    lines[1] = b'{"p": 3, "defs": "not a list"}\n'
    store.write_bytes(b"".join(lines))
    parsed.clear()
    assert indexed(root, cache).change.new == 1 and len(parsed) == 1


def test_the_store_is_compacted_when_stale_lines_outgrow_the_live_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(index_module, "COMPACT_FLOOR", 0)
    root, cache = repo(tmp_path, files=2), tmp_path / "cache"
    target = root / "pkg" / "m0.py"
    sizes = []
    for i in range(12):
        target.write_text(MODULE.replace("add", f"version{i}"))
        index = indexed(root, cache)
        sizes.append(index.path.stat().st_size)
    live = sum(
        len(index_module._encode(w, e.digest, e.definitions)) for w, e in index.entries.items()
    )
    assert max(sizes) <= index_module.COMPACT_AT * live + max(sizes) // 4
    assert "version11" in {located.definition.name for located in index.located()}


def test_another_process_reading_into_the_same_index_is_waited_for_then_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(index_module, "LOCK_WAIT_S", 0.1)
    root, cache = repo(tmp_path), tmp_path / "cache"
    cache.mkdir()
    key = index_key([str(root)])
    held = filelock.FileLock(str(cache / f"index-{key}.lock"))
    held.acquire()
    try:
        with pytest.raises(CodeIndexError, match="another prism-edge process"):
            indexed(root, cache)
    finally:
        held.release()


def test_the_same_inputs_given_another_way_share_one_index(tmp_path: Path) -> None:
    root = repo(tmp_path)
    assert index_key([str(root)]) == index_key([str(root / "pkg" / "..")])
    assert index_key([str(root)]) != index_key([str(root / "pkg")])
