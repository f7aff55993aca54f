"""Ending a step at the first token after which its line can only be a repeat, against
decoding that line to its end (by hand, alone on the machine).

Runs grounded PRISM amendments (the summarize task's revisions, extractive grounding, as
`prism-edge run --method revisions` does) over the first chunks of several texts twice on one
model, the early stop off and on (which goes first alternates by text), and prints for each
text the wall time and decoded tokens of both and whether the memories and answers are
identical (they must be: the line cut short is one the applier refuses as a repeat, and a
repeat ends the step either way).

    python benchmarks/decoding/repeat_stop.py TEXT [TEXT ...] [--chunks 8] [--chunk-tokens 1024] \
        [--model smollm2-135m] [--out benchmarks/results/repeat_stop.txt]
"""

from __future__ import annotations

import sys

from side_by_side import arguments, first_chunks

from prism_edge.backends.catalog import resolve_model
from prism_edge.backends.llama_cpp import LlamaCppBackend
from prism_edge.engine.session import Session, counter
from prism_edge.methods.presets import TASKS


def main() -> None:
    args = arguments(__doc__)
    path = resolve_model(args.model)
    backend = LlamaCppBackend(path, n_ctx=args.chunk_tokens * 2 + 2048)
    count = counter(backend)
    task = TASKS["summarize"]
    config = task.configure(grounded=True)
    lines = [
        f"model {path.name}, the first {args.chunks} chunks of up to {args.chunk_tokens} tokens "
        "of each text, grounded PRISM amendments, temperature 0",
        "| text | stop on repeat | wall s | decoded tokens | applied | repeats | same memory |"
        " same answer |",
        "|---|---|---|---|---|---|---|---|",
    ]
    totals = {False: [0.0, 0], True: [0.0, 0]}
    identical = True
    for n, text_path in enumerate(args.texts):
        chunks = first_chunks(text_path, args.chunks, args.chunk_tokens, count)
        results = {}
        for on in (False, True) if n % 2 == 0 else (True, False):  # which goes first alternates
            backend.stop_on_repeat = on
            backend.reset_cache()
            results[on] = Session(backend, task.schema, config, chunks).run()
        same_memory = results[True].memory.data == results[False].memory.data
        same_answer = results[True].answer == results[False].answer
        identical = identical and same_memory and same_answer
        for on in (False, True):
            r, m = results[on], results[on].metrics
            totals[on][0] += m.wall_s
            totals[on][1] += m.decoded_tokens
            lines.append(
                f"| {text_path.name} | {'on' if on else 'off'} | {m.wall_s:.1f} | "
                f"{m.decoded_tokens} | {r.applied} | {r.duplicates} | {same_memory} | "
                f"{same_answer} |"
            )
        print("\n".join(lines[-2:]), flush=True)
    off, on = totals[False], totals[True]
    lines.append(
        f"all texts: wall {on[0]:.1f} s against {off[0]:.1f} s ({on[0] / off[0]:.2f}), "
        f"decoded {on[1]} against {off[1]} ({on[1] / max(off[1], 1):.2f}); "
        f"identical memories and answers: {identical}"
    )
    report = "\n".join(lines)
    print(report)
    if args.out:
        args.out.write_text(report + "\n", encoding="utf-8")
    sys.exit(0 if identical else 1)


if __name__ == "__main__":
    main()
