"""Cells a question names in words rather than as written: a code by the initials of the
words it stands for ("American League": ``AL``), and a yes-or-no column by its name ("still
active": ``active`` is ``Y``; "won the World Series": ``WSWin`` is ``Y``).

Each is a span of the question naming cells of a column (:class:`Said`): the question's
reading makes it a cell mention like any other, weighed as a cell the question names whole.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from prism_edge.methods.tables import naming
from prism_edge.methods.tables.db import Column, Sheet
from prism_edge.methods.tables.words import IRREGULAR, STOP, short_form, stem

_WORD = re.compile(r"\d+(?:[.,]\d+)*(?:st|nd|rd|th)?|[^\W\d_]+(?:['’.&][^\W\d_]+)*|[^\w\s]")
MAX_CODE = 4
"""Letters of a code said by its initials at most."""
YES = frozenset({"y", "yes", "true", "t"})
NO = frozenset({"n", "no", "false", "f"})
NEGATION = frozenset({"not", "never", "no", "n't", "non", "without"})


class Said(NamedTuple):
    """Cells of a column (their folded texts) the question's words ``start:end`` name."""

    value: str
    start: int
    end: int


def cased(question: str, words: Sequence[str]) -> list[str] | None:
    """The question's words as written (their case kept), one for each of ``words`` (its
    folded words); None where folding changed how it is cut."""
    found = _WORD.findall(question)
    return found if len(found) == len(words) else None


def written_as_name(question: str, words: Sequence[str], start: int, end: int) -> bool:
    """Whether the question writes the words ``start:end`` as a name: a capital past its
    first word, a capital after the first letter ("JetBlue"), or a digit ("N10156");
    where its words cannot be told apart, any."""
    said = cased(question, words)
    if said is None:
        return True
    return any(
        (i > 0 and w[:1].isupper()) or any(c.isupper() for c in w[1:]) or any(
            c.isdigit() for c in w)
        for i, w in enumerate(said[start:end], start)
    )  # fmt: skip


def initials(question: str, words: Sequence[str], sheet: Sheet, column: Column) -> list[Said]:
    """The cells of a column of codes (capital letters, 2-4, or with dots: "D.R.") that the
    question says by the initials of as many capitalised words in a row ("American League"
    for ``AL``, "Dominican Republic" for ``D.R.``)."""
    cased_words = cased(question, words)
    if cased_words is None:
        return []  # the question's folding changed its words: no safe alignment
    codes = {
        k: letters
        for k, texts in sheet.raw.get(column.index, {}).items()
        if texts and (letters := _letters(texts[0]))
    }
    found = []
    for value, text in codes.items():
        n = len(text)
        for i in range(len(cased_words) - n + 1):
            if i == 0 and words[0] in STOP:
                continue  # "Which New ..." is no "WN": a question's first word has a capital
            span = cased_words[i : i + n]
            if all(w[:1].isupper() and w.isalpha() and len(w) > 1 for w in span) and (
                "".join(w[0] for w in span) == text
            ):
                found.append(Said(value, i, i + n))
    return found


_DOTTED = re.compile(r"(?:[A-Z]\.){2,4}")


def _letters(text: str) -> str:
    """The capital letters of a code (2-4: "AL"; or written with dots: "D.R."), else ""."""
    if 2 <= len(text) <= MAX_CODE and text.isalpha() and text.isupper():
        return text
    return text.replace(".", "") if _DOTTED.fullmatch(text) else ""


def flags(words: Sequence[str], sheet: Sheet, column: Column) -> list[Said]:
    """A yes-or-no column (its cells Y/N, yes/no, true/false) the question names by every
    word of its name: the question's words that name it select its rows of "yes" ("how many
    franchises are still active"), of "no" after a negation ("not active")."""
    raw = sheet.raw.get(column.index, {})
    if column.kind != "text" or not raw or len(raw) > 2 or not set(raw) <= YES | NO:
        return []
    span = _naming_span(words, sheet, column)
    if span is None:
        return []
    start, end = span
    before = set(words[max(0, start - 2) : start])
    wanted = NO if before & NEGATION else YES
    value = next((k for k in raw if k in wanted), None)
    if value is None:
        return []
    return [Said(value, start, end)]


def _naming_span(words: Sequence[str], sheet: Sheet, column: Column) -> tuple[int, int] | None:
    """The words of the question that say every word of the column's own name (whole, by a
    short form, or a verb's other form: "won" for win), each a word of its own, as a span;
    else None."""
    said = [i for i, w in enumerate(words) if w.isalpha() and w not in STOP]
    spoken = [words[i] for i in said]
    stems = [stem(IRREGULAR.get(w, w)) for w in spoken]
    covered: list[int] = []
    for word in naming.words(sheet, column):
        if word in STOP:
            continue
        if stem(word) in stems:
            covered.append(said[stems.index(stem(word))])
            continue
        short = short_form(word, spoken)
        if short is None:
            return None
        covered += [said[k] for k in range(short[0], short[1])]
    if not covered or len(set(covered)) < len(covered):
        return None  # none, or a word said for two ("won the Cy" is no WCWin: "won" twice)
    return min(covered), max(covered) + 1


def said(question: str, words: Sequence[str], sheet: Sheet, column: Column) -> list[Said]:
    """The cells of ``column`` the question says in words (:func:`initials`, :func:`flags`)."""
    if column.big or column.kind != "text":
        return []
    return initials(question, words, sheet, column) + flags(words, sheet, column)
