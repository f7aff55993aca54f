"""Which candidates of a table question are kept before the ranker chooses: over a
database (several tables, or one big one), those that keep every value the question names
that another keeps (:func:`keeping`), that do not merely restate a condition, measure what
the question names, answer a name where it asks "which" or "who", and an amount where "how
many" names one; over one small table, those over the rows a cell named after "of" selects
(:func:`of_named`). Each rule reads the question's words and the candidate's query, never
its score."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from prism_edge.methods.tables import ages, naming
from prism_edge.methods.tables.codes import written_as_name
from prism_edge.methods.tables.db import Database, Sheet
from prism_edge.methods.tables.enumerate import Candidate, counted
from prism_edge.methods.tables.features import Features
from prism_edge.methods.tables.mentions import Reading
from prism_edge.methods.tables.words import key, stem

Read = tuple[Candidate, Features, float, Reading]
"""A scored candidate with the reading of the question over its table."""


_NAMING = frozenset({"named", "called"})


def self_named(db: Database, candidate: Candidate, reading: Reading) -> bool:
    """Whether a candidate counts the rows of the table "how many" names ("how many
    cities") and reads a name the question says as those rows' own label where it does not
    say so ("how many cities are in Mexico": not the cities named Mexico, the cities of the
    country), or as another's where it does ("how many cities are named Mexico")."""
    query = candidate.query
    if query.op != "count" or not query.conds:
        return False
    words = reading.words
    counted = {reading.stems[i + 2] for i in range(len(words) - 2)
               if words[i : i + 2] == ["how", "many"]}  # fmt: skip
    if not counted:
        return False
    sheet = db.sheets.get(query.sheet) or db.joined[query.sheet]
    for cond in query.conds:
        if cond.op != "in" or len(cond.mentions) != 1 or cond.mentions[0] >= len(reading.cells):
            continue
        mention = reading.cells[cond.mentions[0]]
        column = sheet.columns[cond.column]
        table = {stem(w) for w in naming.table_words(naming.owner(sheet, column))}
        own = bool(table & counted) and naming.is_label(sheet, column)
        called = bool(_NAMING & set(words[max(0, mention.start - 2) : mention.start]))
        if own != called:
            return True
    return False


def by_age(db: Database, candidate: Candidate, reading: Reading) -> bool:
    """Whether a candidate orders by birth as the question's age word asks ("the youngest
    player": the latest birth date), where it says one (else any candidate is)."""
    way = ages.aged(reading.words)
    if not way:
        return True
    query = candidate.query
    sheet = db.sheets.get(query.sheet) or db.joined[query.sheet]
    return query.op == way and query.by in ages.births(sheet, reading.words)


def named_kept(reading: Reading, candidate: Candidate) -> frozenset[int]:
    """The question's words naming a whole cell as a name ("JFK", "Mike Trout", not "the
    type of death": :func:`codes.written_as_name`) or a number that the candidate's
    conditions keep (their token indexes)."""
    kept: set[int] = set()
    n_cells = len(reading.cells)
    for cond in candidate.query.conds + candidate.query.other:
        for i in cond.mentions:
            if i < n_cells:
                m = reading.cells[i]
                if m.exact and written_as_name(reading.question, reading.words, m.start, m.end):
                    kept.update(range(m.start, m.end))
            elif i - n_cells < len(reading.numbers):
                number = reading.numbers[i - n_cells]
                kept.update(range(number.start, number.end))
    return frozenset(kept)


def restating(candidate: Candidate) -> bool:
    """Whether a candidate answers only with the values its own condition names ("the
    highest temperature at LGA": "LGA"): it says nothing the question did not. (One of two
    values named together is a choice between them: "JetBlue or Delta".)"""
    query = candidate.query
    if query.column is None or query.op in ("count", "sum", "avg", "max", "min", "range"):
        return False
    named = {v for c in query.conds if c.op == "in" and c.column == query.column
             and len(c.mentions) == 1 for v in c.value}  # type: ignore[union-attr]  # fmt: skip
    return bool(named) and {key(str(v)) for v in candidate.values} <= named


def pinned(candidate: Candidate) -> bool:
    """Whether a candidate computes a number of a column its own conditions hold at one
    value ("the difference in yearID between Verlander's rows of 2018 and Scherzer's", "the
    average year, where year is 2019"), or orders rows or groups by one ("the team with the
    highest total yearID, where yearID is 2018"): it says only what the question said, or
    its order is the rows' own."""
    query = candidate.query
    if query.op in ("diff", "sum", "avg", "max", "min", "range"):
        measured = query.column
    elif query.op in ("argmax", "argmin", "groupmax", "groupmin") and query.agg != "distinct":
        measured = query.by
    else:
        return False
    if measured is None:
        return False
    sides = [query.conds, query.other] if query.op == "diff" else [query.conds]
    return all(
        any(c.op == "in" and c.column == measured and len(c.value) == 1  # type: ignore[arg-type]
            for c in conds)
        for conds in sides
    )  # fmt: skip


_MEASURES = frozenset({"sum", "avg", "max", "min", "range", "diff"})


def measure_named(f: Features, candidate: Candidate) -> float | None:
    """How the question names the column a candidate measures (what it orders rows or
    groups by, or totals, averages, takes the extreme or the difference of), read from the
    candidate's features: the share of its name's words the question says (by the words
    themselves, a short form: "home runs" for ``HR``, or the letter of a word: ``W``, won;
    not by a word the learned lexicon only pairs with them, weaker evidence); None for a
    candidate that measures nothing (a count, a row's label)."""
    op = candidate.query.op
    if candidate.query.by is not None and op not in _MEASURES:
        said = [f.get("by:share", 0.0), f.get("by:short", 0.0), f.get(f"by:letter|op:{op}", 0.0)]
    elif op in _MEASURES and candidate.query.column is not None:  # all "agg" in features
        said = [f.get("col:share|agg", 0.0), f.get("col:short|agg", 0.0),
                f.get("col:letter|agg", 0.0)]  # fmt: skip
    else:
        return None
    return max(said)


def measured(found: list[Read]) -> list[Read]:
    """Over a database, where some candidate measures a column the question names whole
    (:func:`measure_named`: "who hit more home runs": ``HR``), those that measure a column
    it does not name at all are none ("the highest birthYear" of the two players, over the
    table of people); a count or a label is kept either way."""
    if not any(measure_named(f, c) == 1.0 for c, f, _, _ in found):
        return found
    return [s for s in found if measure_named(s[1], s[0]) != 0.0]


def amounts(db: Database, found: list[Read]) -> list[Read]:
    """Over a database, where "how many" asks the amount a column holds in one of the
    tables asked (:func:`enumerate.counted`: "how many home runs did Aaron Judge hit":
    ``HR`` of batting), a count of rows is none in any of them (not the number of his
    awards that year, over the table of awards)."""
    asked = {c.query.sheet: r for c, _, _, r in found}  # each table's reading once
    if not any(counted(r, db.sheets.get(n) or db.joined[n]) for n, r in asked.items()):
        return found
    return [s for s in found if s[0].query.op not in _ROWS_COUNTED] or found


_LABEL_ASKED = frozenset({"which", "who", "whom", "whose"})
_NUMBERS = frozenset({"count", "countdiff", "distinct", "sum", "avg", "range", "diff"})
_ROWS_COUNTED = frozenset({"count", "countdiff", "distinct"})


def numbers_a_label(candidate: Candidate, reading: Reading) -> bool:
    """Whether a candidate answers a count, a total or a difference where the question asks
    which or who ("which airline operates the plane N725MQ": a name, not its flights'
    number), nor says "how many", "how much" or "the number of"."""
    words = reading.words
    if candidate.query.op not in _NUMBERS or not _LABEL_ASKED & set(words):
        return False
    pairs = set(itertools.pairwise(words))
    return not pairs & {("how", "many"), ("how", "much"), ("number", "of")}


_OF = frozenset({"of", "among", "for", "from"})
"""Words that put the rows a question asks about after what it asks of them ("the largest
value of US Steel", "among the gram negative bacteria", "the cars from Japan")."""
_OVER = frozenset({"argmax", "argmin", "max", "min", "sum", "avg", "range", "most", "least"})
"""Answers computed over rows (an extreme, a total, an average, the most common)."""


def of_named(sheet: Sheet, found: list[Read]) -> list[Read]:
    """Over one table: where the question names, just after "of", "among", "for" or "from",
    a cell that many rows share (a firm's, a kind's), an extreme, total or average of every
    row is none when the same query over the rows holding that cell is a candidate: "the
    largest value of US Steel" is of US Steel's rows. (On WikiTableQuestions' 11,321 training
    questions: one gained and one lost by "of", "among" and "for", one more gained by "from";
    of any cell many rows share, without the words before it, 12 lost and 2 gained.)"""
    if not found:
        return found
    reading = found[0][3]
    shared = set()
    for i, m in enumerate(reading.cells):
        column = sheet.columns[m.column]
        before = set(reading.words[max(0, m.start - 3) : m.start])
        if m.exact and column.distinct < column.present and before & _OF:
            shared.add(i)
    if not shared:
        return found
    over = {(c.query.op, c.query.column, c.query.by) for c, _, _, _ in found
            if any(shared & set(d.mentions) for d in c.query.conds)}  # fmt: skip
    return [s for s in found if s[0].query.conds or s[0].query.op not in _OVER
            or (s[0].query.op, s[0].query.column, s[0].query.by) not in over]  # fmt: skip


def keeping(scored: Sequence[Read]) -> list[Read]:
    """Of candidates over several tables or a big one, those that leave out no value the
    question names (a whole cell, a number) that another candidate keeps besides all they
    keep: "the average delay of flights from JFK" is of JFK's flights, "the home runs of
    Mike Trout in 2019" of his rows of 2019, whichever table holds them. (Over one small
    table a named cell is often the row's own label, left to the ranker.)"""
    kept = [named_kept(r, c) for c, _, _, r in scored]
    distinct = set(kept)
    widest = {k for k in distinct if not any(k < other for other in distinct)}
    return [s for s, k in zip(scored, kept, strict=True) if k in widest]
