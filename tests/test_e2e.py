"""End to end with the embedded model, in subprocesses, as a user runs it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.run_state import run_state, saved_state

pytestmark = pytest.mark.model

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "mowglis-brothers.txt"
ARGS = [
    "--task",
    "summarize",
    "--chunk-tokens",
    "256",
    "--max-tokens",
    "96",
    "--answer-tokens",
    "48",
    "--json",
    "-q",
    "--method",
    "revisions",  # these runs check revision steps, checkpoints and resume
]


@pytest.fixture(scope="module")
def text_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("e2e") / "excerpt.txt"
    path.write_text(EXAMPLE.read_text(encoding="utf-8")[:7000], encoding="utf-8")
    return path


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "prism_edge", "run", *args]


@pytest.fixture(scope="module")
def uninterrupted(text_file: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    run_dir = tmp_path_factory.mktemp("full")
    done = subprocess.run(
        cli(str(text_file), *ARGS, "--run-dir", str(run_dir)),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_json_metrics_are_consistent(uninterrupted):
    m = uninterrupted["metrics"]
    assert m["calls"] == uninterrupted["steps"] + 1 and uninterrupted["chunks"] >= 5
    assert m["net_tokens"] == m["prompt_tokens"] - m["reused_tokens"]
    assert m["cost_index"] == pytest.approx(
        (m["net_tokens"] + 3 * m["decoded_tokens"]) / 1e6, abs=1e-6
    )
    assert 0 < m["cache_hit"] < 1 and m["reused_tokens"] > 0
    assert uninterrupted["revisions"]["rejected"] == 0  # the grammar makes every one valid
    assert isinstance(uninterrupted["answer"], str) and uninterrupted["answer"]


def test_killed_run_resumes_to_the_same_memory(text_file, uninterrupted, tmp_path):
    run_dir = tmp_path / "killed"
    process = subprocess.Popen(
        cli(str(text_file), *ARGS, "--run-dir", str(run_dir)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 300
    steps = 0
    while time.monotonic() < deadline and process.poll() is None:
        state = run_state(run_dir)
        if state.exists():
            try:
                steps = saved_state(run_dir)["counts"]["steps"]
            except (json.JSONDecodeError, KeyError):
                steps = 0  # never expected: writes are atomic
                raise
            if steps >= 2:
                break
        time.sleep(0.05)
    assert process.poll() is None, "the run ended before it could be killed"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    saved = saved_state(run_dir)
    assert not saved["finished"] and saved["counts"]["steps"] >= 2
    done = subprocess.run(
        cli(str(text_file), *ARGS, "--run-dir", str(run_dir), "--resume"),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    resumed = json.loads(done.stdout)
    assert resumed["memory"] == uninterrupted["memory"]
    assert resumed["steps"] == uninterrupted["steps"]
    assert resumed["metrics"]["calls"] == uninterrupted["metrics"]["calls"]


def test_bench_runs_end_to_end_on_the_embedded_model(text_file, tmp_path):
    small = tmp_path / "small.txt"
    small.write_text(text_file.read_text(encoding="utf-8")[:1500], encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "prism_edge",
            "bench",
            str(small),
            "--chunk-tokens",
            "256",
            "--max-tokens",
            "48",
            "--answer-tokens",
            "24",
            "--methods",  # one of each kind: a baseline of each shape, written, none, scored
            "long context,incremental,PRISM amendments,lead sentences,PRISM names",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert payload["calibration"]["prefill_tok_s"] > 0
    names = [m["name"] for m in payload["methods"]]
    assert names[0] == "long context" and "PRISM amendments" in names
    for m in payload["methods"]:
        assert m["net_tokens"] == m["prompt_tokens"] - round(m["cache_hit"] * m["prompt_tokens"])
        if m["prompt_tokens"]:  # lead sentences calls no model
            assert m["bound_s"] > 0 and m["wall_s"] > 0


def test_a_grounded_run_stores_and_answers_only_what_the_text_says(text_file, tmp_path):
    from prism_edge.methods.presets import TASKS
    from prism_edge.text.grounding import FUNCTION_WORDS, Grounding, names_of, words_of

    text = text_file.read_text(encoding="utf-8")[:1500]  # two chunks: a memory to revise
    small = tmp_path / "small.txt"
    small.write_text(text, encoding="utf-8")
    done = subprocess.run(
        cli(str(small), *ARGS, "--grounded", "--run-dir", str(tmp_path / "run")),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    attributes = out["memory"]["attributes"]
    assert out["revisions"]["applied"] > 0 and out["revisions"]["rejected"] == 0
    # a summary's grounding is extractive: every key is a name of the text (or, in a chunk
    # with none, a span), every value a sentence of the text that names its key
    keys = set(names_of(text)) | Grounding.of(text).spans
    flat = " ".join(text.split())
    for key, values in attributes.items():
        assert key in keys, key
        for value in values:
            assert value in flat and key in value, (key, value)
    # the answer walks the memory's names, in the memory's words, the question's and
    # function words only
    allowed = {w.casefold() for w in words_of(json.dumps(out["memory"], ensure_ascii=False))}
    allowed |= {w.casefold() for w in words_of(TASKS["summarize"].default_question or "")}
    allowed |= FUNCTION_WORDS
    assert out["answer"] and {w.casefold() for w in words_of(out["answer"])} <= allowed
    for paragraph in out["answer"].split("\n\n"):
        assert any(paragraph.startswith(key) for key in attributes), paragraph


JINJA = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "jinja2_filters.py"
MOBY = Path(__file__).resolve().parents[2] / "shared" / "data" / "moby-dick.txt"
DEFAULTS = {
    # the default method of each task on the embedded model: no --method given (a code
    # search over files reads an index: test_an_interrupted_code_search_continues_...)
    # the default summary (outline) reads its text whole in under a second, with nothing to
    # resume: the chunked summary by names is, without the model (a long book, so Ctrl-C
    # lands mid-run)
    "summarize": (MOBY, ["--task", "summarize", "--method", "names", "--no-model"], "names"),
}


def interrupt_after(command: list[str], run_dir: Path, steps: int) -> None:
    """Start ``command`` and press Ctrl-C (SIGINT) once its checkpoint in ``run_dir`` holds
    ``steps``."""
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and process.poll() is None:
        state = run_state(run_dir)
        if state.exists() and saved_state(run_dir)["counts"]["steps"] >= steps:
            break
        time.sleep(0.05)
    assert process.poll() is None, "the run ended before it could be interrupted"
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=120) != 0


@pytest.mark.parametrize("task", sorted(DEFAULTS))
def test_the_default_method_resumes_after_ctrl_c_to_the_same_answer(task, tmp_path):
    source, args, method = DEFAULTS[task]
    if source == MOBY:  # a third of the book: long enough for Ctrl-C to land mid-run
        excerpt = tmp_path / "moby-dick-excerpt.txt"
        excerpt.write_text(MOBY.read_text(encoding="utf-8")[:400_000], encoding="utf-8")
        source = excerpt
    full = subprocess.run(
        cli(str(source), *args, "--run-dir", str(tmp_path / "full")),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert full.returncode == 0, full.stderr
    how = "--no-model: the program ranks alone" if task == "summarize" else "chooses by scores"
    assert f"method {method} ({how}" in full.stderr or (
        f"method {method} (auto: a 135M model {how}" in full.stderr
    )
    assert "ETA" in full.stderr and "tok/s" in full.stderr  # the progress line
    run_dir = tmp_path / "interrupted"
    interrupt_after(cli(str(source), *args, "--run-dir", str(run_dir)), run_dir, 2)
    saved = saved_state(run_dir)
    assert not saved["finished"] and saved["method"]["name"] == method
    resumed = subprocess.run(
        cli(str(source), *args, "--run-dir", str(run_dir), "--resume"),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert "resuming after step" in resumed.stderr
    assert resumed.stdout == full.stdout and full.stdout.strip()  # byte for byte


def stdlib_copy(target: Path) -> Path:
    """The Python standard library's modules without their tests, copied (700-odd files)."""
    import shutil
    import sysconfig

    source = Path(sysconfig.get_paths()["stdlib"])
    skip = {"test", "tests", "idle_test", "site-packages", "__pycache__"}
    for path in source.rglob("*.py"):
        relative = path.relative_to(source)
        if skip.isdisjoint(relative.parts):
            (target / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target / relative)
    return target


