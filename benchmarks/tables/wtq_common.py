"""WikiTableQuestions as the table benchmarks read it: its questions, tables and targets."""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path

from prism_edge.eval.denotations import unescape

WTQ = Path(
    os.environ.get("WTQ", Path(__file__).resolve().parents[3] / "shared" / "datasets" / "wtq")
)


@dataclass(frozen=True)
class Example:
    id: str
    question: str
    table: str
    target: tuple[str, ...]

    @property
    def path(self) -> Path:
        return WTQ / self.table


def examples(split: str) -> list[Example]:
    """``train`` or ``dev`` (the authors' random split 1), or ``training`` (both)."""
    name = {"train": "random-split-1-train", "dev": "random-split-1-dev"}.get(split, split)
    out = []
    with open(WTQ / "data" / f"{name}.tsv", encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            row = dict(zip(header, line.rstrip("\n").split("\t"), strict=True))
            target = tuple(unescape(v) for v in row["targetValue"].split("|"))
            out.append(Example(row["id"], unescape(row["utterance"]), row["context"], target))
    return out


def read_table(path: Path) -> tuple[list[str], list[list[str]]]:
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]
