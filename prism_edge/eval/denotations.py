"""WikiTableQuestions' official evaluator (version 1.0.2, Pasupat and Liang 2015), ported to
Python 3: an answer is right when its values match the target's one to one, each by its
normalized text, as equal numbers, or as equal dates.

The official script reads each target's value as CoreNLP normalized it (``targetCanon`` of
the dataset's ``tagged`` files, which the training portion here does not include);
:func:`canon` stands in for it, reading a target as a number where CoreNLP does (``12,467``,
``$5``, ``1.5 million`` is left as text) or as a date (``August 15, 2004``, a bare year a
number). Everything else follows the script: ``normalize``, the three kinds of value and
``check_denotation``.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from prism_edge.text.values import read_date

_QUOTES = re.compile(r"[‘’´`]")
_DOUBLE = re.compile(r"[“”]")
_DASH = re.compile(r"[‐‑‒–—−]")
_TRAILING = re.compile(r"((?<!^)\[[^\]]*\]|\[\d+\]|[•♦†‡*#+])*$")
_PARENS = re.compile(r"(?<!^)( \([^)]*\))*$")
_QUOTED = re.compile(r'^"([^"]*)"$')


def normalize(x: str) -> str:
    """The official ``normalize``: no diacritics, ASCII quotes and dashes, no trailing
    citations or parenthesised details, no outer quotes or final period, lower case, single
    spaces."""
    x = "".join(c for c in unicodedata.normalize("NFKD", x) if unicodedata.category(c) != "Mn")
    x = _QUOTES.sub("'", x)
    x = _DOUBLE.sub('"', x)
    x = _DASH.sub("-", x)
    while True:
        old = x
        x = _TRAILING.sub("", x.strip())
        x = _PARENS.sub("", x.strip())
        x = _QUOTED.sub(r"\1", x.strip())
        if x == old:
            break
    if x and x[-1] == ".":
        x = x[:-1]
    return re.sub(r"\s+", " ", x, flags=re.U).lower().strip()


@dataclass(frozen=True)
class Item:
    """One value of a denotation: its normalized text, and its number or date if it is
    one (``date`` as (year, month, day), -1 for an unknown part)."""

    text: str
    number: float | None = None
    date: tuple[int, int, int] | None = None

    def match(self, other: Item) -> bool:
        if self.text == other.text:
            return True
        if self.number is not None and other.number is not None:
            return abs(self.number - other.number) < 1e-6
        return self.date is not None and self.date == other.date


def _parse_number(text: str) -> float | None:
    try:
        return float(int(text))
    except ValueError:
        try:
            amount = float(text)
        except ValueError:
            return None
        return None if math.isnan(amount) or math.isinf(amount) else amount


def _parse_date(text: str) -> tuple[int, int, int] | None:
    parts = text.lower().split("-")
    if len(parts) != 3:
        return None
    try:
        year = -1 if parts[0] in ("xx", "xxxx") else int(parts[0])
        month = -1 if parts[1] == "xx" else int(parts[1])
        day = -1 if parts[2] == "xx" else int(parts[2])
    except ValueError:
        return None
    if year == month == day == -1 or not (month == -1 or 1 <= month <= 12):
        return None
    if not (day == -1 or 1 <= day <= 31):
        return None
    return (year, month, day)


def to_item(original: str, canon_value: str | None = None) -> Item:
    """The official ``to_value``: a number, else a date (a year alone a number), else text;
    ``canon_value`` read in place of the text where given."""
    said = canon_value or original
    text = normalize(original)
    number = _parse_number(said)
    if number is not None:
        return Item(text, number)
    ymd = _parse_date(said)
    if ymd is not None:
        if ymd[1] == ymd[2] == -1:
            return Item(text, float(ymd[0]))
        return Item(text, date=ymd)
    return Item(text)


def _number_text(number: float) -> str:
    return str(int(number)) if abs(number - round(number)) < 1e-6 else str(number)


_CORENLP_NUMBER = re.compile(r"^[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$")


def canon(target: str) -> str | None:
    """A target as CoreNLP would normalize it, where it would: a number written with
    thousands separators (``12,467`` -> ``12467``) or a date in words (``August 15, 2004``
    -> ``2004-08-15``); None where the text stands as it is."""
    text = target.strip()
    if _CORENLP_NUMBER.match(text):
        return text.replace(",", "")
    key = read_date(text)
    if key is not None and not re.fullmatch(r"\d{4}", text):
        year, month, day = key // 10000, key // 100 % 100, key % 100
        return "-".join(
            [f"{year:04d}" if year else "xx", f"{month:02d}" if month else "xx",
             f"{day:02d}" if day else "xx"]
        )  # fmt: skip
    return None


def targets(values: Sequence[str]) -> list[Item]:
    """A target denotation (the dataset's ``|``-separated answer, split)."""
    return list(dict.fromkeys(to_item(v, canon(v)) for v in values))


def predictions(values: Iterable[str | float]) -> list[Item]:
    """A predicted denotation: numbers as numbers, texts read as the script reads a
    prediction file."""
    items = []
    for value in values:
        if isinstance(value, float | int):
            items.append(Item(normalize(_number_text(float(value))), float(value)))
        else:
            items.append(to_item(value))
    return list(dict.fromkeys(items))


def correct(target: Sequence[Item], predicted: Sequence[Item]) -> bool:
    """The official ``check_denotation``: as many values, each target matched."""
    if len(target) != len(predicted):
        return False
    return all(any(t.match(p) for p in predicted) for t in target)


def unescape(x: str) -> str:
    """The dataset's TSV escapes: ``\\n`` a new line, ``\\p`` a bar, ``\\\\`` a backslash."""
    return x.replace(r"\n", "\n").replace(r"\p", "|").replace("\\\\", "\\")