def test_an_interrupted_code_search_continues_to_the_same_answer(tmp_path):
    """Ctrl-C while a repository is read into its index (or while the model scores): exit
    130, the files read are kept, and the same command reads the rest and answers as an
    uninterrupted run."""
    folder = stdlib_copy(tmp_path / "Lib")
    query = ["--task", "code-search", "--query", "Split a web address into its six parts"]
    env = {**os.environ, "PRISM_EDGE_CACHE": str(tmp_path / "whole")}
    full = subprocess.run(cli(str(folder), *query), capture_output=True, text=True,
                          timeout=600, check=False, env=env)  # fmt: skip
    assert full.returncode == 0, full.stderr
    assert "new" in full.stderr and full.stdout.strip()
    cache = tmp_path / "cache"
    env["PRISM_EDGE_CACHE"] = str(cache)
    process = subprocess.Popen(cli(str(folder), *query), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env,
                               text=True)  # fmt: skip
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and process.poll() is None:
        if any(path.stat().st_size for path in cache.glob("index-*.jsonl")):
            break  # lines are handed over every two seconds: the reading is under way
        time.sleep(0.02)
    assert process.poll() is None, "the run ended before it could be interrupted"
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert "interrupted after" in stderr and "the same command continues" in stderr
    again = subprocess.run(cli(str(folder), *query), capture_output=True, text=True,
                           timeout=600, check=False, env=env)  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert " unchanged" in again.stderr  # the files read before Ctrl-C were not parsed again
    assert again.stdout == full.stdout  # the same answer
