"""What a question mentions of the tables: the cells it names (whole or in part), the
numbers it holds, and its words, as the query space and the ranker read them.

Nothing here decides what the question asks: every mention is a possibility the candidates
may use or not; the ranker, learned from questions people wrote, weighs them.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from prism_edge.methods.tables import codes, dates, names, naming, roles
from prism_edge.methods.tables.db import Column, Database, Sheet
from prism_edge.methods.tables.words import FAMILY_WORDS, IRREGULAR, STOP, stem, tokens
from prism_edge.text.values import ORDINAL_WORDS, read_date, read_number

MAX_NGRAM = 10
PARTIAL_ROWS = 0.5
"""A part of the question that occurs inside the cells of more than this share of a column's
distinct values names none of them in particular."""
MAX_VALUES = 20_000
"""Distinct values of a column, beyond which only whole cells are matched (a big table)."""


@dataclass(frozen=True)
class CellMention:
    """Cells of one column named by a span of the question."""

    sheet: str
    column: int
    values: tuple[str, ...]
    """The folded texts of the cells named."""
    start: int
    end: int
    """The span (token indexes, end excluded)."""
    exact: bool
    """The span is the whole cell; else it occurs inside it."""
    how: str = "written"
    """How the question says it: ``written`` (its words are the cell's), ``code`` (in words
    for a code: :mod:`codes`) or ``everyday`` (a name shorter or otherwise: :mod:`names`)."""
    part: bool = False
    """Said as people say names, it names the one cell it names in part ("African" of
    ``Central African Republic``), though taken as that cell."""
    placed: bool = False
    """Said as a place's adjective, the place's cell whole ("African": ``Africa``)."""

    @property
    def size(self) -> int:
        return self.end - self.start


@dataclass(frozen=True)
class NumberMention:
    value: float
    start: int
    end: int
    ordinal: bool = False
    """Said as "second", "3rd": a place rather than an amount."""
    year: bool = False
    part: str = ""
    """The part of a date or a time it says (``year``, ``month``, ``day``, ``hour``:
    :mod:`.dates`; "jan" is month 1, "3 pm" hour 15), else ""."""


@dataclass(frozen=True)
class TextMention:
    """A text the question says cells begin with, end with or contain ("beginning with
    'Europe/'")."""

    kind: str
    """``prefix``, ``suffix`` or ``contains``."""
    text: str
    start: int
    end: int


@dataclass
class Reading:
    """A question as tokens, with what it mentions of the tables."""

    question: str
    words: list[str]
    stems: list[str]
    cells: list[CellMention] = field(default_factory=list)
    numbers: list[NumberMention] = field(default_factory=list)
    texts: list[TextMention] = field(default_factory=list)
    ranges: list[tuple[int, int]] = field(default_factory=list)
    """Pairs of numbers (their indexes in ``numbers``) the question puts a range between
    ("between 1960 and 1965", "from 2 to 5")."""
    several: bool = False
    """Asked of a database of several tables (a year said dates rows by the columns
    :func:`dates_rows` allows)."""

    def number_index(self, k: int) -> int:
        """The mention index of number ``k`` (numbers come after the cells)."""
        return len(self.cells) + k

    def text_index(self, k: int) -> int:
        return len(self.cells) + len(self.numbers) + k

    def covered(self) -> set[int]:
        return {i for m in self.cells for i in range(m.start, m.end)}


_GREATER = ("more than", "greater than", "larger than", "higher than", "bigger than",
            "longer than", "older than", "later than", "over", "above", "exceeding", "exceeds",
            "exceeded", "excess of", "after")  # fmt: skip
_LESS = ("less than", "fewer than", "smaller than", "lower than", "shorter than", "younger than",
         "earlier than", "under", "below", "before")  # fmt: skip
_AT_LEAST = ("at least", "no less than", "no fewer than", "not less than", "minimum of",
             "or more")  # fmt: skip
_AT_MOST = ("at most", "no more than", "not more than", "up to", "maximum of", "or less",
            "or fewer")  # fmt: skip
_BEFORE: dict[tuple[str, ...], str] = {
    tuple(words.split()): op
    for op, said in ((">", _GREATER), ("<", _LESS), (">=", _AT_LEAST), ("<=", _AT_MOST))
    for words in said
}
"""The words of English that say which way a number bounds a column ("more than 400",
"at least 3", "under 10", "after 1990"; "or more" after it): the comparison is read, as
a parser reads grammar, not left to the ranker's weights (learned from weakly supervised
questions, where a count with the wrong bound can match the answer by chance)."""


COMPARING = frozenset(w for said in _BEFORE for w in said)
"""The words that say a comparison ("more", "than", "below", "least")."""


def direction(words: Sequence[str], number: NumberMention) -> str | None:
    """The comparison the question's words put on ``number`` (``>``, ``<``, ``>=``, ``<=``),
    or None when they say none ("in 1990", "400 employees")."""
    after = tuple(words[number.end : number.end + 2])
    for size in (3, 2, 1):
        before = tuple(words[number.start - size : number.start]) if number.start >= size else ()
        if before in _BEFORE and before[0] != "or":
            said = _BEFORE[before]
            return said + "=" if len(said) == 1 and after in _BEFORE else said  # "3 or more"
    if after in _BEFORE and after[0] == "or":
        return _BEFORE[after]
    return None


def in_year(words: Sequence[str], number: NumberMention) -> bool:
    """Whether the question dates rows by the year ``number`` ("in 2019", "during 1990"):
    that year, no bound on it."""
    return number.year and list(words[number.start - 1 : number.start]) in (["in"], ["during"])


_PLACES = [[w] for w in ("decimal", "decimals", "place", "places", "digit", "digits",
                         "significant")]  # fmt: skip


def rounding_places(words: Sequence[str], number: NumberMention) -> bool:
    """Whether ``number`` says how the answer is rounded ("to 2 decimal places"): no value
    of the table, neither a bound nor a cell ("1st place" is a place, not a rounding)."""
    return not number.ordinal and list(words[number.end : number.end + 1]) in _PLACES


def holds_years(column: Column) -> bool:
    """Whether a column of numbers holds years (every value from 1000 to 2999): a number the
    question says as a year ("in 2019") is equal only to a year, not to 2,019 at bats."""
    return column.low >= 1000 and column.high <= 2999


def called(reading: Reading, sheet: Sheet, column: Column, start: int) -> bool:
    """Whether the word just before the number at ``start`` names the column ("flight 1545",
    "game 5"): the number is that column's value, even one that reads as a year."""
    if start == 0:
        return False
    return reading.stems[start - 1] in {stem(w) for w in naming.words(sheet, column)}


YEAR_NAMES = frozenset({"year", "years", "yr", "id"})
"""Words of a column's name that say only that it holds years (``yearID``)."""


def of_years(column: Column) -> bool:
    """A column of dates, or of numbers that are years."""
    return column.kind == "date" or (column.kind == "number" and holds_years(column))


def _content(sheet: Sheet, column: Column) -> set[str]:
    """The stems of a column's own name that say more than that it holds years
    (``deathYear``: death; ``yearID``: none)."""
    return {stem(w) for w in naming.words(sheet, column) if w not in YEAR_NAMES and w not in STOP}


YEAR_WORDS_BEFORE = 3
"""Words before a year said in which the words naming a column of years are read ("died
in 2017", "born in the year 1990")."""


def dates_rows(reading: Reading, sheet: Sheet, column: Column, start: int) -> bool:
    """Whether the year the question says at ``start`` ("in 2017") may date rows by
    ``column`` (one of years or dates): over a single table, any; over a database, the
    columns whose own name the words just before it say beyond "year" ("died in 2017":
    ``deathYear``; "debuted in": debut), else the table's own year (its name says only a
    year: ``yearID``; or its only column of years or dates). A year said of a player's season
    is not the year he died, nor the year he was born where "born" is said of a country."""
    if not reading.several:
        return True
    near = reading.words[max(0, start - YEAR_WORDS_BEFORE) : start]
    said = {stem(IRREGULAR.get(w, w)) for w in near} | {stem(w) for w in near}
    years = [c for c in sheet.columns if of_years(c)]
    supported = [c for c in years if _content(sheet, c) and _content(sheet, c) <= said]
    if supported:
        return column in supported
    own = [c for c in years if not _content(sheet, c)] or (years if len(years) == 1 else [])
    return column in own


def read(question: str, db: Database, sheets: Sequence[Sheet] | None = None) -> Reading:
    words = tokens(question)
    reading = Reading(question, words, [stem(w) for w in words], several=len(db.sheets) > 1)
    reading.numbers = _dated(_numbers(words), dates.parts(question, words))
    reading.ranges = _ranges(words, reading.numbers)
    reading.texts = _texts(question, words)
    coded: list[CellMention] = []
    rounded = {n.start for n in reading.numbers if rounding_places(words, n)}
    for sheet in sheets if sheets is not None else db.sheets.values():
        db.prepare(sheet)
        for column in sheet.columns:
            db.typed(sheet, column)
            found = (_whole_cells(words, db, sheet, column.index) if column.big
                     else _cells(words, sheet, column.index))  # fmt: skip
            found = [m for m in found if not (m.size == 1 and m.start in rounded)]
            years = {n.start for n in reading.numbers if n.year}
            if column.kind == "number" and not holds_years(column):
                found = [m for m in found if not (m.size == 1 and m.start in years)
                         or called(reading, sheet, column, m.start)]  # fmt: skip
            elif of_years(column):
                found = [m for m in found if not (m.size == 1 and m.start in years)
                         or dates_rows(reading, sheet, column, m.start)]  # fmt: skip
            spans = {(m.start, m.end) for m in found if m.exact}
            coded += [CellMention(sheet.name, column.index, (s.value,), s.start, s.end, True,
                                  "code") for s in codes.said(question, words, sheet, column)
                      if (s.start, s.end) not in spans]  # fmt: skip
            reading.cells += found
    written = {(m.start, m.end) for m in reading.cells if m.exact}
    reading.cells += [m for m in coded if (m.start, m.end) not in written]  # "Mike Trout": no MT
    everyday = _everyday(reading, db, sheets if sheets is not None else list(db.sheets.values()))
    whole = [(m.start, m.end) for m in everyday if m.exact]
    reading.cells = [m for m in reading.cells if m.exact or not any(
        s <= m.start and m.end <= e for s, e in whole)] + everyday  # fmt: skip
    dated = [(n.start, n.end) for n in reading.numbers if n.part]
    reading.cells = [m for m in reading.cells if not any(  # "day" of "New Year's Day": no cell
        s <= m.start and m.end <= e and (m.end - m.start < e - s or not m.exact)
        for s, e in dated)]  # fmt: skip
    parts = {(n.start, n.end) for n in reading.numbers if n.part not in ("", "year")}
    reading.cells = [m for m in reading.cells if (m.start, m.end) not in parts]  # "1/1": a date
    by_name = {s.name: s for s in (sheets if sheets is not None else db.sheets.values())}
    reading.cells = [m for m in reading.cells if _heading(reading, by_name[m.sheet], m)]
    reading.cells = [m for m in reading.cells if not _computing_word(reading, m)]
    if reading.several:
        reading.cells = _of_named_columns(reading, by_name)
    return reading


def _of_named_columns(reading: Reading, sheets: dict[str, Sheet]) -> list[CellMention]:
    """The cell mentions but those of a column whose name the question does not say where it
    says the name of another column of the same table naming the same words ("born in the
    Dominican Republic": ``birthCountry``, not ``deathCountry``): the words of a column's
    name beyond those all of them share, said in the question ("born": birth)."""
    said = {stem(IRREGULAR.get(w, w)) for w in reading.words} | set(reading.stems)
    groups: dict[tuple[str, int, int], list[CellMention]] = {}
    for m in reading.cells:
        groups.setdefault((m.sheet, m.start, m.end), []).append(m)
    dropped: set[int] = set()
    for (table, _, _), found in groups.items():
        if len({m.column for m in found}) < 2:
            continue
        sheet = sheets[table]
        own = {m.column: {stem(w) for w in naming.words(sheet, sheet.columns[m.column])}
               for m in found}  # fmt: skip
        shared = set.intersection(*own.values())
        named = {c for c, words in own.items() if (words - shared) & said}
        if any(m.exact for m in found) and not any(m.exact for m in found if m.column in named):
            continue  # "the wikipedia page of Europe": the continent named whole, not a URL
        if named:
            dropped |= {id(m) for m in found if m.column not in named}
    return [m for m in reading.cells if id(m) not in dropped]


def _computing_word(reading: Reading, mention: CellMention) -> bool:
    """Whether a cell mention is one word that says how to compute ("most", "first",
    "top": :data:`words.FAMILY_WORDS`) said so: just before a word it qualifies ("the third
    most populous city": no town named ``Most``), or in lower case in a question that writes
    names with capitals."""
    if mention.size != 1 or reading.words[mention.start] not in FAMILY_WORDS:
        return False
    after = reading.words[mention.end : mention.end + 1]
    if after and after[0].isalpha() and after[0] not in STOP:
        return True
    if not any(c.isupper() for c in reading.question[1:]):
        return False  # all in lower case: it cannot tell
    return not codes.written_as_name(reading.question, reading.words, mention.start, mention.end)


def _heading(reading: Reading, sheet: Sheet, mention: CellMention) -> bool:
    """Whether a cell mention agrees with the way the question says it goes: over a table
    of origins and destinations (:mod:`.roles`), a name said after "from" is no
    destination's, one said after "to" no origin's."""
    if not roles.directed(sheet):
        return True
    own = roles.column_role(sheet, sheet.columns[mention.column])
    said = roles.said_role(reading.words, mention.start)
    return not (own and said and own != said)


def _dated(numbers: list[NumberMention], parts: Sequence[dates.Part]) -> list[NumberMention]:
    """The question's numbers with the parts of a date or time it says (:mod:`.dates`): a
    year said in a date is that number, marked; a month, a day or an hour replaces the
    numbers its words hold ("20th" is a day, no place; "jan" is month 1), in order."""
    if not parts:
        return numbers
    out = [n for n in numbers if not any(
        p.part != "year" and p.start <= n.start < p.end for p in parts)]  # fmt: skip
    for p in parts:
        if p.part == "year":
            out = [NumberMention(n.value, n.start, n.end, year=n.year, part="year")
                   if n.start == p.start else n for n in out]  # fmt: skip
        else:
            out.append(NumberMention(float(p.value), p.start, p.end, part=p.part))
    return sorted(out, key=lambda n: n.start)


_CELLS: dict[int, tuple[list[str], names.Cells]] = {}
"""A column's values normalised, by the list of its values (kept alive while cached)."""


def _everyday(reading: Reading, db: Database, sheets: Sequence[Sheet]) -> list[CellMention]:
    """The cells the question's capitalised phrases name as people say names
    (:mod:`prism_edge.methods.tables.names`), for phrases that name no cell as written and
    no column or table, or only in part: the longest phrase first, the cells it names whole
    first. A phrase longer than a whole cell it holds is read ("White Sox" past ``White``, a
    player's last name). A phrase a code is read from is read so too ("South American":
    ``South America``, beside the initials ``SA``)."""
    written = [(m.start, m.end) for m in reading.cells if m.exact and m.how != "code"]
    covered: set[int] = set()
    said = {stem(w) for s in sheets for c in s.columns for w in naming.words(s, c)}
    said |= {stem(w) for s in sheets for w in tokens(s.name)}
    found: list[CellMention] = []
    for phrase in names.phrases(reading.question, reading.words):
        span = set(range(phrase.start, phrase.end))
        if span & covered or any(s <= phrase.start and phrase.end <= e for s, e in written):
            continue
        content = [w for w in reading.words[phrase.start : phrase.end] if w not in STOP]
        if all(stem(w) in said for w in content):
            continue  # names a column or a table ("HR", "Teams")
        hits = []
        for sheet in sheets:
            for column in sheet.columns:
                if column.big or column.kind != "text" or not sheet.values.get(column.index):
                    continue
                values_of = sheet.values[column.index]
                cached = _CELLS.get(id(values_of))
                if cached is None or cached[0] is not values_of:
                    if len(_CELLS) > 4096:
                        _CELLS.clear()
                    cached = _CELLS[id(values_of)] = (values_of, names.column_cells(values_of))
                cells = cached[1]
                values, in_full = names.named(phrase, cells)
                placed = False
                if not values:  # "Cuban": a place by its adjective, the place's cell whole
                    values = _placed(phrase, cells)
                    in_full = placed = bool(values)
                if values:
                    hits.append(CellMention(sheet.name, column.index, tuple(values), phrase.start,
                                            phrase.end, in_full or len(values) == 1,
                                            "everyday", not in_full, placed))  # fmt: skip
        whole = [m for m in hits if m.exact]
        if whole:  # a column that holds the name whole before one in part
            found += whole
            covered |= span
        elif hits and not any(m.start < phrase.end and phrase.start < m.end
                              for m in reading.cells):  # fmt: skip
            found += hits
            covered |= span
    return found


def _placed(phrase: names.Phrase, cells: names.Cells) -> list[str]:
    """The cells a phrase ending in a place's adjective names whole as the place ("Cuban":
    ``Cuba``; "Puerto Rican": ``Puerto Rico``), where it names one."""
    *rest, last = phrase.words
    for place in names.places(last):
        said = names.Phrase(phrase.start, phrase.end, (*rest, place))
        values, whole = names.named(said, cells)
        if whole and len(values) == 1:
            return values
    return []


def written_spans(readings: Iterable[Reading]) -> set[tuple[int, int]]:
    """The spans of the question that name a whole cell as written, in any table."""
    return {(m.start, m.end) for r in readings for m in r.cells
            if m.exact and m.how == "written"}  # fmt: skip


def _wholeness(mention: CellMention) -> int:
    """How wholly a mention names its cell: as written or as a place by its adjective (2:
    "Africa", "African" of ``Africa``), otherwise (1: in part, as people shorten it, as a
    code)."""
    if mention.exact and (mention.how == "written" or mention.placed):
        return 2
    return 1


def whole_spans(readings: Iterable[Reading]) -> set[tuple[int, int]]:
    """The spans of the question that name a cell whole as written or as a place by its
    adjective (:func:`_wholeness`), in any table."""
    return {(m.start, m.end) for r in readings for m in r.cells if _wholeness(m) == 2}


def unshadowed(reading: Reading, whole: set[tuple[int, int]]) -> Reading:
    """The reading without the cells it names less wholly (:func:`_wholeness`) by words
    that name a whole cell of some table ("Africa" of ``South Africa`` where a table of
    continents holds ``Africa``; "Texas" of ``Texas County``, said as people shorten it,
    beside the state written ``Texas``): over a database, a name said whole names that
    cell, not the cells it is part of. (A name people shorten shadows none: "White Sox"
    names the team ``Chicago White Sox`` as well as a park ``White Sox Park``.)"""
    reading.cells = [m for m in reading.cells if _wholeness(m) == 2 or not any(
        s <= m.start and m.end <= e for s, e in whole)]  # fmt: skip
    return reading


def uncoded(reading: Reading, written: set[tuple[int, int]]) -> Reading:
    """The reading without the codes said by words that name a whole cell as written in some
    table ("Mike Trout" is a name, not Montana's ``MT``, over a table that holds no name)."""
    reading.cells = [m for m in reading.cells if m.how != "code" or (m.start, m.end) not in written]
    return reading


SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
"""Words that multiply the number before them ("10 million", "a million", "1.5 billion")."""


def _numbers(words: list[str]) -> list[NumberMention]:
    found = []
    scaled: set[int] = set()
    for i, word in enumerate(words):
        if i in scaled:
            continue
        if word in ORDINAL_WORDS or re.fullmatch(r"\d+(st|nd|rd|th)", word):
            value = read_number(word)
            if value is not None:
                found.append(NumberMention(value, i, i + 1, ordinal=True))
            continue
        scale = SCALES.get(words[i + 1]) if i + 1 < len(words) else None
        value = 1.0 if word in ("a", "one") and scale else read_number(word)
        if value is None:
            continue
        if scale:  # "10 million": one number of two words
            scaled.add(i + 1)
            found.append(NumberMention(value * scale, i, i + 2))
            continue
        is_year = read_date(word) is not None and word.isdigit()
        found.append(NumberMention(value, i, i + 1, year=is_year))
    return found


_RANGE_WORDS = frozenset({("between", "and"), ("from", "to"), ("from", "-"), ("from", "through"),
                          ("from", "thru")})  # fmt: skip
"""The words around two numbers that put a range between them ("from 2016 through 2020")."""


def _ranges(words: list[str], numbers: list[NumberMention]) -> list[tuple[int, int]]:
    found = []
    for k, (a, b) in enumerate(itertools.pairwise(numbers)):
        if a.ordinal or b.ordinal or a.value >= b.value or b.start - a.end != 1:
            continue
        before = words[a.start - 1] if a.start else ""
        if (before, words[a.end]) in _RANGE_WORDS:
            found.append((k, k + 1))
    return found


_TEXT = re.compile(
    r"\b(begin(?:s|ning)?|start(?:s|ing)?|end(?:s|ing)?|contain(?:s|ing)?|includ(?:e|es|ing))"
    r"\s+(?:with\s+)?(?:the\s+(?:letters?|word|text)\s+)?"
    r"(?:['\"‘“]([^'\"’”]+)['\"’”]|(\S+?))(?=[\s?.!,]|$)",
    re.IGNORECASE,
)


def _texts(question: str, words: list[str]) -> list[TextMention]:
    """The texts the question says cells begin with, end with or contain."""
    found = []
    for match in _TEXT.finditer(question):
        verb = match.group(1).lower()
        kind = "prefix" if verb.startswith(("begin", "start")) else (
            "suffix" if verb.startswith("end") else "contains")  # fmt: skip
        text = match.group(2) or match.group(3)
        cut = tokens(text)
        if not cut:
            continue
        span = next(
            ((i, i + len(cut)) for i in range(len(words)) if words[i : i + len(cut)] == cut),
            (len(words), len(words)),
        )
        found.append(TextMention(kind, text, *span))
    return found


def _whole_cells(words: list[str], db: Database, sheet: Sheet, column: int) -> list[CellMention]:
    """The cells of a big column the question names whole (looked up in the database)."""
    spans: dict[str, list[tuple[int, int]]] = {}
    for said in dict.fromkeys((tuple(words), tuple(unpossessed(words)))):
        for n in range(1, min(MAX_NGRAM, len(said)) + 1):
            for i in range(len(said) - n + 1):
                part = said[i : i + n]
                at = spans.setdefault(" ".join(part), []) if _nameable(part) else None
                if at is not None and (i, i + n) not in at:
                    at.append((i, i + n))
    found = db.said(sheet, sheet.columns[column], sorted(spans))
    return [CellMention(sheet.name, column, (p,), *span, exact=True) for p in found
            for span in spans[p]]  # fmt: skip


def _cells(words: list[str], sheet: Sheet, column: int) -> list[CellMention]:
    values = sheet.values.get(column, [])
    if not values:
        return []
    grams: dict[tuple[str, ...], list[tuple[int, int]]] = {}
    for said in dict.fromkeys((tuple(words), tuple(unpossessed(words)))):
        for n in range(1, min(MAX_NGRAM, len(said)) + 1):
            for i in range(len(said) - n + 1):
                at = grams.setdefault(said[i : i + n], [])
                if (i, i + n) not in at:
                    at.append((i, i + n))
    found: list[CellMention] = []
    exact_spans: set[tuple[int, int]] = set()
    by_span: dict[tuple[int, int], list[str]] = {}
    partial = len(values) <= MAX_VALUES
    for value in values:
        cut = tuple(tokens(value))
        if not cut:
            continue
        spans = grams.get(cut)
        if spans is not None and _nameable(cut):
            for span in spans:
                exact_spans.add(span)
                found.append(CellMention(sheet.name, column, (value,), *span, exact=True))
            continue
        if not partial or len(cut) > 12:
            continue
        for n in range(min(len(cut) - 1, MAX_NGRAM), 0, -1):
            hit = False
            for i in range(len(cut) - n + 1):
                part = cut[i : i + n]
                if part in grams and _nameable(part):
                    for span in grams[part]:
                        by_span.setdefault(span, []).append(value)
                    hit = True
            if hit:
                break
    limit = max(1, int(PARTIAL_ROWS * len(values)))
    for span, named in by_span.items():
        if span in exact_spans or any(s[0] <= span[0] and span[1] <= s[1] for s in exact_spans):
            continue
        if len(named) <= limit or len(values) <= 2:
            found.append(CellMention(sheet.name, column, tuple(named), *span, exact=False))
    return found


def unpossessed(words: Sequence[str]) -> list[str]:
    """The words with a possessive's ``'s`` (or a plural's ``'``) dropped ("Kershaw's
    lowest ERA": kershaw), so a name said with it names its cell."""
    return [w[:-2] if w.endswith(("'s", "’s")) and len(w) > 2 else
            w[:-1] if w.endswith(("s'", "s’")) and len(w) > 2 else w for w in words]  # fmt: skip


def _nameable(part: tuple[str, ...]) -> bool:
    """Whether a span can name a cell: some word of it is no function word or mark (a
    bare "the" or "," names nothing), and a bare number names a cell only as a whole."""
    content = [w for w in part if w not in STOP and (w[:1].isalnum())]
    return bool(content)
