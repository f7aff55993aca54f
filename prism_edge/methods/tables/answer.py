"""A question over tables answered: its mentions read, the query space enumerated and run
over each table (and each pair that joins, where the question names both), every candidate
scored by the learned ranker; the answer is the best, with how sure the ranker is.

"Not in the table" is said only when the question names nothing the tables hold: no cell, no
column, no table. Otherwise the best candidate answers, and when its probability (the
softmax over every candidate; those with the same values together) is under :data:`SURE`,
the answer says the ranker is not sure, with the runner-up.
"""

from __future__ import annotations

import heapq
import re
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from prism_edge.core.events import Computed, TableAnswer
from prism_edge.methods.tables import ages, answerable, lexicon, names, naming
from prism_edge.methods.tables.db import Database, Sheet, join, links, quote, show_number
from prism_edge.methods.tables.enumerate import (
    Candidate,
    arbitrary,
    candidates,
    counted_things,
    ordered,
    queries,
    run,
)
from prism_edge.methods.tables.features import (
    Features,
    QuestionView,
    features,
    view,
)
from prism_edge.methods.tables.kept import (
    Read,
    amounts,
    by_age,
    keeping,
    measured,
    numbers_a_label,
    of_named,
    pinned,
    restating,
    self_named,
)
from prism_edge.methods.tables.keys import code_links, shared_keys
from prism_edge.methods.tables.mentions import (
    COMPARING,
    Reading,
    of_years,
    read,
    uncoded,
    unshadowed,
    whole_spans,
    written_spans,
)
from prism_edge.methods.tables.paths import chain, paths, siblings, twice
from prism_edge.methods.tables.ranker import probabilities, query_score, score, weights
from prism_edge.methods.tables.space import ROW_OPS
from prism_edge.methods.tables.words import (
    FAMILY_WORDS,
    IRREGULAR,
    STOP,
    column_words,
    key,
    measures,
    priced,
    rounding,
    short_form,
    stem,
    tokens,
)
from prism_edge.text.tables import records
from prism_edge.text.values import read_value

SMALL_ROWS = 2_000
"""Rows of a table up to which every query is run (beyond, only the likeliest)."""
RUN_AT_MOST = 32
"""Queries run over a big table at most."""
RUN_SMALL_AT_MOST = 3_000
"""Queries run over a small table at most: beyond (a wide table asked with several numbers:
every comparison of each with every column), the likeliest by the query alone."""
SURE = 0.5
"""The probability of its values the best answer needs for the ranker to be sure of it."""

Scored = tuple[Candidate, Features, float]
MAX_JOINS = 3
"""Pairs of tables joined for one question at most (those that say most of it)."""
TABLE_WORDS = frozenset({"row", "record", "entri", "line", "item", "tabl"})
"""Stems of the words that name any table's rows ("how many rows?")."""


def rank_all(
    db: Database, sheet: Sheet, question: str, w: Mapping[str, float] | None = None
) -> list[Scored]:
    """Every candidate of ``question`` over ``sheet`` with its features and score, the
    best first (the enumeration's order on a tie)."""
    naming.full_names(db, sheet)
    naming.whole_dates(db, sheet)
    reading = read(question, db, [sheet])
    return _scored(db, reading, sheet, w)


def _scored(
    db: Database, reading: Reading, sheet: Sheet, w: Mapping[str, float] | None
) -> list[Scored]:
    """Every candidate over ``sheet`` scored, the best first. A big table's queries are
    first ranked by what they are (their query's features) and only the best
    :data:`RUN_AT_MOST` run: each query reads the whole table; a small table's likewise
    beyond :data:`RUN_SMALL_AT_MOST`."""
    w = weights() if w is None else w
    shared = view(reading, sheet)
    relevant = {i for i, (share, _) in shared.column_match.items() if share > 0}
    relevant |= shared.letter | set(shared.lexical_match)
    relevant |= {m.column for m in reading.cells} | {0} | set(labels(sheet))
    relevant |= counted_things(reading, sheet)  # "how many different planes": tailnum
    relevant |= set(ages.births(sheet, reading.words)) if ages.aged(reading.words) else set()
    if sheet.rows > SMALL_ROWS:
        ranked = heapq.nsmallest(  # sorted(...)[:RUN_AT_MOST], without holding them all
            RUN_AT_MOST, ((query_score(shared, q, w), i, q) for i, q in enumerate(queries(
            reading, sheet, relevant))), key=lambda x: (-x[0], x[1]),
        )  # fmt: skip
        found = [c for _, _, q in ranked if (c := run(db, sheet, q)) is not None]
    else:
        every = list(queries(reading, sheet, relevant))
        if len(every) > RUN_SMALL_AT_MOST:  # a wide table asked with many mentions
            every = [q for _, _, q in heapq.nsmallest(RUN_SMALL_AT_MOST,
                ((query_score(shared, q, w), i, q) for i, q in enumerate(every)),
                key=lambda x: (-x[0], x[1]))]  # fmt: skip
        found = candidates(db, sheet, every)
    out = []
    for candidate in found:
        if arbitrary(reading, sheet, candidate):
            continue
        feats = features(shared, candidate)
        out.append((candidate, feats, score(feats, w)))
    out.sort(key=lambda s: -s[2])
    return out


