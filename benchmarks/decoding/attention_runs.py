"""The methods that write, with flash attention on (the old default) and with the attention the
run chooses (by hand, alone on the machine).

Over the first chunks of several texts, runs the incremental baseline and the paper's PRISM
amendments, free and grounded, on two backends of one model: one with flash attention given
(on), one that lets each run choose (``Backend.suit``: on the embedded model it turns flash
attention off for these methods). Which goes first alternates by text. Prints, per text and
method, each setting's wall time, tokens decoded, input tokens per second, entity recall, and
whether the two memories are the same (greedy decoding under another attention can choose
another token where two are close), then the totals.

    python benchmarks/decoding/attention_runs.py TEXT [TEXT ...] [--chunks 8] \
        [--chunk-tokens 1024] [--model smollm2-135m] [--out benchmarks/results/attention_runs.txt]
"""

from __future__ import annotations

from side_by_side import arguments, first_chunks, summary_task

from prism_edge.backends.catalog import resolve_model
from prism_edge.backends.llama_cpp import LlamaCppBackend
from prism_edge.engine.session import counter
from prism_edge.eval.bench import MethodRow, run_methods

METHODS = ("incremental", "PRISM amendments", "PRISM amendments grounded")
SETTINGS = ("flash on (given)", "chosen")


def _recall(row: MethodRow) -> str:
    r = row.recall
    return "" if r is None else f"{len(r.found)}/{len(r.found) + len(r.missed)}"


def main() -> None:
    args = arguments(__doc__)
    path = resolve_model(args.model)
    n_ctx = args.chunk_tokens * 2 + 2048
    backends = {
        SETTINGS[0]: LlamaCppBackend(path, n_ctx=n_ctx, flash_attn=True),
        SETTINGS[1]: LlamaCppBackend(path, n_ctx=n_ctx),
    }
    count = counter(backends[SETTINGS[0]])
    out = args.out.open("w", encoding="utf-8") if args.out else None

    def say(line: str) -> None:
        print(line, flush=True)
        if out is not None:
            print(line, file=out, flush=True)

    say(
        f"model {path.name}, the first {args.chunks} chunks of up to {args.chunk_tokens} "
        "tokens of each text, temperature 0"
    )
    say(
        "| text | method | setting | engine | wall s | decoded tokens | input tok/s |"
        " entity recall | same memory |"
    )
    say("|---|---|---|---|---|---|---|---|---|")
    totals: dict[tuple[str, str], float] = {}
    for n, text_path in enumerate(args.texts):
        task = summary_task(text_path)
        chunks = first_chunks(text_path, args.chunks, args.chunk_tokens, count)
        order = SETTINGS if n % 2 == 0 else SETTINGS[::-1]  # which goes first alternates
        rows = {
            setting: run_methods(backends[setting], task, chunks, "".join(chunks), methods=METHODS)
            for setting in order
        }
        for i, method in enumerate(METHODS):
            given, chosen = rows[SETTINGS[0]][i], rows[SETTINGS[1]][i]
            same = "" if given.memory is None else str(given.memory == chosen.memory)
            for setting, row in ((SETTINGS[0], given), (SETTINGS[1], chosen)):
                m = row.metrics
                assert m is not None
                totals[(method, setting)] = totals.get((method, setting), 0.0) + m.wall_s
                rate = row.input_rate() or 0.0
                say(
                    f"| {text_path.name} | {method} | {setting} | {row.engine} | {m.wall_s:.1f} "
                    f"| {m.decoded_tokens} | {rate:.0f} | {_recall(row)} | {same} |"
                )
    for method in METHODS:
        given, chosen = totals[(method, SETTINGS[0])], totals[(method, SETTINGS[1])]
        say(
            f"{method}, all texts: wall {chosen:.1f} s chosen against {given:.1f} s with flash "
            f"attention ({chosen / given:.2f})"
        )
    if out is not None:
        out.close()


if __name__ == "__main__":
    main()
