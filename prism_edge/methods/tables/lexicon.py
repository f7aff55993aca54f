"""The words of table questions that are structure, not content: directions ("lowest",
"northernmost"), comparisons ("above 17", "between 1960 and 1965", "beginning with 'New'"),
rounding ("rounded to 1 decimal place"), and the short forms column names are written in
(``enrltot``, ``expnstu``, ``PERPOVERTY``): what the program reads without a model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

HIGH = frozenset(
    [
        "highest",
        "most",
        "largest",
        "biggest",
        "greatest",
        "top",
        "max",
        "maximum",
        "largest",
        "longest",
        "tallest",
        "heaviest",
        "latest",
        "newest",
        "northernmost",
        "easternmost",
        "richest",
        "warmest",
        "hottest",
        "fastest",
        "busiest",
        "priciest",
        "dearest",
    ]
)
LOW = frozenset(
    [
        "lowest",
        "least",
        "fewest",
        "smallest",
        "min",
        "minimum",
        "bottom",
        "shortest",
        "lightest",
        "earliest",
        "southernmost",
        "westernmost",
        "poorest",
        "coldest",
        "coolest",
        "slowest",
        "cheapest",
    ]
)
EXPENSIVE = re.compile(r"\bmost\s+expensive\b", re.IGNORECASE)


def direction(question: str) -> str | None:
    """``high`` or ``low`` when the question asks for one end ("the lowest profits", "the
    cheapest", "the most expensive"), else None (both ends named, or neither)."""
    said = {w.lower() for w in re.findall(r"[A-Za-z]+", question)}
    high, low = bool(said & HIGH) or bool(EXPENSIVE.search(question)), bool(said & LOW)
    if high == low:
        return None
    return "high" if high else "low"


@dataclass(frozen=True)
class Comparison:
    """A number the question compares a column with: ``op`` one of ``>``, ``>=``, ``<``,
    ``<=``, ``between`` (``value`` to ``upper``, both included)."""

    op: str
    value: float
    upper: float | None = None
    at: int = 0
    """Where the comparison word starts in the question (the column is named before it)."""
    text: str = ""
    """The words that said it ("below 17")."""

    def sql(self, expr: str) -> tuple[str, list[float]]:
        if self.op == "between":
            return f"{expr} BETWEEN ? AND ?", [self.value, self.upper or self.value]
        return f"{expr} {self.op} ?", [self.value]

    def describe(self) -> str:
        if self.op == "between":
            return f"between {_show(self.value)} and {_show(self.upper or self.value)}"
        words = {">": "above", ">=": "at least", "<": "below", "<=": "at most"}
        return f"{words[self.op]} {_show(self.value)}"


def _show(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


_NUMBER = r"(-?\d+(?:,\d{3})*(?:\.\d+)?)"
_OPS: list[tuple[str, str]] = [
    (r"more than|greater than|higher than|larger than|bigger than|above|over|exceeding|"
     r"exceeds|in excess of|after", ">"),
    (r"at least|no less than|no fewer than|or more|since|from", ">="),
    (r"less than|fewer than|lower than|smaller than|below|under|before", "<"),
    (r"at most|no more than|up to|or less|or fewer", "<="),
]  # fmt: skip
_BETWEEN = re.compile(rf"\bbetween\s+{_NUMBER}\s+and\s+{_NUMBER}", re.IGNORECASE)
_FROM_TO = re.compile(rf"\bfrom\s+{_NUMBER}\s+(?:to|until|through)\s+{_NUMBER}", re.IGNORECASE)


def comparisons(question: str) -> list[Comparison]:
    """The comparisons the question makes with numbers: "below 17", "more than 1000",
    "between 1960 and 1965", "after 1900", "from 1950 to 1955"."""
    found: list[Comparison] = []
    taken: list[tuple[int, int]] = []
    for pattern in (_BETWEEN, _FROM_TO):
        for m in pattern.finditer(question):
            low, high = sorted((_number(m.group(1)), _number(m.group(2))))
            found.append(Comparison("between", low, high, m.start(), m.group(0)))
            taken.append(m.span())
    for words, op in _OPS:
        if op in (">=", "<=") and words.startswith("at"):
            pattern = re.compile(rf"\b(?:{words})\s+{_NUMBER}", re.IGNORECASE)
        else:
            pattern = re.compile(
                rf"\b(?:{words})\s+(?:the\s+)?(?:year\s+)?{_NUMBER}", re.IGNORECASE
            )
        for m in pattern.finditer(question):
            if any(a <= m.start() < b for a, b in taken):
                continue
            found.append(Comparison(op, _number(m.group(1)), None, m.start(), m.group(0)))
            taken.append(m.span())
        trailing = re.compile(rf"{_NUMBER}\s+(?:{words})\b", re.IGNORECASE)  # "5 or more"
        if op in (">=", "<="):
            for m in trailing.finditer(question):
                if not any(a <= m.start() < b for a, b in taken):
                    found.append(Comparison(op, _number(m.group(1)), None, m.start(), m.group(0)))
                    taken.append(m.span())
    return sorted(found, key=lambda c: c.at)


def _number(text: str) -> float:
    return float(text.replace(",", ""))


@dataclass(frozen=True)
class TextMatch:
    """A text condition: the column's values begin with, end with or contain ``text``."""

    how: str
    """``begins``, ``ends`` or ``contains``."""
    text: str

    def sql(self, expr: str) -> tuple[str, list[str]]:
        escaped = self.text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        pattern = {"begins": f"{escaped}%", "ends": f"%{escaped}", "contains": f"%{escaped}%"}
        return f"{expr} LIKE ? ESCAPE '\\'", [pattern[self.how]]

    def describe(self) -> str:
        verb = {"begins": "begins with", "ends": "ends with", "contains": "contains"}
        return f"{verb[self.how]} '{self.text}'"


_TEXT = re.compile(
    r"\b(begin(?:s|ning)?|start(?:s|ing)?|end(?:s|ing)?|contain(?:s|ing)?)\s+with\s+"
    r"[\"'“‘]([^\"'”’]+)[\"'”’]|\b(contain(?:s|ing)?|includ(?:e|es|ing))\s+[\"'“‘]([^\"'”’]+)[\"'”’]",
    re.IGNORECASE,
)


def text_matches(question: str) -> list[TextMatch]:
    """ "beginning with 'New'", "ending with 'ville'", "containing 'Europe/'"."""
    out = []
    for m in _TEXT.finditer(question):
        verb, text = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        how = verb.lower()
        kind = "begins" if how.startswith(("begin", "start")) else "ends"
        if how.startswith(("contain", "includ")):
            kind = "contains"
        out.append(TextMatch(kind, text))
    return out


_ROUNDED = re.compile(
    r"\b(?:rounded|round(?:ed)?\s+it|to)\s+(?:to\s+)?(\d+|one|two|three|no)\s+"
    r"(?:decimal\s+places?|decimals?|digits?\s+after)",
    re.IGNORECASE,
)
_WORDS = {"no": 0, "one": 1, "two": 2, "three": 3}
_WHOLE = re.compile(r"\b(?:rounded\s+to\s+(?:the\s+nearest\s+)?(?:whole|integer))", re.IGNORECASE)


def rounding(question: str) -> int | None:
    """The decimal places a question asks its answer rounded to ("rounded to 1 decimal
    place": 1; "to the nearest whole number": 0), or None."""
    m = _ROUNDED.search(question)
    if m:
        n = m.group(1).lower()
        return _WORDS[n] if n in _WORDS else int(n)
    return 0 if _WHOLE.search(question) else None


def structural_numbers(question: str) -> set[str]:
    """The numbers of a question that are no values to look up: a rounding's places, a
    comparison's bounds, "top 5"."""
    out: set[str] = set()
    for c in comparisons(question):
        out |= set(re.findall(r"\d+(?:\.\d+)?", c.text.replace(",", "")))
    m = _ROUNDED.search(question)
    if m:
        out.add(m.group(1))
    out |= set(re.findall(r"\b(?:top|bottom|first|last)\s+(\d+)", question, re.IGNORECASE))
    return out


ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "enrl": ("enrollment",), "enr": ("enrollment",), "tot": ("total",), "exp": ("expenditure",),
    "expn": ("expenditure",), "str": ("student", "teacher", "ratio"), "pct": ("percent",),
    "per": ("percent",), "perc": ("percent",), "avg": ("average",), "num": ("number",),
    "no": ("number",), "amt": ("amount",), "qty": ("quantity",), "pop": ("population",),
    "unemp": ("unemployment",), "emp": ("employment", "employees"), "hs": ("high", "school"),
    "grad": ("graduation", "graduates"), "stu": ("student", "students"),
    "temp": ("temperature",), "yr": ("year",), "mo": ("month",), "dt": ("date",),
    "alum": ("aluminium", "aluminum"), "inv": ("investment", "inventory"), "val": ("value",),
    "cap": ("capital", "capacity"), "subs": ("subcommittees",), "gdp": ("gdp",), "gnp": ("gnp",),
    "defl": ("deflator",), "lat": ("latitude",), "lon": ("longitude",), "lng": ("longitude",),
    "desc": ("description",), "cnt": ("count",), "min": ("minimum",), "max": ("maximum",),
    "ppl": ("people",), "rev": ("revenue",), "sal": ("salary",), "dist": ("district",),
    "cty": ("county", "city"), "govt": ("government",), "inc": ("income",), "mgmt": ("management",),
    "prof": ("profit",), "vol": ("volume",), "wt": ("weight",), "ht": ("height",),
    "dur": ("duration",), "testscr": ("test", "score"), "scr": ("score",), "math": ("math",),
    "read": ("reading",), "comp": ("computer",), "compstu": ("computers", "student"),
    "elpct": ("english", "learners", "percent"), "mealpct": ("meal", "percent"),
    "calwpct": ("calworks", "percent"), "avginc": ("average", "income"),
}  # fmt: skip
"""Short forms of column names and the words they stand for (a general lexicon, not a
table's)."""


def column_terms(name: str, parts: list[str], question_words: list[str]) -> list[str]:
    """What a column's name says, for matching a question's words: its words (``parts``),
    their expansions (:data:`ABBREVIATIONS`), and the question's own words of four letters or
    more that a run-together name holds (``PERPOVERTY`` holds "poverty", ``COPPERPRICE``
    "copper" and "price"); a run-together name is also cut into known short forms from its
    start (``TOTEMP``: tot, emp; ``GNPDEFL``: gnp, defl)."""
    out = list(parts)
    for part in parts:
        out += ABBREVIATIONS.get(part, ())
        out += [w for w in question_words if len(w) >= 4 and w in part and w != part]
        rest = "" if _whole_word(part) else part
        while rest:  # cut into known short forms from the start, the longest first
            head = next(
                (rest[:n] for n in range(min(len(rest), 8), 1, -1) if rest[:n] in ABBREVIATIONS),
                None,
            )
            if head is None:
                break
            out += [head, *ABBREVIATIONS[head]]
            rest = rest[len(head) :]
        if rest and rest != part and len(rest) >= 3:
            out.append(rest)
    return list(dict.fromkeys(out))


def expansions(parts: list[str]) -> list[str]:
    """The words a column name's short forms stand for, in order (``enrltot``: enrollment,
    total; ``PERPOVERTY``: percent, poverty), the name's own words where none is known."""
    out: list[str] = []
    for part in parts:
        if part in ABBREVIATIONS:
            out += ABBREVIATIONS[part]
            continue
        rest, cut = ("" if _whole_word(part) else part), list[str]()
        while rest:
            head = next(
                (rest[:n] for n in range(min(len(rest), 8), 1, -1) if rest[:n] in ABBREVIATIONS),
                None,
            )
            if head is None:
                break
            cut += ABBREVIATIONS[head]
            rest = rest[len(head) :]
        if cut:
            out += cut + ([rest] if len(rest) >= 3 else [])
    return list(dict.fromkeys(out))


def _whole_word(part: str) -> bool:
    """A name that is itself the word a short form stands for (``latitude``, not ``lat`` +
    ``itude``), so it is not cut."""
    return any(part in full or full.startswith(part) for words in ABBREVIATIONS.values()
               for full in words if len(part) >= 5)  # fmt: skip