def named(q: QuestionView) -> bool:
    """Whether the question names anything of the table: a cell, a column (by its name's
    words, a short form, or a word the lexicon pairs with them), its name."""
    if q.reading.cells or q.lexical_match or any(s > 0 for s, _ in q.column_match.values()):
        return True
    said = set(q.reading.stems)
    if said & TABLE_WORDS:
        return True
    return any(stem(w) in said for w in _table_words(q.sheet.name))


def answer(
    db: Database, question: str, w: Mapping[str, float] | None = None
) -> tuple[TableAnswer, list[Scored]]:
    """The answer to ``question`` over every table of ``db``, and every candidate scored,
    the best first."""
    if not db.sheets:
        return TableAnswer(None, not_in_table="the input holds no table"), []
    sheets, readings, (written, whole), touched = _read_all(db, question)
    if not touched:
        return TableAnswer(
            None, not_in_table="the question names no column, value or table of the input"
        ), []
    missing = absent(question, sheets, readings)
    if missing:
        return TableAnswer(None, not_in_table=f"no cell, column or table holds {missing}"), []
    unheld = attribute(question, sheets, readings) or unmeasured(sheets, readings)
    if unheld:
        return TableAnswer(None, not_in_table=f"no column holds {unheld}"), []
    found: list[Read] = []
    asked = _asked(db, question, sheets, touched, readings)
    for sheet in asked:
        reading = readings.get(sheet.name) or unshadowed(
            uncoded(read(question, db, [sheet]), written), whole
        )
        found += [(c, f, s, reading) for c, f, s in _scored(db, reading, sheet, w)]
    if len(sheets) > 1 or any(s.rows > SMALL_ROWS for s in asked):  # a database
        found = keeping(
            [s for s in found if s[0].query.op not in ("next", "prev") or ordered(s[3])]
        )  # a database's rows have no order of their own
        found = [s for s in found if not restating(s[0])] or found
        found = [s for s in found if not pinned(s[0])] or found
        found = [s for s in found if not numbers_a_label(s[0], s[3])] or found
        found = measured(found)
        found = amounts(db, found)
        found = [s for s in found if not self_named(db, s[0], s[3])] or found
        found = [s for s in found if by_age(db, s[0], s[3])] or found
    elif asked:  # one small table
        found = of_named(asked[0], found)
    scored: list[Scored] = [(c, f, s) for c, f, s, _ in found]
    scored.sort(key=lambda s: -s[2])
    if not scored:
        return TableAnswer(None, not_in_table="no row of the table holds what it names"), []
    decided = decide(db, question, scored)
    held = accounted([s for s in sheets if s.name in touched], readings)
    sure = decided.sure and answerable.chance(held.features()) >= answerable.AT_LEAST
    tie = tied(db, scored[0][0])
    return replace(decided, sure=sure and not tie, unheld=held.unheld, tied=tie), scored


TIED_SHOWN = 5
"""Values an answer is said to tie with at most."""


