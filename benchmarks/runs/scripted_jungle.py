"""The paper's token accounting on the scripted backend (exact, no model, a few seconds).

The whole Jungle Book in 2048-token chunks (the scripted tokenizer counts words, punctuation
and whitespace runs), the same deterministic revisions in both memory encodings: each chunk
adds its first new character names and updates the ones already stored. Prints cache hit, net
tokens and cost index for in-place and amendments, and checks both end with the same memory.

    python benchmarks/runs/scripted_jungle.py
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.engine.runner import PrismConfig, run_prism
from prism_edge.methods.presets import TASKS
from prism_edge.prompts import Prompt
from prism_edge.text.chunking import chunk_document

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "jungle-book.txt"
NAME = re.compile(r"\b([A-Z][a-z]{3,})\b")


def reviser(prompt: Prompt) -> str:
    if "[ANSWER]" in prompt.text:
        return "Mowgli, raised by wolves, learns the Law of the Jungle."
    chunk, memory = prompt.of_kind("document"), prompt.of_kind("memory")
    updates, adds = ["[OBJECTS FOR UPDATE]"], ["[OBJECTS FOR ADD]"]
    for name in list(dict.fromkeys(NAME.findall(chunk)))[:4]:
        at = chunk.index(name)
        sentence = " ".join(chunk[at : at + 120].split())
        path = f"$.'attributes'.'{name}'"
        known = f"'{name}'" in memory or f'"{name}"' in memory
        line = {path: {"update" if known else "add": [sentence]}}
        (updates if known else adds).append(json.dumps(line))
    return "\n".join(updates + adds)


def main() -> None:
    schema = TASKS["summarize"].schema
    counter = ScriptedBackend()
    chunks = list(
        chunk_document(
            "jungle-book",
            DATA.read_text(encoding="utf-8"),
            "prose",
            2048,
            lambda t: len(counter.tokenize(t)),
        )
    )
    memories = {}
    print(f"{len(chunks)} chunks of up to 2048 scripted tokens")
    print("| encoding | calls | prompt | reused | net | decoded | cache hit | cost index |")
    print("|---|---|---|---|---|---|---|---|")
    for encoding in ("in-place", "amendments"):
        backend = ScriptedBackend(responder=reviser, n_ctx=32768)
        result = run_prism(
            backend, schema, PrismConfig(question="Summarize the book.", encoding=encoding), chunks
        )
        m = result.metrics
        memories[encoding] = result.memory.data
        print(
            f"| {encoding} | {len(m.calls)} | {m.prompt_tokens} | {m.reused_tokens} | "
            f"{m.net_tokens} | {m.decoded_tokens} | {m.cache_hit:.1%} | "
            f"{m.cost_index:.4f} |"
        )
    print("same final memory:", memories["in-place"] == memories["amendments"])


if __name__ == "__main__":
    main()
