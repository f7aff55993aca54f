"""What the ranker sees of a candidate: features relating the question to the query and its
answer, as named indicator (or real) values.

The templates, all learned from questions people wrote (none is scored by hand here):

- the answer's operation with each word and pair of words of the question that is not part of
  a cell it names ("how many", "after", "first", "most" ...);
- how well each column the query uses (the answer's, the ordering's, each condition's) is
  named by the question's words, by the column's role;
- the kind of the answer's column and of the answer (a number, a date, text) with the
  question's opening words ("how many", "when", "who" ...);
- each condition: what kind it is (a whole cell, a part of one, two cells, a comparison), the
  words just before a compared number ("more than", "before"), the question's cells it
  leaves out;
- the answer itself: how many values, whether it repeats a cell the question names, a zero.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from prism_edge.methods.tables import lexicon, naming
from prism_edge.methods.tables.db import Sheet
from prism_edge.methods.tables.enumerate import Candidate, negating, of_unnamed_part
from prism_edge.methods.tables.mentions import Reading, rounding_places
from prism_edge.methods.tables.space import NAMED_OPS, ROW_OPS, Query
from prism_edge.methods.tables.words import (
    NAME_WORDS,
    STOP,
    families,
    key,
    measures,
    short_form,
    stem,
    tokens,
    unitless,
)

Features = dict[str, float]

_GROUP = {
    "select": "row", "first": "order", "last": "order", "next": "order", "prev": "order",
    "argmax": "ordered", "argmin": "ordered", "most": "group", "least": "group",
    "count": "count", "distinct": "count", "countdiff": "count", "sum": "agg", "avg": "agg",
    "max": "agg", "min": "agg", "range": "agg", "diff": "agg", "groupmax": "group",
    "groupmin": "group", "same": "row",
}  # fmt: skip
_WH = (
    ("how", "many"), ("how", "much"), ("how", "long"), ("how", "old"), ("how",),
    ("what", "year"), ("which", "year"), ("what", "is", "the", "total"), ("when",), ("who",),
    ("whom",), ("whose",), ("where",), ("which",), ("what",), ("name",), ("list",), ("is",),
    ("was",), ("did",), ("does",), ("are",), ("were",),
)  # fmt: skip


_ASKING = frozenset({"which", "what"})
"""Words before the thing a question asks for ("which airline": the airline's label)."""


def opening(words: Sequence[str]) -> str:
    """The question's opening words that say what kind of answer it wants ("how many",
    "when", "who"), found anywhere a question may put them; ``other`` when none."""
    for pattern in _WH:
        n = len(pattern)
        for i in range(len(words) - n + 1):
            if tuple(words[i : i + n]) == pattern:
                return "_".join(pattern)
    return "other"


@dataclass
class QuestionView:
    """What every candidate of one question shares, computed once."""

    reading: Reading
    sheet: Sheet
    wh: str
    triggers: list[str]
    """Words and pairs of words outside the cells the question names."""
    families: list[str]
    """The lexicon's families of the question's words (:data:`FAMILIES`)."""
    column_match: dict[int, tuple[float, float]]
    """Per column: (the share of its name's words the question says, whether the question
    says its whole name)."""
    mention_words: dict[int, set[str]]
    """Per cell mention, the stems of its words."""
    content: list[str]
    """The stems of the question's words outside the cells it names and not function
    words."""
    header_words: dict[int, list[str]]
    """Per column, the stems of its name's words."""
    short_match: dict[int, float] = field(default_factory=dict)
    """Per column, the share of its name's words the question says only in full (its name
    a short form: "alt" for altitude; :func:`words.short_form`)."""
    lexical_match: dict[int, float] = field(default_factory=dict)
    """Per column, the share of its name's words the question says only by a word the
    learned lexicon pairs with them ("how tall": ``height``; :mod:`lexicon`): features of
    their own, apart from ``column_match`` (a learned pair is weaker evidence than the
    name's own words)."""
    letter: set[int] = field(default_factory=set)
    """The columns named by one letter that starts a word of the question ("W": wins)."""
    by_shape: dict[tuple[str, int | None, int | None], Features] = field(default_factory=dict)
    """The features of each operation and columns of a query, made once
    (:func:`query_features`)."""
    by_conditions: dict[tuple[object, ...], Features] = field(default_factory=dict)
    """The features of each operation's conditions, made once (by the conditions' tuples,
    the same object for every query of one enumeration's conditions)."""
    cond_columns: dict[tuple[int, int], tuple[object, object, set[int]]] = field(
        default_factory=dict
    )
    """Each query's conditions (kept) and the columns they are on."""
    sums: dict[tuple[int, int], float] = field(default_factory=dict)
    products: dict[tuple[int, int], tuple[float, ...]] = field(default_factory=dict)
    """The ranker's sum of each operation-and-columns part and products of each conditions
    part (by the part's and the weights' identity), made once (``ranker.query_score``)."""


def view(reading: Reading, sheet: Sheet) -> QuestionView:
    exact = {i for m in reading.cells if m.exact for i in range(m.start, m.end)}
    numbers = {i for n in reading.numbers for i in range(n.start, n.end)}
    kept = [
        (i, "<num>" if i in numbers else reading.stems[i])
        for i in range(len(reading.words))
        if (i not in exact and reading.words[i][:1].isalnum()) or i in numbers
    ]
    unigrams = [f"w:{s}" for _, s in kept]
    bigrams = [f"b:{a}_{b}" for (i, a), (j, b) in itertools.pairwise(kept) if j == i + 1]
    at_stem: dict[str, list[int]] = {}
    for i, s in enumerate(reading.stems):
        at_stem.setdefault(s, []).append(i)
    things = frozenset(stem(w) for t in sheet.parts or (sheet.name,) for w in naming.table_words(t))
    for i, measure in measures(reading.words, things):  # "how old": the age
        at_stem.setdefault(stem(measure), []).append(i)
    said = " " + " ".join(reading.words) + " "
    columns = {}
    shorts: dict[int, float] = {}
    letters: set[int] = set()
    named_cells = {i for m in reading.cells if m.exact and m.size > 1
                   for i in range(m.start, m.end)}  # fmt: skip
    heard = [
        i
        for i, w in enumerate(reading.words)
        if w.isalpha() and (w not in STOP or w in NAME_WORDS) and i not in named_cells
    ]  # a name's words ("Houston Astros") are no "HA"
    initials = {reading.words[i][0] for i in heard if reading.words[i] not in STOP}
    tables = {w for t in sheet.parts or (sheet.name,) for w in naming.table_words(t)}
    # a word said as the table's name ("flights") names its rows, not a column named as the
    # table is ("flight")
    table = {stem(w) for w in tables}
    asked = {reading.stems[i + 1] for i, w in enumerate(reading.words[:-1]) if w in _ASKING}
    unnamed = [i for i in heard if reading.words[i] not in tables]
    spoken = {id(at): [reading.words[i] for i in at] for at in (heard, unnamed)}
    hits: dict[int, set[int]] = {}
    # the lexicon reads the words outside the cells named, as it was learned; a word that
    # names a column as written names no other by it ("gold": Gold)
    in_table = {stem(w) for c in sheet.columns for w in naming.words(sheet, c)}
    outside = [w for i, w in enumerate(reading.words) if i not in exact]
    lexical_said = lexicon.content(outside) - in_table
    lexical_unnamed = lexicon.content(w for w in outside if w not in tables) - in_table
    lexicals: dict[int, float] = {}
    for column in sheet.columns:
        words = naming.words(sheet, column)
        name = [(w, stem(w)) for w in unitless(words)]  # "area" names areakm2 whole
        named = [(w, s) for w, s in name if w not in STOP] or name
        tabled = all(s in table for _, s in named)
        at = unnamed if tabled else heard
        lexical_own = lexical_unnamed if tabled else lexical_said
        hit: set[int] = set()
        matched = short = lexical = 0
        for w, s in named:
            found = [i for i in at_stem.get(s, ()) if not tabled or reading.words[i] not in tables]
            if found:
                matched += 1
                hit.update(found)
                continue
            span = short_form(w, spoken[id(at)])
            if span is not None:
                short += 1
                said_as = spoken[id(at)][span[0] : span[1]]
                if len(said_as) == 1 or "".join(x[0] for x in said_as) != w:
                    hit.update(at[span[0] : span[1]])  # initials ("HA") name no words' span
            elif lexicon.named_by(lexical_own, s):
                lexical += 1
        share = (matched + short) / len(named) if named else 0.0
        if naming.is_label(sheet, column):  # "which airline": the airlines' name
            owner = {stem(w) for w in naming.table_words(naming.owner(sheet, column))}
            if owner and owner <= asked:
                share = max(share, 1.0)
        whole = " " + " ".join(tokens(naming.own_name(sheet, column))) + " "
        columns[column.index] = (share, float(len(whole) > 2 and whole in said))
        hits[column.index] = hit
        if short:
            shorts[column.index] = short / len(named)
        if lexical:
            lexicals[column.index] = lexical / len(named)
        if len(words) == 1 and len(words[0]) == 1 and words[0] in initials and not matched:
            letters.add(column.index)  # "W" where the question says "wins"
    for index, hit in hits.items():  # "GNP deflator" names GNPDEFL, not GNP
        if hit and any(hit < other and columns[k][0] >= 1.0 for k, other in hits.items()):
            columns[index] = (0.0, 0.0)
            shorts.pop(index, None)
    for index, hit in hits.items():  # "the FIPS code": fips, not the column named code
        if hit and naming.words(sheet, sheet.columns[index]) in _ROLES and all(
            any(i - 1 in other and columns[k][0] >= 1.0 for k, other in hits.items()
                if k != index) for i in hit):  # fmt: skip
            columns[index] = (0.0, 0.0)
            shorts.pop(index, None)
    for index in of_unnamed_part(reading, sheet):  # "the biggest city in France": the
        columns[index] = (0.0, 0.0)  # cities' population, not the country's
        shorts.pop(index, None)
        lexicals.pop(index, None)
    content = sorted({
        s for i, s in kept if s != "<num>" and reading.words[i] not in STOP
    })  # fmt: skip
    headers = {
        c.index: sorted({stem(w) for w in naming.words(sheet, c)} - {""})[:6] for c in sheet.columns
    }
    return QuestionView(
        reading,
        sheet,
        opening(reading.words),
        sorted(set(unigrams + bigrams)),
        families([reading.words[i] for i, _ in kept]),
        columns,
        {i: {reading.stems[k] for k in range(m.start, m.end)} for i, m in enumerate(reading.cells)},
        content,
        headers,
        shorts,
        lexicals,
        letters,
    )


_ROLES = [["code"], ["id"], ["key"], ["number"]]
"""The names of a column that say only what kind of value it holds ("code"): said just
after a word naming another column ("the FIPS code"), they say that column's kind."""


def features(q: QuestionView, candidate: Candidate) -> Features:
    """Every feature of a candidate: its query's and its answer's."""
    f = query_features(q, candidate.query)
    _answer(q, candidate, f, _op(candidate.query))
    return f


def _op(query: Query) -> str:
    return query.op + ("@nth" if query.nth > 1 else "") + ("@all" if not query.conds else "")


def query_features(q: QuestionView, query: Query) -> Features:
    """The features of a query alone, known before it runs (a big table's queries are
    ranked by these first, and only the best are run). Those of its operation and columns
    and those of its conditions are each made once a question (a big table's hundred
    thousand queries share some thousands of each; no key of the one is a key of the
    other, so they are as if made in place)."""
    shaped, conditioned = query_parts(q, query)
    f = dict(shaped)
    f.update(conditioned)
    return f


def query_parts(q: QuestionView, query: Query) -> tuple[Features, Features]:
    """The features of a query's operation and columns, and those of its conditions, each
    made once a question (:func:`query_features`; not to be changed)."""
    op = _op(query)
    shape = (op, query.column, query.by)
    shaped = q.by_shape.get(shape)
    if shaped is None:
        shaped = q.by_shape[shape] = _shaped(q, query, op)
    columns = q.cond_columns.get((id(query.conds), id(query.other)))
    if columns is None:  # the conditions' own tuples, kept: their ids name no others
        columns = q.cond_columns[(id(query.conds), id(query.other))] = (
            query.conds,
            query.other,
            {c.column for c in query.conds + query.other},
        )
    said = (query.op, id(query.conds), id(query.other),
            query.column if query.column in columns[2] else -1)  # fmt: skip
    conditioned = q.by_conditions.get(said)
    if conditioned is None:
        conditioned = q.by_conditions[said] = {}
        _conditions(q, query, conditioned)
    return shaped, conditioned


def _shaped(q: QuestionView, query: Query, op: str) -> Features:
    """The features of the query's operation with the question's words, and of its
    columns."""
    group = _GROUP[query.op]
    f: Features = {f"op:{op}": 1.0, f"wh:{q.wh}|op:{op}": 1.0}
    for t in q.triggers:
        f[f"{t}|op:{op}"] = 1.0
    for family in q.families:
        f[f"fam:{family}|op:{op}"] = 1.0
        f[f"fam:{family}|{group}"] = 1.0
    sheet = q.sheet
    if query.column is not None:
        column = sheet.columns[query.column]
        share, whole = q.column_match[query.column]
        f[f"col:share|{group}"] = share
        f[f"col:whole|{group}"] = whole
        f[f"col:share|op:{op}"] = share
        f[f"col:kind:{column.kind}|op:{op}"] = 1.0
        if column.present and column.distinct == column.present:
            f[f"col:unique|op:{op}"] = 1.0  # every cell different: a name, an id
        f[f"col:kind:{column.kind}|wh:{q.wh}|{group}"] = 1.0
        if query.column == 0:
            f[f"col:first|{group}"] = 1.0
        if query.column in q.short_match:
            f[f"col:short|{group}"] = q.short_match[query.column]
        if query.column in q.lexical_match:
            f[f"col:lexical|{group}"] = q.lexical_match[query.column]
        if query.column in q.letter:
            f[f"col:letter|{group}"] = 1.0
        if share == 0:
            f[f"col:unnamed|wh:{q.wh}|{group}"] = 1.0
        for h in q.header_words[query.column]:
            f[f"colw:{h}|wh:{q.wh}"] = 1.0
            for w in q.content:
                f[f"colw:{h}|q:{w}"] = 1.0
    if query.by is not None:
        by = sheet.columns[query.by]
        share, whole = q.column_match[query.by]
        f["by:share"] = share
        f["by:whole"] = whole
        f[f"by:share|op:{op}"] = share
        f[f"by:kind:{by.kind}|op:{op}"] = 1.0
        if query.by in q.short_match:
            f["by:short"] = q.short_match[query.by]
        if query.by in q.lexical_match:
            f["by:lexical"] = q.lexical_match[query.by]
        if query.by in q.letter:
            f[f"by:letter|op:{op}"] = 1.0
        if query.by == query.column:
            f[f"by:same|op:{op}"] = 1.0
        for h in q.header_words[query.by]:
            for w in q.content:
                f[f"byw:{h}|q:{w}"] = 1.0
    return f


def _conditions(q: QuestionView, query: Query, f: Features) -> None:
    reading = q.reading
    n_cells, n_numbers = len(reading.cells), len(reading.numbers)
    used: set[int] = set()
    conds = query.conds + query.other
    group = _GROUP[query.op]
    f[f"conds:{len(conds)}|{group}"] = 1.0
    for cond in conds:
        share, _ = q.column_match[cond.column]
        f["cond:col:share"] = f.get("cond:col:share", 0.0) + share
        if cond.column in q.lexical_match:
            f["cond:col:lexical"] = f.get("cond:col:lexical", 0.0) + q.lexical_match[cond.column]
        if cond.column == query.column:  # "other than X, which ...": the answer's column
            f[f"cond:{'not:' if cond.op == 'notin' else ''}is-answer|op:{query.op}"] = 1.0
        if cond.op in NAMED_OPS:
            kinds = ["not"] if cond.op == "notin" else []  # the cell left out
            tag = "cond" if cond.op == "in" else "cond:not"
            for i in cond.mentions:
                mention = reading.cells[i]
                used.update(range(mention.start, mention.end))
                kinds.append("exact" if mention.exact else "part")
                f["cond:size"] = f.get("cond:size", 0.0) + mention.size
                before = reading.stems[mention.start - 1] if mention.start else "<start>"
                f[f"{tag}:before:{before}|op:{query.op}"] = 1.0
                near = reading.words[max(0, mention.start - 3) : mention.start]
                if negating(near):
                    f[f"{tag}:negated|op:{query.op}"] = 1.0  # "not in X", "didn't win at X"
                for family in families(near):
                    f[f"{tag}:before:{family}|op:{query.op}"] = 1.0
                if not mention.exact:
                    f["cond:part:values"] = f.get("cond:part:values", 0.0) + min(
                        len(mention.values), 10
                    )
            f[f"cond:{'+'.join(kinds)}|op:{query.op}"] = 1.0
            continue
        f[f"cmp:{cond.op}|op:{query.op}"] = 1.0
        k = cond.mentions[0] - n_cells
        if k >= n_numbers:  # a text condition
            text = reading.texts[k - n_numbers]
            used.update(range(text.start, text.end))
            continue
        number = reading.numbers[k]
        for i in cond.mentions:
            n = reading.numbers[i - n_cells]
            used.update(range(n.start, n.end))
        for family in families(reading.words[max(0, number.start - 3) : number.start]):
            f[f"cmp:{cond.op}|fam:{family}"] = 1.0
        preceding = reading.stems[max(0, number.start - 2) : number.start]
        if preceding:
            f[f"cmp:{cond.op}|w:{preceding[-1]}"] = 1.0
            f[f"cmp:{cond.op}|b:{'_'.join(preceding)}"] = 1.0
        else:
            f[f"cmp:{cond.op}|w:<start>"] = 1.0
        after = reading.stems[number.end : number.end + 1]
        if after:
            f[f"cmp:{cond.op}|after:{after[0]}"] = 1.0
        if number.year:
            f[f"cmp:{cond.op}|year"] = 1.0
    exact_left = [
        m for m in reading.cells if m.exact and not any(i in used for i in range(m.start, m.end))
    ]
    spans = {(m.start, m.end) for m in exact_left}
    f["left:exact"] = float(len(spans))
    if spans:
        f["left:exact:longest"] = float(max(e - s for s, e in spans))
    numbers_left = [n for n in reading.numbers if not n.ordinal and n.start not in used
                    and not rounding_places(reading.words, n)]  # fmt: skip
    f[f"left:numbers|{group}"] = float(len(numbers_left))
    if reading.texts and not any(t.start in used for t in reading.texts):
        f["left:texts"] = 1.0


def _answer(q: QuestionView, candidate: Candidate, f: Features, op: str) -> None:
    values = candidate.values
    n = len(values)
    size = "1" if n == 1 else "2" if n == 2 else "3-5" if n <= 5 else "6+"
    f[f"ans:n:{size}|op:{op}"] = 1.0
    f[f"ans:n:{size}|wh:{q.wh}"] = 1.0
    if candidate.selected is not None:
        rows = candidate.selected
        chosen = "0" if rows == 0 else "1" if rows == 1 else "2-3" if rows <= 3 else (
            "4-10" if rows <= 10 else "11+")  # fmt: skip
        f[f"sel:{chosen}|op:{op}"] = 1.0
    numeric = all(isinstance(v, float) for v in values)
    f[f"ans:{'number' if numeric else 'text'}|wh:{q.wh}"] = 1.0
    if numeric and values == (0.0,):
        f[f"ans:zero|op:{op}"] = 1.0
    if candidate.query.op in ROW_OPS:
        named = {v for m in q.reading.cells for v in m.values if m.exact}
        if any(isinstance(v, str) and key(v) in named for v in values):
            f[f"ans:named|op:{op}"] = 1.0