def tied(db: Database, candidate: Candidate) -> tuple[str | float, ...]:
    """The other values that come first of the candidate's order as much as its own does
    (the same count, total or extreme): none for an answer that is no first of an order."""
    if candidate.named is not None:
        return ()
    sheet = db.sheets.get(candidate.query.sheet) or db.joined[candidate.query.sheet]
    ranked = candidate.query.ranked(sheet, TIED_SHOWN)
    if ranked is None:
        return ()
    try:
        rows = db.db.execute(*ranked).fetchall()
    except sqlite3.OperationalError:
        return ()
    if len(rows) < candidate.query.nth or rows[candidate.query.nth - 1][1] is None:
        return ()
    label, place = rows[candidate.query.nth - 1]
    others = (v for v, k in rows if k == place and v != label and v not in (None, ""))
    return tuple(dict.fromkeys(float(v) if isinstance(v, int) else v for v in others))


Span = tuple[int, int]
"""A span of the question's words (start, end)."""


def _read_all(
    db: Database, question: str
) -> tuple[list[Sheet], dict[str, Reading], tuple[set[Span], set[Span]], set[str]]:
    """The question read over each table (a table's codes said as names read as such; over
    several, a name said whole shadowing the cells it is only part of), the spans of names
    written as in a cell and of names said whole, and the tables it names anything of."""
    sheets = list(db.sheets.values())
    for sheet in sheets:
        naming.full_names(db, sheet)
        naming.whole_dates(db, sheet)
    readings = {s.name: read(question, db, [s]) for s in sheets}
    written = written_spans(readings.values())
    readings = {name: uncoded(r, written) for name, r in readings.items()}
    whole: set[Span] = set()
    if len(sheets) > 1:  # a name said whole, not the cells it is part of in other tables
        whole = whole_spans(readings.values())
        readings = {name: unshadowed(r, whole) for name, r in readings.items()}
    touched = {s.name for s in sheets if named(view(readings[s.name], s))}
    return sheets, readings, (written, whole), touched


def held_by(db: Database, question: str) -> answerable.Accounted | None:
    """How much of the question the tables it names anything of account for (None where it
    names nothing of them)."""
    sheets, readings, _, touched = _read_all(db, question)
    return accounted([s for s in sheets if s.name in touched], readings) if touched else None


def accounted(sheets: Sequence[Sheet], readings: Mapping[str, Reading]) -> answerable.Accounted:
    """How much of the question the tables it touches account for (:func:`_covered`): its
    content words (no stop word, no word of how to compute) none of them accounts for."""
    reading = readings[sheets[0].name]
    taken = _not_initials(sheets, readings)
    covered = set().union(*(_covered(s, readings[s.name], taken) for s in sheets))
    content = [i for i, w in enumerate(reading.words)
               if w.isalpha() and w not in STOP and w not in FAMILY_WORDS]  # fmt: skip
    exact = {(m.start, m.end) for s in sheets for m in readings[s.name].cells if m.exact}
    unheld = tuple(reading.words[i] for i in content if i not in covered)
    return answerable.Accounted(len(content), unheld, len(exact))


_NAME = re.compile(
    r"\b(?:of|for|by|in|at|does|did|do|is|was|were|from|about|with|named|called) "
    r"(\"[^\"]+\"|'[^']+'|[^\W\d_a-z][\w&.'-]*(?: (?:[^\W\d_a-z][\w&.'-]*|of|de|la)(?=[ ,?.!]|$))*|"
    r"\d{4}\b)"
)
"""A name, a quoted text or a year where a question names a row ("the profits of Zenith",
"what did 'Dig a Hole' chart at", "in 2042")."""


def absent(question: str, sheets: Sequence[Sheet], readings: Mapping[str, Reading]) -> str:
    """The first name, quoted text or year the question puts where it names a row that no
    cell, column or table of the input holds (quoted: ``'Solar Power'``), else ""."""
    for match in _NAME.finditer(question):
        said = match.group(1).strip("\"'")
        if not (said[:1].isupper() or said.isdigit() or match.group(1)[0] in "\"'"):
            continue  # a word in lower case ("of örebro"): no name
        cut = tokens(said)
        if not cut or all(w in STOP for w in cut):
            continue
        if _held(cut, sheets, readings):
            continue
        if said.isdigit() and not any(c.kind == "date" or (c.kind == "number" and
                                      c.low <= int(said) <= c.high) for s in sheets
                                      for c in s.columns):  # fmt: skip
            continue  # a number, not a year: no year column to hold it
        return repr(said)
    return ""


