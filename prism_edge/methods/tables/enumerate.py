"""Candidate queries for a question, enumerated from what it mentions and from the tables'
columns, each run in the database: the answers the ranker chooses among.

Rows are selected by the question's mentions (a cell it names, two cells of one column
together, a number it compares a column with, a year it dates rows by) alone or two together,
or not at all; every answer of :mod:`prism_edge.methods.tables.space` is then computed over
them for every column it applies to. Nothing is left out because a word of the question
seems to exclude it: that is the ranker's judgement, learned from questions people wrote.
"""

from __future__ import annotations

import contextlib
import itertools
import sqlite3
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from prism_edge.methods.tables import ages, codes, lexicon, naming, roles
from prism_edge.methods.tables.db import Column, Database, Sheet
from prism_edge.methods.tables.mentions import (
    COMPARING,
    CellMention,
    NumberMention,
    Reading,
    called,
    dates_rows,
    direction,
    holds_years,
    in_year,
    of_years,
    rounding_places,
)
from prism_edge.methods.tables.space import (
    GROUP_OPS,
    MAX_LISTED,
    ORDERED_OPS,
    ROW_OPS,
    Cond,
    Query,
)
from prism_edge.methods.tables.words import (
    FAMILIES,
    STOP,
    column_words,
    families,
    short_form,
    stem,
    unitless,
)

MAX_NTH = 5
"""Places ("the third highest") asked for at most."""
MAX_CELL_CONDS = 24
BIG_ROWS = 2_000
BIG_CONDS = 8
MAX_QUERIES = 10_000
"""Queries of one table a question is asked with, about, at most: beyond, only the pairs of
conditions of its strongest mentions (a question naming many numbers and cells over a wide
table enumerated 740,000 queries, 30 s)."""
MIN_PAIRS = 8
MAX_SHARED = 4
"""Years two compared selections share at most, and pairs of selections compared so at
most."""
"""Pairs of conditions kept however many queries each makes."""
WIDE_COLUMNS = 16
"""Columns of a table beyond which only its relevant ones answer, order or are compared
(a 48-column table asked with two numbers enumerated 1.3 million queries)."""
"""Cell conditions a table of more than :data:`BIG_ROWS` rows is asked with at most."""
"""Cell conditions combined in pairs at most (the most specific first)."""


@dataclass(frozen=True)
class Candidate:
    query: Query
    values: tuple[str | float, ...]
    """The answer: cells' texts, or computed numbers."""
    sql: str
    args: tuple[object, ...]
    more: bool = False
    """A list longer than :data:`space.MAX_LISTED` cells, cut there."""
    selected: int | None = None
    """How many rows its conditions select (None: it has none)."""
    named: tuple[str, str] | None = None
    """An answer of ids given as the names another table holds for them (through a link):
    the SQL as a user reads it and the query in words."""


def conditions(reading: Reading, sheet: Sheet) -> tuple[list[Cond], list[Cond]]:
    """The cell conditions and the comparison conditions the question's mentions allow over
    ``sheet``; a year said "in 2019" with no comparison is that year, never a bound."""
    cells: list[Cond] = []
    mine = [(i, m) for i, m in enumerate(reading.cells) if m.sheet == sheet.name]
    for i, mention in mine:
        cells.append(Cond(mention.column, "in", mention.values, (i,)))
    ends = {frozenset((reading.numbers[lo].start, reading.numbers[hi].start))
            for lo, hi in reading.ranges}  # fmt: skip
    date_parts = {n.start for n in reading.numbers if n.part not in ("", "year")}
    for (i, a), (j, b) in itertools.combinations(mine, 2):
        if frozenset((a.start, b.start)) in ends:
            continue  # "from 2016 to 2019" is every year between, not the two
        if frozenset((a.start, b.start)) <= date_parts:
            continue  # "on 1/2" is one date, not the days 1 or 2
        if a.column == b.column and _apart(a, b) and set(a.values).isdisjoint(b.values):
            cells.append(Cond(a.column, "in", a.values + b.values, (i, j)))
    cells.sort(key=lambda c: (-_strength(reading, c), c.column))
    numbers: list[Cond] = []
    for lo, hi in reading.ranges:
        low, high = reading.numbers[lo], reading.numbers[hi]
        ref: tuple[int, ...] = (reading.number_index(lo), reading.number_index(hi))
        for column in sheet.columns:
            if (
                low.year
                and high.year
                and of_years(column)
                and not dates_rows(reading, sheet, column, low.start)
            ):
                continue  # years said of another column of years ("died": deathYear)
            if column.kind == "number":
                if high.value < column.low or low.value > column.high:
                    continue  # a range no value of the column falls in
                numbers.append(Cond(column.index, "between", low.value, ref, high.value))
            elif column.kind == "date" and low.year and high.year:
                numbers.append(Cond(column.index, "year-between", low.value, ref, high.value))
    for k, text in enumerate(reading.texts):
        ref = (reading.text_index(k),)
        for column in sheet.columns:
            if column.kind == "text":
                numbers.append(Cond(column.index, text.kind, text.text, ref))
    in_range = {k for pair in reading.ranges for k in pair}
    stems = set(reading.stems)
    for k, number in enumerate(reading.numbers):
        if number.ordinal or rounding_places(reading.words, number):
            continue  # a place, or how the answer is rounded ("to 1 decimal place")
        if number.part not in ("", "year"):
            continue  # a month, a day, an hour: a date's part (:func:`dated`)
        ref = (reading.number_index(k),)
        own = amount_of(reading, sheet, number)
        said = direction(reading.words, number)
        dated = not said and (in_year(reading.words, number) or k in in_range)
        bounds = (said,) if said else () if dated else (">", "<", ">=", "<=")
        for column in sheet.columns:
            if own and column.index not in own:
                continue  # "more than 20 home runs": HR, no other column
            if naming.is_id(sheet, column, stems):
                continue  # no bound on ids ("more than 10 million": no geonameid)
            if (
                number.year
                and of_years(column)
                and not dates_rows(reading, sheet, column, number.start)
                and not called(reading, sheet, column, number.start)
            ):
                continue  # a year said of another column of years
            if column.kind == "number":
                if not said and not column.low <= number.value <= column.high:
                    if dated and holds_years(column):  # "in 2019" of years up to 2018:
                        numbers.append(Cond(column.index, "=", number.value, ref))  # none
                    continue  # a bound no value reaches, said of no column: not this one
                numbers += [Cond(column.index, op, number.value, ref) for op in bounds]
                inside = any(m.column == column.index and m.start <= number.start < m.end
                             for _, m in mine)  # fmt: skip
                if (
                    not said
                    and not inside
                    and (
                        not number.year
                        or holds_years(column)
                        or called(reading, sheet, column, number.start)
                    )
                ):
                    numbers.append(Cond(column.index, "=", number.value, ref))
            elif column.kind == "date" and number.year:
                years = {">": "year>", ">=": "year>", "<": "year<", "<=": "year<"}
                ops = (years[said],) if said else ("year=",) if dated else (
                    "year=", "year>", "year<")  # fmt: skip
                numbers += [Cond(column.index, op, number.value, ref) for op in ops]
    return cells, numbers


