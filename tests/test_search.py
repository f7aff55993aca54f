"""``prism-edge run --task code-search`` over files (app/search.py): the index read with its
plan and progress, the answer located, more questions from a file, ``ask``, Ctrl-C."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from prism_edge.app import render
from prism_edge.app.history import History
from prism_edge.backends import factory
from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.engine import index as index_module
from prism_edge.prompts import Prompt
from prism_edge.text import code
from tests.cli_harness import invoke

CLAMP = 'def clamp(v, lo, hi):\n    """Limit a number to a range."""\n    return v\n'
SHOUT = 'def shout(s):\n    """Upper-case a text."""\n    return s.upper()\n'


def scorer(prompt: Prompt, text: str) -> float:
    """A model that likes definitions sharing words with the description."""
    document = prompt.of_kind("document").lower()
    return float(sum(word in document for word in text.lower().split()))


@pytest.fixture
def scoring(monkeypatch: pytest.MonkeyPatch) -> ScriptedBackend:
    backend = ScriptedBackend(scorer=scorer)
    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: backend)
    return backend


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "numbers.py").write_text(CLAMP)
    (root / "pkg" / "texts.py").write_text(SHOUT)
    return root


def search(root: Path, query: str, *more: str) -> object:
    return invoke("run", str(root), "--task", "code-search", "--query", query, *more)


def test_the_answer_is_located_and_the_index_says_what_it_read(
    scoring: ScriptedBackend, repo: Path
) -> None:
    result = search(repo, "limit a number to a range")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == f"{repo / 'pkg' / 'numbers.py'}:1: clamp"
    assert "index: 2 code files: 2 new, 2 definitions" in result.stderr
    assert "2 code files read into an index" in result.stderr
    again = search(repo, "upper-case a text")
    assert again.stdout.strip().endswith("texts.py:1: shout")
    assert "2 code files: 2 unchanged" in again.stderr
    (repo / "pkg" / "texts.py").write_text(SHOUT.replace("shout", "yell"))
    third = search(repo, "upper-case a text")
    assert third.stdout.strip().endswith("texts.py:1: yell")
    assert "1 unchanged, 1 changed" in third.stderr


def test_the_ranking_and_memory_hold_the_shortlist(
    scoring: ScriptedBackend, repo: Path, tmp_path: Path
) -> None:
    out = tmp_path / "memory.json"
    result = search(repo, "limit a number to a range", "--json", "--memory-out", str(out))
    payload = json.loads(result.stdout)
    assert payload["answer"].endswith("numbers.py:1: clamp")
    assert [key.rsplit(": ", 1)[1] for key, _ in payload["ranking"]] == ["clamp", "shout"]
    stored = json.loads(out.read_text())["candidate_functions"]
    assert {key.rsplit(": ", 1)[1] for key in stored} == {"clamp", "shout"}
    assert all(call.kind == "score" for call in scoring.calls)


def test_more_questions_from_a_file_read_once_and_load_once(
    scoring: ScriptedBackend, repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    questions = tmp_path / "q.txt"
    questions.write_text("# two more\nupper-case a text\n\nlimit a number to a range\n")
    parsed: list[str] = []
    real = code.file_definitions
    monkeypatch.setattr(
        index_module, "file_definitions", lambda p, t: parsed.append(p) or real(p, t)
    )
    result = search(repo, "limit a number", "--queries", str(questions), "-q")
    assert result.exit_code == 0, result.output
    answers = result.stdout.strip().splitlines()
    assert [a.rsplit(": ", 1)[1] for a in answers] == ["clamp", "shout", "clamp"]
    assert len(parsed) == 2  # each file parsed once for the three questions


def test_queries_print_one_json_document_or_json_lines_and_log_each_question(
    scoring: ScriptedBackend, repo: Path, tmp_path: Path
) -> None:
    """Issue 54, defect 18: --queries with --json printed the first answer as a multi-line
    object without its question and the rest as single lines; only the first question was
    logged and --memory-out kept only the first."""
    questions = tmp_path / "q.txt"
    questions.write_text("upper-case a text\nlimit a number to a range\n")
    asked = ["limit a number", "upper-case a text", "limit a number to a range"]
    memory = tmp_path / "memory.json"
    whole = search(repo, "limit a number", "--queries", str(questions), "--json",
                   "--memory-out", str(memory))  # fmt: skip
    assert whole.exit_code == 0, whole.output
    answers = json.loads(whole.stdout)  # one JSON document: an array
    assert [a["question"] for a in answers] == asked
    assert [a["answer"].rsplit(": ", 1)[1] for a in answers] == ["clamp", "shout", "clamp"]
    kept = json.loads(memory.read_text())
    assert [k["question"] for k in kept] == asked and all(k["memory"] for k in kept)
    lines = search(repo, "limit a number", "--queries", str(questions), "--jsonl")
    objects = [json.loads(line) for line in lines.stdout.splitlines()]
    assert [o["question"] for o in objects] == asked and len(objects) == 3
    logged = History().recent(10)
    assert [e.question for e in logged[:3]] == asked[::-1]  # each question a run of its own
    assert all(e.answer and e.status == "done" for e in logged[:3])
    assert [o["log_id"] for o in objects] == [e.id for e in logged[:3]][::-1]
    both = search(repo, "x", "--json", "--jsonl")
    assert both.exit_code == 2 and "either --json or --jsonl" in both.stderr


def test_queries_are_refused_before_a_model_loads_where_they_cannot_apply(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[object] = []
    monkeypatch.setattr(factory, "open_backend", lambda *a, **kw: opened.append(1))
    empty = tmp_path / "empty.txt"
    empty.write_text("\n# nothing\n")
    refused = search(repo, "x", "--queries", str(empty))
    assert refused.exit_code == 2 and "no questions in it" in refused.stderr
    summary = invoke("run", str(repo), "--task", "summarize", "--queries", str(empty))
    assert summary.exit_code == 2 and "--queries" in summary.stderr
    assert opened == []


def test_ask_brings_the_index_up_to_date_and_answers_from_it(
    scoring: ScriptedBackend, repo: Path
) -> None:
    first = search(repo, "limit a number to a range", "--json")
    run_id = json.loads(first.stdout)["log_id"]
    (repo / "pkg" / "extra.py").write_text('def wrap(t):\n    """Wrap a text in lines."""\n')
    asked = invoke("ask", str(run_id), "wrap a text in lines")
    assert asked.exit_code == 0, asked.output
    assert asked.stdout.strip().endswith("extra.py:1: wrap")


def test_ctrl_c_keeps_the_files_read_and_the_same_command_continues(
    scoring: ScriptedBackend, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (repo / "pkg" / "more.py").write_text("def more():\n    return 1\n")
    parsed: list[str] = []
    real = code.file_definitions

    def interrupted(path: str, text: str) -> list[code.Definition]:
        if len(parsed) == 2:
            raise KeyboardInterrupt
        parsed.append(path)
        return real(path, text)

    monkeypatch.setattr(index_module, "file_definitions", interrupted)
    stopped = search(repo, "limit a number to a range")
    assert stopped.exit_code == 130
    assert "interrupted after 2 of 3 code files" in stopped.stderr
    monkeypatch.setattr(index_module, "file_definitions", real)
    again = search(repo, "limit a number to a range")
    assert again.exit_code == 0 and "2 unchanged, 1 new" in again.stderr
    logs = invoke("logs", "--json")
    assert '"interrupted"' in logs.stdout


def test_a_log_file_gets_plain_progress_lines(
    scoring: ScriptedBackend, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(render, "PLAIN_EVERY_S", 0.0)
    from prism_edge.app import search as search_command

    monkeypatch.setattr(search_command, "PLAIN_EVERY_S", 0.0)
    result = search(repo, "limit a number to a range")
    assert "progress: file 1/2" in result.stderr and "progress: file 2/2" in result.stderr


def test_indexes_are_listed_and_removed_with_the_run_states(
    scoring: ScriptedBackend, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert search(repo, "limit a number to a range").exit_code == 0
    listed = invoke("runs")
    assert "index (2 lines)" in listed.stdout
    key = listed.stdout.split()[0]
    assert invoke("runs", "rm", key).exit_code == 0
    assert invoke("runs").stdout == ""
    parsed: list[str] = []
    real = code.file_definitions
    monkeypatch.setattr(
        index_module, "file_definitions", lambda p, t: parsed.append(p) or real(p, t)
    )
    again = search(repo, "limit a number to a range")
    assert "2 new" in again.stderr and len(parsed) == 2  # read again from the start
