"""What the default summary lists as names on the summary development set, and its entity
recall, for comparing a change of the name rules (no model computes here: on a model under 1B
the summary is the program's own; the model file only counts tokens).

    python benchmarks/summaries/summary_names.py run --label after  # -> summary-names-after.json
    python benchmarks/summaries/summary_names.py diff before after  # names removed, added

The texts and entity lists: ``benchmarks/summaries/dev_set.py prepare``; held-out texts are
reported apart and never used to choose a rule.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import dev_set

import prism_edge
from prism_edge.eval.quality import entity_recall, junk_of, load_entities

RESULTS = Path(__file__).resolve().parents[1] / "results"


def run(label: str) -> None:
    out = {}
    for text in dev_set.TEXTS:
        answer = prism_edge.summarize(dev_set.DATA / f"{text.name}.txt").answer or ""
        entities = load_entities(dev_set.DATA / f"{text.name}.entities")
        recall = entity_recall(answer, entities)
        also = re.search(r"^Also named: (.*?)\.?$", answer, re.M)
        listed = re.findall(r"^[-*] ([^:]{1,60}):", answer, re.M)
        listed += also.group(1).split(", ") if also else []
        out[text.name] = {
            "held_out": text.held_out,
            "recall": f"{len(recall.found)}/{len(entities)}",
            "junk": junk_of(answer),
            "listed": listed,
        }
        print(text.name, out[text.name]["recall"], len(listed), flush=True)
    (RESULTS / f"summary-names-{label}.json").write_text(json.dumps(out, indent=1) + "\n")


def diff(before: str, after: str) -> None:
    a = json.loads((RESULTS / f"summary-names-{before}.json").read_text())
    b = json.loads((RESULTS / f"summary-names-{after}.json").read_text())
    lines = [f"summary names: {before} -> {after} (recall before -> after; listed names)", ""]
    for split, held in (("rule", False), ("held out", True)):
        lines.append(f"## {split}")
        for name in a:
            if a[name]["held_out"] != held:
                continue
            gone = sorted(set(a[name]["listed"]) - set(b[name]["listed"]))
            new = sorted(set(b[name]["listed"]) - set(a[name]["listed"]))
            lines.append(f"- {name}: recall {a[name]['recall']} -> {b[name]['recall']}; "
                         f"removed {gone or 'none'}; added {new or 'none'}")  # fmt: skip
        lines.append("")
    text = "\n".join(lines)
    (RESULTS / f"summary-names-{before}-{after}.txt").write_text(text)
    print(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    sub.add_parser("run").add_argument("--label", required=True)
    pair = sub.add_parser("diff")
    pair.add_argument("before")
    pair.add_argument("after")
    args = parser.parse_args()
    if args.what == "run":
        run(args.label)
    else:
        diff(args.before, args.after)


if __name__ == "__main__":
    main()