NEGATING = frozenset(
    {"not", "never", "other", "besides", "except", "excluding", "aside", "without"}
)
"""Words that may leave a named cell out ("not played at X", "other than X", "besides X")."""


def negating(words: Sequence[str]) -> bool:
    """Whether ``words`` hold a word that may leave a cell out (:data:`NEGATING`, or a verb
    with "n't")."""
    return any(w in NEGATING or w.endswith("n't") for w in words)


def _negative(reading: Reading, cond: Cond) -> bool:
    """Whether the cell a condition names already says the negation before it: a yes-or-no
    column's "no" read from "not active" (:func:`codes.flags`), never left out again."""
    cells = [reading.cells[i] for i in cond.mentions]
    return any(c.how == "code" and codes.NEGATION.intersection(reading.words[max(0, c.start - 2) :
                                                                             c.start])
               for c in cells)  # fmt: skip


def dated(reading: Reading, sheet: Sheet) -> list[tuple[Cond, ...]]:
    """The conditions selecting the rows of the date (or time) the question says
    (:mod:`.dates`: "on 1/1/2013", "in January", "at 3 pm"), each set a whole: over the
    table's columns of a date's parts (named ``year``, ``month``, ``day``, ``hour``, or so
    with ``id``: ``yearID``), all that it has; else over each column of dates, the date's
    parts said (a table that splits its dates holds its date there: a time stamp beside
    them may be another zone's)."""
    said = [(k, n) for k, n in enumerate(reading.numbers) if n.part]
    if not any(n.part != "year" for _, n in said):
        return []
    found: list[tuple[Cond, ...]] = []
    split: list[Cond] = []
    for k, number in said:
        names = ([number.part], [number.part, "id"])
        column = next((c for c in sheet.columns if c.kind == "number" and
                       naming.words(sheet, c) in names), None)  # fmt: skip
        if column is not None:
            split.append(Cond(column.index, "=", number.value, (reading.number_index(k),)))
    if any(reading.numbers[c.mentions[0] - len(reading.cells)].part != "year" for c in split):
        found.append(tuple(split))
    parts = {n.part: int(n.value) for _, n in said}
    whole = {reading.numbers[c.mentions[0] - len(reading.cells)].part for c in split}
    if ("month" in parts or "day" in parts) and not {"month", "day"} & set(parts) <= whole:
        date = parts.get("year", 0) * 10000 + parts.get("month", 0) * 100 + parts.get("day", 0)
        refs = tuple(reading.number_index(k) for k, n in said if n.part != "hour")
        found += [(Cond(c.index, "on", float(date), refs),) for c in sheet.columns
                  if c.kind == "date"]  # fmt: skip
    return found


_COMPARING = COMPARING - STOP


def amount_of(reading: Reading, sheet: Sheet, number: NumberMention) -> set[int]:
    """The columns of numbers the words right after a number name as what it counts ("20
    home runs": ``HR``, "100 hits": ``H``, "200 seats": ``seats``), or those just before the
    words comparing it ("an ERA below 3"), in full or by a short form, or the word before it
    names ("flight 1545"); things no column names ("30 members"), the column that counts a
    row's things (``size``, ``count``, ``total``); empty where none (the number may bound
    any column)."""
    if number.year or number.ordinal:
        return set()
    after = list(itertools.takewhile(lambda w: w.isalpha() and w not in STOP,
                                     reading.words[number.end : number.end + 3]))  # fmt: skip
    start = number.start
    while start > 0 and reading.words[start - 1] in _COMPARING:
        start -= 1
    before = list(
        itertools.takewhile(
            lambda w: w.isalpha() and w not in STOP,
            reversed(reading.words[max(0, start - 2) : start]),
        )
    )[::-1]
    if start == number.start:
        before = []  # no comparison said: "in 2019 Houston": no amount of Houston
    found = set()
    for column in sheet.columns:
        if column.kind != "number":
            continue
        name = [w for w in naming.words(sheet, column) if w not in STOP]
        if not name:
            continue
        if (
            called(reading, sheet, column, number.start)
            or any(_says(after[:n], name) for n in range(1, len(after) + 1))
            or any(_says(before[-n:], name) for n in range(1, len(before) + 1))
        ):
            found.add(column.index)
    if not found and after:  # a column named by one letter: "100 hits", H
        found = {c.index for c in sheet.columns if c.kind == "number"
                 and naming.own_name(sheet, c).casefold() == after[0][0]}  # fmt: skip
    if not found and after:  # by a word the learned lexicon pairs with its name ("a million
        said = stem(after[0])  # people": population; "30,000 people": attendance)
        found = {c.index for c in sheet.columns if c.kind == "number" and any(
                 lexicon.names(said, stem(w)) for w in naming.words(sheet, c))}  # fmt: skip
    if (
        not found
        and after
        and stem(after[0]) != after[0]
        and not any(
            stem(after[0]) == stem(w) for c in sheet.columns for w in naming.words(sheet, c)
        )
    ):  # "fewer than 30 members": things no column names, counted by a column named so
        found = {c.index for c in sheet.columns if c.kind == "number"
                 and naming.words(sheet, c) in _COUNTS}  # fmt: skip
    return found - of_unnamed_part(reading, sheet) or found  # the towns' people, not their
    # nation's


_COUNTED = frozenset({"count", "distinct", "countdiff"})
_COUNTS = [["size"], ["count"], ["total"]]
"""The names of a column that holds how many things a row has (a committee's size, its
members), whatever the things are called."""


def _weight(reading: Reading, cond: Cond) -> float:
    """How much of the question a condition keeps, to choose pairs by: a cell's words (and
    one more where whole); a number compared in words ("more than 40") as much as a cell
    of three words, one said bare less."""
    if any(i < len(reading.cells) for i in cond.mentions):
        return _strength(reading, cond)
    numbers = [reading.numbers[i - len(reading.cells)] for i in cond.mentions
               if len(reading.cells) <= i < len(reading.cells) + len(reading.numbers)]  # fmt: skip
    return 4.0 if any(direction(reading.words, n) for n in numbers) else 1.5


def _outermost(reading: Reading, cells: list[Cond]) -> list[Cond]:
    """The cell conditions but those whose words lie inside the words of a cell the table
    names whole as written or as people say it ("Mike" inside "Mike Trout", "White" inside
    "White Sox"): a candidate keeping the part is never kept over a database beside one
    keeping the whole (:func:`answer.keeping`)."""
    whole = [(m.start, m.end) for m in reading.cells if m.exact and m.how != "code"]

    def inside(cond: Cond) -> bool:
        spans = [(reading.cells[i].start, reading.cells[i].end) for i in cond.mentions
                 if i < len(reading.cells)]  # fmt: skip
        return bool(spans) and all(
            any(s <= a and b <= e and (s, e) != (a, b) for s, e in whole) for a, b in spans
        )

    return [c for c in cells if not inside(c)]


def said_at(reading: Reading, cond: Cond) -> frozenset[int]:
    """The question's words a condition stands for (its mentions' token indexes)."""
    spans = []
    n_cells, n_numbers = len(reading.cells), len(reading.numbers)
    for i in cond.mentions:
        if i < n_cells:
            spans.append((reading.cells[i].start, reading.cells[i].end))
        elif i < n_cells + n_numbers:
            number = reading.numbers[i - n_cells]
            spans.append((number.start, number.end))
        elif i < n_cells + n_numbers + len(reading.texts):
            text = reading.texts[i - n_cells - n_numbers]
            spans.append((text.start, text.end))
    return frozenset(k for start, end in spans for k in range(start, end))


