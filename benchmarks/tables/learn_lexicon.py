"""Learn which question words name which words of columns' names, from WikiTableQuestions'
training questions, and write the lexicon where the package reads it
(prism_edge/methods/tables/lexicon.json).

    python benchmarks/tables/learn_lexicon.py collect --out /tmp/wtq/lexicon-train.json
    python benchmarks/tables/learn_lexicon.py choose /tmp/wtq/lexicon-train.json
    python benchmarks/tables/learn_lexicon.py learn /tmp/wtq/lexicon-train.json \\
        --write prism_edge/methods/tables/lexicon.json
    python benchmarks/tables/learn_lexicon.py show tall won   # the shipped pairs of words

Weak supervision, as the ranker's (``train_ranker.py``): every candidate of a training
question whose answer matches the target is a positive, and the columns a positive uses (its
answer's, its ordering's, its conditions') are columns the question is about; a column is
used by the share of the question's positives that use it. ``collect`` enumerates each
question's candidates without the lexicon (the one it learns plays no part in what it learns
from) and keeps, per question with a positive, its words outside the cells it names whole,
its table's column names and each column's use.

``learn`` counts, over every question and every column of its table, each pair of a question
word's stem and a column-name word's stem (not the same stem: string matching covers it; not
a question word that is already a column's word in that table: that column explains it) and
the column's use (a question's words: :func:`lexicon.content`, not "most", "after" nor
"two"). A pair's score is the log-odds ratio of a column holding the name word being used
where the question says the word against where it does not (over the questions of the tables
with such a column), each side smoothed by :data:`PRIOR` pseudo-uses; a pair is kept when said
of at least :data:`MIN_TABLES` tables, its columns used more often than not where it is said,
and its score at least the threshold.
``choose`` picks the threshold on the fifth of the training tables held apart (the tables
``train_ranker.py choose`` holds apart): the lexicon learned from the other four fifths,
scored by how well it names the columns the held-apart questions' positives use that their
words do not name as written (F1). The dev split is never read here.

The data: WikiTableQuestions 1.0.2 (Pasupat and Liang, ACL 2015; CC BY-SA 4.0), the training
portion in ../shared/datasets/wtq (the authors' random split 1).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import multiprocessing
import sys
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from train_ranker import held_tables
from wtq_common import Example, examples

from prism_edge.eval.denotations import correct, predictions, targets
from prism_edge.methods.tables import lexicon
from prism_edge.methods.tables.answer import load, rank_all
from prism_edge.methods.tables.mentions import read
from prism_edge.methods.tables.words import STOP, name_parts, stem

PRIOR = 1.0
"""Pseudo-uses (and as many non-uses) each side of a pair's odds starts with."""
MIN_TABLES = 3
"""Tables a pair must be said of (questions about one table share its words: "Angola" is
no column's name however often its questions say it) to be kept."""
THRESHOLD = 0.0
"""The log-odds ratio a pair needs besides its columns used more often than not where it is
said (``choose`` picked it: benchmarks/results/table-lexicon.txt)."""
MIN_USE = 0.5
"""The use of a column, among its question's positives, that ``choose`` counts as used."""


@dataclass(frozen=True)
class Record:
    """A training question with a positive: what ``learn`` counts."""

    id: str
    table: str
    words: tuple[str, ...]
    """The question's words outside the cells it names whole."""
    columns: tuple[str, ...]
    """The table's column names."""
    use: tuple[float, ...]
    """Per column, the share of the question's positives that use it."""


def _columns_of(query: object) -> set[int]:
    used = {getattr(query, "column", None), getattr(query, "by", None)}
    conds = getattr(query, "conds", ()) + getattr(query, "other", ())
    used |= {c.column for c in conds}
    return {c for c in used if c is not None}


