from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from prism_edge.app import common
from prism_edge.app import run as run_command
from prism_edge.backends import factory
from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.backends.server import ServerBackend
from prism_edge.engine.runner import PrismRunner
from prism_edge.prompts import Prompt
from tests.cli_harness import NAME, STORY, Harness, invoke, reviser
from tests.fake_server import FakeServer
from tests.run_state import run_state, saved_state


def test_run_prints_plan_progress_and_answer(harness, story, tmp_path):
    result = invoke("run", str(story), "--chunk-tokens", "200", "--run-dir", str(tmp_path / "r"))
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "Mowgli grows up among wolves."
    assert "plan: model scripted" in result.stderr and "chunks" in result.stderr
    assert "done:" in result.stderr
    assert len(harness.backend.calls) > 3


def test_the_engine_is_chosen_for_the_method_unless_given(harness, story, tmp_path, monkeypatch):
    from prism_edge.backends.scripted import ScriptedBackend
    from prism_edge.methods.written import WrittenRevisions

    shares: list[float] = []

    def suit(self: ScriptedBackend, decode_share: float) -> str | None:
        shares.append(decode_share)
        return "flash attention off (measured here)" if decode_share else None

    monkeypatch.setattr(ScriptedBackend, "suit", suit)
    run_dir = str(tmp_path / "r")
    result = invoke("run", str(story), "--method", "revisions", "--run-dir", run_dir)
    assert result.exit_code == 0, result.output
    assert harness.engines[-1].flash_attn is None  # not given: chosen for the run
    assert shares == [WrittenRevisions.decode_share]  # asked once
    assert "engine: flash attention off (measured here)" in result.stderr
    assert result.stderr.index("plan:") < result.stderr.index("engine:")
    result = invoke("run", str(story), "--no-flash-attn", "--run-dir", run_dir)
    assert result.exit_code == 0, result.output
    assert harness.engines[-1].flash_attn is False


