"""``--method auto`` chooses by what the model is; flags a method would ignore are refused;
scored methods run on a vLLM-style server and are refused on llama.cpp's."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import httpx
import pytest

from prism_edge.backends import factory
from prism_edge.backends.llama_cpp import model_parameters
from prism_edge.backends.local import parse_size
from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.backends.server import ServerBackend
from prism_edge.methods import METHODS, MethodError, choose, make
from prism_edge.methods.presets import TASKS
from tests.cli_harness import STORY, invoke
from tests.fake_server import FakeServer

TALE = (
    "The wolf cub slept. Then Mowgli ran to Akela at the rock. Later Mowgli spoke to Akela "
    "again. Baloo watched Mowgli and said nothing. Then Baloo slept.\n\n"
) * 4


def gguf_header(path: Path, meta: dict[str, str]) -> Path:
    """A GGUF file of only a header with string metadata (no tensors)."""

    def string(text: str) -> bytes:
        data = text.encode()
        return struct.pack("<Q", len(data)) + data

    body = b"GGUF" + struct.pack("<IQQ", 3, 0, len(meta))
    for key, value in meta.items():
        body += string(key) + struct.pack("<I", 8) + string(value)
    path.write_bytes(body)
    return path


def scorer(prompt: Any, text: str) -> float:
    return float(prompt.of_kind("document").count(text.strip()))


def test_sizes_are_read_from_labels_and_headers(tmp_path):
    assert parse_size("135M") == 135_000_000 and parse_size("1.5B") == 1_500_000_000
    assert parse_size("8x7B") == 56_000_000_000 and parse_size("large") is None
    seven = gguf_header(tmp_path / "seven.gguf", {"general.size_label": "7B"})
    assert model_parameters(seven) == 7_000_000_000
    bare = gguf_header(tmp_path / "bare.gguf", {"general.architecture": "llama"})
    assert model_parameters(bare) is None
    assert model_parameters(tmp_path) is None  # not a GGUF file at all


def test_auto_lets_small_models_score_and_large_ones_write(tmp_path):
    small = ScriptedBackend(scorer=scorer, parameters=135_000_000)
    choice = choose("auto", "definitions", small)
    assert choice.name == "definitions" and "135M model chooses by scores" in choice.reason
    names = choose("auto", "names", small)  # measured: the model added nothing to a summary
    assert names.model_free and "the program ranks alone" in names.reason
    header = gguf_header(tmp_path / "big.gguf", {"general.size_label": "7B"})
    large = ScriptedBackend(scorer=scorer, parameters=model_parameters(header))
    choice = choose("auto", "names", large)
    assert choice.name == "revisions" and "7B model writes revisions" in choice.reason
    unknown = choose("auto", "definitions", ScriptedBackend(scorer=scorer, parameters=None))
    assert unknown.name == "revisions" and "does not say its size" in unknown.reason
    blind = choose("auto", "definitions", ScriptedBackend(parameters=135_000_000))
    assert blind.name == "revisions" and "cannot score" in blind.reason
    plain = choose("auto", "names", ScriptedBackend(parameters=135_000_000))
    assert plain.model_free  # a summary without the model needs no scores
    assert choose("auto", None, small).name == "revisions"  # no scored method for the task
    assert choose("definitions", "names", large).name == "definitions"  # asked: as asked
    with pytest.raises(MethodError, match="unknown method"):
        choose("guess", "names", small)


def test_every_method_makes_itself_with_only_its_own_options():
    config = TASKS["code-search"].configure("q")
    schema = TASKS["code-search"].schema
    for name, method in METHODS.items():
        assert make(name, schema, config).name == name == method.name
    assert make("definitions", schema, config, shortlist=3).settings()["shortlist"] == 3
    with pytest.raises(MethodError, match="--method names takes no shortlist"):
        make("names", schema, config, shortlist=3)


def run_with(monkeypatch, backend, *args: str) -> Any:
    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: backend)
    return invoke("run", *args)


def test_the_plan_line_says_which_method_and_why(monkeypatch, tmp_path):
    story = tmp_path / "story.txt"
    story.write_text(STORY, encoding="utf-8")
    small = ScriptedBackend(scorer=scorer, parameters=135_000_000)
    out = run_with(monkeypatch, small, str(story), "--run-dir", str(tmp_path / "a"))
    assert out.exit_code == 0, out.output
    (plan,) = [line for line in out.stderr.splitlines() if line.startswith("plan")]
    assert plan.startswith("plan: model scripted, method outline (auto: on a 135M model the "
                           "program ranks alone; --method outline adds the model), ")  # fmt: skip
    assert "(read from the text)" in plan and plan.endswith(" in equal spans, 350 words")
    assert len(plan) < 200
    assert "benchmarks/" not in out.stderr and "held out" not in out.stderr  # --verbose's
    # a model-free run's closing line says what it did, not a line of zeros
    assert "; no model call, " in out.stderr and "0 prompt tokens" not in out.stderr
    verbose = run_with(monkeypatch, small, str(story), "--run-dir", str(tmp_path / "v"), "-v")
    (details,) = [line for line in verbose.stderr.splitlines() if line.startswith("plan detail")]
    assert "context " in details and "why outline: SmolLM2's choice" in details
    assert "--kind sets the kind of text" in details and "benchmarks/" not in details

    def writer(prompt: Any) -> str:
        return "Mowgli." if "[ANSWER]" in prompt.text else "[OBJECTS FOR UPDATE]\n[OBJECTS FOR ADD]"

    large = ScriptedBackend(responder=writer, scorer=scorer, parameters=7_000_000_000)
    out = run_with(monkeypatch, large, str(story), "--run-dir", str(tmp_path / "b"))
    assert out.exit_code == 0, out.output
    assert "method revisions (auto: a 7B model writes revisions" in out.stderr
    assert out.stdout.strip() == "Mowgli."


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--grounded"], "--grounded does not apply to --method outline"),
        (["--max-tokens", "64", "--style", "paper"], "--max-tokens, --style do not apply"),
        (["--shortlist", "4"], "--shortlist does not apply to --method outline"),
        (["--method", "names", "--length", "9"], "--length does not apply to --method names"),
        (["--method", "revisions", "--shortlist", "4"], "--shortlist does not apply"),
        (["--parallel", "1"], "--parallel runs each input document on its own"),
        (["--parallel", "1", "--memory-out", "m.json"], "--memory-out writes one run's"),
    ],
)
def test_what_a_method_would_ignore_is_refused_before_any_compute(
    monkeypatch, tmp_path, args, message
):
    story = tmp_path / "story.txt"
    story.write_text(STORY, encoding="utf-8")
    backend = ScriptedBackend(scorer=scorer, parameters=135_000_000)
    out = run_with(monkeypatch, backend, str(story), "--run-dir", str(tmp_path / "r"), *args)
    assert out.exit_code == 2 and message in out.stderr, out.stderr
    assert backend.calls == [] and backend.evaluated == 0 and out.stdout == ""


def server_backend(monkeypatch, flavor: str) -> FakeServer:
    fake = FakeServer(flavor)

    def connect(model: str | None = None, *, server: str, **options: Any) -> ServerBackend:
        return ServerBackend(server, transport=httpx.MockTransport(fake), n_ctx=4096, retries=0)

    monkeypatch.setattr(factory, "open_backend", connect)
    return fake


def test_scored_methods_run_on_a_server_that_returns_prompt_logprobs(monkeypatch, tmp_path):
    fake = server_backend(monkeypatch, "vllm")
    story = tmp_path / "story.txt"
    story.write_text(TALE, encoding="utf-8")
    args = ["run", str(story), "--server", "http://vllm", "--method", "names", "--json"]
    out = invoke(*args, "--run-dir", str(tmp_path / "r"))
    assert out.exit_code == 0, out.output
    payload = json.loads(out.stdout)
    assert payload["method"] == "names" and payload["answer"]
    stored = payload["memory"]["attributes"]
    assert set(stored) <= {"Mowgli", "Akela", "Baloo"} and len(stored) == 3
    assert all(s in TALE for sentences in stored.values() for s in sentences)
    assert payload["metrics"]["calls"] > 0 and payload["metrics"]["decoded_tokens"] == 0
    scored = [body for path, body in fake.requests if path == "/v1/completions"]
    assert scored and all(b["echo"] and b["logprobs"] == 0 for b in scored)
    # every continuation after the same templated prompt, as token ids, in one request
    first = scored[0]["prompt"]
    assert len(first) > 1 and all(p[:3] == first[0][:3] for p in first)


def test_a_llama_cpp_server_refuses_scored_methods_naming_revisions(monkeypatch, tmp_path):
    server_backend(monkeypatch, "llama.cpp")
    story = tmp_path / "story.txt"
    story.write_text(STORY, encoding="utf-8")
    args = ["run", str(story), "--server", "http://llama", "--run-dir", str(tmp_path / "r")]
    refused = invoke(*args, "--method", "names")
    assert refused.exit_code == 2 and refused.stdout == ""
    assert "needs a backend that scores continuations" in refused.stderr
    assert "use --method revisions" in refused.stderr


def test_no_model_runs_the_scored_methods_ranking_without_the_model():
    small = ScriptedBackend(scorer=scorer, parameters=135_000_000)
    for scored, options in (
        ("names", {"scoring": "frequency"}),
        ("definitions", {"formulation": "bm25"}),
        ("tables", {"chooser": "program"}),
    ):
        choice = choose("auto", scored, small, no_model=True)
        assert (choice.name, dict(choice.options)) == (scored, options) and choice.model_free
        assert "--no-model" in choice.reason
    blind = choose("names", "names", ScriptedBackend(parameters=None), no_model=True)
    assert blind.model_free  # a backend that cannot score is no obstacle
    with pytest.raises(MethodError, match="no ranking without the model"):
        choose("revisions", "names", small, no_model=True)
    with pytest.raises(MethodError, match="this task has no ranking"):
        choose("auto", None, small, no_model=True)


def test_auto_leaves_the_model_out_where_it_did_not_earn_its_time(monkeypatch):
    from prism_edge import methods

    small = ScriptedBackend(scorer=scorer, parameters=135_000_000)
    monkeypatch.setitem(methods.MODEL_FREE_BELOW, "definitions", "measured: it added nothing")
    choice = choose("auto", "definitions", small)
    assert choice.model_free and "the program ranks alone" in choice.reason
    assert choice.evidence == "measured: it added nothing"
    large = ScriptedBackend(scorer=scorer, parameters=8_000_000_000)
    assert choose("auto", "definitions", large).name == "revisions"  # 1B and up: written
    assert not choose("definitions", "definitions", small).model_free  # asked by name


def test_run_with_no_model_says_so_in_the_plan_and_scores_nothing(monkeypatch, tmp_path):
    backend = ScriptedBackend(scorer=scorer, parameters=135_000_000)
    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: backend)
    story = tmp_path / "tale.txt"
    story.write_text(TALE, encoding="utf-8")
    out = invoke("run", str(story), "--task", "summarize", "--no-model", "--no-log")
    assert out.exit_code == 0, out.output
    assert "method outline (--no-model: the program ranks alone)" in out.stderr
    assert "Mowgli" in out.stdout
    assert backend.evaluated == 0  # no prompt evaluated: nothing scored


def test_a_task_that_needs_a_query_is_refused_before_any_model_loads(monkeypatch, tmp_path):
    def no_model(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a model was opened before the refusal")

    monkeypatch.setattr(factory, "open_backend", no_model)
    story = tmp_path / "story.txt"
    story.write_text(STORY, encoding="utf-8")
    for task in ("code-search", "table-qa"):
        out = invoke("run", str(story), "--task", task)
        assert out.exit_code == 2 and f"--task {task} needs --query" in out.stderr, out.output
