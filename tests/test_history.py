"""The run history: runs and asks recorded, listed, shown, asked again, and drawn as a page."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from prism_edge.app.history import Entry, History, HistoryError
from prism_edge.app.recall import RecallError, check, missing_names, named_in
from prism_edge.app.report import entry_html
from prism_edge.backends import factory
from prism_edge.engine.session import Session
from tests.cli_harness import STORY, invoke


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_two_runs_are_listed_with_their_answers(harness, tmp_path):
    first = _write(tmp_path, "a.txt", STORY)
    second = _write(tmp_path, "b.txt", STORY.replace("Akela", "Raksha"))
    for path in (first, second):
        out = invoke("run", str(path), "--run-dir", str(tmp_path / "run"), "--chunk-tokens", "64")
        assert out.exit_code == 0, out.output
    listed = invoke("logs", "--json")
    entries = json.loads(listed.stdout)
    assert [e["inputs"][0]["name"] for e in entries] == [str(second), str(first)]
    assert all(
        e["status"] == "done" and e["answer"] == "Mowgli grows up among wolves." for e in entries
    )
    assert entries[0]["memory"]["attributes"] and entries[0]["calls"]
    assert entries[0]["inputs"][0]["sha256"] != entries[1]["inputs"][0]["sha256"]
    table = invoke("logs", "-n", "1").stdout.splitlines()  # a run in two lines
    assert len(table) == 2 and "b.txt" in table[0] and "Mowgli grows up" in table[1]
    assert table[1].strip().startswith("Summarize this text")  # the question, then the answer
    shown = invoke("logs", "show", str(entries[1]["id"])).stdout
    assert "answer:\nMowgli grows up among wolves." in shown and '"attributes"' in shown


def test_no_log_and_a_failed_run(harness, tmp_path, monkeypatch):
    story = _write(tmp_path, "a.txt", STORY)
    invoke("run", str(story), "--run-dir", str(tmp_path / "r"), "--no-log")
    assert History().recent() == []

    def broken(self, chunks):
        yield from ()
        raise ValueError("the disk is full")

    monkeypatch.setattr(Session, "events", lambda self: broken(self, None))
    out = invoke("run", str(story), "--run-dir", str(tmp_path / "r"))
    assert out.exit_code == 2 and "the disk is full" in out.stderr
    (entry,) = History().recent()
    assert entry.status == "failed" and entry.error == "the disk is full"


def test_a_history_that_cannot_be_written_costs_a_warning_not_the_run(
    harness, tmp_path, monkeypatch
):
    blocker = _write(tmp_path, "file", "x")
    monkeypatch.setenv("PRISM_EDGE_LOGS", str(blocker / "logs.db"))
    out = invoke("run", str(_write(tmp_path, "a.txt", STORY)), "--run-dir", str(tmp_path / "r"))
    assert out.exit_code == 0 and out.stdout.strip() == "Mowgli grows up among wolves."
    assert "warning: not logged: the run history" in out.stderr
    assert "cannot be written" in out.stderr
    logs = invoke("logs")
    assert logs.exit_code == 2 and logs.stderr.startswith("error: the run history")
    assert "cannot be read" in logs.stderr


def test_a_corrupt_history_is_a_one_line_error(tmp_path, monkeypatch):
    bad = _write(tmp_path, "logs.db", "not a database " * 100)
    monkeypatch.setenv("PRISM_EDGE_LOGS", str(bad))
    out = invoke("logs")
    assert out.exit_code == 2 and out.stderr.count("\n") == 1 and "cannot be read" in out.stderr
    assert invoke("logs", "show", "99").exit_code == 2


def test_ask_answers_from_the_memory_without_reading_the_input(harness, tmp_path):
    story = _write(tmp_path, "a.txt", STORY)
    invoke("run", str(story), "--run-dir", str(tmp_path / "r"), "--chunk-tokens", "64")
    (run,) = History().recent()
    story.unlink()  # the input is gone: ask must not need it
    out = invoke("ask", str(run.id), "Who leads the pack?", "--json")
    assert out.exit_code == 0, out.output
    payload = json.loads(out.stdout)
    assert payload["answer"] == "Mowgli grows up among wolves." and payload["memory_of"] == run.id
    asked = harness.backend.calls  # the backend ask opened
    assert len(asked) == 1
    prompt = asked[0].prompt
    assert "Who leads the pack?" in prompt.text and not prompt.of_kind("document")
    assert "Akela" in prompt.of_kind("memory")  # the run's memory, replayed
    newest = History().recent(1)[0]
    assert newest.command == "ask" and newest.parent == run.id and newest.inputs == []


def test_ask_refuses_what_the_memory_cannot_hold(harness, tmp_path):
    story = _write(tmp_path, "a.txt", STORY)
    invoke("run", str(story), "--run-dir", str(tmp_path / "r"), "--chunk-tokens", "64")
    (run,) = History().recent()
    opened = len(harness.backends)
    out = invoke("ask", str(run.id), "What does Bagheera owe to the parse_args function?")
    assert out.exit_code == 1 and out.stderr.count("\n") == 1
    assert "never mentions 'parse_args', 'Bagheera'" in out.stderr and "new run" in out.stderr
    assert len(harness.backends) == opened  # refused before a model was loaded
    missing = invoke("ask", "4242", "Who is Akela?")
    assert missing.exit_code == 2 and "no run 4242" in missing.stderr


def test_what_a_question_names():
    assert named_in('Which function reads "config files" like load_config or readAll?') == [
        "config files",
        "load_config",
        "readAll",
    ]
    assert named_in("What happens in the story? Who is Mowgli's friend Baloo?") == [
        "Mowgli",
        "Baloo",
    ]
    assert missing_names("Who is Shere Khan?", {"attributes": {"Shere Khan": ["a tiger"]}}) == []
    empty = Entry("run", "summarize", "q", "m", status="done", memory={"attributes": {}})
    with pytest.raises(RecallError, match="memory is empty"):
        check(empty, "What happens?")


def test_ask_a_code_search_by_definitions_scores_the_stored_entries(monkeypatch, tmp_path):
    from prism_edge.app import recall
    from prism_edge.backends.scripted import ScriptedBackend
    from tests.test_cli import test_code_search_scores_definitions_where_the_model_can as run_it

    run_it(monkeypatch, tmp_path)
    run = History().recent(1)[0]
    scored: list[str] = []

    def scorer(prompt, text: str) -> float:
        scored.append(prompt.of_kind("document"))
        return 0.0 if "numbers" in text or "sum" in prompt.text else -1.0

    backend = ScriptedBackend(scorer=scorer)
    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: backend)
    assert run.method == "definitions" and run.memory["candidate_functions"]
    # a run over files asks its index again: each definition scored from its own lines
    out = invoke("ask", str(run.id), "Add two numbers together", "--json")
    assert out.exit_code == 0, out.output
    payload = json.loads(out.stdout)
    assert payload["answer"] in run.memory["candidate_functions"] and payload["ranking"]
    assert len(scored) == 2 and all(text.startswith("def ") for text in scored)
    # a run without an index (text on stdin, an older version's run): the stored entries
    # scored from the memory (their descriptions), never from the source
    scored.clear()
    del run.settings["index"]
    result = recall.ask(backend, run, "Add two numbers together")
    assert result.answer in run.memory["candidate_functions"]
    assert len(scored) == len(run.memory["candidate_functions"])
    assert all("purpose:" in text and "def " not in text for text in scored)


def _entry_with_everything() -> Entry:
    entry = Entry(
        "run",
        "summarize",
        "Summarize <this> & that",
        "SmolLM2",
        status="done",
        inputs=[{"name": "book.txt", "kind": "prose", "chars": 10, "sha256": "ab" * 32}],
        answer="Mowgli <b>lives</b>.",
        memory={"attributes": {"Mowgli": ["a boy", "raised by wolves"], "Akela": ["leader"]}},
        metrics={"prompt_tokens": 300, "cost_index": 0.1},
        calls=[
            {"kind": "revise", "prompt": 100, "reused": 20, "net": 80, "decoded": 30},
            {"kind": "revise", "prompt": 150, "reused": 90, "net": 60, "decoded": 20},
            {"kind": "answer", "prompt": 50, "reused": 40, "net": 10, "decoded": 40},
        ],
    )
    entry.id = 7
    return entry


def test_the_page_escapes_and_holds_the_tree_and_the_chart():
    page = entry_html(_entry_with_everything())
    assert "<b>lives</b>" not in page and "&lt;b&gt;lives&lt;/b&gt;" in page
    assert page.count('<details class="node"') == 4  # memory, attributes, Mowgli, Akela
    assert page.count('<rect class="bar') == 12
    assert "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def test_the_page_opens_in_headless_chromium(tmp_path):
    browser = _chromium()
    if browser is None:
        if os.environ.get("CI"):
            pytest.fail("CI must have Debian's chromium for the page check (.ci/run installs it)")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    page = tmp_path / "run.html"
    page.write_text(entry_html(_entry_with_everything()), encoding="utf-8")
    probe = tmp_path / "probe.html"
    # the page in a frame, with a script that reports what it rendered: the tree's nodes, the
    # open ones, the chart's bars and their drawn size, and any error
    probe.write_text(
        f"""<!DOCTYPE html><html><body><iframe id="f" src="{page.name}" width="1200"
