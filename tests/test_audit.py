"""The audit of issue 27: what a folder, a model store, a config or a history holds never turns
against the user. One test per finding, each failing on the code before the fix."""

from __future__ import annotations

import csv
import json
import os
import sqlite3
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from prism_edge.app import defaults
from prism_edge.app.history import Entry, History
from prism_edge.backends.catalog import check_spec
from prism_edge.backends.local import LocalModelError, lmstudio_models, read_gguf
from prism_edge.text.chunking import SNIFF_CHARS, record_ends
from prism_edge.text.code import definitions_in, python_definitions
from prism_edge.text.inputs import InputError, collect, without_boilerplate
from prism_edge.text.syntax import definitions as tree_spans
from tests.cli_harness import STORY, invoke

BODY = "".join(f"Chapter {i}. Mowgli ran with the wolves.\n\n" for i in range(60))


# 1. links out of an input folder ------------------------------------------------------------


def test_links_out_of_the_input_folder_are_skipped_unless_asked(tmp_path):
    secret = tmp_path / "home" / ".ssh"
    secret.mkdir(parents=True)
    (secret / "id_rsa").write_text("PRIVATE KEY", encoding="utf-8")
    (tmp_path / "hostname").write_text("my-host", encoding="utf-8")
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "main.py").write_text("def main():\n    return 1\n", encoding="utf-8")
    (repo / "docs").symlink_to(secret, target_is_directory=True)
    (repo / "src" / "config.py").symlink_to(tmp_path / "hostname")
    (repo / "src" / "alias.py").symlink_to(repo / "src" / "main.py")  # inside: fine
    read = collect([str(repo)])
    texts = " ".join(d.text for d in read.documents)
    assert "PRIVATE KEY" not in texts and "my-host" not in texts
    assert [Path(d.name).name for d in read.documents] == ["main.py"]  # once, by its own name
    (warning,) = [w for w in read.warnings if "out of the folder" in w]
    assert "skipped 2 links" in warning and "--follow-links" in warning
    followed = collect([str(repo)], follow_links=True)
    assert "PRIVATE KEY" in " ".join(d.text for d in followed.documents)


def test_a_run_never_sends_what_a_link_out_of_the_folder_holds(harness, tmp_path):
    (tmp_path / "secret.txt").write_text("Zebulon the password is hunter2", encoding="utf-8")
    folder = tmp_path / "book"
    folder.mkdir()
    (folder / "story.txt").write_text(STORY, encoding="utf-8")
    (folder / "notes.txt").symlink_to(tmp_path / "secret.txt")
    out = invoke("run", str(folder), "--run-dir", str(tmp_path / "r"))
    assert out.exit_code == 0, out.output
    assert "link out of the folder" in out.stderr
    prompts = " ".join(call.prompt.text for call in harness.backend.calls)
    assert "hunter2" not in prompts


# 2. deep code --------------------------------------------------------------------------------

DEEP = {
    "chain.js": "function f() { if (a) {} " + "else if (a) {} " * 600 + "}\n",
    "then.js": "function g() { return p" + ".then(f)" * 600 + "; }\n",
    "terms.ts": "function h(): number { return 1" + " + 1" * 1200 + "; }\n",
    "and.c": "int k(void) { return " + "a && " * 1200 + "b; }\n",
    "ternary.java": "class T { int t() { return " + "a ? b : " * 1200 + "c; } }\n",
    "brackets.go": "package p\nfunc m() int { return " + "(" * 1200 + "1" + ")" * 1200 + " }\n",
    "blocks.rs": "fn r() { " + "{" * 1200 + "}" * 1200 + " }\n",
}


@pytest.mark.parametrize("name", sorted(DEEP))
def test_deep_code_is_read_without_recursion_errors(name):
    code = DEEP[name]
    spans = tree_spans(code, name)
    assert spans and spans[0].name in {"f", "g", "h", "k", "T", "m", "r"}
    assert definitions_in(f"File path: {name}\nContent:\n{code}")


def test_python_too_deep_for_ast_is_read_by_tree_sitter():
    code = "def total():\n    return 1" + " + 1" * 5000 + "\n\nclass Cache:\n    def get(self):\n"
    code += "        return 1\n"
    names = [d.name for d in python_definitions(code)]
    assert names == ["total", "Cache", "Cache.get"]


# 3. model stores -------------------------------------------------------------------------------


