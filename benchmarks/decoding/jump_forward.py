"""Jump-forward decoding against token-by-token decoding, side by side (by hand).

Runs grounded PRISM (amendments, the revisions of the summarize task) over the first chunks of
a text twice on the same model, jump-forward on and off, alternating which goes first, and
prints each run's wall time, decoded and forced tokens, and whether the memories and answers
are identical (they must be at temperature 0).

    python benchmarks/decoding/jump_forward.py [--text ../shared/data/jungle-book.txt] \
        [--chunks 6] [--model smollm2-135m] [--out benchmarks/results/jump_forward.txt]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from prism_edge.backends.catalog import resolve_model
from prism_edge.backends.llama_cpp import LlamaCppBackend
from prism_edge.engine.session import Session, counter
from prism_edge.methods.presets import TASKS
from prism_edge.text.chunking import chunk_text


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    default_text = Path(__file__).resolve().parents[3] / "shared" / "data" / "jungle-book.txt"
    parser.add_argument("--text", type=Path, default=default_text)
    parser.add_argument("--chunks", type=int, default=6)
    parser.add_argument("--chunk-tokens", type=int, default=1024)
    parser.add_argument("--model", default=None)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    path = resolve_model(args.model)
    backends = {
        on: LlamaCppBackend(path, n_ctx=args.chunk_tokens * 2 + 2048, jump_forward=on)
        for on in (True, False)
    }
    text = args.text.read_text(encoding="utf-8")
    count = counter(backends[True])
    chunks = []
    for chunk in chunk_text(text, args.chunk_tokens, count):
        chunks.append(chunk)
        if len(chunks) == args.chunks:
            break
    task = TASKS["summarize"]
    config = task.configure(grounded=True, max_tokens=256, answer_max_tokens=256)
    results = {}
    for on in (False, True):  # token by token first: the cold start costs it, not jump-forward
        backend = backends[on]
        backend.reset_cache()
        result = Session(backend, task.schema, config, chunks).run()
        m = result.metrics
        results[on] = result
        print(
            f"jump-forward {'on ' if on else 'off'}: wall {m.wall_s:.1f} s, decoded "
            f"{m.decoded_tokens}, forced {m.forced_tokens}, net {m.net_tokens}",
            flush=True,
        )
    same_memory = results[True].memory.data == results[False].memory.data
    same_answer = results[True].answer == results[False].answer
    on, off = results[True].metrics, results[False].metrics
    lines = [
        f"model {path.name}, {len(chunks)} chunks of up to {args.chunk_tokens} tokens of "
        f"{args.text.name}, grounded PRISM amendments, temperature 0",
        "| decoding | wall s | decoded tokens | forced (batched) tokens | net prompt tokens |",
        "|---|---|---|---|---|",
        f"| token by token | {off.wall_s:.1f} | {off.decoded_tokens} | 0 | {off.net_tokens} |",
        f"| jump-forward | {on.wall_s:.1f} | {on.decoded_tokens} | {on.forced_tokens} | "
        f"{on.net_tokens} |",
        f"wall ratio (jump-forward / token by token): {on.wall_s / off.wall_s:.2f}",
        f"identical memory: {same_memory}; identical answer: {same_answer}",
    ]
    if not same_memory:
        lines.append("memory (jump-forward): " + json.dumps(results[True].memory.data)[:2000])
        lines.append("memory (token by token): " + json.dumps(results[False].memory.data)[:2000])
    report = "\n".join(lines)
    print(report)
    if args.out:
        args.out.write_text(report + "\n", encoding="utf-8")
    sys.exit(0 if same_memory and same_answer else 1)


if __name__ == "__main__":
    main()
