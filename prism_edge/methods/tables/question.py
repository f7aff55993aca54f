"""What a question names in the tables: the columns and tables its words name, the cells it
names, and the names it holds that no table does."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from prism_edge.methods.tables.lexicon import (
    Comparison,
    TextMatch,
    column_terms,
    comparisons,
    direction,
    expansions,
    structural_numbers,
    text_matches,
)
from prism_edge.methods.tables.store import Store, Table, quote, show
from prism_edge.text.bm25 import words
from prism_edge.text.grounding import FUNCTION_WORDS
from prism_edge.text.tables import Cell, typed

CATEGORICAL = 64
"""A text column with at most this many distinct values is a category: a lower-case word of
the question may name one of its values ("days of snow")."""


# --- reading the question -----------------------------------------------------------------------

_WORD = re.compile(r"[\w][\w'&.-]*[\w]|\w")
_TOKEN = re.compile(r"\b[A-Z]\.|[\w][\w'&.-]*[\w]|\w")
"""A question's words as cells may hold them: an initial keeps its period (``Cesar A.``)."""
_UPPER = "[" + re.escape("".join(c for c in map(chr, range(0x10000)) if c.isupper())) + "]"
"""A capital letter of any script (not only A-Z: "Örebro", "Казань" are names too)."""
_NAMED = re.compile(
    rf"(?<![.!?]\s)(?<!^)\b(?:{_UPPER}[\w&'-]*)(?:\s+{_UPPER}[\w&'-]*)*|\b{_UPPER}{{2,}}\b"
)
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.]?\d)")


def _related(a: str, b: str) -> bool:
    """Two words name the same thing: equal, one the other's head of four letters or more
    (temp / temperature, death / deaths), or the same stem (smokers / smoking)."""
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    if len(short) >= 4 and long.startswith(short):
        return True
    return len(short) >= 5 and _stem(a) == _stem(b)


_SUFFIXES = ("ements", "ement", "ations", "ation", "ings", "ing", "ers", "er", "ies", "es",
             "s", "ed")  # fmt: skip


def _stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


@dataclass(frozen=True)
class Filter:
    table: str
    column: str
    value: Cell
    prefix: bool = False
    """A year named in the question, matched by a date's start (``2001`` -> ``2001-01-01``)."""
    weak: bool = False
    """Named by a lower-case word of the question ("days of snow"), which may as well be a
    plain word there ("the type of death"): answers are computed with and without it."""

    def describe(self) -> str:
        return f"{label(self.column)} is {show(self.value)}"


def label(column: str) -> str:
    """A column's name as words, its short forms spelt out after it: ``str (student teacher
    ratio)``, ``enrltot (enrollment total)``."""
    parts = words(column)
    said = " ".join(parts) or column
    spelt = [w for w in expansions(parts) if w not in parts]
    return f"{said} ({' '.join(spelt)})" if spelt else said


@dataclass
class Reading:
    """What a question names in the tables."""

    words: list[str]
    columns: dict[str, list[str]]
    """Per table, the columns the question's words name."""
    tables: list[str]
    """Tables whose name the question's words name."""
    filters: dict[str, list[Filter]]
    """Per table, the cells the question names."""
    unmatched: list[str]
    """Names, codes and numbers the question holds that no table holds."""
    comparisons: list[Comparison] = field(default_factory=list)
    """The question's comparisons with numbers ("below 17", "between 1960 and 1965")."""
    texts: list[TextMatch] = field(default_factory=list)
    """Its text conditions ("beginning with 'New'")."""
    positions: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    """Per table, where in the question each named column is named (word indexes)."""
    missing: str = ""
    """The attribute the question asks for that no column has ("unemployment rate")."""
    direction: str | None = None
    """``high`` or ``low``: the end the question asks for ("the lowest profits")."""
    asks_count: bool = False
    """"How many states ...", "In how many years ...": a count of rows (not a column named
    after "how many", as in "How many executions did Texas carry out?")."""
    asks_value: bool = False
    """"What is the average ...": a computed value, not a row's label."""
    asked_columns: list[str] = field(default_factory=list)
    """The columns a "which X" or "the most common X" asks for by name (X): the answer is one
    of their cells."""
    aggregate: str = ""
    """``average`` or ``total`` when the question asks for one by its word."""
    asks_row: bool = False
    """"Which company ...", "In which year ...", "Who ...": the answer names a row (its label
    or another of its cells), not a computed value."""
    compared_at: list[int] = field(default_factory=list)
    """Each comparison's place in the question, as a word index (its column is named
    before it)."""