_ATTRIBUTE = re.compile(
    r"^\s*what\s+(?:is|was|are|were)\s+the\s+((?:[^\W\d_][\w'-]*\s+){0,3}?[^\W\d_][\w'-]*)"
    r"\s+(?:of|for|in|at)\s",
    re.IGNORECASE,
)
"""A question that asks one attribute of a row ("what was the price of zinc in 1970",
"what is the unemployment rate of Texas"): the attribute's words."""
_POSSESSED = re.compile(
    r"^\s*(?i:what\s+(?:is|was|are|were))\s+(?:[^\W\d_a-z][\w.-]*\s+){0,3}?[^\W\d_a-z][\w.-]*['’]s"
    r"\s+((?:[^\W\d_][\w'-]*\s+){0,3}?[^\W\d_][\w'-]*)\s*\??\s*$",
)
"""The same asked of a name's possessive ("what is Germany's GDP?"): the attribute's
words."""
GENERIC = frozenset({"title", "amount", "value", "kind", "type", "sort", "name", "result"})
"""Words that ask a row's label or any value, not one attribute."""


def attribute(question: str, sheets: Sequence[Sheet], readings: Mapping[str, Reading]) -> str:
    """The attribute a question asks of a row (:data:`_ATTRIBUTE`) when none of its words
    names a column (in full or by a short form), a table or a cell, or says how to compute
    (the lexicon's families: "average", "highest"), quoted; else "". Measured on
    WikiTableQuestions' training questions, where every attribute asked is in the table
    (``benchmarks/tables/attribute_rule.py``)."""
    m = _ATTRIBUTE.match(question) or _POSSESSED.match(question)
    if m is None:
        return ""
    asked = tokens(m.group(1))
    if any(w in FAMILY_WORDS or w in GENERIC for w in asked):
        return ""  # how to compute ("the total amount", "the tallest building"), or any label
    content = [w for w in asked if w not in STOP and len(w) > 2]
    if not content or len(content) < len(asked) - 1:
        return ""
    for sheet in sheets:
        reading = readings[sheet.name]
        names = {stem(w) for c in sheet.columns for w in column_words(c.name)}
        names |= {stem(w) for w in _table_words(sheet.name)}
        words = {w for c in sheet.columns for w in column_words(c.name)}
        cells = {reading.words[i] for c in reading.cells for i in range(c.start, c.end)}
        if any(stem(w) in names or w in cells for w in content) or any(
            short_form(n, content) is not None
            or short_form(w, [n]) is not None
            or lexicon.names(stem(w), stem(n))
            for n in words
            for w in content
        ):
            return ""  # said by a column's name, in full, short ("pop": population) or
            # by a word the lexicon pairs with it ("tall": height)
    return repr(" ".join(asked))


def unmeasured(sheets: Sequence[Sheet], readings: Mapping[str, Reading]) -> str:
    """Over a database, the measure a question asks by "how <adjective>" ("how high above
    sea level": a height, an elevation, an altitude; :data:`words.MEASURES`) or by "how
    much" and a verb ("how much did a ticket cost": a price, :data:`words.PRICES`) where no
    column of any table is named by it or by the adjective or verb (in full, by a short
    form, or by a word the lexicon pairs with it), quoted; else "". ("How old" is left to
    the ages a table's dates of birth give.) Not over one table: a table's headers say less
    of what they hold than a database's columns ("how far did they make it": the round
    reached), and on WikiTableQuestions' training questions it took three answers from one
    table."""
    if len(sheets) < 2:
        return ""
    words = readings[sheets[0].name].words
    adjectives = measures(words)
    asked = adjectives or priced(words)
    for i, measure in asked:
        adjective = words[i]
        if adjective == "old":
            return ""
        said = [measure, adjective]
        for sheet in sheets:
            for c in sheet.columns:
                for w in column_words(c.name):
                    if any(stem(w) == stem(x) or short_form(w, [x]) is not None
                           or lexicon.names(stem(x), stem(w)) for x in said):  # fmt: skip
                        return ""
    if not asked:
        return ""
    said_as = "how" if adjectives else "how much ..."
    return repr(f"{said_as} {words[asked[0][0]]}")


