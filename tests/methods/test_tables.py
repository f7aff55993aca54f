"""Table questions: the program reads every record and computes exact facts and candidate
answers; the model (here a scripted scorer) chooses; what no table holds is "not in the
table"; two related tables join; an interrupted run resumes to the same answer."""

from __future__ import annotations

import gc
import json
import re
import sqlite3
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from prism_edge.backends import factory
from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.core.events import RunResult, StepDone
from prism_edge.engine.runner import PrismRunner
from prism_edge.engine.session import Session
from prism_edge.methods import MethodError, make
from prism_edge.methods.presets import TASKS
from prism_edge.methods.tables import NOT_IN_TABLE
from prism_edge.methods.tables.ranker import weights
from prism_edge.prompts import Prompt
from prism_edge.text import inputs
from prism_edge.text.chunking import chunk_documents
from prism_edge.text.inputs import collect
from tests.cli_harness import invoke

TASK = TASKS["table-qa"]
POWER = "year,source,net_generation\n" + "".join(
    f"{year}-01-01,{source},{(year - 2000) * weight}\n"
    for year in range(2001, 2011)
    for source, weight in (("Fossil Fuels", 100), ("Nuclear Energy", 10), ("Renewables", 30))
)


def scorer(prompt: Prompt, text: str) -> float:
    """A model that reads the question's key words: "most" asks for the largest, "how
    many" for a count, a named column for that column."""
    question = prompt.of_kind("document").lower()
    if not question:
        return 0.0
    said = text.lower()
    value = 0.0
    value += 2.0 * ("how many" in question and "number of" in said and "different" not in said)
    value += 2.0 * ("most" in question and "largest" in said)
    value += 1.0 * ("source" in question and said.startswith(" the source"))
    value += 1.0 * ("net generation" in question and "net generation" in said)
    value -= 0.1 * len(said.split())
    return value


def chunks_of(folder: Path, backend: ScriptedBackend, tokens: int = 96) -> list[str]:
    return chunk_documents(
        collect([str(folder)]).documents, tokens, lambda t: len(backend.tokenize(t))
    )


def ask(backend: ScriptedBackend, chunks: list[str], question: str, **options: Any) -> RunResult:
    config = TASK.configure(question)
    runner = PrismRunner(
        backend, TASK.schema, config, method=make("tables", TASK.schema, config, **options)
    )
    for _ in runner.run(chunks):
        pass
    return runner.result


@pytest.fixture
def power(tmp_path: Path) -> Path:
    folder = tmp_path / "tables"
    folder.mkdir()
    (folder / "power.csv").write_text(POWER, encoding="utf-8")
    return folder


def test_the_memory_holds_exact_facts_computed_as_the_chunks_pass(power):
    backend = ScriptedBackend(scorer=scorer)
    chunks = chunks_of(power, backend)
    assert len(chunks) > 2  # the facts are computed across chunks, never estimated
    config = TASK.configure("What was the total net generation of Renewables?")
    runner = PrismRunner(backend, TASK.schema, config, method=make("tables", TASK.schema, config))
    steps = [e for e in runner.run(chunks) if isinstance(e, StepDone)]
    assert len(steps) == len(chunks) and all(not e.rejected for e in steps)
    (entry,) = runner.result.memory.data["table_descriptions"]
    assert entry["table_name"] == "power" and entry["table_description"] == "30 rows of 3 columns"
    assert entry["columns_observed"] == ["year (date)", "source (text)", "net_generation (number)"]
    stats = entry["relevant_statistics"]
    total = sum((y - 2000) * w for y in range(2001, 2011) for w in (100, 10, 30))
    assert "rows: 30" in stats
    assert (
        f"net_generation: 30 values, 25 distinct, from 10 to 1000, sum {total}, mean "
        f"{total / 30:.6f}".rstrip("0")
        in stats
    )
    assert (
        "source: 30 values, 3 distinct; most frequent: Fossil Fuels (10), Nuclear Energy "
        "(10), Renewables (10)" in stats
    )
    assert runner.result.answer == "1650"  # 30 x (1 + ... + 10): the rows the question names
    assert any(s.startswith("for the question: the total net_generation") for s in stats)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which source generated the most electricity in 2003?", "Fossil Fuels"),
        ("How many rows have the source Renewables?", "10"),
        # the first Nuclear Energy row (10) outranked the one of 2007 until the first row of
        # several went where the question speaks of no order
        ("What was the net generation of Nuclear Energy in 2007?", "70"),
    ],
)
def test_the_model_chooses_among_answers_the_program_computed(power, question, expected):
    backend = ScriptedBackend(scorer=scorer)
    result = ask(backend, chunks_of(power, backend), question)
    assert result.answer == expected
    assert result.ranking and result.ranking[0][0].endswith(f"= {expected}")
    assert all(call.kind == "score" for call in result.metrics.calls)
    assert result.metrics.decoded_tokens == 0  # every number is the program's


