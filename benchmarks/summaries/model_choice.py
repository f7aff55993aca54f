"""The model's one decision in a summary by outline, measured against the program's on the
same texts (issue 52, point 7): which of a part's three best sentences carries it.

    flock /tmp/llama.lock python benchmarks/summaries/model_choice.py [--model NAME]

Both ways on every text of the development sets (the same outline, the same parts; only the
chosen sentences differ), scored by ``score.py`` (entities named in sentences, roles stated,
parts covered) and by how many of the chosen sentences share a content word with the title of
the part they tell (the text's own headings: an author's word for what the part is about),
rule texts and held-out texts apart; with the seconds each way took. ``auto`` uses the model
only where it wins on the held-out texts.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import score as scoring

from prism_edge.backends import factory
from prism_edge.engine.runner import PrismRunner
from prism_edge.methods.outline.method import Outlined
from prism_edge.methods.presets import TASKS
from prism_edge.text.passages import content_words

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"


def heading_words(case: scoring.Case, summary: str) -> float | None:
    """Of the part lines of ``summary`` whose part has a reference title, the share whose
    sentences share a content word with that title."""
    if not case.new:
        return None
    ref = json.loads((scoring.DATA / f"{case.name}.json").read_text())
    titled = [p for p in ref["parts"] if p.get("title")]
    if not titled:
        return None
    text_norm, offsets = scoring._normalized_with_offsets(case.text)
    hits = total = 0
    block = summary.split("Its parts:" if "Its parts:" in summary else "What happens:")[-1]
    for sentence in scoring._sentences_of(block.split("\n\n")[0]):
        at = scoring.locate(sentence, text_norm, offsets)
        part = next((p for p in titled if at is not None and p["start"] <= at < p["end"]), None)
        if part is None:
            continue
        title = set(content_words(re.sub(r"^\S+\s+[\dIVXLC.]+\s*", "", part["title"])))
        total += 1
        hits += bool(title & set(content_words(sentence)))
    return hits / total if total else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None)
    parser.add_argument("--label", default="model-choice")
    parser.add_argument(
        "--split", choices=("held-out", "all"), default="held-out",
        help="held-out: the texts auto's decision rests on (the model takes minutes a text)",
    )  # fmt: skip
    args = parser.parse_args()
    backend = factory.open_backend(args.model, n_ctx=2048)
    task = TASKS["summarize"]
    config = task.configure()
    rows = []
    try:
        for case in scoring.cases():
            if args.split == "held-out" and not case.held_out:
                continue
            for choose in ("program", "model"):
                method = Outlined(config, choose=choose)  # type: ignore[arg-type]
                method.take(case.text)
                runner = PrismRunner(backend, task.schema, config, method=method)
                start = time.perf_counter()
                method.compose(runner)
                seconds = time.perf_counter() - start
                summary = method.answer_text or ""
                row = scoring.score(
                    case, summary, seconds, method.read.kind if method.read else None
                )
                row["method"] = choose
                row["headings"] = heading_words(case, summary)
                rows.append(row)
            print(case.name, file=sys.stderr, flush=True)
    finally:
        backend.close()
    (RESULTS / f"summaries-{args.label}.json").write_text(json.dumps(rows, indent=1) + "\n")
    lines = [
        f"# The model's choice of each part's sentence against the program's ({backend.name})",
        "",
        "`flock /tmp/llama.lock python benchmarks/summaries/model_choice.py`",
        "",
    ]
    for held, label in ((False, "texts that choose rules"), (True, "held-out texts")):
        if not any(r["held_out"] == held for r in rows):
            continue
        lines.append(f"## {label}")
        lines.append("")
        lines.append(
            "| way | entities | roles | parts | part lines sharing a word with its title "
            "| s in all |"
        )
        lines.append("|---|---|---|---|---|---|")
        for choose in ("program", "model"):
            mine = [r for r in rows if r["held_out"] == held and r["method"] == choose]
            lines.append(
                f"| {choose} | {scoring._mean([r['entities'] for r in mine])} | "
                f"{scoring._mean([r['roles'] for r in mine])} | "
                f"{scoring._mean([r['parts'] for r in mine])} | "
                f"{scoring._mean([r['headings'] for r in mine])} | "
                f"{sum(float(r['seconds']) for r in mine):.1f} |"
            )
        lines.append("")
    out = "\n".join(lines) + "\n"
    (RESULTS / f"summaries-{args.label}.md").write_text(out)
    print(out)


if __name__ == "__main__":
    main()