def _held(cut: list[str], sheets: Sequence[Sheet], readings: Mapping[str, Reading]) -> bool:
    """Whether the words ``cut`` are held by a cell (whole or in part), a column's name or a
    table's name, or say a date."""
    for sheet in sheets:
        reading = readings[sheet.name]
        spans = [(i, i + len(cut)) for i in range(len(reading.words))
                 if reading.words[i : i + len(cut)] == cut]  # fmt: skip
        if any(m.start < e and s < m.end for m in reading.cells for s, e in spans):
            return True
        if any(n.part and n.start < e and s < n.end for n in reading.numbers for s, e in spans):
            return True  # a date ("in January"), read as one (:mod:`.dates`)
        names = {stem(w) for c in sheet.columns for w in column_words(c.name)}
        names |= {stem(w) for w in _table_words(sheet.name)}
        content = [stem(w) for w in cut if w not in STOP]
        if content and all(w in names for w in content):
            return True
    return False


def _asked(
    db: Database,
    question: str,
    sheets: list[Sheet],
    touched: set[str],
    readings: Mapping[str, Reading],
) -> list[Sheet]:
    """The tables a question is asked of: one table, its own; of several, those it touches
    (by name, a column or a cell) but those that account for a part of what another
    accounts for, and each pair joined along a link where it touches both;
    and where it names tables by their names, only those of them that hold every table it
    so names (the rows it asks about are in the tables it names: "how many flights did
    Delta fly?" asks of flights joined with airlines)."""
    if len(sheets) == 1:
        return sheets
    by_name = {s.name for s in sheets if _says_name(s.name, _outside_names(s.name, readings))}
    asked = [s for s in sheets if s.name in touched]
    taken = _not_initials(sheets, readings)
    covers = {s.name: _covered(s, readings[s.name], taken) for s in asked}
    # a year said dates the rows of a table the question names by name where that table has
    # years of its own ("inducted into the Hall of Fame in 2019": HallOfFame's, none of
    # them 2019), not another table's that holds the year
    years = {i for n in readings[sheets[0].name].numbers if n.year
             for i in range(n.start, n.end)} if any(
        of_years(c) for s in sheets if s.name in by_name for c in s.columns) else set()  # fmt: skip
    covers = {n: c if n in by_name else c - years for n, c in covers.items()}
    # a table that accounts for part of what another accounts for is not asked alone:
    # "the year gas was the most expensive" is of the table of gas prices, not of another
    # table with years
    asked = [s for s in asked if not any(covers[s.name] < c for c in covers.values())]
    # a pair is joined where it says more than any table alone that holds the tables the
    # question names by name (only those are asked at the end)
    alone = max((len(c) for n, c in covers.items() if not by_name or n in by_name), default=0)
    known = links(db) + shared_keys(db)

    def spans(table: str) -> set[tuple[int, int]]:  # cells named whole, or nearly so
        return {(m.start, m.end) for m in readings[table].cells
                if m.exact or len(m.values) <= names.NEARLY}  # fmt: skip

    def near(table: str) -> set[tuple[int, int]]:  # named by the table or one it links to
        out = spans(table)
        for k in known:
            if table in (k.left, k.right):
                out |= spans(k.right if k.left == table else k.left)
        return out

    coded = [  # a table's codes held by another's column: joined where it names what no
        k for k in code_links(db)  # table already linked to the other does ("Delta": airlines)
        if k.right in by_name or spans(k.right) - near(k.left)
    ]  # fmt: skip
    every = known + coded
    rows = {s.name: s.rows for s in sheets}
    wider = [(len(covers[k.left] | covers[k.right]), -rows[k.left] - rows[k.right], k)
             for k in every if k.left in covers and k.right in covers]  # fmt: skip
    # of pairs that say as much, those of the most rows (the widest facts: every player's
    # seasons before the few who won an award)
    chosen = [
        k for size, _, k in sorted(wider, key=lambda w: (-w[0], w[1]))[:MAX_JOINS] if size > alone
    ]  # the pair says more of the question than any table alone
    chosen += [k for _, _, k in wider if {k.left, k.right} <= by_name and k not in chosen]

    def whole(table: str) -> set[tuple[int, int]]:  # names written whole
        return {(m.start, m.end) for m in readings[table].cells if m.exact and m.how == "written"}

    chosen += [  # a name two linked tables hold, one named by its name: "how many cities are
        k for k in every  # in Mexico" is of the country Mexico's cities, not the city's
        if k.left in touched and k.right in touched and k not in chosen
        and {k.left, k.right} & by_name and whole(k.left) & whole(k.right)
    ]  # fmt: skip
    # a path for the names and the years said, not for the cells a bare number names
    bare = {n.start for n in readings[sheets[0].name].numbers if not n.year}
    cells = {s.name: {i for m in readings[s.name].cells if (
             m.exact or len(m.values) <= names.NEARLY) and not (
             m.size == 1 and m.start in bare) for i in range(m.start, m.end)}
             - (set() if s.name in by_name else years) for s in sheets}  # fmt: skip
    found = paths(every, cells, by_name)
    held = {k for a, b, mid in found if a.left == mid and b.left == mid for k in (a, b)}
    for link in chosen:  # a table linked to another by several columns: joined by each
        if link in held:
            continue  # its rows and columns are a path's (whose middle looks both ends up)
        roles = [k for k in every if k == link or k in siblings(every, link)]
        made = twice(db, roles) if len(roles) > 1 else join(
            db, link, f"{link.left} and {link.right} by {link.left_column}" if link in coded
            else "")  # fmt: skip
        if all(s.name != made.name for s in asked):
            asked.append(made)
    for a, b, mid in found:
        made = chain(db, a, b, mid, every)
        if all(s.name != made.name for s in asked):
            asked.append(made)
    if not by_name:
        return asked

    def tables(sheet: Sheet) -> set[str]:
        return set(sheet.parts or (sheet.name,))

    holding = [s for s in asked if by_name <= tables(s)]
    return holding or [s for s in asked if by_name & tables(s)] or asked