def test_json_output_and_memory_out(harness, story, tmp_path):
    out = tmp_path / "memory.json"
    result = invoke(
        "run",
        str(story),
        "--json",
        "--chunk-tokens",
        "300",
        "--memory-out",
        str(out),
        "--quiet",
        "--run-dir",
        str(tmp_path / "r"),
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert set(payload) >= {"answer", "memory", "metrics", "revisions", "chunks"}
    m = payload["metrics"]
    assert set(m) == {
        "calls",
        "prompt_tokens",
        "reused_tokens",
        "net_tokens",
        "decoded_tokens",
        "cache_hit",
        "cost_index",
        "forced_tokens",
        "wall_s",
    }
    assert m["net_tokens"] == m["prompt_tokens"] - m["reused_tokens"]
    assert m["cost_index"] == pytest.approx(
        (m["net_tokens"] + 3 * m["decoded_tokens"]) / 1e6, abs=1e-6
    )
    assert payload["revisions"]["applied"] >= 3 and payload["revisions"]["rejected"] == 0
    assert json.loads(out.read_text()) == payload["memory"]
    assert "Mowgli" in payload["memory"]["attributes"]
    assert result.stderr == ""  # --quiet


def test_options_reach_the_library(harness, story, tmp_path):
    result = invoke(
        "run",
        str(story),
        "-m",
        "some-model",
        "-c",
        "8000",
        "--temperature",
        "0.7",
        "--seed",
        "5",
        "--max-revisions",
        "1",
        "--max-tokens",
        "100",
        "--memory",
        "in-place",
        "--add-only",
        "--style",
        "paper",
        "--chunk-tokens",
        "100",
        "--quiet",
        "--run-dir",
        str(tmp_path / "r"),
    )
    assert result.exit_code == 0, result.output
    assert harness.requests == [("some-model", 8000)]
    calls = harness.backend.calls
    assert all(c.temperature == 0.7 and c.seed == 5 for c in calls)
    assert all(c.max_tokens == 100 for c in calls[:-1])
    assert calls[0].prompt.text.startswith("I will provide a class definition")  # paper style
    # in-place memory: no amendment header ever
    assert all("[AMENDMENTS]" not in c.prompt.text for c in calls)


def test_max_revisions_limits_each_step(harness, story, tmp_path):
    result = invoke(
        "run",
        str(story),
        "--max-revisions",
        "1",
        "--json",
        "-q",
        "--chunk-tokens",
        "400",
        "--run-dir",
        str(tmp_path / "r"),
    )
    payload = json.loads(result.stdout)
    assert payload["revisions"]["rejected"] >= 1  # the second add of a step is refused


def test_stdin_and_folders(harness, tmp_path):
    folder = tmp_path / "src"
    (folder / "pkg").mkdir(parents=True)
    (folder / "pkg" / "a.py").write_text("def alpha():\n    return 1\n")
    (folder / "b.py").write_text("def beta():\n    return 2\n")
    (folder / "skip.log").write_text("ignored by gitignore\n")
    (folder / ".gitignore").write_text("*.log\n")
    (folder / "blob.bin").write_bytes(b"\x00\x01binary")
    (folder / ".hidden").write_text("hidden\n")
    result = invoke(
        "run",
        str(folder),
        "--task",
        "code-search",
        "--query",
        "find beta",
        "--run-dir",
        str(tmp_path / "r"),
    )
    assert result.exit_code == 0, result.output
    documents = [c.prompt.of_kind("document") for c in harness.backend.calls[:-1]]
    joined = "".join(documents)
    assert joined.index("File path: " + str(folder / "b.py")) < joined.index(
        "File path: " + str(folder / "pkg" / "a.py")
    )
    assert "ignored by gitignore" not in joined and "hidden" not in joined
    assert "skipped binary file" in result.stderr
    piped = invoke("run", "-", "--quiet", "--run-dir", str(tmp_path / "r2"), stdin=STORY)
    assert piped.exit_code == 0 and piped.stdout.strip() == "Mowgli grows up among wolves."


def test_schema_files(harness, story, tmp_path):
    py = tmp_path / "s.py"
    py.write_text("class People:\n    attributes: dict[str, list[str]]\n")
    result = invoke(
        "run",
        str(story),
        "--schema",
        str(py),
        "--query",
        "who?",
        "-q",
        "--run-dir",
        str(tmp_path / "r"),
    )
    assert result.exit_code == 0, result.output
    js = tmp_path / "s.json"
    js.write_text(
        json.dumps(
            {
                "type": "object",
                "properties": {
                    "attributes": {
                        "type": "object",
                        "additionalProperties": {"type": "array", "items": {"type": "string"}},
                    }
                },
            }
        )
    )
    result = invoke(
        "run",
        str(story),
        "--schema",
        str(js),
        "--query",
        "who?",
        "--json",
        "-q",
        "--run-dir",
        str(tmp_path / "r"),
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["memory"]["attributes"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "nope.txt"], "nope.txt: no such file or folder"),
        (["run", "{empty}"], "the input is empty"),
        (["run", "{binary}"], "a binary file, not text"),
        (
            ["run", "{story}", "--schema", "{bad_schema}", "--query", "q"],
            "line 2: unknown or unsupported type 'Banana'",
        ),
        (["run", "{story}", "--schema", "{bad_json}", "--query", "q"], "not valid JSON"),
        (["run", "{story}", "--schema", "{good_schema}"], "--schema needs --query"),
        (["run", "{story}", "--task", "code-search"], "needs --query"),
        (
            ["run", "{story}", "--task", "summarize", "--schema", "{good_schema}", "--query", "q"],
            "either --task or --schema",
        ),
        (["run", "{story}", "-m", "missing-model"], "unknown model 'missing-model'"),
        (["run", "{story}", "-c", "400"], "but the context holds 400"),
        (["run", "{story}", "--resume"], "nothing to resume"),
    ],
)
def test_errors_are_one_line(harness, tmp_path, story, args, message):
    files = {
        "story": story,
        "empty": tmp_path / "empty.txt",
        "binary": tmp_path / "x.bin",
        "bad_schema": tmp_path / "bad.py",
        "bad_json": tmp_path / "bad.json",
        "good_schema": tmp_path / "good.py",
    }
    files["empty"].write_text("  \n")
    files["binary"].write_bytes(b"\x00\x00\x00")
    files["bad_schema"].write_text("class A:\n    x: Banana\n")
    files["bad_json"].write_text("{nope")
    files["good_schema"].write_text("class A:\n    x: dict[str, str]\n")
    argv = [a.format(**files) for a in args] + ["--run-dir", str(tmp_path / "run")]
    result = invoke(*argv)
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert message in lines[0]
    assert "Traceback" not in result.output


