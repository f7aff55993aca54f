"""Reading inputs: folders walked once per real file, links that loop reported, never hung;
Project Gutenberg books read without their frame."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from prism_edge.text.inputs import collect, walk

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


def test_a_link_outside_is_followed_once_when_asked(tree: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "b.txt").write_text("b")
    (tree / "ext1").symlink_to(other, target_is_directory=True)
    (tree / "ext2").symlink_to(other, target_is_directory=True)
    followed = walk(tree, follow_links=True)
    assert names(list(followed), tree) == ["notes.md", "src/a.py", "ext1/b.txt"]  # links last


def test_broken_and_self_referencing_links_are_reported(tree: Path) -> None:
    (tree / "dangling").symlink_to(tree / "missing")
    (tree / "selfish").symlink_to(tree / "selfish")
    warnings: list[str] = []
    assert names(list(walk(tree, warnings)), tree) == ["notes.md", "src/a.py"]
    assert sum("broken or looping link" in w for w in warnings) == 2


BODY = "".join(
    f"Chapter {i}. Mowgli ran with the wolves and Baloo taught him the Law.\n\n" for i in range(40)
)
MODERN = (
    "The Project Gutenberg EBook of Tales, by A. Writer\n\nThis eBook is for the use of anyone.\n"
    "*** START OF THIS PROJECT GUTENBERG EBOOK TALES ***\n\n" + BODY + "End of Project Gutenberg's "
    "Tales\n\n*** END OF THIS PROJECT GUTENBERG EBOOK TALES ***\n\nSection 1. General Terms of "
    "Use and Redistributing Project Gutenberg-tm electronic works\n" * 3
)
OLD = (
    "***The Project Gutenberg Etext of Tales***\nPlease take a look at the important information."
    "\n*END*THE SMALL PRINT! FOR PUBLIC DOMAIN ETEXTS*Ver.04.29.93*END*\n\n"
    + BODY
    + "End of the Project Gutenberg Edition of Tales\n"
)


@pytest.mark.parametrize("framed", [MODERN, OLD], ids=["start-end markers", "small print"])
def test_a_gutenberg_book_is_read_without_its_frame(tmp_path: Path, framed: str) -> None:
    book = tmp_path / "tales.txt"
    book.write_text(framed, encoding="utf-8")
    read = collect([str(book)])
    (document,) = read.documents
    assert document.text.strip() == BODY.strip()
    (warning,) = read.warnings
    assert "read without Project Gutenberg's header" in warning and "--keep-boilerplate" in warning
    kept = collect([str(book)], keep_boilerplate=True)
    assert kept.documents[0].text == framed and not kept.warnings


def test_text_that_only_mentions_gutenberg_or_is_code_is_read_whole(tmp_path: Path) -> None:
    mention = "We read it on Project Gutenberg.\n" + BODY
    early_end = "End of the Project Gutenberg part.\n" + BODY  # an end line, but at the start
    code = tmp_path / "mark.py"
    code.write_text('"""*** START OF THE PROJECT GUTENBERG EBOOK X ***"""\n' + "x = 1\n" * 50)
    for i, text in enumerate((mention, early_end)):
        (tmp_path / f"{i}.txt").write_text(text, encoding="utf-8")
        read = collect([str(tmp_path / f"{i}.txt")])
        assert read.documents[0].text == text and not read.warnings
    assert collect([str(code)]).documents[0].text == code.read_text()


def test_markers_away_from_the_ends_are_no_frame(tmp_path: Path) -> None:
    # a start marker past the first quarter, an end marker before the last quarter
    late = BODY + "*** START OF THE PROJECT GUTENBERG EBOOK X ***\n" + BODY
    early = BODY + "*** END OF THE PROJECT GUTENBERG EBOOK X ***\n" + BODY
    for i, text in enumerate((late, early)):
        (tmp_path / f"{i}.txt").write_text(text, encoding="utf-8")
        assert collect([str(tmp_path / f"{i}.txt")]).documents[0].text == text


def test_a_folders_binary_files_are_one_warning(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("x = 1\n")
    for name in ("a.pyc", "b.pyc", "c.png"):
        (tmp_path / "src" / name).write_bytes(b"\x00\x01binary")
    read = collect([str(tmp_path / "src")])
    assert [d.name for d in read.documents] == [str(tmp_path / "src" / "a.py")]
    assert read.warnings == [
        f"skipped 3 binary files in {tmp_path / 'src'} (the first: {tmp_path / 'src' / 'a.pyc'})"
    ]
    (tmp_path / "one").mkdir()
    (tmp_path / "one" / "b.txt").write_text("text\n")
    (tmp_path / "one" / "x.bin").write_bytes(b"\x00")
    assert collect([str(tmp_path / "one")]).warnings == [
        f"skipped binary file {tmp_path / 'one' / 'x.bin'}"
    ]


def test_a_streamed_table_is_checked_as_a_held_file_is(tmp_path: Path) -> None:
    """A CSV is streamed, yet read with the same warnings and errors as a file read whole:
    undecodable bytes replaced and said, a binary file refused, a byte-order mark dropped,
    and its text and fingerprint those of the file."""
    from prism_edge.app.history import describe_inputs
    from prism_edge.text.inputs import STREAM_BLOCK, InputError

    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"\xef\xbb\xbfname,city\n" + b"a,b\n" * (STREAM_BLOCK // 4) + b"x,\xff\n")
    collected = collect([str(bad)])
    (document,) = collected.documents
    assert document.source == bad
    assert collected.warnings == [f"{bad} is not valid UTF-8; undecodable bytes were replaced"]
    text = bad.read_bytes().decode("utf-8", errors="replace").removeprefix("\ufeff")
    assert document.text == text and "".join(document.blocks()) == text
    (described,) = describe_inputs([document])
    held = describe_inputs([type(document)(document.name, text, "table")])[0]
    assert described == held
    binary = tmp_path / "blob.csv"
    binary.write_bytes(b"a,b\n\x00\x01")
    with pytest.raises(InputError, match="a binary file"):
        collect([str(binary)])
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "blob.csv").write_bytes(b"a,b\n\x00")
    (tmp_path / "folder" / "ok.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    found = collect([str(tmp_path / "folder")])
    assert [Path(d.name).name for d in found.documents] == ["ok.csv"]


def test_a_streamed_table_that_changes_before_it_is_read_again_is_an_error(tmp_path: Path):
    from prism_edge.text.inputs import InputError

    table = tmp_path / "t.csv"
    table.write_text("a,b\n1,2\n", encoding="utf-8")
    (document,) = collect([str(table)]).documents
    assert document.text == "a,b\n1,2\n"
    table.write_text("a,b\n1,2\n3,4\n", encoding="utf-8")
    with pytest.raises(InputError, match="changed while it was being read; run again"):
        list(document.lines())


def test_json_lines_are_streamed_as_the_csv_they_convert_to(tmp_path: Path) -> None:
    from prism_edge.text.inputs import InputError

    lines = tmp_path / "people.jsonl"
    lines.write_bytes(
        b'\xef\xbb\xbf{"a": 1, "b": "x"}\r\n\r\n{"b": "two\\nlines", "c": [1, 2]}\n{"a": null}\n'
    )
    (document,) = collect([str(lines)]).documents
    assert document.source == lines and document.held == "" and document.kind == "table"
    assert document.text == 'a,b,c\n1,x,\n,"two\nlines","[1, 2]"\n,,\n'
    assert list(document.lines())[2] == ',"two\n'  # lines as a held text splits them
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"a": 1}\n[1]\n', encoding="utf-8")
    with pytest.raises(InputError, match="not JSON lines \\(line 2 is not a JSON object\\)"):
        collect([str(bad)])
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "bad.jsonl").write_text("{oops\n", encoding="utf-8")
    (tmp_path / "folder" / "ok.jsonl").write_text('{"a": 1}\n', encoding="utf-8")
    found = collect([str(tmp_path / "folder")])
    assert [Path(d.name).name for d in found.documents] == ["ok.jsonl"]
    assert any("skipped" in w and "bad.jsonl" in w for w in found.warnings)


def test_an_sqlite_file_is_streamed_a_table_at_a_time(tmp_path: Path) -> None:
    import sqlite3

    from prism_edge.text.inputs import InputError

    path = tmp_path / "shop.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE orders (id INTEGER, note TEXT, raw BLOB)")
        db.execute("INSERT INTO orders VALUES (1, 'two\nlines', x'00ff'), (2, NULL, NULL)")
        db.execute('CREATE TABLE "odd # name" (k TEXT)')
    db.close()
    documents = collect([str(path)]).documents
    assert [d.name for d in documents] == [f"{path}#odd # name", f"{path}#orders"]
    assert all(d.source == path and d.held == "" for d in documents)
    assert documents[0].text == "k\n"
    assert documents[1].text == 'id,note,raw\n1,"two\nlines",00ff\n2,,\n'
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO orders VALUES (3, 'late', NULL)")
    db.close()
    with pytest.raises(InputError, match="changed while it was being read; run again"):
        list(documents[1].lines())