def _covered(sheet: Sheet, reading: Reading, taken: frozenset[int] = frozenset()) -> set[int]:
    """The question's words a table accounts for: those of the cells it names and those
    that name its columns (in full, by a short form: "HR", home runs, or by a word the
    lexicon pairs with a word of its name: "tall", height) or itself; initials only of words
    that say nothing else (none of ``taken``: "SB" is not "season between")."""
    names = {stem(w) for c in sheet.columns for w in column_words(c.name)}
    names |= {stem(w) for w in _table_words(sheet.name)}
    cells = {i for m in reading.cells for i in range(m.start, m.end)}
    said = {i for i, w in enumerate(reading.stems) if reading.words[i] not in STOP and (
        w in names or lexicon.names_any(w, names))}  # fmt: skip
    content = [i for i, w in enumerate(reading.words) if w.isalpha() and w not in STOP]
    spoken = [reading.words[i] for i in content]
    for word in {w for c in sheet.columns for w in column_words(c.name)}:
        span = short_form(word, spoken)
        if span is None:
            continue
        words = content[span[0] : span[1]]
        if len(words) > 1 and taken.intersection(words):
            continue  # initials of words that name a cell, another column or how to compute
        said.update(words)
    if ages.births(sheet, reading.words):  # "the youngest": of the table of birth dates
        said |= ages.age_words(reading.words)
    return cells | said


def _not_initials(sheets: Sequence[Sheet], readings: Mapping[str, Reading]) -> frozenset[int]:
    """The question's words that cannot be read as one of the initials of a column's short
    name ("SB" is not "season between", "SO" not "salary Oakland"): a word of the lexicon
    ("between", "highest") or of a comparison, a word of a cell some table names whole as
    written or as people say it ("Oakland", "Betts"), and a word that is the whole name of a
    column of some table ("salary", "weight"; not "time" of ``dep_time``: "time zone" is
    ``tz``)."""
    reading = readings[sheets[0].name]
    names = {stem(c.name.casefold()) for s in sheets for c in s.columns if c.name.isalpha()}
    taken = {i for r in readings.values() for m in r.cells if m.exact and m.how != "code"
             for i in range(m.start, m.end)}  # fmt: skip
    for i, w in enumerate(reading.words):
        if w in FAMILY_WORDS or w in COMPARING or stem(IRREGULAR.get(w, w)) in names:
            taken.add(i)
    return frozenset(taken)


def _table_words(name: str) -> list[str]:
    """The words of a table's name, whole and split as a column's ("HallOfFame": hall,
    fame)."""
    return [w for w in tokens(name) if w[:1].isalpha() and len(w) > 2] + naming.table_words(name)