def _apart(a: CellMention, b: CellMention) -> bool:
    return a.end <= b.start or b.end <= a.start


def _strength(reading: Reading, cond: Cond) -> float:
    return sum(reading.cells[i].size + reading.cells[i].exact for i in cond.mentions
               if i < len(reading.cells))  # fmt: skip


def queries(reading: Reading, sheet: Sheet, relevant: set[int] | None = None) -> Iterator[Query]:
    """Every query of the space the question's mentions allow over ``sheet`` (see
    :func:`_space`); where the question bounds a column in words ("more than 400", "at
    least 3") and the sheet has a column to bound, only the queries that keep the bound: a
    comparison said is part of what is asked, never left out. (A date said is kept over a
    database as a named value is: :func:`answer.keeping`.)"""
    _, numbers = conditions(reading, sheet)
    bounded = {reading.number_index(k) for k, n in enumerate(reading.numbers)
               if not n.ordinal and direction(reading.words, n)}  # fmt: skip
    asked = _heading(reading, sheet)
    if not any(bounded & set(c.mentions) for c in numbers):
        yield from asked(_space(reading, sheet, relevant))
        return
    yield from asked(
        q
        for q in _space(reading, sheet, relevant)
        if any(not bounded.isdisjoint(c.mentions) for c in q.conds + q.other)
    )


def _heading(reading: Reading, sheet: Sheet) -> Callable[[Iterable[Query]], Iterable[Query]]:
    """Over a table of origins and destinations, where the question asks where rows went
    ("where did the first flight out of Newark go?") or came from, only the answers of cells
    of that role (the destination's name, not the flight's number); else every query."""
    role = roles.asked_role(reading.words) if roles.directed(sheet) else ""
    if not role:
        return lambda found: found

    def kept(found: Iterable[Query]) -> Iterable[Query]:
        every = list(found)
        return [q for q in every if q.op not in ROW_OPS or q.column is None or
                roles.column_role(sheet, sheet.columns[q.column]) == role] or every  # fmt: skip

    return kept


def arbitrary(reading: Reading, sheet: Sheet, candidate: Candidate) -> bool:
    """Whether a candidate is the first or last row of several (those its conditions select,
    or the table's) where the question says no order (no "first", "last", "after", no
    ordinal): which of those rows comes first in the table is chance ("the highest salary in
    2016" is no first row of 2016's)."""
    query = candidate.query
    rows = candidate.selected if query.conds else sheet.rows
    if query.op not in ("first", "last") or (rows or 0) <= 1:
        return False
    return not ordered(reading)


def ordered(reading: Reading) -> bool:
    """Whether the question speaks of the rows' order ("first", "last", "after", "before",
    an ordinal), outside the cells it names."""
    cells = {i for m in reading.cells for i in range(m.start, m.end)}
    said = families([w for i, w in enumerate(reading.words) if i not in cells])
    return bool({"first", "last", "after", "before"} & set(said)) or any(
        n.ordinal and not _of_superlative(reading.words, n.end) for n in reading.numbers
    )


_in_order = ordered
"""(:func:`ordered`, where a local name hides it.)"""


def place(reading: Reading) -> int | None:
    """The place a question asks in an order by a column ("the third-most wins", "the second
    highest"): an ordinal past the first said just before a superlative; else None."""
    for n in reading.numbers:
        if n.ordinal and 1 < n.value <= MAX_NTH and _of_superlative(reading.words, n.end):
            return int(n.value)
    return None


_SUPERLATIVE = frozenset({"most", "least", "fewest", "best", "worst"})


def _of_superlative(words: Sequence[str], end: int) -> bool:
    """Whether the words from ``end`` (after an ordinal) say a superlative ("third-most",
    "second highest", "third farthest"): the ordinal is a place in an order by a column,
    not among the rows' own order."""
    rest = [w for w in words[end : end + 2] if w != "-"][:1]
    return bool(rest) and (
        rest[0] in _SUPERLATIVE or (len(rest[0]) > 4 and rest[0].endswith("est"))
    )


def averaged(reading: Reading, sheet: Sheet) -> bool:
    """Whether the question asks for an average in so many words ("the average rating of
    the films from 1999", "mean"): said outside the cells it names, no column is named
    so, and nothing superlative is asked of it ("the highest average")."""
    cells = {i for m in reading.cells for i in range(m.start, m.end)}
    said = [w for i, w in enumerate(reading.words) if i not in cells]
    named = {w for c in sheet.columns for w in column_words(c.name)}
    found = families(said)
    return (
        "average" in found
        and not (named & set(FAMILIES["average"]))
        and not ({"high", "low"} & set(found))
    )


_COMPARATIVES = {
    "argmax": frozenset({"bigger", "larger", "greater", "higher", "more", "longer", "taller",
                         "heavier", "wider", "richer", "warmer", "hotter", "further",
                         "farther"}),
    "argmin": frozenset({"smaller", "fewer", "less", "lower", "shorter", "lighter", "narrower",
                         "poorer", "colder", "cooler"}),
}  # fmt: skip
"""Comparatives by the answer that picks the one of two they say ("older" and "younger" are
left out: a date of birth orders the other way)."""


def which_of_two(reading: Reading) -> str:
    """Where the question asks which of two things it names with "or" is the more (or the
    less) of something ("which is bigger by area, Canada or the United States", "which has
    more people, Tokyo or Delhi"), the answer that picks it (``argmax``, ``argmin``); else
    "": two cells of one column said around "or" and a comparative word outside them."""
    cells = {i for m in reading.cells for i in range(m.start, m.end)}
    said = {w for i, w in enumerate(reading.words) if i not in cells}
    if "or" not in said:
        return ""
    ways = [op for op, words in _COMPARATIVES.items() if words & said]
    if len(ways) != 1:
        return ""
    spans = [(m.start, m.end, m.column, m.sheet) for m in reading.cells if m.exact]
    for a, b in itertools.permutations(spans, 2):
        if a[2:] == b[2:] and a[1] < b[0] and "or" in reading.words[a[1] : b[0]]:
            return ways[0]
    return ""


_ALPHABET = frozenset({"alphabetically", "alphabetical", "alphabetic", "alphabet"})


def alphabetical(reading: Reading) -> bool:
    """Whether the question orders rows alphabetically in so many words ("which state comes
    last alphabetically", "the first in alphabetical order")."""
    return bool(_ALPHABET & set(reading.words))


_TOTALS = frozenset({"total", "combined", "sum"})


