"""Which PRISM settings give a small model answers worth having (issue 7), side by side (by hand).

On the first chunks of the Jungle Book, one model, each setting from a cold cache: PRISM
amendments free or grounded (new keys are word spans of the chunk, strings its words, the
answer only the memory's words), with repeat penalties on the revision calls, next to the
incremental and hierarchical baselines on the same chunks. Prints per setting: revisions
applied, repeats dropped, the faithfulness proxy, repeated word trigrams in stored strings
(loops), key-entity recall of the answer, wall seconds, and the first keys stored.

    python benchmarks/summaries/quality_settings.py [--model gemma3-270m] [--chunks 6]
        [--penalties 1.0,1.15,1.3] [--settings free,grounded] [--baselines]
"""

from __future__ import annotations

import argparse
import json
import time
from itertools import islice
from pathlib import Path
from typing import Any

from prism_edge.backends.catalog import resolve_model
from prism_edge.backends.llama_cpp import LlamaCppBackend
from prism_edge.engine.runner import PrismConfig, PrismRunner, StepDone
from prism_edge.eval.baselines import BaselineConfig, hierarchical, incremental
from prism_edge.eval.quality import (
    Faithfulness,
    entity_recall,
    load_entities,
    repeated_ngrams,
    stored_strings,
)
from prism_edge.methods.presets import TASKS
from prism_edge.text.chunking import chunk_document

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data" / "jungle-book.txt"
ENTITIES = ROOT / "benchmarks" / "data" / "jungle-book-entities.txt"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None)
    parser.add_argument("--chunks", type=int, default=6)
    parser.add_argument("--chunk-tokens", type=int, default=2048)
    parser.add_argument("--max-tokens", type=int, default=512)
    parser.add_argument("--penalties", default="1.0,1.15,1.3")
    parser.add_argument("--settings", default="free,grounded")
    parser.add_argument("--baselines", action="store_true")
    parser.add_argument("--json-out", type=Path, default=None)
    args = parser.parse_args()
    task = TASKS["summarize"]
    question = task.default_question or ""
    entities = load_entities(ENTITIES)
    backend = LlamaCppBackend(resolve_model(args.model), n_ctx=args.chunk_tokens * 2 + 2048)
    text = DATA.read_text(encoding="utf-8")
    count = lambda t: len(backend.tokenize(t))  # noqa: E731
    chunks = list(
        islice(chunk_document("jungle-book", text, "prose", args.chunk_tokens, count), args.chunks)
    )
    print(f"model {backend.name}, {len(chunks)} chunks of {args.chunk_tokens} tokens")
    rows: list[dict[str, Any]] = []
    for setting in args.settings.split(","):
        for penalty in (float(p) for p in args.penalties.split(",")):
            backend.reset_cache()
            config = PrismConfig(
                question=question,
                answer_instruction=task.answer_instruction,
                example=task.example,
                grounded=setting == "grounded",
                grounding=task.grounding,
                answer_outline=task.answer_outline,
                repeat_penalty=penalty,
                max_tokens=args.max_tokens,
            )
            runner = PrismRunner(backend, task.schema, config)
            faithful = Faithfulness()
            stored: list[str] = []
            start = time.perf_counter()
            for event in runner.run(chunks):
                if isinstance(event, StepDone):
                    faithful.add_step(event.chunk, event.applied)
                    for revision in event.applied:
                        stored += stored_strings(revision)
            wall = time.perf_counter() - start
            loops, grams = repeated_ngrams(stored)
            recall = entity_recall(runner.result.answer, entities)
            rows.append(
                {
                    "setting": f"PRISM amendments {setting}",
                    "repeat_penalty": penalty,
                    "applied": runner.result.applied,
                    "repeats": runner.result.duplicates,
                    "faithful": faithful.value,
                    "checked": faithful.total,
                    "loops": loops / grams if grams else None,
                    "recall": len(recall.found),
                    "found": list(recall.found),
                    "wall_s": round(wall, 1),
                    "keys": list(runner.memory.data.get("attributes", {}))[:8],
                    "answer": runner.result.answer,
                }
            )
            print(json.dumps(rows[-1], ensure_ascii=False), flush=True)
    if args.baselines:
        base = BaselineConfig(question, task.answer_instruction, args.max_tokens)
        for name, method in (("incremental", incremental), ("hierarchical", hierarchical)):
            backend.reset_cache()
            start = time.perf_counter()
            result = method(backend, chunks, base)
            recall = entity_recall(result.answer, entities)
            rows.append(
                {
                    "setting": name,
                    "recall": len(recall.found),
                    "found": list(recall.found),
                    "loops": (lambda r: r[0] / r[1] if r[1] else None)(
                        repeated_ngrams([result.answer or ""])
                    ),
                    "wall_s": round(time.perf_counter() - start, 1),
                    "answer": result.answer,
                }
            )
            print(json.dumps(rows[-1], ensure_ascii=False), flush=True)
    print()
    print(
        "| setting | repeat penalty | applied | repeats dropped | faithful | looped trigrams "
        f"| entity recall (of {len(entities)}) | wall s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        share = "" if r.get("faithful") is None else f"{r['faithful']:.2f} ({r['checked']})"
        looped = "" if r.get("loops") is None else f"{r['loops']:.2f}"
        print(
            f"| {r['setting']} | {r.get('repeat_penalty', '')} | {r.get('applied', '')} | "
            f"{r.get('repeats', '')} | {share} | {looped} | {r['recall']} | {r['wall_s']} |"
        )
    if args.json_out:
        args.json_out.write_text(json.dumps(rows, ensure_ascii=False, indent=2) + "\n")


if __name__ == "__main__":
    main()