def _collect_one(example: Example) -> Record | None:
    try:
        db, sheet = load(example.path)
    except Exception as exc:
        print(f"{example.id}: {exc}", file=sys.stderr)
        return None
    try:
        scored = rank_all(db, sheet, example.question, {})
        reading = read(example.question, db, [sheet])
    finally:
        db.close()
    target = targets(example.target)
    positives = [c for c, _, _ in scored if correct(target, predictions(c.values))]
    if not positives:
        return None
    counts = [0] * len(sheet.columns)
    for candidate in positives:
        for column in _columns_of(candidate.query):
            counts[column] += 1
    cells = {i for m in reading.cells if m.exact for i in range(m.start, m.end)}
    words = tuple(w for i, w in enumerate(reading.words) if i not in cells)
    return Record(
        example.id,
        example.table,
        words,
        tuple(c.name for c in sheet.columns),
        tuple(round(n / len(positives), 4) for n in counts),
    )


def collect(out: Path, limit: int | None, workers: int) -> None:
    chosen = examples("train")[:limit] if limit else examples("train")
    start = time.time()
    records: list[Record] = []
    with multiprocessing.Pool(workers, initializer=lexicon.use, initargs=({},)) as pool:
        for seen, record in enumerate(pool.imap(_collect_one, chosen, chunksize=8), 1):
            if record is not None:
                records.append(record)
            if seen % 1000 == 0:
                print(f"{seen} questions, {time.time() - start:.0f} s", flush=True)
    with open(out, "w", encoding="utf-8") as f:
        json.dump([dataclasses.astuple(r) for r in records], f)
    print(f"{len(chosen)} questions, {len(records)} with a positive, {time.time() - start:.0f} s")


# --- counting -----------------------------------------------------------------------------


def said_stems(record: Record) -> set[str]:
    """The stems of the question's words that may name a column (:func:`lexicon.content`)."""
    return lexicon.content(record.words)


def name_stems(name: str) -> set[str]:
    """The stems of a column name's words (as written: no short form spelt out)."""
    return {stem(w) for w in name_parts(name) if w.isalpha() and w not in STOP}


@dataclass
class Counts:
    """Per pair (question stem, name stem): the questions saying the stem over a table with
    such a column (``n``), the columns' use among them (``k``) and their tables; per name
    stem, the questions over a table with such a column (``total_n``) and its use
    (``total_k``)."""

    n: dict[tuple[str, str], int]
    k: dict[tuple[str, str], float]
    tables: dict[tuple[str, str], set[str]]
    total_n: dict[str, int]
    total_k: dict[str, float]


def count(records: Iterable[Record]) -> Counts:
    n: dict[tuple[str, str], int] = defaultdict(int)
    k: dict[tuple[str, str], float] = defaultdict(float)
    tables: dict[tuple[str, str], set[str]] = defaultdict(set)
    total_n: dict[str, int] = defaultdict(int)
    total_k: dict[str, float] = defaultdict(float)
    for record in records:
        names = [name_stems(c) for c in record.columns]
        in_table = set().union(*names)
        said = said_stems(record) - in_table  # a word naming a column as written: explained
        use: dict[str, float] = defaultdict(float)
        for stems, used in zip(names, record.use, strict=True):
            for s in stems:
                use[s] = max(use[s], used)
        for name, used in use.items():
            total_n[name] += 1
            total_k[name] += used
            for s in said:
                n[(s, name)] += 1
                k[(s, name)] += used
                tables[(s, name)].add(record.table)
    return Counts(dict(n), dict(k), dict(tables), dict(total_n), dict(total_k))


def odds(counts: Counts, pair: tuple[str, str]) -> tuple[float, float]:
    """The log-odds of the pair's name word's columns being used where the question says
    its word, and its ratio to the log-odds where the question does not, each smoothed by
    :data:`PRIOR`."""
    name = pair[1]
    n, k = counts.n[pair], counts.k[pair]
    rest_n, rest_k = counts.total_n[name] - n, counts.total_k[name] - k
    said = math.log((k + PRIOR) / (n - k + PRIOR))
    unsaid = math.log((rest_k + PRIOR) / (rest_n - rest_k + PRIOR))
    return said, said - unsaid