def summed(reading: Reading, sheet: Sheet) -> int | None:
    """The column of numbers whose total the question asks in so many words ("the combined
    area of the South American countries", "the total population of ..."): a word of a total
    just before words that name it (in full or by short forms; "total number" names none),
    no word of an average, an extreme or a count said; else None."""
    cells = {i for m in reading.cells for i in range(m.start, m.end)}
    found = set(families([w for i, w in enumerate(reading.words) if i not in cells]))
    if found & {"average", "high", "low", "count"}:
        return None
    words = reading.words
    numbers = {n.end for n in reading.numbers}
    for i, w in enumerate(words):
        if w not in _TOTALS or i in cells or i in numbers:
            continue  # "5 total deputies": a number of them
        phrase = list(itertools.takewhile(lambda x: x.isalpha() and x not in STOP,
                                          words[i + 1 : i + 4]))  # fmt: skip
        for n in range(len(phrase), 0, -1):
            named = _numbers_named(reading, sheet, phrase[:n])
            if len(named) == 1:
                own = naming.words(sheet, sheet.columns[named[0]])
                return None if w in own else named[0]  # "Total deputies": its name
    return None


def different(reading: Reading) -> bool:
    """Whether the question counts different values in so many words ("how many different
    destinations", "the number of distinct ..."): a count of the rows is not asked."""
    words = reading.words
    return any(
        w in FAMILIES["different"]
        and words[max(0, i - 2) : i] in (["how", "many"], ["number", "of"])
        for i, w in enumerate(words)
    )


_MORE = frozenset({"more", "fewer", "less"})


def how_many_more(reading: Reading) -> bool:
    """Whether the question asks how many more (fewer, less) of one thing than of another
    in so many words ("how many more flights did JetBlue fly than United"): "how many" or
    "how much" right before it, "than" after it, and no number it bounds ("how many had
    more than 5": a bound, :func:`direction`)."""
    words = reading.words
    for i in range(len(words) - 2):
        if words[i] == "how" and words[i + 1] in ("many", "much") and words[i + 2] in _MORE:
            rest = words[i + 3 :]
            if "than" in rest and not any(
                n.start == i + 4 + rest.index("than") for n in reading.numbers
            ):
                return True
    return False


def extreme_average(reading: Reading, sheet: Sheet) -> bool:
    """Whether the question asks for the highest or lowest average in so many words ("which
    airline had the highest average delay"), no column being named an average: the group
    whose rows' mean is the highest."""
    cells = {i for m in reading.cells for i in range(m.start, m.end)}
    found = set(families([w for i, w in enumerate(reading.words) if i not in cells]))
    named = {w for c in sheet.columns for w in column_words(c.name)}
    return (
        "average" in found
        and bool({"high", "low"} & found)
        and not (named & set(FAMILIES["average"]))
    )


def extreme_total(reading: Reading, sheet: Sheet) -> bool:
    """Whether the question asks for the highest or lowest total in so many words, the two
    said together ("which continent has the largest total area"), no column being named a
    total: the group whose rows' sum is the highest."""
    words = reading.words
    named = {w for c in sheet.columns for w in column_words(c.name)}
    return not named & {"total", "combined", "sum"} and any(
        w in ("total", "combined") and i > 0 and words[i - 1] in _SUPERLATIVES | _EST
        for i, w in enumerate(words)
    )  # "the largest total", said together


def counted_things(reading: Reading, sheet: Sheet) -> set[int]:
    """The columns whose different values the question counts in so many words ("how many
    different teams", "the most different planes"): those whose own name the noun after
    "different" says (``teamID``: teams; ``dest``: destinations; an id's "id" aside), else
    the labels and codes of the table it names (``airlines name``: airlines) and the columns
    that joined it (``flights tailnum``: planes); empty where none."""
    words = reading.words
    noun = next((words[i + 1] for i, w in enumerate(words[:-1])
                 if w in FAMILIES["different"] and words[i + 1].isalpha()), None)  # fmt: skip
    if noun is None:
        return set()
    found = set()
    for column in sheet.columns:
        name = [w for w in naming.words(sheet, column) if w not in STOP and w not in _ID_WORDS]
        if column.kind != "empty" and name and _says([noun], name):
            found.add(column.index)
    if found:
        return found
    said = stem(noun)
    for table in sheet.parts or (sheet.name,):
        if said not in {stem(w) for w in naming.table_words(table)}:
            continue
        found |= {c.index for c in sheet.columns if sheet.joins.get(c.index) == table or (
                  naming.owner(sheet, c) == table
                  and (naming.is_label(sheet, c) or naming.is_code(sheet, c)))}  # fmt: skip
    return found


_ID_WORDS = frozenset({"id", "code", "key"})


def most_different(reading: Reading) -> bool:
    """Whether the question asks for the thing with the most (or fewest) different values in
    so many words ("the airline that used the most different planes")."""
    words = reading.words
    return any(
        w in FAMILIES["different"] and i > 0 and words[i - 1] in ("most", "fewest", "least")
        for i, w in enumerate(words)
    )


def counted(reading: Reading, sheet: Sheet) -> bool:
    """Whether "how many" asks the amount a column of numbers holds ("how many home runs
    did ...": ``HR``; "how many seats": ``seats``), not a count of rows: the words after it
    (up to a function word) say the whole name of such a column, not one of years nor one
    numbering the rows (every value different: "how many games were played")."""
    words = reading.words
    for i in range(len(words) - 2):
        if words[i : i + 2] != ["how", "many"]:
            continue
        phrase = list(itertools.takewhile(lambda w: w not in STOP and w.isalpha(),
                                          words[i + 2 : i + 5]))  # fmt: skip
        named = {w for t in sheet.parts or (sheet.name,) for w in naming.table_words(t)}
        if set(phrase) & named:
            return False  # "how many flights" over flights: its rows are counted
        for column in sheet.columns:
            if column.kind != "number" or holds_years(column) or _numbering(column):
                continue  # years, or the rows' own numbers ("game 5", "round 3")
            name = [w for w in naming.words(sheet, column) if w not in STOP]
            if name and _says(phrase, name):
                return True
            if len(phrase) == 1 and name == [phrase[0][0]]:
                return True  # named by its first letter: "how many runs", R
    return False


def people_counted(reading: Reading, sheet: Sheet) -> int | None:
    """Over a joined table, the id column of the things "how many" counts ("how many
    players ..." : ``playerID`` of the table of seasons): a row is a season, the question
    counts different players; else None."""
    if not sheet.parts:
        return None
    words = reading.words
    for i in range(len(words) - 2):
        if words[i : i + 2] != ["how", "many"]:
            continue
        noun = stem(words[i + 2])
        for column in sheet.columns:
            said = naming.words(sheet, column)
            if len(said) == 2 and said[1] == "id" and stem(said[0]) == noun:
                return column.index
    return None


def _says(phrase: list[str], name: list[str]) -> bool:
    """Whether the words ``phrase`` and a column's name say each other: every word of the
    name said by one of the phrase (whole, or as its short form: "HR", home runs) and every
    word of the phrase so used."""
    covered: set[int] = set()
    for word in name:
        at = [k for k, w in enumerate(phrase) if stem(w) == stem(word)]
        span = (at[0], at[0] + 1) if at else short_form(word, phrase)
        if span is None:
            return False
        covered.update(range(*span))
    return len(covered) == len(phrase)


def _numbering(column: Column) -> bool:
    """A column that numbers the rows: every value different, or its values 1 to N."""
    return column.distinct == column.present or (column.low == 1 and column.high == column.distinct)


