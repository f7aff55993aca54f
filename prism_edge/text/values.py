"""Cell values as people write them: numbers with separators, currency, percent, units and
fractions; dates, years and seasons; the marks of a missing value; ids and codes kept as text.

Every cell keeps its text; :func:`read_value` adds what it means where it means something:

    read_value("$1,234.50")        -> number 1234.5
    read_value("1 1/8 miles")      -> number 1.125
    read_value("12.5%")            -> number 12.5
    read_value("3rd")              -> number 3
    read_value("August 15, 2004")  -> date 2004-08-15 (key 20040815)
    read_value("1987-88")          -> a season: number 1987, date key 19870000
    read_value("N/A")              -> missing
    read_value("4512e89")          -> text (a code, not 4.512e92)
    read_value("1234567890123456789") -> text (more digits than a float holds exactly)

A date's key is ``year * 10000 + month * 100 + day`` with an unknown month or day as 0, so
keys sort as the dates do and a year compares as ``key // 10000``. The rules read English (the
month names, the number words).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

MISSING = frozenset(
    {"", "-", "--", "—", "–", "‒", "−", "na", "n/a", "n.a.", "nan", "null", "none", "nil",
     "?", "??", "tba", "tbd", "#n/a", "n/d", "unknown", "..."}
)  # fmt: skip
"""Folded texts that mean no value."""

MAX_DIGITS = 15
"""Significant digits a number may have and still be read as one: a float holds 15 exactly;
a longer run of digits is an id, kept as text."""

MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
            ("may",), ("june", "jun"), ("july", "jul"), ("august", "aug"),
            ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}  # fmt: skip

NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "hundred": 100,
    "once": 1, "twice": 2, "single": 1, "double": 2, "triple": 3,
}  # fmt: skip
ORDINAL_WORDS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
}  # fmt: skip

_FRACTIONS = {"½": 0.5, "⅓": 1 / 3, "⅔": 2 / 3, "¼": 0.25, "¾": 0.75, "⅛": 0.125,
              "⅜": 0.375, "⅝": 0.625, "⅞": 0.875, "⅕": 0.2}  # fmt: skip
_DASHES = str.maketrans({"‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "−": "-"})
_CITATION = re.compile(r"(?:\s*\[[^\]]{0,12}\]|\s*[*†‡§#♦•]+)+$")
"""Trailing citation and footnote marks ("12[3]", "Smith*", "1,200†")."""
_NUMBER = re.compile(
    r"""^(?P<sign>[-+])?\s*(?:[$£€¥₹]|US\$|Rs\.?\s?)?\s*(?P<sign2>[-+])?
    (?P<int>\d{1,3}(?:,\d{3})+|\d+)?(?P<dec>\.\d+)?
    (?:\s*(?P<frac>(?P<num>\d+)/(?P<den>\d+)|[½⅓⅔¼¾⅛⅜⅝⅞⅕]))?
    (?P<exp>[eE][-+]?\d{1,3})?
    (?P<rest>.*)$""",
    re.VERBOSE | re.DOTALL,
)
_ORDINAL_SUFFIX = re.compile(r"^(st|nd|rd|th)\b", re.IGNORECASE)
_SEASON = re.compile(r"^(\d{4})\s*[-/]\s*(\d{2}|\d{4})$")
_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T][\d:.]+(?:Z|[+-]\d\d:?\d\d)?)?$")
_SLASHED = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")
_WORD = re.compile(r"[a-z]+\.?|\d+(?:st|nd|rd|th)?|,")
_YEAR = re.compile(r"^(1[0-9]{3}|20[0-9]{2})$")
_UNIT_AFTER = re.compile(r"^\s*(?:[a-zA-Z%°'\"″′/.²³µ]|\(|$)")
"""What may follow a number for the cell to be that number: a unit, a percent, a bracket."""


@dataclass(frozen=True)
class Value:
    """What a cell's text means: a number, a date (its sortable key), both (a year, a
    season) or neither (text); ``missing`` for the marks of no value."""

    number: float | None = None
    date: int | None = None
    missing: bool = False

    @property
    def year(self) -> int | None:
        return None if self.date is None else self.date // 10000


NOTHING = Value()
ABSENT = Value(missing=True)


def clean(text: str) -> str:
    """A cell's text without its citation marks, with plain dashes and single spaces."""
    text = " ".join(text.translate(_DASHES).split())
    return _CITATION.sub("", text).strip()


def fold(text: str) -> str:
    """Text as cells and questions are compared: no accents, plain quotes and dashes, lower
    case, single spaces, no citation marks."""
    if text.isascii():
        return clean(text).casefold()
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    return clean(text).casefold()


PLAIN = re.compile(r"-?(?:0|[1-9]\d{0,14})(?:\.\d{1,15})?")
"""A number written plainly (what SQLite's CAST reads the same)."""