def _outside_names(table: str, readings: Mapping[str, Reading]) -> set[str]:
    """The stems of the question's words but those of a name another table holds whole as
    written ("the United States" names a country, not the table ``us_states``)."""
    inside = {i for name, r in readings.items() if name != table for m in r.cells
              if m.exact and m.how == "written" and m.size > 1
              for i in range(m.start, m.end)}  # fmt: skip
    reading = next(iter(readings.values()))
    return {s for i, s in enumerate(reading.stems) if i not in inside}


def _says_name(name: str, said: set[str]) -> bool:
    words = [stem(w) for w in naming.table_words(name)]
    return bool(words) and all(w in said for w in words)


def labels(sheet: Sheet) -> list[int]:
    """A table's label columns: those named a name or a title ("name", "franchName")."""
    return naming.labels(sheet)


def by_name(db: Database, question: str, scored: Sequence[Scored]) -> list[Scored]:
    """``scored`` with a best answer of codes or ids ("teamID": "SFN", "faa": "TEX";
    :func:`naming.is_code`) given as the names of the same rows where its table has a label
    column (:func:`labels`) and the question asks no id or code: the same query over the
    label column takes the best's place; where its table has none, the labels of the table
    a link joins the column to (:func:`through_link`; a column of another table's codes, as
    ``flights.dest`` holds airports', is one of codes)."""
    out = list(scored)
    if not out:
        return out
    best, _, top = out[0]
    query = best.query
    said = set(tokens(question))
    if query.column is None or query.op not in ROW_OPS or said & naming.CODE_WORDS:
        return out
    sheet = db.sheets.get(query.sheet) or db.joined[query.sheet]
    column = sheet.columns[query.column]
    mine = naming.owner(sheet, column)  # of a join, the labels of the code's own table
    own = naming.own_name(sheet, column)
    held = any(k.left == mine and k.left_column == own
               for k in code_links(db))  # the codes of a table of names (flights.dest)  # fmt: skip
    keyed = next((k.right for k in links(db) if k.left == mine and k.left_column == own
                  and k.right != mine), None)  # a foreign key: the other table's  # fmt: skip
    if not naming.is_code(sheet, column) and not held and keyed is None:
        return out
    named = [i for i in labels(sheet) if naming.owner(sheet, sheet.columns[i]) == (keyed or mine)]
    for i, (candidate, f, _) in enumerate(out):
        other = candidate.query
        if other.column in named and replace(other, column=query.column) == query:
            if any(isinstance(v, str) and set(tokens(v)) <= said for v in candidate.values):
                return out  # the name is the question's own: it asks for the id of that name
            del out[i]
            return [(candidate, f, top), *out]
    if not named:  # the names another table holds for these ids
        linked = through_link(db, sheet, best)
        if linked is not None:
            return [(linked, out[0][1], top), *out[1:]]
    return out


def through_link(db: Database, sheet: Sheet, candidate: Candidate) -> Candidate | None:
    """``candidate``'s ids (``playerID``: "scherma01") as the labels of the table a link
    joins its column to ("Max Scherzer" of People's names; a link declared, or by the codes
    the column holds: "DEN" of ``flights.dest``, "Denver Intl"), where that table has one
    and each id has one label there; else None."""
    column = sheet.columns[candidate.query.column or 0]
    table, own = naming.owner(sheet, column), naming.own_name(sheet, column)
    for link in links(db) + code_links(db):
        ends = ((link.left, link.left_column, link.right, link.right_column),
                (link.right, link.right_column, link.left, link.left_column))  # fmt: skip
        for mine, col, other, key_name in ends:
            target = db.sheets[other]
            found = labels(target)
            if mine != table or col != own or not found:
                continue
            key_column = next(c for c in target.columns if c.name == key_name)
            label = target.columns[found[-1]]
            names: list[str | float] = []
            for value in candidate.values:
                rows = db.db.execute(
                    f"SELECT DISTINCT {label.text} FROM {target.sql} WHERE {key_column.text} = ?",
                    (value,),
                ).fetchall()
                if len(rows) != 1 or rows[0][0] is None:
                    return None
                names.append(rows[0][0])
            inner = db.shown(candidate.sql, candidate.args, sheet)
            shown = (f"SELECT {quote(label.name)} FROM {quote(target.name)} WHERE "
                     f"{quote(key_column.name)} IN ({inner})")  # fmt: skip
            words = f"the {label.name} in {target.name} of {candidate.query.render(sheet)}"
            return replace(candidate, values=tuple(names), named=(shown, words))
    return None