_ASKING = ("which", "what")
_COMPUTING = frozenset({"high", "low", "average", "total", "count", "first", "last", "after",
                        "before", "difference", "different", "common", "or"})  # fmt: skip
"""The lexicon's families that say how to compute an answer (not a list of every one)."""


def listing(reading: Reading, sheet: Sheet) -> bool:
    """Whether the question asks for every value of a kind ("which airlines flew to
    Seattle?", "which New York airports ...?"): "which" or "what" and, within the next
    :data:`_NOUN_AT_MOST` words, a plural noun that names the table or one of its columns,
    and no word of how to compute one answer (a superlative, a count, an order, "or")."""
    cells = {i for m in reading.cells if m.exact for i in range(m.start, m.end)}
    words = reading.words
    if not words or words[0] not in _ASKING:
        return False
    said = families([w for i, w in enumerate(words) if i not in cells])
    if _COMPUTING & set(said):
        return False
    named = {stem(w) for t in sheet.parts or (sheet.name,) for w in naming.table_words(t)}
    named |= {stem(w) for c in sheet.columns for w in naming.words(sheet, c)}
    return any(_plural(words[i]) and reading.stems[i] in named
               for i in range(1, min(len(words), _NOUN_AT_MOST + 1)))  # fmt: skip


_NOUN_AT_MOST = 3
"""Words after "which" the noun it asks of is among ("which New York airports")."""


def _plural(word: str) -> bool:
    return len(word) > 3 and word.isalpha() and word.endswith("s") and not word.endswith("ss")


def superlative(reading: Reading) -> bool:
    """Whether the question asks a highest or lowest value with no total or average said
    ("the highest salary in 2016"): no sum or mean of the rows is asked."""
    cells = {i for m in reading.cells for i in range(m.start, m.end)}
    found = set(families([w for i, w in enumerate(reading.words) if i not in cells]))
    return bool({"high", "low"} & found) and not ({"total", "average"} & found)


_EST = frozenset({"largest", "biggest", "highest", "greatest", "smallest", "lowest"})
_SUPERLATIVES = frozenset(
    w for w in FAMILIES["high"] + FAMILIES["low"]
    if w.endswith("est") or w in ("most", "least", "maximum", "minimum", "max", "min", "top")
)  # fmt: skip
_WHAT = (["what", "is", "the"], ["what", "was", "the"], ["what", "are", "the"],
         ["what", "were", "the"])  # fmt: skip


def valued(reading: Reading, sheet: Sheet) -> int | None:
    """The column of numbers a question asks the highest or lowest value of in so many
    words: "what was the highest maximum temperature ...", "what is the largest petal length
    of ..." ask ``temp_max``'s or ``petalLength``'s number, not the row that holds it. The
    words after the superlative name the column (in full or by short forms) and no other
    nor a table after them ("what is the highest ranked team", "what is the most populous
    city" ask a team, a city); or the words before "of the" and a superlative do ("what is
    the population of the biggest city"); else None."""
    words = reading.words
    start = 3 if words[:3] in _WHAT else 2 if words[:2] == ["what's", "the"] else 0
    if not start or len(words) <= start:
        return None
    if words[start] not in _SUPERLATIVES:
        return _of_superlative_row(reading, sheet, start)
    phrase = list(itertools.takewhile(lambda w: w.isalpha() and w not in STOP,
                                      words[start + 1 : start + 5]))  # fmt: skip
    others = {stem(w) for c in sheet.columns for w in naming.words(sheet, c) if w not in STOP}
    others |= {stem(w) for t in sheet.parts or (sheet.name,) for w in naming.table_words(t)}
    for n in range(len(phrase), 0, -1):
        named = _numbers_named(reading, sheet, phrase[:n])
        if named:
            rest = {stem(w) for w in phrase[n:]}
            return named[0] if len(named) == 1 and not rest & others else None
    return None


_QUANTITY = frozenset({"most", "least", "fewest"})


def superlative_row(reading: Reading, sheet: Sheet) -> tuple[set[str], set[str]]:
    """Where the question asks a superlative, the tables (of those joined into ``sheet``, or
    its own) whose rows it asks by the table's name, and those whose rows it counts: a
    superlative said of a table's things ("the most populous city", "the third biggest
    city", "the biggest country in South America": the words just after it, up to
    :data:`_NOUN_AT_MOST`, say the table's name) or "which <thing>" ("which country in
    Oceania has the most people") asks a row, not a number; "the most countries", "the
    fewest counties" count rows, a plural saying things to count ("the most electricity",
    of a table named "iowa-electricity", is an amount; a table's name that names a column of
    it is a number of it: "the highest salary")."""
    names = {t: {stem(w) for w in naming.table_words(t)} for t in sheet.parts or (sheet.name,)}
    own = {stem(w) for c in sheet.columns if len(said := naming.words(sheet, c)) == 1
           for w in said}  # "the highest salary" is a number of Salaries  # fmt: skip
    every = set().union(*names.values()) - own
    words = reading.words
    asked: set[str] = set()
    counted: set[str] = set()

    def tables(at: Iterable[int]) -> set[str]:
        said = {reading.stems[k] for k in at} & every
        return {t for t, stems in names.items() if stems & said}

    for i, w in enumerate(words):
        if w in _SUPERLATIVES or (len(w) > 4 and w.endswith("est")) or w.endswith("ernmost"):
            after = list(itertools.takewhile(
                lambda k: words[k].isalpha() and words[k] not in STOP,
                range(i + 1, min(len(words), i + 1 + _NOUN_AT_MOST)),
            ))  # fmt: skip
            if (
                w in _QUANTITY
                and after[:1]
                and reading.stems[after[0]] in every
                and _plural(words[after[0]])
            ):  # "the most nations": how many; "the most electricity" is an amount
                counted |= tables(after[:1])
                continue
            asked |= tables(after)
    if words[:1] and words[0] in _ASKING:  # "which country ... the most people"
        asked |= tables(range(1, min(len(words), 1 + _NOUN_AT_MOST)))
    return asked, counted - asked


def attribute_of(reading: Reading, sheet: Sheet) -> int | None:
    """The column "what is the <column> of the ..." names, where its words up to "of" name
    one column of ``sheet`` (its table's the question names where two are so named); else
    None."""
    words = reading.words
    start = 3 if words[:3] in _WHAT else 2 if words[:2] == ["what's", "the"] else 0
    if not start:
        return None
    phrase = list(itertools.takewhile(lambda w: w.isalpha() and w not in STOP,
                                      words[start : start + 4]))  # fmt: skip
    if not phrase or words[start + len(phrase) : start + len(phrase) + 1] != ["of"]:
        return None
    found = [
        c.index for c in sheet.columns if c.present and any(
            _says(phrase, _measure_words(naming.words(sheet, c, spelt))) for spelt in (True, False))
    ]  # fmt: skip
    if len(found) > 1:
        unnamed = of_unnamed_part(reading, sheet)
        found = [i for i in found if i not in unnamed]
    return found[0] if len(found) == 1 else None


