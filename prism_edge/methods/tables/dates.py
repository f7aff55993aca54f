"""Dates and times as people write them in a question ("1/1/2013", "Jan 20th, 2013", "the 4th
of July", "in January", "New Year's Day", "at 3 pm"): the parts they say (a year, a month, a
day, an hour), each a number the question's reading holds (:class:`mentions.NumberMention`
with its ``part``), so the query space can select the rows of that date: by a table's
columns of a date's parts (``year``, ``month``, ``day``, ``hour``, as a database often splits
a date) or by a column of dates.

Only the parts a question says are read (a month alone is a month, any year); a month's name
that is also an English word ("may", "march") is one only beside a day or a year, or written
with a capital.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from prism_edge.methods.tables.codes import cased
from prism_edge.text.values import MONTHS, ORDINAL_WORDS

PARTS = ("year", "month", "day", "hour")
HOLIDAYS: dict[tuple[str, ...], tuple[int, int]] = {
    ("new", "year's", "day"): (1, 1), ("new", "years", "day"): (1, 1),
    ("new", "year's", "eve"): (12, 31), ("new", "years", "eve"): (12, 31),
    ("christmas", "eve"): (12, 24), ("christmas", "day"): (12, 25), ("christmas",): (12, 25),
    ("valentine's", "day"): (2, 14), ("halloween",): (10, 31),
    ("independence", "day"): (7, 4), ("st", "patrick's", "day"): (3, 17),
    ("st.", "patrick's", "day"): (3, 17),
}  # fmt: skip
"""Days named by a fixed date of the (Gregorian) year, as a calendar writes them."""
WORDLIKE = frozenset({"may", "march", "mar", "jan", "sep", "dec", "oct", "nov", "jun", "aug"})
"""Months' names that are also words of English (or parts of names): a month only beside a
day or a year, or written with a capital."""
_TIME = {"am": 0, "a.m": 0, "a.m.": 0, "pm": 12, "p.m": 12, "p.m.": 12}
_DAY = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?")


class Part(NamedTuple):
    """One part of a date the words ``start:end`` say."""

    part: str
    """``year``, ``month``, ``day`` or ``hour``."""
    value: int
    start: int
    end: int


def _day(word: str) -> int | None:
    if word in ORDINAL_WORDS:
        return ORDINAL_WORDS[word]
    m = _DAY.fullmatch(word)
    if m is None:
        return None
    day = int(m.group(1))
    return day if 1 <= day <= 31 else None


def _year(word: str) -> int | None:
    return int(word) if re.fullmatch(r"(1[0-9]|20)\d\d", word) else None


def _month(words: Sequence[str], said: Sequence[str] | None, i: int, near: bool) -> int | None:
    """The month word ``i`` names (``near``: a day or a year beside it)."""
    word = words[i].rstrip(".")
    if word not in MONTHS:
        return None
    if word in WORDLIKE and not near:
        capital = said is not None and said[i][:1].isupper() and i > 0
        if not capital:
            return None
    return MONTHS[word]


def parts(question: str, words: Sequence[str]) -> list[Part]:
    """The parts of dates and times the question's words (folded tokens) say, in order; the
    first date said where it says several."""
    said = cased(question, words)
    found: list[Part] = []
    taken: set[int] = set()

    def add(part: str, value: int, start: int, end: int) -> None:
        if part not in {p.part for p in found}:
            found.append(Part(part, value, start, end))
        taken.update(range(start, end))

    n = len(words)
    i = 0
    while i < n:
        for size in (3, 2, 1):
            if tuple(words[i : i + size]) in HOLIDAYS:
                month, day = HOLIDAYS[tuple(words[i : i + size])]
                add("month", month, i, i + size)
                add("day", day, i, i + size)
                i += size
                break
        else:
            i += 1
    for i in range(n):
        if i in taken:
            continue
        w = words[i]
        # 1/20/2013, 1/20, 20/1/2013 (a day past 12 first), 2013-01-20
        if w.isdigit() and i + 2 < n and words[i + 1] == "/" and words[i + 2].isdigit():
            a, b = int(w), int(words[i + 2])
            end = i + 3
            year = None
            if end + 1 < n and words[end] == "/" and words[end + 1].isdigit():
                year = int(words[end + 1])
                year = year + 2000 if year < 100 else year
                end += 2
            month, day = (b, a) if a > 12 >= b else (a, b)
            if 1 <= month <= 12 and 1 <= day <= 31:
                add("month", month, i, i + 1)
                add("day", day, i + 2, i + 3)
                if year is not None:
                    add("year", year, end - 1, end)
                taken.update(range(i, end))
            continue
        if (_year(w) and i + 4 < n and words[i + 1] == "-" and words[i + 3] == "-"
                and words[i + 2].isdigit() and words[i + 4].isdigit()):  # fmt: skip
            month, day = int(words[i + 2]), int(words[i + 4])
            if 1 <= month <= 12 and 1 <= day <= 31:
                add("year", int(w), i, i + 1)
                add("month", month, i + 2, i + 3)
                add("day", day, i + 4, i + 5)
                taken.update(range(i, i + 5))
            continue
        # January 20th, 2013 / Jan 20 / January 2013 / 20 January 2013 / the 4th of July
        before = i > 0 and i - 1 not in taken and _day(words[i - 1]) is not None
        of = i > 1 and words[i - 1] == "of" and _day(words[i - 2]) is not None
        after = i + 1 < n and (_day(words[i + 1]) is not None or _year(words[i + 1]) is not None)
        named = _month(words, said, i, before or of or after)
        if named is None:
            continue
        add("month", named, i, i + 1)
        if of and i - 2 not in taken:
            add("day", _day(words[i - 2]) or 0, i - 2, i - 1)
        elif before:
            add("day", _day(words[i - 1]) or 0, i - 1, i)
        k = i + 1
        if k < n and _year(words[k]) is None and _day(words[k]) is not None:
            add("day", _day(words[k]) or 0, k, k + 1)
            k += 1
        if k < n and words[k] == ",":
            k += 1
        if k < n and _year(words[k]) is not None:
            add("year", _year(words[k]) or 0, k, k + 1)
    # 3 pm, 3:00 p.m., noon, midnight
    for i in range(n):
        w = words[i]
        if w in ("noon", "midday"):
            add("hour", 12, i, i + 1)
        elif w == "midnight":
            add("hour", 0, i, i + 1)
        elif w.isdigit() and 1 <= int(w) <= 12:
            k = i + 1
            if k + 1 < n and words[k] == ":" and words[k + 1].isdigit():
                k += 2
            if k < n and words[k] in _TIME:
                hour = int(w) % 12 + _TIME[words[k]]
                add("hour", hour, i, k + 1)
    return sorted(found, key=lambda p: p.start)