def decide(db: Database, question: str, scored: Sequence[Scored]) -> TableAnswer:
    scored = by_name(db, question, scored)
    chances = probabilities([s for _, _, s in scored])
    by_values: dict[frozenset[str | float], float] = {}
    for (candidate, _, _), p in zip(scored, chances, strict=True):
        key = meaning(candidate.values)
        by_values[key] = by_values.get(key, 0.0) + p
    places = rounding(question)
    first = meaning(scored[0][0].values)
    best = _computed(db, scored[0][0], by_values[first], places)
    other = next((c for c, _, _ in scored if meaning(c.values) != first), None)
    runner_up = _computed(db, other, by_values[meaning(other.values)], places) if other else None
    return TableAnswer(best, runner_up, best.probability >= SURE, candidates=len(scored))


def meaning(values: Sequence[str | float]) -> frozenset[str | float]:
    """What an answer's values say, whatever computed them: a cell that reads as a number
    is that number ("4" and 4.0), texts compared folded, order left aside."""
    out: set[str | float] = set()
    for value in values:
        if isinstance(value, str):
            number = read_value(value).number
            out.add(number if number is not None and value.strip()[:1].isdigit() else key(value))
        else:
            out.add(value)
    return frozenset(out)


def _computed(db: Database, candidate: Candidate, p: float, places: int | None) -> Computed:
    values = candidate.values
    if places is not None:
        values = tuple(_round(v, places) for v in values)
    shown = places if places is not None else _averaged(db, candidate)
    return Computed(values, shown_sql(db, candidate), rendered(db, candidate), p, shown)


SAID_PLACES = 2
"""Decimal places an average is said to beyond those of the values it averages ("2221.23"
of weights in whole pounds, not "2221.227848"; the whole number is kept in its values)."""


def _averaged(db: Database, candidate: Candidate) -> int | None:
    """The decimal places an average is said to (:data:`SAID_PLACES` beyond the most its
    column's cells are written with), or None for any other answer."""
    query = candidate.query
    if query.op != "avg" or query.column is None:
        return None
    sheet = db.sheets.get(query.sheet) or db.joined[query.sheet]
    column = sheet.columns[query.column].text
    written = db.db.execute(
        f"SELECT {column} FROM {sheet.sql} WHERE {column} LIKE '%.%' LIMIT 1000"
    ).fetchall()
    decimals = [len(m.group(1)) for (text,) in written if (m := _DECIMALS.search(str(text)))]
    return min(MAX_SAID, max(decimals, default=0) + SAID_PLACES)


_DECIMALS = re.compile(r"\d\.(\d+)")
MAX_SAID = 6
"""Decimal places a number is said to at most (:func:`db.show_number`'s)."""


def shown_sql(db: Database, candidate: Candidate) -> str:
    """The SQL of a candidate as a user reads it."""
    if candidate.named is not None:
        return candidate.named[0]
    sheet = db.sheets.get(candidate.query.sheet) or db.joined[candidate.query.sheet]
    return db.shown(candidate.sql, candidate.args, sheet)


def rendered(db: Database, candidate: Candidate) -> str:
    """A candidate's query in words."""
    if candidate.named is not None:
        return candidate.named[1]
    sheet = db.sheets.get(candidate.query.sheet) or db.joined[candidate.query.sheet]
    return candidate.query.render(sheet)


def _round(value: str | float, places: int) -> str | float:
    if not isinstance(value, float) or value != value or abs(value) == float("inf"):
        return value
    return round(value, places) if places else float(round(value))


def said(value: str | float, places: int | None = None) -> str:
    """A value as the answer writes it (a number to ``places`` decimals, where given)."""
    if not isinstance(value, float):
        return value
    shown = _round(value, places) if places is not None else value
    return show_number(shown) if isinstance(shown, float) else shown


def load(path: Path) -> tuple[Database, Sheet]:
    """A table file read into a new database as a run reads it (the records of
    :func:`prism_edge.text.tables.records`)."""
    db = Database()
    sheet = None
    with open(path, encoding="utf-8", newline="") as f:
        for batch in records(path.name, f):
            sheet, _ = db.add(batch)
    if sheet is None:
        db.close()
        raise ValueError(f"{path}: no table")
    return db, sheet