def test_debug_shows_the_traceback(harness, tmp_path):
    with pytest.raises(Exception, match="no such file"):
        invoke("run", "nope.txt", "--debug", "--run-dir", str(tmp_path / "r"))


def test_non_utf8_is_decoded_with_a_warning(harness, tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes(("Mowgli et le loup Akela. " * 20).encode("latin-1") + b"\xe9t\xe9")
    result = invoke("run", str(path), "--run-dir", str(tmp_path / "r"))
    assert result.exit_code == 0
    assert "not valid UTF-8; undecodable bytes were replaced" in result.stderr


def test_budget_overflow_keeps_the_memory(monkeypatch, story, tmp_path):
    steps = iter(range(10_000))

    def hoarder(prompt: Prompt) -> str:  # a new 30-word entry every step
        if "[ANSWER]" in prompt.text:
            return "answer"
        key = f"fact {next(steps)}"
        return json.dumps({f"$.'attributes'.'{key}'": {"add": ["word " * 30]}})

    Harness(monkeypatch, n_ctx=1200, responder=hoarder)
    out = tmp_path / "m.json"
    result = invoke(
        "run",
        str(story),
        "--max-tokens",
        "100",
        "--answer-tokens",
        "50",
        "--chunk-tokens",
        "200",
        "--memory-out",
        str(out),
        "-c",
        "1200",
        "--run-dir",
        str(tmp_path / "r"),
    )
    assert result.exit_code == 1
    assert "needs" in result.stderr and "the context holds 1200" in result.stderr
    assert json.loads(out.read_text())["attributes"]


def test_resume_continues_and_refuses_changes(harness, story, tmp_path):
    run_dir = tmp_path / "r"
    args = ["run", str(story), "--chunk-tokens", "150", "--json", "-q", "--run-dir", str(run_dir)]
    full = json.loads(invoke(*args).stdout)
    # simulate a crash: keep the state of step 2 only
    state = saved_state(run_dir)
    assert state["finished"] is True
    partial_dir = tmp_path / "partial"
    calls: list[int] = []
    original = PrismRunner.run

    def crashing_run(self, chunks, floor=None):  # type: ignore[no-untyped-def]
        for event in original(self, chunks, floor):
            yield event
            if getattr(event, "kind", "") == "step":
                calls.append(1)
                if len(calls) == 2:
                    raise KeyboardInterrupt

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(PrismRunner, "run", crashing_run)
        crashed = invoke(*args[:-1], str(partial_dir))
    assert crashed.exit_code == 130  # as a shell reports an interrupt
    assert "interrupted after step 2; its state is saved" in crashed.stderr
    assert "--resume continues from there" in crashed.stderr
    saved = saved_state(partial_dir)
    assert saved["counts"]["steps"] == 2 and not saved["finished"]
    # another run in the same folder, to its end, leaves the interrupted one to its command
    other = invoke("run", str(story), "--chunk-tokens", "160", "-q", "--run-dir", str(partial_dir))
    assert other.exit_code == 0, other.output
    resumed = invoke(*args[:-1], str(partial_dir), "--resume")
    assert resumed.exit_code == 0, resumed.output
    again = json.loads(resumed.stdout)
    assert again["memory"] == full["memory"] and again["answer"] == full["answer"]
    assert again["steps"] == full["steps"]
    # changed settings or inputs: refused with a clear message
    changed = invoke(*args[:-1], str(partial_dir), "--answer-tokens", "100", "--resume")
    assert changed.exit_code == 1 and "settings changed since the checkpoint" in changed.stderr
    cut = invoke(*args[:-1], str(partial_dir), "--chunk-tokens", "400", "--resume")
    assert cut.exit_code == 1
    assert "nothing to resume" in cut.stderr and "2 saved there" in cut.stderr
    story.write_text(STORY + "More text.", encoding="utf-8")
    edited = invoke(*args[:-1], str(partial_dir), "--resume")
    assert edited.exit_code == 1 and "inputs changed" in edited.stderr


def test_inspect(harness, story):
    result = invoke("inspect", "--task", "code-search")
    assert "class FunctionNaturalDescriptor:" in result.stdout
    assert "$.'candidate_functions'.<key>  ->  FunctionDescription" in result.stdout
    grammar = invoke("inspect", "--task", "summarize", "--grammar")
    assert grammar.stdout.startswith("root ::=")
    plan = invoke("inspect", str(story), "--chunk-tokens", "300")
    assert re.search(r"chunks: \d+ \(\d+ tokens, budget 300 each", plan.stdout)
    assert "whole:" not in plan.stdout


@pytest.mark.parametrize(
    "options",
    [(), ("--method", "revisions"), ("--chunk-tokens", "300"), ("--no-model",)],
    ids=["auto", "revisions", "sized", "no-model"],
)
def test_inspect_plans_what_run_runs(options, monkeypatch, story, tmp_path):
    """On a model under 1B: the method run chooses, its chunk size and so its chunks."""
    from prism_edge.app import inspect as inspect_command
    from prism_edge.backends.scripted import ScriptedBackend

    small = dict(parameters=135_000_000, n_ctx=100_000, responder=reviser)
    monkeypatch.setattr(factory, "open_backend", lambda *a, **k: ScriptedBackend(**small))
    monkeypatch.setattr(inspect_command, "load_tokenizer", lambda model: ScriptedBackend(**small))
    ran = invoke("run", str(story), "--run-dir", str(tmp_path / "r"), "--json", *options)
    assert ran.exit_code == 0, ran.output
    record = json.loads(ran.stdout)
    planned = invoke("inspect", str(story), *options).stdout
    method = re.search(r"plan \(as run\): method (\w+)", planned)
    chunks = re.search(r"chunks: (\d+) \(\d+ tokens, budget (\d+)", planned)
    assert method and chunks, planned
    assert method.group(1) == record["method"]
    assert int(chunks.group(1)) == record["chunks"]
    assert int(chunks.group(2)) == (
        300 if "300" in options else 512 if method.group(1) == "names" else 2048
    )


def test_inspect_says_what_run_reads_whole(harness, tmp_path, monkeypatch):
    from prism_edge.app import inspect as inspect_command
    from prism_edge.backends.scripted import ScriptedBackend

    small = ScriptedBackend(parameters=135_000_000, scorer=lambda prompt, text: 0.0)
    monkeypatch.setattr(inspect_command, "load_tokenizer", lambda model: small)
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "a.py").write_text("def alpha():\n    return 1\n")
    (folder / "notes.txt").write_text("Some notes.\n")
    (folder / "t.csv").write_text("a,b\n1,2\n")
    code = invoke("inspect", str(folder), "--task", "code-search")
    assert "method definitions" in code.stdout
    assert "1 code files read whole into their index" in code.stdout
    assert "(2 files not code), no chunks" in code.stdout
    assert "what a writing method would read instead (--method revisions)" in code.stdout
    written = invoke("inspect", str(folder), "--task", "code-search", "--method", "revisions")
    assert "read whole" not in written.stdout and "method revisions" in written.stdout
    tables = invoke("inspect", str(folder), "--task", "table-qa")
    assert "1 tables read straight into a database, no chunks" in tables.stdout


