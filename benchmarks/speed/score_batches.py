"""What a scoring call's size costs, and why candidates are not evaluated with the passage
(by hand, alone on the machine).

A scored method (names, definitions, tables) evaluates, per chunk, the passage (hundreds of
tokens), then the prompt's last token alone and its candidates' tokens (a few to a few dozen)
in small llama.cpp calls. Part 1 times a call of N tokens at KV depth D, with flash attention
off and on (median of 7): per token, a small call costs far more than a large one with flash
attention on. Part 2 is what merging the small calls into the passage's call would do to the
scores: with flash attention a call of 64 or more tokens takes another path, whose numbers
depend on the other rows of the call, so a candidate scored among others (140 candidate rows)
gets another log-probability than alone, and (the passage in the same call) another again
when the candidates come in another order.

    python benchmarks/speed/score_batches.py > benchmarks/results/score_batches.txt
"""

from __future__ import annotations

import statistics
import time

from prism_edge.backends.llama_cpp import LlamaCppBackend
from prism_edge.prompts import Part, Prompt

SIZES = (1, 2, 3, 8, 21, 32, 63, 64, 128, 512)
DEPTHS = (27, 300, 576)


def call_ms(backend: LlamaCppBackend, tokens: list[int], depth: int, n: int) -> float:
    llama = backend.llama
    times = []
    for _ in range(7):
        llama._ctx.kv_cache_seq_rm(-1, depth, -1)
        llama.n_tokens = depth
        start = time.perf_counter()
        llama.eval(tokens[depth : depth + n])
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def timings() -> None:
    print("## Part 1: one llama.cpp call of N tokens at KV depth D (SmolLM2, ms per token)\n")
    print("| flash attention | depth | " + " | ".join(f"N={n}" for n in SIZES) + " |")
    print("|---|---|" + "---|" * len(SIZES))
    for flash in (False, True):
        backend = LlamaCppBackend(n_ctx=2048, flash_attn=flash)
        filler = backend.tokenize("The wolf cub ran to the council rock at night. " * 200)
        for depth in DEPTHS:
            backend.reset_cache()
            backend._prefill_head(filler[:depth])
            cells = [f"{call_ms(backend, filler, depth, n) / n:.2f}" for n in SIZES]
            print(f"| {'on' if flash else 'off'} | {depth} | " + " | ".join(cells) + " |")
        backend.llama.close()


def numerics() -> None:
    print("\n## Part 2: a candidate's log-probability alone and among 140 candidate rows\n")
    backend = LlamaCppBackend(n_ctx=1024, flash_attn=True)
    passage = "Mowgli ran to the council rock, where Akela the grey wolf sat. " * 8
    prompt = Prompt((Part("Passage:\n"), Part(passage, "document"), Part("\nWho is it about?")))
    names = [
        " Bagheera the black panther of the jungle",
        " Shere Khan the tiger",
        " Baloo the bear who teaches the law",
        " Kaa the python",
        " a ship on the sea",
        " Mother Wolf and Father Wolf",
        " the Bandar-log monkeys",
        " Hathi the elephant",
        " Akela the lone wolf",
        " the council rock",
    ] * 2
    names = [f"{n} {i}" for i, n in enumerate(names)]
    rows = sum(len(backend.tokenize(n)) - 1 for n in names)
    together = [s.logprob for s in backend.score(prompt, names)]
    alone = [backend.score(prompt, [n])[0].logprob for n in names[:4]]
    print(f"candidate rows in one call: {rows}")
    print("| candidate | alone | among the others | difference |")
    print("|---|---|---|---|")
    for name, a, t in zip(names, alone, together, strict=False):
        print(f"| {name.strip()} | {a:.3f} | {t:.3f} | {t - a:+.3f} |")


if __name__ == "__main__":
    timings()
    numerics()
