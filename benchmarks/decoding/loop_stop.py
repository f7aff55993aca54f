"""Stopping the loops a model falls into, against decoding each loop to its budget (by hand,
alone on the machine).

Runs the paper's PRISM amendments (free, as `prism-edge bench` runs "PRISM amendments") and
the incremental baseline over the first chunks of several texts twice on one model, the loop
stop off and on (which goes first alternates by text), and prints for each text and method the
wall time, the tokens decoded, the loops stopped (free outputs ended, revision lines closed),
the stored strings that hold a loop (a piece of 1-8 characters 8 times running: garbage in the
memory) and the entity recall of the answer against the text's entity list
(``benchmarks/data/dev-set/*.entities``).

    python benchmarks/decoding/loop_stop.py TEXT [TEXT ...] [--chunks 8] [--chunk-tokens 1024] \
        [--model smollm2-135m] [--out benchmarks/results/loop_stop.txt]
"""

from __future__ import annotations

import re
from typing import Any

from side_by_side import arguments, first_chunks, summary_task

from prism_edge.backends.catalog import resolve_model
from prism_edge.backends.llama_cpp import LlamaCppBackend
from prism_edge.engine.session import counter
from prism_edge.eval.bench import MethodRow, run_methods

METHODS = ("incremental", "PRISM amendments")
GARBAGE = re.compile(r"(.{1,8}?)\1{7,}", re.DOTALL)
"""A piece of 1-8 characters repeated 8 times running."""


def _looping_strings(memory: object) -> tuple[int, int]:
    """(strings holding a loop, strings) in a memory."""
    strings = _strings(memory)
    return sum(bool(GARBAGE.search(s)) for s in strings), len(strings)


class _LoopCount:
    """Counts the loops the backend stopped: free outputs ended (finish reason ``loop``) and
    revision lines closed (``looped_lines``)."""

    def __init__(self, backend: LlamaCppBackend) -> None:
        self.backend, self.count = backend, 0
        self._generate = backend.generate

        def generate(*args: Any, **kwargs: Any) -> Any:
            completion = self._generate(*args, **kwargs)
            self.count += (completion.finish_reason == "loop") + len(completion.looped_lines)
            return completion

        backend.generate = generate  # type: ignore[method-assign]

    def stop(self) -> int:
        del self.backend.generate  # the class's method again
        return self.count


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *_strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def main() -> None:
    args = arguments(__doc__)
    path = resolve_model(args.model)
    backend = LlamaCppBackend(path, n_ctx=args.chunk_tokens * 2 + 2048)
    count = counter(backend)
    lines = [
        f"model {path.name}, the first {args.chunks} chunks of up to {args.chunk_tokens} tokens "
        "of each text, temperature 0",
        "| text | method | stop on loop | wall s | decoded tokens | loops stopped |"
        " stored strings holding a loop | entity recall |",
        "|---|---|---|---|---|---|---|---|",
    ]
    totals: dict[tuple[str, bool], list[float]] = {}
    for n, text_path in enumerate(args.texts):
        task = summary_task(text_path)
        chunks = first_chunks(text_path, args.chunks, args.chunk_tokens, count)
        rows: dict[bool, list[MethodRow]] = {}
        loops: dict[tuple[str, bool], int] = {}
        for on in (False, True) if n % 2 == 0 else (True, False):  # which goes first alternates
            backend.stop_on_loop = on
            rows[on] = []
            for method in METHODS:
                ended = _LoopCount(backend)
                rows[on] += run_methods(backend, task, chunks, "".join(chunks), methods=[method])
                loops[(method, on)] = ended.stop()
        for i, method in enumerate(METHODS):
            for on in (False, True):
                row = rows[on][i]
                m = row.metrics
                assert m is not None
                looping, stored = _looping_strings(row.memory) if row.memory else (0, 0)
                dropped = loops[(method, on)]
                total = totals.setdefault((method, on), [0.0, 0.0])
                total[0] += m.wall_s
                total[1] += m.decoded_tokens
                recall = (
                    ""
                    if row.recall is None
                    else f"{len(row.recall.found)}/{len(row.recall.found) + len(row.recall.missed)}"
                )
                lines.append(
                    f"| {text_path.name} | {method} | {'on' if on else 'off'} | {m.wall_s:.1f} | "
                    f"{m.decoded_tokens} | {dropped} | "
                    f"{f'{looping}/{stored}' if row.memory is not None else ''} | {recall} |"
                )
            print("\n".join(lines[-2:]), flush=True)
    for method in METHODS:
        off, on = totals[(method, False)], totals[(method, True)]
        lines.append(
            f"{method}, all texts: wall {on[0]:.1f} s against {off[0]:.1f} s "
            f"({on[0] / off[0]:.2f}), decoded {on[1]:.0f} against {off[1]:.0f} "
            f"({on[1] / max(off[1], 1):.2f})"
        )
    report = "\n".join(lines)
    print(report)
    if args.out:
        args.out.write_text(report + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