def read_value(text: str) -> Value:
    """What ``text`` means (see the module's examples)."""
    if PLAIN.fullmatch(text):  # the common case, at once: "1999", "5.5", "-3"
        if _YEAR.match(text):
            return Value(float(text), int(text) * 10000)
        return Value(float(text))
    if text.isalpha() and text.casefold() not in NUMBER_WORDS and text.casefold() not in \
            ORDINAL_WORDS and text.casefold() not in MISSING:  # fmt: skip
        return NOTHING  # a word: no number, no date
    cleaned = clean(text)
    if cleaned.casefold() in MISSING:
        return ABSENT
    date = read_date(cleaned)
    season = _SEASON.match(cleaned)
    if season:
        first = int(season.group(1))
        return Value(float(first), first * 10000)
    number = read_number(cleaned)
    if date is not None:
        if number is not None and _YEAR.match(cleaned):
            return Value(number, date)
        return Value(None, date)
    if number is not None:
        return Value(number)
    return NOTHING


def read_number(text: str) -> float | None:
    """The number a cell or a word states, or None: ``1,234``, ``$5``, ``-3.5``, ``12%``,
    ``1 1/8``, ``½``, ``3rd``, ``82.06 m``, ``two``; never a code (``4512e89``, ``A12``), a
    run of more than :data:`MAX_DIGITS` digits or a number followed by more digits
    (``12 34``, ``3-1``)."""
    folded = text.strip().casefold()
    if folded in NUMBER_WORDS:
        return float(NUMBER_WORDS[folded])
    if folded in ORDINAL_WORDS:
        return float(ORDINAL_WORDS[folded])
    match = _NUMBER.match(text.strip())
    if not match or not (match.group("int") or match.group("dec") or match.group("frac")):
        return None
    digits = (match.group("int") or "").replace(",", "") + (match.group("dec") or "")[1:]
    if len(digits.lstrip("0")) > MAX_DIGITS:
        return None
    rest = match.group("rest")
    if match.group("exp"):
        if not match.group("dec"):
            return None  # "4512e89": a code
        rest = match.group("exp") + rest
        body = (match.group("int") or "0").replace(",", "") + match.group("dec") + rest
        try:
            return float(body.split()[0])
        except ValueError:
            return None
    ordinal = _ORDINAL_SUFFIX.match(rest)
    if ordinal:
        rest = rest[ordinal.end() :]
    if not _UNIT_AFTER.match(rest) or re.match(r"^\s*[-/:]?\s*\d", rest):
        return None  # "A12", "3-1", "12:30", "12 34"
    value = float((match.group("int") or "0").replace(",", "") + (match.group("dec") or ""))
    frac = match.group("frac")
    if frac:
        if match.group("den"):
            den = int(match.group("den"))
            if den == 0:
                return None
            value += int(match.group("num")) / den
        else:
            value += _FRACTIONS[frac]
    negative = "-" in (match.group("sign") or "", match.group("sign2") or "")
    return -value if negative else value


def read_date(text: str) -> int | None:
    """A date's key (``year * 10000 + month * 100 + day``, unknown parts 0) for the usual
    ways of writing one: ``2004-08-15``, ``August 15, 2004``, ``15 August 2004``, ``Aug.
    2004``, ``8/15/2004``, a bare year ``2004``; None for anything else."""
    text = text.strip()
    if _YEAR.match(text):
        return int(text) * 10000
    iso = _ISO.match(text)
    if iso:
        return _key(int(iso.group(1)), int(iso.group(2)), int(iso.group(3)))
    slashed = _SLASHED.match(text)
    if slashed:
        return _key(int(slashed.group(3)), int(slashed.group(1)), int(slashed.group(2)))
    tokens = _WORD.findall(text.casefold())
    if not 2 <= len(tokens) <= 5 or len("".join(tokens)) + len(tokens) < len(text) - 2:
        return None
    month = day = year = 0
    for token in tokens:
        if token == ",":
            continue
        name = token.rstrip(".")
        if name in MONTHS and not month:
            month = MONTHS[name]
        elif name[:1].isdigit():
            digits = re.sub(r"\D", "", name)
            if len(digits) == 4 and not year:
                year = int(digits)
            elif len(digits) <= 2 and not day and 1 <= int(digits) <= 31:
                day = int(digits)
            else:
                return None
        else:
            return None
    if not month or (not year and not day):
        return None
    return _key(year, month, day)


def _key(year: int, month: int, day: int) -> int | None:
    if not (0 <= month <= 12 and 0 <= day <= 31) or not 0 <= year <= 9999:
        return None
    return year * 10000 + month * 100 + day


def show_date(key: int) -> str:
    """A date key as the evaluator writes a date: ``2004-08-15``, ``2004-08-xx``,
    ``xx-08-15``."""
    year, month, day = key // 10000, key // 100 % 100, key % 100
    parts = [f"{year:04d}" if year else "xx", f"{month:02d}" if month else "xx",
             f"{day:02d}" if day else "xx"]  # fmt: skip
    return "-".join(parts)