def test_write_grammars_matches_the_checked_in_files(tmp_path):
    invoke("inspect", "--write-grammars", str(tmp_path))
    checked_in = Path(__file__).resolve().parents[1] / "grammars"
    for path in tmp_path.iterdir():
        assert path.read_text() == (checked_in / path.name).read_text()


def test_help_and_entry_points():
    result = invoke("--help")
    assert result.exit_code == 0 and "run" in result.stdout and "inspect" in result.stdout
    assert invoke("run", "--help").exit_code == 0


def test_bench_table_json_and_sweep(harness, story, tmp_path):
    table = invoke(
        "bench", str(story), "--chunk-tokens", "300", "--max-tokens", "64", "--answer-tokens", "32"
    )
    assert table.exit_code == 0, table.output
    assert table.stdout.startswith("| method | cache hit % | total tokens")
    for name in ("long context", "incremental", "hierarchical", "PRISM amendments add-only"):
        assert f"| {name} " in table.stdout
    plot = tmp_path / "sweep.png"
    result = invoke(
        "bench",
        str(story),
        "--json",
        "--methods",
        "incremental,PRISM amendments",
        "--sweep-chunks",
        "150,300",
        "--plot",
        str(plot),
        "--max-tokens",
        "64",
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert [m["name"] for m in payload["methods"]] == ["incremental", "PRISM amendments"]
    for m in payload["methods"]:
        assert set(m) >= {
            "name",
            "cache_hit",
            "prompt_tokens",
            "net_tokens",
            "decoded_tokens",
            "cost_index",
            "wall_s",
            "answer",
        }
    assert [p["chunk_tokens"] for p in payload["sweep"]] == [150, 300]
    assert payload["sweep"][0]["decoded_tokens"] >= payload["sweep"][1]["decoded_tokens"]
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bad = invoke("bench", str(story), "--methods", "magic")
    assert bad.exit_code == 1 and "unknown method 'magic'" in bad.stderr


def test_bench_quality_options(harness, story, tmp_path):
    entities = tmp_path / "entities.txt"
    entities.write_text("Mowgli\nShere Khan|Lungri\n", encoding="utf-8")
    result = invoke(
        "bench",
        str(story),
        "--methods",
        "incremental,PRISM amendments",
        "--entities",
        str(entities),
        "--max-tokens",
        "64",
    )
    assert result.exit_code == 0, result.output
    assert "| entity recall | faithful |" in result.stdout
    needles = tmp_path / "needles.jsonl"
    needles.write_text('{"query": "who grows up", "expected": "Mowgli"}\n', encoding="utf-8")
    saved = tmp_path / "needles.json"
    found = invoke(
        "bench",
        str(story),
        "--task",
        "code-search",  # a task with no default question: the needles are the questions
        "--needles",
        str(needles),
        "--json",
        "--json-out",
        str(saved),
    )
    assert found.exit_code == 0, found.output
    payload = json.loads(found.stdout)
    assert json.loads(saved.read_text()) == payload
    # the scripted backend cannot score, so "PRISM definitions" says so and has no accuracy
    names = [m["name"] for m in payload["methods"]]
    assert names == ["incremental", "BM25 definitions", "PRISM amendments"]
    assert all(len(m["hits"]) == 1 for m in payload["methods"])
    needles.write_text("not json\n", encoding="utf-8")
    bad = invoke("bench", str(story), "--needles", str(needles))
    assert bad.exit_code == 1 and "needles.jsonl:1: expected" in bad.stderr


def text_reviser(text: str) -> str | None:
    """``reviser`` for a server, which sees the prompt as one text."""
    if "Bagheera" in text and os.environ.get("FAKE_SERVER_DOWN_FOR") == "Bagheera":
        return None
    memory = text.split("\n[MEMORY]\n", 1)[1].split("\n[TEXT]\n", 1)[0]
    document = text.rsplit("\n[TEXT]\n", 1)[1]
    if "[ANSWER]" in text:
        return "Answer: " + ", ".join(sorted(set(NAME.findall(memory))))
    adds = []
    for name in dict.fromkeys(NAME.findall(document)):
        if f"'{name}'" not in memory and f'"{name}"' not in memory:
            adds.append(json.dumps({f"$.'attributes'.'{name}'": {"add": [f"{name} appears."]}}))
    return "[OBJECTS FOR UPDATE]\n[OBJECTS FOR ADD]\n" + "\n".join(adds[:2])


@pytest.fixture
def fake_server(monkeypatch: pytest.MonkeyPatch) -> FakeServer:
    server = FakeServer(responder=text_reviser)

    def connect(model: str | None = None, *, server: str, **options: Any) -> ServerBackend:
        if model is not None:
            raise ValueError("use either --model or --server, not both")
        return ServerBackend(
            server,
            transport=httpx.MockTransport(server_fake),
            api_key=options["api_key"],
            model=options["server_model"],
            n_ctx=options["n_ctx"],
            grammar_field=options["grammar_field"],
            retries=0,
        )

    server_fake = server
    monkeypatch.setattr(factory, "open_backend", connect)
    return server


def test_server_runs_documents_in_parallel_and_resumes(fake_server, tmp_path, monkeypatch):
    docs = []
    for i, names in enumerate(["Mowgli Akela", "Baloo Bagheera", "Kotick Matkah"]):
        path = tmp_path / f"doc{i}.txt"
        path.write_text((f"Here {names.split()[0]} met {names.split()[1]} again.\n\n") * 20)
        docs.append(str(path))
    run_dir = tmp_path / "runs"
    common = ("run", *docs, "--server", "http://fake:8080", "--run-dir", str(run_dir))
    common += ("--chunk-tokens", "64", "--parallel", "2")
    monkeypatch.setenv("FAKE_SERVER_DOWN_FOR", "Bagheera")
    first = invoke(*common)
    assert first.exit_code == 1, first.output
    lines = [json.loads(line) for line in first.stdout.splitlines()]
    by_doc = {Path(line["document"]).name: line for line in lines}
    assert set(by_doc) == {"doc0.txt", "doc1.txt", "doc2.txt"}
    assert "HTTP 503" in by_doc["doc1.txt"]["error"]
    assert by_doc["doc0.txt"].get("answer") == "Answer: Akela, Here, Mowgli", by_doc
    assert set(by_doc["doc2.txt"]["memory"]["attributes"]) == {"Here", "Kotick", "Matkah"}
    assert by_doc["doc2.txt"]["revisions"]["rejected"] == 0
    assert {"001-doc0.txt", "003-doc2.txt"} <= {p.name for p in run_dir.iterdir()}

    monkeypatch.delenv("FAKE_SERVER_DOWN_FOR")
    before = len(fake_server.requests)
    second = invoke(*common, "--resume")
    assert second.exit_code == 0, second.output
    resumed = {
        Path(json.loads(x)["document"]).name: json.loads(x) for x in second.stdout.splitlines()
    }
    assert resumed["doc0.txt"] == by_doc["doc0.txt"]  # finished: reported from its state
    assert resumed["doc1.txt"]["answer"] == "Answer: Bagheera, Baloo, Here"
    asked = [
        b["messages"][0]["content"] for p, b in fake_server.requests[before:] if "messages" in b
    ]
    assert asked and all("Mowgli" not in t and "Kotick" not in t for t in asked[1:])


def test_each_document_keeps_its_own_server_slot(fake_server, tmp_path):
    docs = []
    for i, name in enumerate(["Mowgli", "Baloo", "Kotick", "Matkah", "Akela"]):
        path = tmp_path / f"doc{i}.txt"
        path.write_text(f"Here {name} sat by the river.\n\n" * 12)
        docs.append((name, str(path)))
    args = ("run", *(p for _, p in docs), "--server", "http://fake:8080")
    out = invoke(*args, "--run-dir", str(tmp_path / "r"), "--chunk-tokens", "64", "--parallel", "1")
    assert out.exit_code == 0, out.output
    slots: dict[str, set[int]] = {}
    for path, body in fake_server.requests:
        if path == "/v1/chat/completions" and body["max_tokens"] > 1:
            text = body["messages"][0]["content"]
            name = next(n for n, _ in docs if n in text)
            slots.setdefault(name, set()).add(body["id_slot"])
    # the fake server has 4 slots: documents 1-4 take slots 0-3, the fifth slot 0 again
    assert slots == {"Mowgli": {0}, "Baloo": {1}, "Kotick": {2}, "Matkah": {3}, "Akela": {0}}


def test_parallel_and_server_options_are_checked(harness, story):
    many = invoke("run", str(story), "--parallel", "2")
    assert many.exit_code == 1 and "--parallel above 1 needs --server" in many.stderr
    both = invoke("run", str(story), "--server", "http://x", "-m", "m.gguf")
    assert both.exit_code == 1 and "either --model or --server" in both.stderr


def test_sweep_reuses_the_tables_run_at_the_same_chunk_size(harness, story, tmp_path):
    def calls(*sizes: str) -> int:
        result = invoke(
            "bench",
            str(story),
            "--chunk-tokens",
            "300",
            "--methods",
            "PRISM amendments add-only",
            "--sweep-chunks",
            ",".join(sizes),
            "--plot",
            str(tmp_path / "s.png"),
            "--max-tokens",
            "64",
        )
        assert result.exit_code == 0, result.output
        return len(harness.backend.calls)

    # 300 is the table's own chunk size: its run is not repeated
    assert calls("150", "300") == calls("150") > calls("300")


def test_a_new_run_replaces_the_previous_state(harness, story, tmp_path):
    run_dir = tmp_path / "r"
    for _ in range(2):
        result = invoke("run", str(story), "--chunk-tokens", "200", "--run-dir", str(run_dir))
        assert result.exit_code == 0, result.output
    assert "note:" not in result.stderr  # the previous one had finished: nothing to say
    current = run_state(run_dir)
    assert [p.name for p in run_dir.glob("state-*.json")] == [current.name]
    assert saved_state(run_dir)["finished"] is True


def test_version_names_the_build_and_the_guard():
    result = invoke("--version")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("prism-edge ") and lines[1].startswith("llama-cpp-python ")
    assert any(line.startswith("llama.cpp system info: ") for line in lines)
    assert any(line.startswith("AMX guard: ") for line in lines)


def test_code_search_scores_definitions_where_the_model_can(monkeypatch, tmp_path):
    code = tmp_path / "util.py"
    code.write_text(
        'def clamp(v, lo, hi):\n    """Limit a number to a range."""\n    return v\n\n\n'
        'def shout(s):\n    """Upper-case a text."""\n    return s.upper()\n',
        encoding="utf-8",
    )

    def scorer(prompt: Prompt, text: str) -> float:
        return 0.0 if "range" in prompt.of_kind("document") else -4.0

    backend = ScriptedBackend(scorer=scorer)
    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: backend)
    out = tmp_path / "memory.json"
    args = ["run", str(code), "--task", "code-search", "--query", "keep a number within bounds"]
    result = invoke(*args, "--memory-out", str(out))
    assert result.exit_code == 0, result.output
    # read into the folder's index: the answer says where (path:line: name, as grep -n)
    assert result.stdout.strip() == f"{code}:1: clamp" and "score 0.00" in result.stderr
    stored = json.loads(out.read_text())["candidate_functions"]
    assert {key.rsplit(": ", 1)[1] for key in stored} == {"clamp", "shout"}
    as_json = json.loads(invoke(*args, "--json").stdout)
    assert as_json["ranking"][0][0] == as_json["answer"] == f"{code}:1: clamp"
    plain = ScriptedBackend(outputs=["[OBJECTS FOR UPDATE]\n[OBJECTS FOR ADD]", "clamp"])
    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: plain)
    refused = invoke(*args, "--method", "definitions")
    assert refused.exit_code == 1 and "needs a backend that scores continuations" in refused.stderr