def test_a_dangling_link_or_a_fifo_in_lm_studio_is_listed_as_unreadable(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    root = tmp_path / ".lmstudio" / "models" / "pub" / "repo"
    root.mkdir(parents=True)
    (root / "gone.gguf").symlink_to(tmp_path / "nowhere.gguf")
    os.mkfifo(root / "pipe.gguf")
    found = {m.spec: m for m in lmstudio_models()}
    assert found["lmstudio:pub/repo/gone"].problem == "a broken link"
    assert "not a regular file" in (found["lmstudio:pub/repo/pipe"].problem or "")
    with pytest.raises(LocalModelError, match="not a regular file"):
        read_gguf(root / "pipe.gguf")  # never opened: opening a FIFO would block
    listed = invoke("models")
    assert listed.exit_code == 0 and listed.stdout.count("unreadable") == 2


def _header(version: int, body: bytes, count: int = 1) -> bytes:
    return b"GGUF" + struct.pack("<IQQ", version, 0, count) + body


def test_a_header_of_nested_arrays_or_an_unknown_version_is_refused(tmp_path):
    key = struct.pack("<Q", 4) + b"deep"
    nested = key + struct.pack("<I", 9) + (struct.pack("<IQ", 9, 1) * 5000)
    nested += struct.pack("<IQ", 4, 0)  # the innermost: an empty array of uint32
    deep = tmp_path / "deep.gguf"
    deep.write_bytes(_header(3, nested))
    assert read_gguf(deep).architecture == "?"  # read to its end, no RecursionError
    future = tmp_path / "future.gguf"
    future.write_bytes(_header(99, b"", 0))
    with pytest.raises(LocalModelError, match="version 99"):
        read_gguf(future)


# 4. Project Gutenberg frames -------------------------------------------------------------------


def test_gutenberg_stripping_keeps_real_text():
    era = BODY + "End of the Project Gutenberg era came in 2030.\n" + BODY[:400]
    assert without_boilerplate(era) == (era, 0, 0)  # an end marker alone
    readme = "*** START OF THE PROJECT GUTENBERG EBOOK X ***\nquoted in a README\n" + BODY
    assert without_boilerplate(readme) == (readme, 0, 0)  # a start marker alone
    small = "*END*THE SMALL PRINT! FOR PUBLIC DOMAIN ETEXTS*Ver.04.29.93*END*\n" + BODY
    assert without_boilerplate(small) == (small, 0, 0)
    book = (
        "*** START OF THE PROJECT GUTENBERG EBOOK A ***\n{}"
        "*** END OF THE PROJECT GUTENBERG EBOOK A ***\n"
    )
    two = book.format(BODY) + book.format(BODY).replace(" A ", " B ")
    assert without_boilerplate(two) == (two, 0, 0)  # two books: the first is kept whole


def test_inspect_keeps_the_boilerplate_when_asked(harness, tmp_path):
    framed = "Header line\n*** START OF THE PROJECT GUTENBERG EBOOK X ***\n" + BODY
    framed += "*** END OF THE PROJECT GUTENBERG EBOOK X ***\nLicence\n"
    path = tmp_path / "book.txt"
    path.write_text(framed, encoding="utf-8")
    plain = invoke("inspect", str(path))
    kept = invoke("inspect", str(path), "--keep-boilerplate")
    assert plain.exit_code == kept.exit_code == 0
    assert "read without Project Gutenberg" in plain.stderr
    assert "read without Project Gutenberg" not in kept.stderr


# 5. output paths, checked before any compute ---------------------------------------------------


@pytest.mark.parametrize(
    ("option", "make", "message"),
    [
        ("--memory-out", lambda t: t, "a folder; name a file"),
        ("--memory-out", lambda t: t / "missing" / "m.json", "does not exist"),
        ("--run-dir", lambda t: (t / "f").write_text("x") and t / "f", "not a folder"),
    ],
)
def test_outputs_that_cannot_be_written_are_refused_before_the_model_loads(
    harness, story, tmp_path, option, make, message
):
    target = make(tmp_path)
    args = ["--run-dir", str(tmp_path / "r")] if option != "--run-dir" else []
    out = invoke("run", str(story), option, str(target), *args)
    assert out.exit_code == 1 and option in out.stderr and message in out.stderr
    assert harness.requests == []  # no model was opened


def test_a_run_dir_that_is_a_link_loop_is_refused(harness, story, tmp_path):
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    out = invoke("run", str(story), "--run-dir", str(loop))
    assert out.exit_code == 1 and "--run-dir" in out.stderr and harness.requests == []


def test_bench_checks_its_json_out_before_reading(harness, story, tmp_path):
    out = invoke("bench", str(story), "--output", str(tmp_path / "no" / "r.json"))
    assert out.exit_code == 1 and "--output" in out.stderr and harness.requests == []


# 6. a syntax error in a Python chunk keeps classes and owners --------------------------------


@pytest.mark.parametrize(
    "broken",
    ["print 'python 2'\n", "match x:\n  case {**rest, 1: y}: pass\n", "def oops(:\n"],
)
def test_a_python_syntax_error_keeps_classes_and_same_named_methods(broken):
    code = (
        "class Cache:\n    def get(self, key):\n        return self.data[key]\n\n"
        "class Store:\n    def get(self, key):\n        return self.rows[key]\n\n" + broken
    )
    names = [d.name for d in python_definitions(code)]
    assert {"Cache", "Cache.get", "Store", "Store.get"} <= set(names)
    kinds = {d.name: d.kind for d in python_definitions(code)}
    assert kinds["Cache.get"] == "method" and kinds["Cache"] == "class"


# 7. the CSV sniffer reads a few KB --------------------------------------------------------------


def test_the_csv_dialect_is_guessed_from_a_few_kilobytes(monkeypatch):
    seen: list[int] = []
    original = csv.Sniffer.sniff

    def sniff(self, sample, delimiters=None):  # type: ignore[no-untyped-def]
        seen.append(len(sample))
        return original(self, sample, delimiters)

    monkeypatch.setattr(csv.Sniffer, "sniff", sniff)
    table = "a,b,c\n" + "".join(f'{i},"x{i}",{i * 2}\n' for i in range(20000))
    ends = record_ends(table, "t.csv")
    assert len(ends) == 20001 and seen == [len(table[: table.rindex("\n", 0, SNIFF_CHARS)])]


# 8. huge ids -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [["logs", "show", "9223372036854775808"], ["ask", "9223372036854775808", "q"],
     ["logs", "-n", "9223372036854775808"]],
)  # fmt: skip
def test_an_id_too_large_for_sqlite_is_a_usage_error(args):
    out = invoke(*args)
    assert out.exit_code == 2 and "Traceback" not in out.output
    assert "9223372036854775807" in out.output  # the largest id it takes


