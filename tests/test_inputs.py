"""Reading inputs: folders walked once per real file, links that loop reported, never hung."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from prism_edge.inputs import collect, walk

pytestmark = pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    (root / "src" / "a.py").write_text("def a():\n    return 1\n")
    (root / "notes.md").write_text("# Notes\n")
    return root


def names(paths: list[Path], root: Path) -> list[str]:
    return [p.relative_to(root).as_posix() for p in paths]


def test_a_link_to_the_parent_reads_each_file_once(tree: Path) -> None:
    (tree / "src" / "up").symlink_to(tree, target_is_directory=True)
    warnings: list[str] = []
    found = names(list(walk(tree, warnings)), tree)
    assert found == ["notes.md", "src/a.py"]
    assert any("loop" in w and "up" in w for w in warnings)


def test_links_to_the_folder_itself_end_at_once(tree: Path) -> None:
    (tree / "self1").symlink_to(tree, target_is_directory=True)
    (tree / "src" / "self2").symlink_to(tree / "src", target_is_directory=True)
    collected = collect([str(tree)])
    assert [Path(d.name).name for d in collected.documents] == ["notes.md", "a.py"]
    assert sum("loop" in w for w in collected.warnings) == 2


def test_a_link_to_a_file_or_folder_read_already_is_skipped(tree: Path) -> None:
    (tree / "z-alias.md").symlink_to(tree / "notes.md")
    (tree / "z-src").symlink_to(tree / "src", target_is_directory=True)
    assert names(list(walk(tree)), tree) == ["notes.md", "src/a.py"]


def test_a_link_outside_is_followed_once(tree: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "b.txt").write_text("b")
    (tree / "ext1").symlink_to(other, target_is_directory=True)
    (tree / "ext2").symlink_to(other, target_is_directory=True)
    assert names(list(walk(tree)), tree) == ["ext1/b.txt", "notes.md", "src/a.py"]


def test_broken_and_self_referencing_links_are_reported(tree: Path) -> None:
    (tree / "dangling").symlink_to(tree / "missing")
    (tree / "selfish").symlink_to(tree / "selfish")
    warnings: list[str] = []
    assert names(list(walk(tree, warnings)), tree) == ["notes.md", "src/a.py"]
    assert sum("broken or looping link" in w for w in warnings) == 2