def test_piped_text_is_read_when_no_input_is_named(harness, monkeypatch):
    result = invoke("run", "--task", "summarize", stdin=STORY)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "Mowgli grows up among wolves."
    monkeypatch.setattr(
        run_command, "piped_stdin", lambda: (_ for _ in ()).throw(ValueError("no input"))
    )
    alone = invoke("run", "--task", "summarize")
    assert alone.exit_code == 1 and "no input" in alone.stderr


def test_no_input_at_a_terminal_is_a_one_line_error(harness, monkeypatch):
    class Terminal:
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(common.sys, "stdin", Terminal())
    with pytest.raises(ValueError, match="pipe text in"):
        common.piped_stdin()


def test_shell_completion_is_offered():
    result = invoke("--help")
    assert "--install-completion" in result.stdout


def test_a_gutenberg_frame_is_not_read_unless_kept(harness, tmp_path):
    book = tmp_path / "book.txt"
    frame = "*** START OF THE PROJECT GUTENBERG EBOOK TALES ***\n"
    licence = "*** END OF THE PROJECT GUTENBERG EBOOK TALES ***\nRedistributing Licence terms.\n"
    book.write_text("Licence header.\n" + frame + STORY + licence, encoding="utf-8")
    run = ("run", str(book), "--method", "revisions", "--run-dir", str(tmp_path / "r"))
    out = invoke(*run)
    assert out.exit_code == 0, out.output
    said = " ".join(out.stderr.split())
    assert "without Project Gutenberg's header (2 lines) and end matter (2 lines)" in said
    read = " ".join(c.prompt.of_kind("document") for c in harness.backend.calls)
    assert "Mowgli" in read and "Licence" not in read and "GUTENBERG" not in read
    kept = invoke(*run, "--keep-boilerplate")
    assert kept.exit_code == 0 and "Project Gutenberg" not in kept.stderr
    read = " ".join(c.prompt.of_kind("document") for c in harness.backend.calls)
    assert "Licence header" in read and "Redistributing Licence" in read