def test_a_value_the_table_does_not_hold_is_not_in_the_table(power):
    backend = ScriptedBackend(scorer=scorer)
    chunks = chunks_of(power, backend)
    for question in (
        "What was the net generation of Solar Power in 2005?",
        "What is the capital of France?",
        "What was the net generation of Renewables in 2042?",
    ):
        result = ask(backend, chunks, question)
        assert result.answer is not None and result.answer.startswith(NOT_IN_TABLE), question
    assert "Solar Power" in (ask(backend, chunks, "Net generation of Solar Power?").answer or "")


def _shop(tmp_path):
    path = tmp_path / "shop.db"
    with sqlite3.connect(path) as db:
        db.executescript(
            "CREATE TABLE customers (id INTEGER, name TEXT, city TEXT);"
            "CREATE TABLE orders (id INTEGER, customer_id INTEGER, amount REAL);"
            "INSERT INTO customers VALUES (1, 'Alice', 'Oslo'), (2, 'Bob', 'Lima');"
            "INSERT INTO orders VALUES (1, 1, 10.5), (2, 1, 20), (3, 2, 7), (4, 1, 4.5);"
        )
    backend = ScriptedBackend(
        scorer=lambda prompt, text: 1.0 * ("total" in text) if prompt.of_kind("document") else 0.0
    )
    chunks = chunk_documents(collect([str(path)]).documents, 96, lambda t: len(backend.tokenize(t)))
    return ask(backend, chunks, "What is the total amount of the orders of Alice?")


def test_two_related_tables_of_an_sqlite_file_are_joined_where_a_question_needs_both(tmp_path):
    result = _shop(tmp_path)
    assert any(said.endswith("where customers name is Alice = 35") for said, _ in result.ranking)
    entries = {e["table_name"]: e for e in result.memory.data["table_descriptions"]}
    assert entries["orders"]["relationships"] == ["orders.customer_id -> customers.id"]
    assert entries["customers"]["relationships"] == ["orders.customer_id -> customers.id"]


def test_two_related_tables_of_an_sqlite_file_answer_a_question_that_needs_both(tmp_path):
    result = _shop(tmp_path)
    assert result.answer == "35"  # 10.5 + 20 + 4.5: Alice is in customers, amounts in orders
    assert result.ranking[0][0] == "the total orders amount, where customers name is Alice = 35"


def test_two_tables_of_one_name_in_two_folders_stay_two_tables(tmp_path):
    for year, amounts in (("2023", (5, 6)), ("2024", (100, 200))):
        (tmp_path / year).mkdir()
        rows = "".join(f"{i},{a}\n" for i, a in enumerate(amounts))
        (tmp_path / year / "sales.csv").write_text("id,amount\n" + rows, encoding="utf-8")
    backend = ScriptedBackend(scorer=scorer)
    result = ask(backend, chunks_of(tmp_path, backend), "What is the largest amount?")
    entries = result.memory.data["table_descriptions"]
    assert [e["table_name"] for e in entries] == ["2023/sales.csv", "2024/sales.csv"]
    assert [e["table_description"] for e in entries] == ["2 rows of 2 columns"] * 2