height="900"></iframe><pre id="out">pending</pre><script>
window.onerror = (m) => {{ document.getElementById('out').textContent = 'error ' + m; }};
document.getElementById('f').onload = () => {{
  const d = document.getElementById('f').contentDocument;
  const bars = [...d.querySelectorAll('rect.bar')];
  const tall = bars.filter(b => b.getBoundingClientRect().height > 0).length;
  const tree = d.querySelectorAll('#memory-tree details').length;
  const open = d.querySelectorAll('#memory-tree details[open]').length;
  const leaves = [...d.querySelectorAll('#memory-tree .leaf')].map(l => l.textContent);
  document.getElementById('out').textContent = JSON.stringify({{
    tree, open, bars: bars.length, tall, leaves, title: d.title,
    answer: d.getElementById('answer').textContent }});
}};
</script></body></html>""",
        encoding="utf-8",
    )
    done = subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--allow-file-access-from-files",
            "--virtual-time-budget=5000",
            "--dump-dom",
            probe.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    report = done.stdout.split('<pre id="out">', 1)[1].split("</pre>", 1)[0]
    assert not report.startswith(("error", "pending")), report
    seen = json.loads(report.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))
    assert seen["tree"] == 4 and seen["open"] == 2  # the memory and its field, not the entries
    assert seen["bars"] == 12 and seen["tall"] == 12
    assert "[0]: a boy" in seen["leaves"] and seen["answer"] == "Mowgli <b>lives</b>."


def test_entries_round_trip_and_ids_are_kept(tmp_path):
    history = History(tmp_path / "h.db")
    entry = _entry_with_everything()
    entry.id = None
    first = history.record(entry)
    entry.answer = "changed"
    assert history.record(entry) == first  # an update, not a new row
    again = history.get(first)
    assert again.answer == "changed" and again.memory == entry.memory and again.calls == entry.calls
    with pytest.raises(HistoryError, match="no run 99"):
        history.get(99)


def test_a_code_search_index_is_asked_even_about_identifiers_it_does_not_hold():
    memory = {"candidate_functions": {"get_app_dir": {"purpose": "The config folder."}}}
    question = "Which function reads XDG_CONFIG_HOME to find the config folder?"
    searched = Entry("run", "code-search", "q", "m", status="done", method="definitions")
    searched.memory = memory
    check(searched, question)  # BM25 and the model search the stored definitions
    written = Entry("run", "code-search", "q", "m", status="done", method="revisions")
    written.memory = memory
    with pytest.raises(RecallError, match="never mentions 'XDG_CONFIG_HOME'"):
        check(written, question)


def _recorded(question: str, answer: str, name: str) -> int:
    entry = _entry_with_everything()
    entry.id, entry.question, entry.answer = None, question, answer
    entry.inputs = [{"name": name, "kind": "prose", "chars": 10, "sha256": "cd" * 32}]
    return History().record(entry)


def test_logs_search_and_remove(harness):
    first = _recorded("Who is Akela?", "The leader of the pack.", "jungle.txt")
    second = _recorded("Where is 50%_off parsed?", "in shop.py", "shop/")
    third = _recorded("Who leads?", "AKELA leads.", "more.txt")
    found = json.loads(invoke("logs", "-s", "akela", "--json").stdout)
    assert [e["id"] for e in found] == [third, first]  # question or answer, any case, newest first
    assert [e["id"] for e in json.loads(invoke("logs", "-s", "shop/", "--json").stdout)] == [second]
    # % and _ are the text itself, not LIKE's wildcards
    assert [e["id"] for e in json.loads(invoke("logs", "-s", "50%_", "--json").stdout)] == [second]
    assert json.loads(invoke("logs", "-s", "5_%", "--json").stdout) == []
    assert "no run holds 'zebra'" in invoke("logs", "-s", "zebra").stderr
    missing = invoke("logs", "rm", str(first), "99")
    assert (
        missing.exit_code == 2
        and "no run 99" in missing.stderr
        and "nothing removed" in missing.stderr
    )
    assert len(History().recent()) == 3  # all or none
    removed = invoke("logs", "rm", str(first), str(third))
    assert removed.exit_code == 0 and f"removed runs {first}, {third}" in removed.stderr
    assert [e.id for e in History().recent()] == [second]


def test_logs_show_writes_json_or_a_page_by_the_name(harness, tmp_path):
    run_id = _recorded("Who is Akela?", "The leader.", "jungle.txt")
    as_json, page = tmp_path / "run.json", tmp_path / "run.html"
    assert invoke("logs", "show", str(run_id), "-o", str(as_json)).exit_code == 0
    assert json.loads(as_json.read_text())["answer"] == "The leader."
    assert invoke("logs", "show", str(run_id), "--output", str(page)).exit_code == 0
    assert page.read_text().lstrip().lower().startswith("<!doctype html")


def test_ask_on_another_server_or_model(harness, tmp_path):
    story = _write(tmp_path, "a.txt", STORY)
    assert invoke("run", str(story), "--run-dir", str(tmp_path / "r")).exit_code == 0
    run_id = str(History().recent(1)[0].id)
    url = "http://127.0.0.1:11434"
    out = invoke("ask", run_id, "Who is Akela?", "--server", url, "--server-model", "qwen2.5:7b")
    assert out.exit_code == 0, out.output
    assert harness.requests[-1][0] is None  # not the run's own model
    assert harness.options[-1]["server"] == url
    assert harness.options[-1]["server_model"] == "qwen2.5:7b"
    both = invoke("ask", run_id, "Who?", "--server", url, "-m", "gemma3-270m")
    assert both.exit_code == 2 and "either --model or --server" in both.stderr


def test_bench_on_a_server_quietly(harness, tmp_path):
    story = _write(tmp_path, "a.txt", STORY)
    out = invoke(
        "bench", str(story), "--server", "http://gpu:8000", "--methods", "PRISM amendments",
        "-q", "-o", str(tmp_path / "b.json"),
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    assert (
        harness.requests[-1] == (None, None) and harness.options[-1]["server"] == "http://gpu:8000"
    )
    assert "bench:" not in out.stderr and json.loads((tmp_path / "b.json").read_text())


def test_a_run_kept_out_of_the_history_does_not_read_its_inputs_again(tmp_path, monkeypatch):
    """--no-log: the inputs are read by the run alone; only a logged run reads them again
    for their hashes."""
    from prism_edge.app import history

    table = _write(tmp_path, "t.csv", "name,n\nx,1\ny,2\n")
    described: list[list[str]] = []
    describe = history.describe_inputs

    def counted(documents):  # type: ignore[no-untyped-def]
        described.append([d.name for d in documents])
        return describe(documents)

    monkeypatch.setattr(history, "describe_inputs", counted)
    args = ["run", str(table), "--task", "table-qa", "--query", "What is the n of y?", "--no-model"]
    out = invoke(*args, "--no-log")
    assert out.exit_code == 0 and out.stdout.strip() == "2" and described == []
    logged = invoke(*args)
    assert logged.exit_code == 0 and described == [[str(table)]]