def test_a_log_file_gets_a_plain_progress_line_every_few_seconds(harness, story, tmp_path,
                                                                 monkeypatch):  # fmt: skip
    from prism_edge.app import render

    monkeypatch.setattr(render, "PLAIN_EVERY_S", 0.0)  # every step, for the test
    result = invoke("run", str(story), "--chunk-tokens", "60", "--run-dir", str(tmp_path / "r"))
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("progress: chunk")]
    assert len(lines) >= 2 and "%)" in lines[0] and "ETA" in lines[-2]
    quiet = invoke(
        "run", str(story), "-q", "--chunk-tokens", "60", "--run-dir", str(tmp_path / "q")
    )
    assert "progress:" not in quiet.stderr


def test_a_method_that_cannot_run_the_task_is_refused_before_a_model_loads(story, monkeypatch):
    opened: list[object] = []
    monkeypatch.setattr(factory, "open_backend", lambda *a, **kw: opened.append(1))
    wrong = invoke("run", str(story), "--task", "summarize", "--method", "definitions")
    assert wrong.exit_code == 1 and "needs a schema with candidate_functions" in wrong.stderr
    flag = invoke("run", str(story), "--task", "summarize", "--method", "names",
                  "--shortlist", "3")  # fmt: skip
    assert flag.exit_code == 1 and "--shortlist does not apply to --method names" in flag.stderr
    assert opened == []