def row_columns(sheet: Sheet, tables: set[str]) -> tuple[set[int], set[int]]:
    """Of ``sheet``, the columns that say which row of ``tables`` (their labels and codes:
    codes are given as labels) and those of those tables (to order their rows by)."""
    mine = {c.index for c in sheet.columns if naming.owner(sheet, c) in tables}
    which = {i for i in mine if naming.is_label(sheet, sheet.columns[i])
             or naming.is_code(sheet, sheet.columns[i])}  # fmt: skip
    return which, mine


def _numbers_named(reading: Reading, sheet: Sheet, phrase: list[str]) -> list[int]:
    """The columns of numbers whose name ``phrase`` says (:func:`_says`), spelt out or as
    written ("maximum temperature", "temp max"), but those of a table the question does not
    name beside one it names (:func:`of_unnamed_part`)."""
    found = [
        c.index for c in sheet.columns if c.kind == "number" and any(
            _says(phrase, _measure_words(naming.words(sheet, c, spelt))) for spelt in (True, False))
    ]  # fmt: skip
    unnamed = of_unnamed_part(reading, sheet) if len(found) > 1 else set()
    return [i for i in found if i not in unnamed]


def _measure_words(name: list[str]) -> list[str]:
    """A column's name's words that say what it measures: not function words, nor its unit
    (``areakm2``: area)."""
    return unitless([w for w in name if w not in STOP])


def of_unnamed_part(reading: Reading, sheet: Sheet) -> set[int]:
    """Over tables joined, the columns named as a column of another of them is (both
    ``population``) whose table the question does not name by its name where it names the
    other's ("how many cities have over a million people": the cities' population, not
    their countries'; the words of a cell named whole aside)."""
    if len(sheet.parts) < 2:
        return set()
    cells = {i for m in reading.cells if m.exact for i in range(m.start, m.end)}
    said = {s for i, s in enumerate(reading.stems) if i not in cells}
    named = set()
    for part in sheet.parts:
        words = {stem(w) for w in naming.table_words(part)}
        if words and words <= said:
            named.add(part)
    if not named:
        return set()
    by_name: dict[str, list[Column]] = {}
    for column in sheet.columns:
        by_name.setdefault(naming.own_name(sheet, column).casefold(), []).append(column)
    return {c.index for same in by_name.values() if len(same) > 1
            and any(naming.owner(sheet, c) in named for c in same)
            for c in same if naming.owner(sheet, c) not in named}  # fmt: skip


def _of_superlative_row(reading: Reading, sheet: Sheet, start: int) -> int | None:
    """The column of numbers "what is the <column> of the <superlative> ..." asks ("what is
    the population of the biggest city": the population of the city that is), where the
    words from ``start`` up to "of" name one such column; else None."""
    words = reading.words
    phrase = list(itertools.takewhile(lambda w: w.isalpha() and w not in STOP,
                                      words[start : start + 4]))  # fmt: skip
    after = words[start + len(phrase) : start + len(phrase) + 3]
    if not phrase or after[:1] != ["of"] or not (set(after[1:]) & _SUPERLATIVES):
        return None
    named = _numbers_named(reading, sheet, phrase)
    return named[0] if len(named) == 1 else None


_HIGH = frozenset({"most", "highest", "maximum", "biggest", "largest", "greatest",
                   "northernmost", "easternmost"})  # fmt: skip
_LOW = frozenset({"fewest", "least", "lowest", "minimum", "smallest", "southernmost",
                  "westernmost"})  # fmt: skip


def _opposite(reading: Reading) -> set[str]:
    """The answers a superlative said one way only excludes: "the most home runs" is never
    the row of the fewest (words whose way depends on the column, "oldest", "best", "top",
    excluded)."""
    cells = {i for m in reading.cells for i in range(m.start, m.end)}
    said = {w for i, w in enumerate(reading.words) if i not in cells}
    high, low = bool(said & _HIGH), bool(said & _LOW)
    if high and not low:
        return {"argmin", "min", "groupmin", "least"}
    if low and not high:
        return {"argmax", "max", "groupmax", "most"}
    return set()


def _space(reading: Reading, sheet: Sheet, relevant: set[int] | None = None) -> Iterator[Query]:
    """The queries of :func:`_all` a question asking for an average in so many words allows:
    averages (:func:`averaged`); one counting different values in so many words, no count
    of rows (:func:`different`)."""
    if extreme_average(reading, sheet):  # "the airline with the highest average delay"
        every = list(_all(reading, sheet, relevant))

        def one_row(q: Query) -> bool:  # a row each: "the firm with the highest average"
            col = sheet.columns[q.column] if q.column is not None else None
            return q.op in ORDERED_OPS and col is not None and col.distinct == col.present

        yield from [q for q in every if q.agg == "avg" or one_row(q)] or every
        return
    if most_different(reading):  # "the airline with the most different planes"
        every = [q for q in _all(reading, sheet, relevant) if q.agg == "distinct"] or list(
            _all(reading, sheet, relevant)
        )
        things = counted_things(reading, sheet)
        every = [q for q in every if q.by in things] or every
        yield from [q for q in every if q.op not in _opposite(reading)] or every
        return
    if different(reading):  # "how many different teams": of the column the noun names
        every = list(_all(reading, sheet, relevant))
        things = counted_things(reading, sheet)
        yield from [q for q in every if q.op == "distinct" and q.column in things] or [
            q for q in every if q.op != "count"] or every  # fmt: skip
        return
    way = which_of_two(reading)
    if way:  # "which is bigger, Canada or the United States": the one ordered first
        every = list(_all(reading, sheet, relevant))
        two = [q for q in every if q.op == way and q.by is not None and len(q.conds) == 1
               and len(q.conds[0].mentions) == 2 and q.conds[0].op == "in"
               and q.column == q.conds[0].column]  # one of the two, as named  # fmt: skip
        yield from two or every
        return
    if extreme_total(reading, sheet):  # "which continent has the largest total area"
        every = list(_all(reading, sheet, relevant))
        totals = [q for q in every if q.op in GROUP_OPS and q.agg == "sum"]
        yield from [q for q in totals if q.op not in _opposite(reading)] or totals or every
        return
    if how_many_more(reading):  # "how many more A than B": the difference of the two
        every = list(_all(reading, sheet, relevant))
        yield from [q for q in every if q.op in ("diff", "countdiff")] or every
        return
    ids = people_counted(reading, sheet)
    if ids is not None:  # "how many players ..." over a join: different players, not rows
        for query in _all(reading, sheet, relevant):
            if query.op == "count" and query.conds:
                yield Query(sheet.name, "count", ids, conds=query.conds)
            else:
                yield query
        return
    if counted(reading, sheet):
        every = [q for q in _all(reading, sheet, relevant) if q.op != "count"] or list(
            _all(reading, sheet, relevant)
        )
        if averaged(reading, sheet):  # "on average, how many games did they win": a mean
            every = [q for q in every if q.op == "avg"] or every
        yield from every
        return
    way = ages.aged(reading.words)
    born = ages.births(sheet, reading.words) if way else []
    if born:  # "the youngest player": the one born last
        every = list(_all(reading, sheet, relevant))
        yield from [q for q in every if q.op == way and q.by in born] or every
        return
    if listing(reading, sheet):  # "which airlines flew to Seattle": every one
        every = list(_all(reading, sheet, relevant))
        yield from [q for q in every if q.op == "select"] or every
        return
    if superlative(reading):
        every = list(_all(reading, sheet, relevant))
        away = {"sum", "avg"} | _opposite(reading)
        nth = place(reading)
        if nth is not None:  # "the third-most": the third of an order, no first nor total
            away |= {"max", "min", "groupmax", "groupmin", "first", "last", "select", "most",
                     "least"}  # fmt: skip
            every = [q for q in every if q.op not in ("argmax", "argmin") or q.nth == nth]
        kept = [q for q in every if q.op not in away] or every
        asked = valued(reading, sheet)
        if asked is not None:  # its number, not another column's cell nor a count
            kept = [q for q in kept if q.column == asked and q.op not in _COUNTED] or kept
        else:
            tables, grouped = superlative_row(reading, sheet)
            if grouped:  # "which continent has the most countries": rows counted by group
                kept = [q for q in kept if q.op in ("most", "least")] or kept
            if tables:  # "the most populous city": a city
                which, mine = row_columns(sheet, tables)
                said = attribute_of(reading, sheet)  # "the capital of the most populous ..."
                which = {said} if said is not None else which
                rows = [q for q in kept if q.op in ROW_OPS]
                rows = [q for q in rows if q.by is None or q.by in mine] or rows  # its own
                kept = [q for q in rows if q.column in which] or rows or kept
        yield from kept
        return
    if alphabetical(reading):  # "which state comes last alphabetically"
        last = "last" in families(reading.words) or "z" in reading.words
        op = "argmax" if last else "argmin"
        every = list(_all(reading, sheet, relevant))
        texts = [c for c in sheet.columns if c.kind == "text" and c.present
                 and (relevant is None or c.index in relevant)]  # fmt: skip
        nths = (1, *sorted({int(n.value) for n in reading.numbers
                            if n.ordinal and 1 < n.value <= MAX_NTH}))  # fmt: skip
        yield from [Query(sheet.name, op, c.index, c.index, conds, nth=nth, alphabetical=True)
                    for conds in [(), *((d,) for d in conditions(reading, sheet)[0])]
                    for c in texts for nth in nths] or every  # its own order  # fmt: skip
        return
    total = summed(reading, sheet)
    if total is not None:  # "the combined area of ...": the sum of the area
        every = list(_all(reading, sheet, relevant))
        yield from [q for q in every if q.op == "sum" and q.column == total] or every
        return
    if not averaged(reading, sheet):
        yield from _all(reading, sheet, relevant)
        return
    every = list(_all(reading, sheet, relevant))
    means = [q for q in every if q.op == "avg"]
    yield from means or every  # no number to average: the question is read as it comes