def read_question(question: str, store: Store) -> Reading:
    said = [w.lower() for w in _WORD.findall(question)]
    content = [w for w in said if w not in FUNCTION_WORDS]
    columns: dict[str, list[str]] = {}
    positions: dict[str, dict[str, list[int]]] = {}
    tables: list[str] = []
    vocabulary: set[str] = set()
    for table in store.tables.values():
        table_words = words(table.name)
        vocabulary.update(table_words)
        if any(_related(w, q) for w in table_words for q in content if len(w) >= 3):
            tables.append(table.name)
        for column in table.columns:
            terms = column_terms(column.name, words(column.name), content)
            vocabulary.update(terms)
            at = [i for i, q in enumerate(said) if q not in FUNCTION_WORDS
                  and any(_related(w, q) for w in terms if len(w) >= 2)]  # fmt: skip
            if at:
                columns.setdefault(table.name, []).append(column.name)
                positions.setdefault(table.name, {})[column.name] = at
    structural = structural_numbers(question)
    filters: dict[str, list[Filter]] = {}
    matched_text: set[str] = set()
    for table in store.tables.values():
        found = _cells(question, said, table, store, columns.get(table.name, []), structural)
        if found:
            filters[table.name] = found
            matched_text.update(show(f.value).lower() for f in found)
    texts = text_matches(question)
    compared = comparisons(question)
    quoted = {t.text.casefold() for t in texts}
    unmatched = []
    for name in _NAMED.findall(question) + _NUMBER.findall(question):
        if name in structural or name.casefold() in quoted:
            continue  # a comparison's bound, a rounding's places, a begins-with's text
        parts = [w.lower() for w in _WORD.findall(name)]
        known = all(  # every word of it: "Solar Power" is no value beside a table "power"
            any(_related(p, v) for v in vocabulary)
            or any(p in m.split() or m.startswith(p) for m in matched_text)
            or p in FUNCTION_WORDS
            or any(p in q for q in quoted)
            for p in parts
        )
        if not known:
            unmatched.append(name)
    return Reading(
        said,
        columns,
        tables,
        filters,
        list(dict.fromkeys(unmatched)),
        comparisons=compared,
        texts=texts,
        positions=positions,
        missing=_missing_attribute(question, vocabulary, matched_text),
        direction=direction(question),
        asks_count=_asks_count(question, store),
        asks_value=bool(_VALUE.match(question)),
        asked_columns=_asked_columns(question, store),
        aggregate=_aggregate(said),
        asks_row=bool(_WHICH.match(question)),
        compared_at=[len(_WORD.findall(question[: c.at])) for c in compared],
    )


_ASKED = re.compile(r"\b(?:which|what)\s+(\w+)|\bmost\s+(?:common|frequent)\s+(\w+)", re.I)


def _asked_columns(question: str, store: Store) -> list[str]:
    """The columns "which X", "what X" or "the most common X" names by X (its answer is one
    of their cells)."""
    out = []
    for m in _ASKED.finditer(question):
        word = (m.group(1) or m.group(2)).lower()
        if word in FUNCTION_WORDS or word in {"is", "was", "are", "were", "does", "did"}:
            continue
        for table in store.tables.values():
            for column in table.columns:
                if any(_related(word, t) for t in words(column.name) if len(t) >= 3):
                    out.append(column.name)
    return list(dict.fromkeys(out))


def _aggregate(said: list[str]) -> str:
    if {"average", "mean"} & set(said):
        return "average"
    if {"total", "sum"} & set(said):
        return "total"
    return ""


_VALUE = re.compile(
    r"^\s*(?:what|how\s+much)\s+(?:is|was|are|were)\s+the\s+(?:largest|smallest|highest|"
    r"lowest|average|mean|total|sum|maximum|minimum|number|count|median)\b",
    re.IGNORECASE,
)
_COUNT = re.compile(r"^\s*(in\s+)?how\s+many\s+(\w+)", re.IGNORECASE)


def _asks_count(question: str, store: Store) -> bool:
    """Whether "how many" asks for a count of rows: "In how many years", or "how many" before
    a word that names no numeric column ("How many states ..." against "How many executions
    did Texas carry out?")."""
    m = _COUNT.match(question)
    if not m:
        return False
    if m.group(1):
        return True
    word = m.group(2).lower()
    for table in store.tables.values():
        for column in table.columns:
            if column.numeric and any(
                _related(word, t) for t in column_terms(column.name, words(column.name), [word])
            ):
                return False
    return True


_WHICH = re.compile(r"^\s*(?:(?:in|on|for|at|during|from)\s+)?(?:which|who|whose)\b", re.I)


_ATTRIBUTE = re.compile(
    r"^\s*(?:what|how much)\s+(?:is|was|are|were)\s+the\s+(.+?)"
    r"(?:\s+(?:of|for|in|among|between|after|before|with|during|across|from|at|on|by|per|"
    r"when|where|whose|that|which)\b|[?,]|$)",
    re.IGNORECASE,
)
_HOW_MANY = re.compile(
    r"^\s*[Hh]ow\s+many\s+(.+?)\s+(?:did|does|do|has|have|had)\s+(?:the\s+)?[A-Z]"
)
""""How many employees did Nintendo have?": the attribute, then a name (a capital)."""
_ASKING = frozenset(
    [
        "average",
        "mean",
        "total",
        "sum",
        "number",
        "count",
        "largest",
        "smallest",
        "highest",
        "lowest",
        "maximum",
        "minimum",
        "most",
        "least",
        "value",
        "values",
        "amount",
        "median",
        "overall",
        "combined",
    ]
)
"""Words of an attribute that say how it is computed, not what it is."""


