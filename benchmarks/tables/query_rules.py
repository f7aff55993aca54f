"""The query space's rules read from the question's words, each measured by taking it out:
a comparison's direction (and the bound kept by every query) and an average asked in so many
words. (Two more were tried and went, as the results file shows: rows after or before a named
row only when the question speaks of order, 0.003 less; the query that keeps a whole cell or
a year the question names over the one that leaves it out, 0.013 less, and 0.011 less keeping
only whole cells.) On the training questions
of the fifth of the training tables ``train_ranker.py choose`` holds apart, with weights fit
on the other four fifths (the dev split never read).

    python benchmarks/tables/query_rules.py /tmp/wtq/train-v4.pkl --limit 1000
    python benchmarks/tables/query_rules.py /tmp/wtq/train-v5.pkl --limit 600 \
        --rules none different superlative counted in-year      # the databases' round 3

Writes ``benchmarks/results/table-query-rules.txt``.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import train_ranker
from train_ranker import L2, MIN_QUESTIONS, _held_examples, _load, _tables_split, end_to_end, fit

from prism_edge.methods.tables import answer, mentions
from prism_edge.methods.tables import enumerate as space

RESULTS = Path(__file__).resolve().parents[1] / "results"


@contextlib.contextmanager
def without(rule: str) -> Iterator[None]:
    """The method with one rule taken out (forked workers inherit it)."""
    saved: list[tuple[Any, str, Any]] = []

    def patch(module: Any, name: str, value: Any) -> None:
        saved.append((module, name, getattr(module, name)))
        setattr(module, name, value)

    if rule == "direction":
        patch(space, "direction", lambda words, number: None)
    elif rule == "average":
        patch(space, "averaged", lambda reading, sheet: False)
    elif rule == "years":
        patch(space, "holds_years", lambda column: True)
        patch(mentions, "holds_years", lambda column: True)
    elif rule == "arbitrary":
        patch(answer, "arbitrary", lambda reading, sheet, candidate: False)
    elif rule == "different":
        patch(space, "different", lambda reading: False)
    elif rule == "superlative":
        patch(space, "superlative", lambda reading: False)
    elif rule == "counted":
        patch(space, "counted", lambda reading, sheet: False)
    elif rule == "in-year":
        patch(space, "in_year", lambda words, number: False)
    elif rule == "all":
        patch(space, "direction", lambda words, number: None)
        patch(space, "averaged", lambda reading, sheet: False)
    try:
        yield
    finally:
        for module, name, value in reversed(saved):
            setattr(module, name, value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--limit", type=int, default=1000)
    parser.add_argument("--rules", nargs="+", default=["none", "direction", "average", "all"])
    args = parser.parse_args()
    sys.modules["__main__"].Data = train_ranker.Data  # type: ignore[attr-defined]  # pickled as
    data = _load(args.data)  # train_ranker's __main__.Data
    learn, _ = _tables_split(data)
    held = _held_examples(data, args.limit)
    w = fit(data, learn, L2, MIN_QUESTIONS)
    lines = [f"python benchmarks/tables/query_rules.py {args.data} --limit {args.limit}",
             f"{len(held)} held-apart training questions, weights fit on the other tables "
             f"(l2 {L2}, {len(w)} weights)"]  # fmt: skip
    for rule in args.rules:
        with without(rule):
            share = end_to_end(held, w)
        said = "every rule" if rule == "none" else f"without {rule}"
        lines.append(f"{said}: {share:.3f}")
        print(lines[-1], flush=True)
    with open(RESULTS / "table-query-rules.txt", "a", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n\n")


if __name__ == "__main__":
    main()