def _all(reading: Reading, sheet: Sheet, relevant: set[int] | None = None) -> Iterator[Query]:
    """Every query of the space the question's mentions allow over ``sheet``; over a big
    table only its ``relevant`` columns (those the question names, or names a cell of, and
    the first) answer, order or are compared, and only its strongest mentions select; over
    a wide one (more than :data:`WIDE_COLUMNS`), only its relevant columns too."""
    cells, numbers = conditions(reading, sheet)
    columns = [c for c in sheet.columns if c.present]
    if sheet.rows > BIG_ROWS:  # every query reads every row
        cells = _outermost(reading, cells)[:BIG_CONDS]
    if negating(reading.words):  # each named cell also left out ("not at X", "other than X")
        cells = [n for c in cells for n in (c, Cond(c.column, "notin", c.value, c.mentions))
                 if n is c or not _negative(reading, c)]  # fmt: skip
    if (sheet.rows > BIG_ROWS or len(columns) > WIDE_COLUMNS) and relevant is not None:
        columns = [c for c in columns if c.index in relevant]
        numbers = [c for c in numbers if c.column in relevant]
    said = set(reading.stems)
    next_said = not reading.several or _in_order(reading)  # a database's rows have no order
    measured = [c for c in columns if not naming.is_id(sheet, c, said)]  # no "highest id"
    numeric = [c for c in measured if c.kind == "number"]
    ordered = [c for c in measured if c.kind in ("number", "date")]
    places = sorted({int(n.value) for n in reading.numbers if n.ordinal and 1 < n.value <=
                     MAX_NTH})  # fmt: skip
    name = sheet.name
    order = ("next", "prev")
    same_said = "same" in reading.words  # "the same producer as X": the other rows sharing it
    sharing = [c for c in columns if c.distinct < c.present]  # a value some rows share
    when = dated(reading, sheet)
    singles: list[tuple[Cond, ...]] = [(c,) for c in cells + numbers] + when
    at = {id(c): said_at(reading, c) for c in cells[:MAX_CELL_CONDS] + numbers}
    pairs: list[tuple[Cond, ...]] = [
        (a, b)
        for a, b in itertools.combinations(cells[:MAX_CELL_CONDS], 2)
        if a.column != b.column and at[id(a)].isdisjoint(at[id(b)])
    ]
    pairs += [
        (a, b)
        for a in cells[:MAX_CELL_CONDS]
        for b in numbers
        if a.column != b.column and at[id(a)].isdisjoint(at[id(b)])
    ]  # a word of the question is one condition, never two ("more than 40": no cell 40)
    pairs += [(a, *w) for a in cells[:MAX_CELL_CONDS] for w in when
              if all(a.column != c.column for c in w)]  # fmt: skip
    if reading.several:  # a database: three values named together ("Cuban", "White Sox", 2019)
        pairs += _triples(reading, [c for c in cells if c.op == "in"], numbers)
    each = len(columns) * (6 + 2 * len(ordered)) + 4 * len(numeric) + 1
    room = max(MIN_PAIRS, (MAX_QUERIES - each * len(singles)) // each)
    if len(pairs) > room:  # the likeliest pairs, the strongest mentions first
        pairs = sorted(pairs, key=lambda p: -sum(_weight(reading, c) for c in p))[:room]
    # over every row
    yield Query(name, "count")
    for col in columns:
        for op in ("first", "last", "most", "least"):
            yield Query(name, op, col.index)
        yield Query(name, "distinct", col.index)
        for nth in places:
            yield Query(name, "first", col.index, nth=nth)
            yield Query(name, "last", col.index, nth=nth)
        for by in ordered:
            for op in ("argmax", "argmin"):
                yield Query(name, op, col.index, by.index)
                for nth in places:
                    yield Query(name, op, col.index, by.index, nth=nth)
    for col in numeric:
        for op in ("sum", "avg", "max", "min", "range"):
            yield Query(name, op, col.index)
    grouping = [c for c in columns if c.kind == "text" and c.distinct < c.present]
    for col in grouping:
        yield from _grouped(reading, sheet, col, numeric, columns, ())
    # over the rows the mentions select
    for conds in singles + pairs:
        yield Query(name, "count", conds=conds)
        used = {c.column for c in conds}
        for col in columns:
            yield Query(name, "select", col.index, conds=conds)
            yield Query(name, "distinct", col.index, conds=conds)
            for op in ("first", "last", "most"):
                yield Query(name, op, col.index, conds=conds)
            if len(conds) == 1 and conds[0].op == "in" and next_said:
                yield from (Query(name, op, col.index, conds=conds) for op in order)
            if len(conds) == 1 and conds[0].op == "in" and same_said:
                yield from (Query(name, "same", col.index, by.index, conds) for by in sharing
                            if by.index not in (col.index, conds[0].column))  # fmt: skip
            for by in ordered:
                if by.index in used and conds[0].op != "in":
                    continue
                for nth in (1, *places):
                    yield Query(name, "argmax", col.index, by.index, conds, nth=nth)
                    yield Query(name, "argmin", col.index, by.index, conds, nth=nth)
        for col in numeric:
            for op in ("sum", "avg", "max", "min"):
                yield Query(name, op, col.index, conds=conds)
        if len(conds) == 1 or conds in when:  # the groups of the rows one mention selects
            for col in grouping:
                if col.index not in used:
                    yield from _grouped(reading, sheet, col, numeric, columns, conds)
    # two selections compared, alone or both of the year or the date the question says ("how
    # many more flights did A fly than B in January": A's and B's, each of January)
    plain = [c for c in cells if len(c.mentions) == 1 and c.op == "in"]
    ends = {frozenset((reading.numbers[lo].start, reading.numbers[hi].start))
            for lo, hi in reading.ranges}  # fmt: skip
    compared = 0
    for a, b in itertools.combinations(plain[:MAX_CELL_CONDS], 2):
        if a.column != b.column or not set(a.value).isdisjoint(b.value):  # type: ignore[arg-type]
            continue  # two values of one column compared ("how many more in A than in B")
        compared += 1
        starts = frozenset(reading.cells[i].start for i in a.mentions + b.mentions)
        if starts in ends:
            continue  # "from 2017 to 2019": every year between, no two compared
        shared: list[tuple[Cond, ...]] = [()]
        if compared <= MAX_SHARED:  # the first pairs compared (the strongest cells first)
            years = {n.start for n in reading.numbers if in_year(reading.words, n)}
            shared += [(c,) for c in numbers if c.op in ("=", "year=") and any(
                reading.numbers[i - len(reading.cells)].start in years
                for i in c.mentions)][:MAX_SHARED]  # fmt: skip
            shared += [(c,) for c in cells if c.column != a.column and len(c.mentions) == 1
                       and reading.cells[c.mentions[0]].start in years][:MAX_SHARED]  # fmt: skip
            shared += when
        for more in shared:
            yield Query(name, "countdiff", conds=(a, *more), other=(b, *more))
            for col in numeric:
                if col.index not in (a.column, b.column):
                    yield Query(name, "diff", col.index, conds=(a, *more), other=(b, *more))


MAX_TRIPLES = 8
"""Three conditions together a database's table is asked with at most."""
_NAMED = MAX_TRIPLES
"""Conditions of named values (whole cells, years) three are made of at most."""


def _triples(reading: Reading, cells: list[Cond], numbers: list[Cond]) -> list[tuple[Cond, ...]]:
    """Three conditions together over a database's table, each a value the question names (a
    cell named whole, a year or a range of years), on three columns: the likeliest (the
    strongest mentions) first, at most :data:`MAX_TRIPLES`."""
    whole = [c for c in cells if len(c.mentions) == 1 and reading.cells[c.mentions[0]].exact]
    years = [c for c in numbers if c.op in ("=", "year=", "between", "year-between") and all(
        reading.numbers[i - len(reading.cells)].year for i in c.mentions)]  # fmt: skip
    named = whole[:_NAMED] + years[:_NAMED]
    found: list[tuple[Cond, ...]] = [
        t for t in itertools.combinations(named, 3)
        if len({c.column for c in t}) == 3
        and len({i for c in t for i in c.mentions}) == sum(len(c.mentions) for c in t)
    ]  # fmt: skip
    found.sort(key=lambda t: -sum(_weight(reading, c) for c in t))
    return found[:MAX_TRIPLES]


def _grouped(
    reading: Reading,
    sheet: Sheet,
    col: Column,
    numeric: list[Column],
    columns: list[Column],
    conds: tuple[Cond, ...],
) -> Iterator[Query]:
    """The value of ``col`` whose rows (those ``conds`` select) have the highest or lowest
    total of a column of numbers; their highest or lowest average where the question asks
    one in so many words (:func:`extreme_average`); the most or fewest different values of
    another column where it counts different values (:func:`different`: "the airline that
    used the most different planes")."""
    aggs = ["sum"] + (["avg"] if extreme_average(reading, sheet) else [])
    for by in numeric:
        for agg in aggs:
            yield Query(sheet.name, "groupmax", col.index, by.index, conds, agg=agg)
            yield Query(sheet.name, "groupmin", col.index, by.index, conds, agg=agg)
    if different(reading) or most_different(reading):
        for by in columns:
            if by.index != col.index and by.kind != "empty":
                for op in ("groupmax", "groupmin"):
                    yield Query(sheet.name, op, col.index, by.index, conds, agg="distinct")


def run(db: Database, sheet: Sheet, query: Query) -> Candidate | None:
    """The query's answer, or None when it has none (no row, no number)."""
    for index in query.numeric_columns():
        db.numeric(sheet, sheet.columns[index])
    if sheet.rows > BIG_ROWS:
        for cond in query.conds + query.other:
            if cond.op == "in":
                db.indexed(sheet, sheet.columns[cond.column])
    sql, args = query.sql(sheet)
    try:
        rows = db.db.execute(sql, args).fetchall()
    except sqlite3.OperationalError:
        return None
    selected = _selected(db, sheet, query.conds) if query.conds else None
    values: list[str | float] = []
    seen: set[object] = set()
    for (value,) in rows:
        if value is None or value == "":
            continue
        if isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if value not in seen:
            seen.add(value)
            values.append(value)
    if not values:
        return None
    if len(values) > MAX_LISTED:
        return Candidate(query, tuple(values[:MAX_LISTED]), sql, tuple(args), True, selected)
    if query.op in ("count", "countdiff", "distinct") and values == [0.0] and query.conds:
        return Candidate(query, (0.0,), sql, tuple(args), selected=selected)
    return Candidate(query, tuple(values), sql, tuple(args), selected=selected)


_SELECTED: weakref.WeakKeyDictionary[Database, dict[tuple[str, tuple[Cond, ...]], int]] = (
    weakref.WeakKeyDictionary()
)


def _selected(db: Database, sheet: Sheet, conds: tuple[Cond, ...]) -> int:
    """How many rows ``conds`` select in ``sheet`` (counted once per database)."""
    known = _SELECTED.setdefault(db, {})
    found = known.get((sheet.sql, conds))
    if found is None:
        found = 0
        sql, args = Query(sheet.name, "count", conds=conds).sql(sheet)
        with contextlib.suppress(sqlite3.OperationalError):
            (found,) = db.db.execute(sql, args).fetchone()
        known[(sheet.sql, conds)] = found
    return found


def candidates(db: Database, sheet: Sheet, asked: Iterable[Query]) -> list[Candidate]:
    """Each query's answer (those with one), the same answer of the same query once."""
    found = []
    seen: set[tuple[str, tuple[object, ...]]] = set()
    for query in asked:
        candidate = run(db, sheet, query)
        if candidate is None:
            continue
        key = (candidate.sql, candidate.args)
        if key in seen:
            continue
        seen.add(key)
        found.append(candidate)
    return found