def _missing_attribute(question: str, vocabulary: set[str], cells: set[str]) -> str:
    """The attribute a question asks for by name ("What is the unemployment rate of Texas?",
    "How many employees did Nintendo have?", "the price of zinc") when none of its words is
    a column's (or a table's), or what it is "of" is no cell, column or table: what "not in
    the table" must name. Empty when the question has no such form or names what it asks."""
    m = _ATTRIBUTE.match(question) or _HOW_MANY.match(question)
    if not m:
        return ""
    phrase = m.group(1).strip()
    said = [w.lower() for w in _WORD.findall(phrase)]
    content = [w for w in said if w not in FUNCTION_WORDS and w not in _ASKING and len(w) > 2]
    if not content:
        return ""
    named = any(w in c.split() for w in content for c in cells)  # "days of snow": a cell
    if not named and not any(_related(w, v) for w in content for v in vocabulary if len(v) >= 2):
        return phrase
    of = re.match(r"\s+of\s+(?:the\s+)?([a-z]+)(?=\s+(?:in|for|at|on|during)\b|\s*[?.]?$)",
                  question[m.end(1) :])  # fmt: skip
    if of:  # "the price of zinc in 1970": one plain word, which nothing in the tables is
        thing = of.group(1)
        known = any(_related(thing, v) for v in vocabulary if len(v) >= 2) or any(
            thing in c.split() for c in cells
        )
        if not known and thing not in FUNCTION_WORDS:
            return f"{phrase} of {thing}"
    return ""


def _cells(
    question: str,
    said: list[str],
    table: Table,
    store: Store,
    named: list[str],
    structural: set[str] = frozenset(),  # type: ignore[assignment]
) -> list[Filter]:
    """The cells of ``table`` the question names: a phrase of it equal to a text cell (a
    single lower-case word only in a category column), or a number equal to a numeric cell or
    starting a date; one per column, the longest; numbers prefer the columns the question
    names."""
    raw = _TOKEN.findall(question)
    phrases: dict[str, bool] = {}  # phrase -> may match any column
    for n in range(1, 6):
        for i in range(len(raw) - n + 1):
            phrase = " ".join(raw[i : i + n])
            lower = phrase.casefold()
            if n == 1 and (lower in FUNCTION_WORDS or len(lower) < 2):
                continue
            strong = n > 1 or phrase[:1].isupper() or phrase.isupper() or phrase[:1].isdigit()
            phrases[lower] = phrases.get(lower, False) or strong
    numbers = [typed(n) for n in _NUMBER.findall(question) if n not in structural]
    best: dict[str, Filter] = {}
    for column in table.columns:
        c = quote(column.name)
        if column.kind == "text":
            allowed = (
                [p for p, strong in phrases.items() if strong]
                if table.distinct.get(column.name, 0) > CATEGORICAL
                else list(phrases)
            )
            for chunk in _batches(allowed, 400):
                marks = ", ".join("?" for _ in chunk)
                # SQLite's lower() where every phrase is ASCII (in C, a row at a time), else
                # Python's case folding ("Örebro"), a call a row
                folded = "lower" if all(p.isascii() for p in chunk) else "fold"
                for (value,) in store.query(
                    f"SELECT DISTINCT {c} FROM {table.sql} WHERE {folded}({c}) IN ({marks})",
                    chunk,
                ):
                    weak = not phrases.get(str(value).casefold(), False)
                    _keep(best, Filter(table.name, column.name, value, weak=weak))
            for number in numbers:
                if isinstance(number, int) and 1000 <= number <= 2999:  # a year in a date
                    hit = store.query(
                        f"SELECT 1 FROM {table.sql} WHERE {c} LIKE ? OR {c} LIKE ? LIMIT 1",
                        (f"{number}-%", f"{number}/%"),
                    )
                    if hit:
                        _keep(best, Filter(table.name, column.name, number, prefix=True))
        elif column.numeric:
            for number in numbers:
                if number is None or isinstance(number, str):
                    continue
                if store.query(f"SELECT 1 FROM {table.sql} WHERE {c} = ? LIMIT 1", (number,)):
                    _keep(best, Filter(table.name, column.name, number))
    found = list(best.values())
    # a number found in several columns: only those the question names, when it names one
    by_number: dict[str, list[Filter]] = {}
    for f in found:
        if not isinstance(f.value, str) or f.prefix:
            by_number.setdefault(show(f.value), []).append(f)
    for group in by_number.values():
        if len(group) > 1 and any(f.column in named for f in group):
            found = [f for f in found if f not in group or f.column in named]
    return found


def _keep(best: dict[str, Filter], candidate: Filter) -> None:
    have = best.get(candidate.column)
    if have is None or len(show(candidate.value)) > len(show(have.value)):
        best[candidate.column] = candidate


def _batches(items: list[str], size: int) -> Iterator[list[str]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]