def test_without_the_model_the_program_ranks_by_the_question_words(power):
    backend = ScriptedBackend()  # cannot score: the words chooser needs no model
    result = ask(
        backend,
        chunks_of(power, backend),
        "What was the largest net generation?",
        chooser="program",
    )
    assert result.answer == "1000" and result.metrics.calls == []
    with pytest.raises(MethodError, match="scores continuations"):
        ask(backend, chunks_of(power, backend), "q?")


def test_an_interrupted_table_run_reads_again_to_the_same_answer(power, tmp_path, monkeypatch):
    """The records go straight into the method's database in batches (no chunks); Ctrl-C
    between two batches exits 130 and says so; the same command (``--resume`` or not) reads
    them again and answers as an uninterrupted run."""
    from prism_edge.methods.tables import TableFacts
    from prism_edge.text import tables as table_text

    monkeypatch.setattr(table_text, "BATCH_ROWS", 7)
    backend = ScriptedBackend(scorer=scorer)
    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: backend)
    question = "Which source generated the most electricity in 2003?"
    args = ["run", str(power / "power.csv"), "--task", "table-qa", "--query", question, "--json"]
    full = invoke(*args)
    assert full.exit_code == 0, full.output
    answer = json.loads(full.stdout)
    assert answer["steps"] == 5 and answer["rows"] == 30  # 30 records, 7 a batch
    assert len(answer["queries"]) == len(answer["ranking"]) and answer["query"].startswith("SELECT")
    assert answer["queries"][0] == answer["query"]
    original = TableFacts.ingest

    def interrupted(self, run, index, read):  # type: ignore[no-untyped-def]
        if index == 2:
            raise KeyboardInterrupt
        return original(self, run, index, read)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(TableFacts, "ingest", interrupted)
        cut = invoke(*args)
        assert cut.exit_code == 130 and "interrupted after 14 records" in cut.stderr
    resumed = invoke(*args, "--resume")
    assert resumed.exit_code == 0, resumed.output
    again = json.loads(resumed.stdout)
    assert again["answer"] == answer["answer"] == "Fossil Fuels"
    assert again["memory"] == answer["memory"] and again["ranking"] == answer["ranking"]
    plain = invoke(*args[:-1])
    assert plain.stdout.strip() == "Fossil Fuels"
    assert re.search(r"\ncomputed: the .*source.* \((sure|NOT SURE): probability", plain.stderr)
    assert '\nquery: SELECT "source" FROM "power"' in plain.stderr  # the SQL as it ran
    assert "read into a database" in plain.stderr


def test_ask_on_a_table_run_says_why_it_cannot(power, tmp_path, monkeypatch):
    backend = ScriptedBackend(scorer=scorer)
    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: backend)
    question = "How many rows have the source Renewables?"
    done = invoke(
        "run",
        str(power),
        "--task",
        "table-qa",
        "--query",
        question,
        "--run-dir",
        str(tmp_path / "r"),
    )
    assert done.exit_code == 0 and done.stdout.strip() == "10"
    asked = invoke("ask", "1", "How many rows have the source Nuclear Energy?")
    assert asked.exit_code == 2 and "run again with this --query" in asked.stderr


class _Words(ScriptedBackend):
    """Counts words and marks without a growing vocabulary (whose size is not the run's)."""

    def tokenize(self, text: str) -> list[int]:
        return [0] * len(re.findall(r"\w+|[^\w\s]", text))


