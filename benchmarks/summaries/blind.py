"""Folders for a blind reading (issue 52): for held-out texts of four kinds, the input as the
summarizer was given it and three summaries of the same length in a shuffled order (the
default summary, sumy's LexRank at its word count, the text's first words at its word count),
with a separate key.

    python benchmarks/summaries/blind.py --out /work/notes/blind the-tempest ...
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lexrank_words import lexrank_summary

from prism_edge.methods.outline import outline

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "summaries"
SEED = 52


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("texts", nargs="+")
    args = parser.parse_args()
    rng = random.Random(SEED)
    key = ["# Which file is which (do not show the reader)", ""]
    for name in args.texts:
        ref = json.loads((DATA / f"{name}.json").read_text())
        if not ref["held_out"]:
            sys.exit(f"{name} is not held out")
        text = (DATA / f"{name}.txt").read_text()
        summary = outline(text).render()
        words = len(summary.split())
        made = {
            "default summary (prism-edge run)": summary,
            f"sumy LexRank at {words} words": lexrank_summary(text, words),
            f"the text's first {words} words": " ".join(text.split()[:words]),
        }
        order = list(made)
        rng.shuffle(order)
        folder = args.out / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "text.txt").write_text(text)
        for letter, label in zip("abc", order, strict=True):
            (folder / f"{letter}.txt").write_text(made[label].rstrip("\n") + "\n")
        key.append(f"## {name} ({ref['kind']}, {len(text):,} characters)")
        key += [f"- {letter}.txt: {label}" for letter, label in zip("abc", order, strict=True)]
        key.append("")
        print(name, words, file=sys.stderr)
    (args.out / "KEY.md").write_text("\n".join(key))


if __name__ == "__main__":
    main()