# 9. terminal control sequences -----------------------------------------------------------------


def test_control_sequences_from_inputs_are_never_printed_raw(tmp_path):
    title = "\x1b]0;pwned\x07"
    History().record(
        Entry("run", "summarize", "q", f"model{title}", answer=f"answer{title}", status="done")
    )
    listed = invoke("logs")
    shown = invoke("logs", "show", "1")
    for out in (listed, shown):
        assert out.exit_code == 0 and "\x1b" not in out.output and "\x07" not in out.output
        assert "\\u001b]0;pwned\\u0007" in out.stdout
    as_json = invoke("logs", "show", "1", "--json")
    assert json.loads(as_json.stdout)["answer"] == f"answer{title}"  # JSON keeps the text


def test_a_models_architecture_with_escapes_is_shown_escaped(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    root = tmp_path / ".lmstudio" / "models" / "pub" / "repo"
    root.mkdir(parents=True)
    value = b"\x1b]52;c;ZXZpbA==\x07"
    key = b"general.architecture"
    body = struct.pack("<Q", len(key)) + key + struct.pack("<IQ", 8, len(value)) + value
    (root / "evil.gguf").write_bytes(_header(3, body))
    out = invoke("models")
    assert out.exit_code == 0 and "\x1b" not in out.stdout and "\\u001b]52" in out.stdout


# 10. models default --------------------------------------------------------------------------


def test_models_default_takes_only_gguf_files_and_plain_names(tmp_path):
    passwd = tmp_path / "passwd"
    passwd.write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    out = invoke("models", "default", str(passwd))
    assert out.exit_code == 1 and "not a GGUF model file" in out.stderr
    out = invoke("models", "default", "hf:own\n/repo/f.gguf")
    assert out.exit_code == 1 and "not a plain name" in out.stderr
    with pytest.raises(Exception, match="plain name"):
        check_spec("hf:owner/repo\n/f.gguf")


# 11. config and inputs read without limit -------------------------------------------------------


def test_a_device_or_a_huge_config_is_refused_not_read(monkeypatch, tmp_path, harness, story):
    monkeypatch.setenv("PRISM_EDGE_CONFIG", "/dev/zero")
    start = time.perf_counter()
    out = invoke("run", str(story))
    assert out.exit_code == 1 and "not a regular file" in out.stderr
    assert time.perf_counter() - start < 5  # never reads gigabytes (not a benchmark)
    big = tmp_path / "config.toml"
    big.write_text("# x\n" * 20000, encoding="utf-8")
    monkeypatch.setenv("PRISM_EDGE_CONFIG", str(big))
    out = invoke("run", str(story))
    assert out.exit_code == 1 and "larger than" in out.stderr and str(big) in out.stderr
    with pytest.raises(InputError, match="not a regular file"):
        collect(["/dev/zero"])


def test_a_broken_config_does_not_block_the_command_that_repairs_it(monkeypatch, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("model = [broken", encoding="utf-8")
    monkeypatch.setenv("PRISM_EDGE_CONFIG", str(config))
    out = invoke("models", "default", "--unset")
    assert out.exit_code == 0 and "kept as" in out.stderr
    assert defaults.load() == {} and (tmp_path / "config.toml.broken").is_file()


def test_a_bad_value_in_the_config_names_the_file(monkeypatch, tmp_path, harness, story):
    config = tmp_path / "config.toml"
    config.write_text("chunk_tokens = 5\n", encoding="utf-8")
    monkeypatch.setenv("PRISM_EDGE_CONFIG", str(config))
    out = invoke("run", str(story))
    assert out.exit_code == 1 and str(config) in out.stderr and "at least 32" in out.stderr


# 12. the history -------------------------------------------------------------------------------


def test_reading_the_history_never_writes(tmp_path, monkeypatch):
    foreign = tmp_path / "other.db"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE notes (x TEXT)")
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    for path in (foreign, empty):
        monkeypatch.setenv("PRISM_EDGE_LOGS", str(path))
        before = path.read_bytes()
        invoke("logs")
        invoke("logs", "show", "1")
        assert path.read_bytes() == before
    monkeypatch.setenv("PRISM_EDGE_LOGS", str(foreign))
    out = invoke("logs")
    assert out.exit_code == 1 and "not a prism-edge run history" in out.stderr
    monkeypatch.setenv("PRISM_EDGE_LOGS", str(empty))
    assert invoke("logs").exit_code == 0


def test_a_locked_history_is_said_and_a_failed_write_is_worded_as_one(tmp_path, monkeypatch):
    path = tmp_path / "logs.db"
    History(path).record(Entry("run", "summarize", "q", "m", status="done"))
    monkeypatch.setattr("prism_edge.app.history.LOCK_WAIT_S", 0.2)
    holder = sqlite3.connect(path)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(Exception, match="locked by another process") as caught:
            History(path).record(Entry("run", "summarize", "q", "m"))
        assert "unreadable" not in str(caught.value)
    finally:
        holder.rollback()
        holder.close()


def test_one_bad_row_does_not_fail_the_listing_and_a_null_start_renders(tmp_path, monkeypatch):
    path = tmp_path / "logs.db"
    monkeypatch.setenv("PRISM_EDGE_LOGS", str(path))
    History(path).record(Entry("run", "summarize", "q", "m", answer="fine", status="done"))
    History(path).record(Entry("run", "summarize", "q", "m", answer="odd", status="done"))
    with sqlite3.connect(path) as db:
        db.execute("UPDATE runs SET answer = CAST(x'ff00fe' AS TEXT), started = NULL WHERE id = 2")
        db.execute("UPDATE runs SET memory = '[1, 2' WHERE id = 1")
    listed = invoke("logs")
    assert listed.exit_code == 0 and listed.stdout.count("\n") == 2
    page = tmp_path / "run.html"
    assert invoke("logs", "show", "2", "--html", str(page)).exit_code == 0 and page.is_file()


def test_logs_into_a_closed_pipe_ends_quietly(tmp_path):
    path = tmp_path / "logs.db"
    for i in range(200):
        History(path).record(Entry("run", "summarize", "q", "m", answer=f"a{i}", status="done"))
    env = {**os.environ, "PRISM_EDGE_LOGS": str(path)}
    command = f"{sys.executable} -m prism_edge logs -n 200 | head -1"
    done = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    assert "Broken pipe" not in done.stderr and done.stdout.count("\n") == 1