def _write_table(path: Path, rows: int) -> None:
    """Sales records (id, region, units) as CSV, JSON lines or an SQLite table, by suffix."""
    records = [(i, ("North", "South", "East")[i % 3], i % 97) for i in range(rows)]
    if path.suffix == ".db":
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE sales (id INTEGER, region TEXT, units INTEGER)")
            db.executemany("INSERT INTO sales VALUES (?, ?, ?)", records)
        db.close()
        return
    with path.open("w", encoding="utf-8") as out:
        if path.suffix == ".jsonl":
            out.writelines(
                json.dumps({"id": i, "region": r, "units": u}) + "\n" for i, r, u in records
            )
        else:
            out.write("id,region,units\n")
            out.writelines(f"{i},{r},{u}\n" for i, r, u in records)


def _peak_bytes(path: Path, rows: int) -> tuple[int, str | None]:
    """Python's peak heap over a whole table run on ``rows`` records, and the answer."""
    _write_table(path, rows)
    config = TASK.configure("How many sales are in the region North?")
    documents = collect([str(path)]).documents
    method = make("tables", TASK.schema, config, chooser="program")
    weights()  # the ranker's weights, read once per process: not the table's cost
    gc.collect()
    tracemalloc.start()
    try:
        session = Session.of_documents(
            _Words(n_ctx=4096), TASK.schema, config, documents, 512, method=method
        )
        answer = session.run().answer
        return tracemalloc.get_traced_memory()[1], answer
    finally:
        tracemalloc.stop()


def test_a_table_file_is_read_in_memory_that_does_not_grow_with_it(tmp_path, monkeypatch):
    """A CSV is streamed: twice the records cost a fraction of the bytes they add (a chunk
    at a time is held); the same run with the file held whole grows by most of the file (its
    text; the run's peak may come after the text is let go, so not always by all of it) and by
    more than twice what the streamed run grows."""
    small, large = tmp_path / "small.csv", tmp_path / "large.csv"
    streamed = [_peak_bytes(small, 8000), _peak_bytes(large, 16000)]
    added = large.stat().st_size - small.stat().st_size
    assert [answer for _, answer in streamed] == ["2667", "5334"]
    assert streamed[1][0] - streamed[0][0] < 0.5 * added
    monkeypatch.setattr(inputs, "STREAMED_SUFFIXES", ())
    held = [_peak_bytes(small, 8000), _peak_bytes(large, 16000)]
    assert [answer for _, answer in held] == ["2667", "5334"]
    grown = streamed[1][0] - streamed[0][0]
    assert held[1][0] - held[0][0] > max(0.75 * added, 2 * grown)


@pytest.mark.parametrize("suffix", [".jsonl", ".db"])
def test_json_lines_and_sqlite_tables_are_streamed_too(tmp_path, suffix):
    """JSON lines and an SQLite table are converted a record at a time as they are read: twice
    the records cost a fraction of the CSV text they add."""
    small, large = tmp_path / f"small{suffix}", tmp_path / f"large{suffix}"
    # a first run's one-time costs, and a column of more distinct values than are held
    # (profiled from a fixed sample): paid once, whatever the size
    _peak_bytes(tmp_path / f"warm{suffix}", 6000)
    streamed = [_peak_bytes(small, 8000), _peak_bytes(large, 16000)]
    assert [answer for _, answer in streamed] == ["2667", "5334"]
    (document,) = collect([str(large)]).documents
    assert document.source == large and document.held == ""
    added = len(document.text) // 2  # the CSV text the second 8,000 records add
    assert streamed[1][0] - streamed[0][0] < 0.5 * added


def test_a_chunk_size_for_a_table_run_is_refused(power, monkeypatch):
    backend = ScriptedBackend(scorer=scorer)
    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: backend)
    args = ["run", str(power), "--task", "table-qa", "--query", "How many rows?"]
    refused = invoke(*args, "--chunk-tokens", "96")
    assert refused.exit_code == 2 and "--chunk-tokens does not apply" in refused.stderr