def learn(records: Iterable[Record], threshold: float) -> dict[str, dict[str, float]]:
    """The lexicon: question stem -> name stem -> score, the pairs kept."""
    counts = count(records)
    out: dict[str, dict[str, float]] = defaultdict(dict)
    for pair in counts.n:
        if len(counts.tables[pair]) < MIN_TABLES or pair[0] == pair[1]:
            continue
        said, ratio = odds(counts, pair)
        if said > 0 and ratio >= threshold:  # mostly used where said, far more than not
            out[pair[0]][pair[1]] = round(ratio, 2)
    return {q: dict(sorted(names.items())) for q, names in sorted(out.items())}


# --- choosing the threshold on the held-apart tables --------------------------------------------


def quality(records: Iterable[Record], pairs: lexicon.Pairs) -> tuple[float, float, float]:
    """Precision, recall and F1 of the lexicon naming the columns the questions' positives
    use (:data:`MIN_USE` of them) that no word of the question names as written."""
    hit = predicted = wanted = 0
    for record in records:
        names = [name_stems(c) for c in record.columns]
        said = said_stems(record)
        for stems, used in zip(names, record.use, strict=True):
            if stems & said:
                continue  # named as written
            named = any(n in pairs.get(s, ()) for s in said for n in stems)
            gold = used >= MIN_USE
            predicted += named
            wanted += gold
            hit += named and gold
    precision, recall = hit / max(1, predicted), hit / max(1, wanted)
    return precision, recall, 2 * precision * recall / max(1e-9, precision + recall)


def _load(path: Path) -> list[Record]:
    with open(path, encoding="utf-8") as f:
        return [Record(i, t, tuple(w), tuple(c), tuple(u)) for i, t, w, c, u in json.load(f)]


def _size(pairs: lexicon.Pairs) -> int:
    return sum(len(v) for v in pairs.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--limit", type=int)
    c.add_argument("--workers", type=int, default=2)
    ch = sub.add_parser("choose")
    ch.add_argument("data", type=Path)
    ch.add_argument(
        "--threshold", type=float, nargs="+", default=[0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0]
    )
    le = sub.add_parser("learn")
    le.add_argument("data", type=Path)
    le.add_argument("--threshold", type=float, default=THRESHOLD)
    le.add_argument("--write", type=Path)
    le.add_argument(
        "--learn-part", action="store_true", help="only the four fifths (to measure on the rest)"
    )
    sh = sub.add_parser("show", help="the shipped lexicon's pairs of some words")
    sh.add_argument("words", nargs="+")
    args = parser.parse_args()
    if args.command == "collect":
        collect(args.out, args.limit, args.workers)
        return
    if args.command == "show":
        for word in args.words:
            said = stem(word.casefold())
            paired = lexicon.pairs().get(said, {})
            shown = ", ".join(f"{n} {s}" for n, s in sorted(paired.items(), key=lambda p: -p[1]))
            print(f"{word} ({said}): {shown or 'none'}")
        return
    records = _load(args.data)
    if args.command == "choose":
        held = held_tables(r.table for r in records)
        apart = [r for r in records if r.table in held]
        rest = [r for r in records if r.table not in held]
        for threshold in args.threshold:
            pairs = learn(rest, threshold)
            p, r, f1 = quality(apart, pairs)
            print(
                f"threshold {threshold}: {_size(pairs)} pairs; on the {len(apart)} questions "
                f"of the held-apart tables precision {p:.3f} recall {r:.3f} F1 {f1:.3f}"
            )
        return
    if args.learn_part:
        held = held_tables(r.table for r in records)
        records = [r for r in records if r.table not in held]
    pairs = learn(records, args.threshold)
    print(f"{_size(pairs)} pairs of {len(pairs)} question words, from {len(records)} questions")
    if args.write:
        meta = {"source": "WikiTableQuestions 1.0.2 random-split-1-train", "threshold":
                args.threshold, "prior": PRIOR, "min_tables": MIN_TABLES}  # fmt: skip
        args.write.write_text(
            json.dumps({"learned": meta, "pairs": pairs}, sort_keys=True, indent=0) + "\n",
            encoding="utf-8",
        )


if __name__ == "__main__":
    main()
