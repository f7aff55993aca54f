"""Re-write the summaries by names from the memories a dev-set run stored, with the answer
code as it is now, and score them again (by hand; no model call but its tokenizer).

For a change to how the answer is written from the stored sentences (the header, the cover,
the paragraphs): every stored memory of a `benchmarks/summaries/dev_set.py run` folder is
answered again with `covering_answer` (the mentions are counted in the stored sentences, since
the reports do not keep the run's own counts), before and after being comparable only with
each other.

    python benchmarks/summaries/replay_summaries.py benchmarks/results/dev-set-512-smollm2 \
        [--answer-tokens 512] [--model smollm2-135m]
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

from prism_edge.app.inspect import load_tokenizer
from prism_edge.eval.quality import entity_recall, load_entities
from prism_edge.methods.names import FIELD, covering_answer

ROOT = Path(__file__).resolve().parents[2]
HELD_OUT = "persuasion"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--answer-tokens", type=int, default=512)
    parser.add_argument("--model", default=None)
    args = parser.parse_args()
    tokenizer = load_tokenizer(args.model)

    def count(text: str) -> int:
        return len(tokenizer.tokenize(text))

    scores: dict[str, list[float]] = {}
    print("| text | method | entity recall | header |")
    print("|---|---|---|---|")
    for report in sorted(args.folder.glob("*.json")):
        entities = load_entities(
            ROOT / "benchmarks" / "data" / "dev-set" / f"{report.stem}.entities"
        )
        for method in json.loads(report.read_text(encoding="utf-8"))["methods"]:
            entries = (method.get("memory") or {}).get(FIELD)
            if not entries:
                continue
            answer = covering_answer(entries, args.answer_tokens, count)
            recall = entity_recall(answer, entities).value
            if report.stem != HELD_OUT:
                scores.setdefault(method["name"], []).append(recall)
            header = answer.split("\n", 1)[0][:100]
            print(f"| {report.stem} | {method['name']} | {recall:.2f} | {header} |")
    print()
    for name, values in scores.items():
        print(
            f"{name}: mean {statistics.mean(values):.3f}, worst {min(values):.2f} "
            f"over {len(values)} texts (held out {HELD_OUT} not counted)"
        )


if __name__ == "__main__":
    main()
