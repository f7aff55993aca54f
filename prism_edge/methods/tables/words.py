"""Column names as words (``ArtistId``: artist, id; ``enrl_tot``: enrollment, total; the
usual short forms spelt out) and the rounding a question asks for: a general lexicon, not any
one table's."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

import snowballstemmer

from prism_edge.text.values import fold

_STOP = """
    a an the of in on at to by as is it be do if or so no not nor we i me my he us am about
    all also and any are been being both but can could did does for from had has have her here
    him his how into its just now our out she should such than that their them then there
    these they this those too very was were what when where which while who whom why will with
    would you your was were one name list tell give total number many much
"""
STOP = frozenset(_STOP.split())
"""Words too common to name a cell by themselves."""

_stemmer = snowballstemmer.stemmer("english")


def stem(word: str) -> str:
    return str(_stemmer.stemWord(word))


_TOKEN = re.compile(r"\d+(?:[.,]\d+)*(?:st|nd|rd|th)?|[^\W\d_]+(?:['’.&][^\W\d_]+)*|[^\w\s]")


def tokens(text: str) -> list[str]:
    """Folded words, numbers and marks, as cells and questions are both cut."""
    return list(_cut(text))


@functools.lru_cache(maxsize=4096)
def _cut(text: str) -> tuple[str, ...]:
    """:func:`tokens`, once a text while it is among the last cut (a question cuts every
    column's cells, each table's)."""
    return tuple(_TOKEN.findall(fold(text)))


def key(text: str) -> str:
    """A cell's words as a question names it: ``Dundee United F.C.`` -> ``dundee united
    f.c``... the cell's tokens joined by single spaces (how cells are matched)."""
    return " ".join(tokens(text))


ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "enrl": ("enrollment",), "tot": ("total",), "exp": ("expenditure",), "pct": ("percent",),
    "perc": ("percent",), "avg": ("average",), "num": ("number",), "no": ("number",),
    "nbr": ("number",), "amt": ("amount",), "qty": ("quantity",), "pop": ("population",),
    "unemp": ("unemployment",), "emp": ("employees",), "temp": ("temperature",),
    "yr": ("year",), "mo": ("month",), "dt": ("date",), "val": ("value",),
    "lat": ("latitude",), "lon": ("longitude",), "lng": ("longitude",),
    "desc": ("description",), "cnt": ("count",), "min": ("minimum",), "max": ("maximum",),
    "rev": ("revenue",), "sal": ("salary",), "dist": ("district",), "govt": ("government",),
    "inc": ("income",), "mgmt": ("management",), "vol": ("volume",), "wt": ("weight",),
    "ht": ("height",), "dur": ("duration",), "dob": ("birth",), "addr": ("address",),
    "qtr": ("quarter",), "dept": ("department",), "cust": ("customer",), "prod": ("product",),
    "lang": ("language",), "gp": ("games",),
}  # fmt: skip
"""Short forms of column names and the words they stand for: those the learned lexicon
(:mod:`lexicon`) does not learn from WikiTableQuestions' questions, whose columns are seldom
so named ("pts": points and "pos": position it learns, and are not here; the words of how to
compute, "total", "average", "count", it leaves to the ranker's families)."""

_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+|[^\W\d_]+")


def name_parts(name: str) -> list[str]:
    """A column's name as lower-case words, as written: split at spaces, underscores and
    case changes (``dep_delay``: dep, delay; ``WSWin``: ws, win), and a word that runs a
    thing's name together with what the column holds of it split there
    (``currencyname``: currency, name; ``geonameid``: geoname, id: :func:`run_together`)."""
    return [w for part in _PARTS.findall(name) for w in run_together(part.lower())]


UNITS = frozenset({"km", "kg", "cm", "mm", "mi", "lb", "lbs", "sq", "usd", "eur", "pct"})
"""Words of a column's name that say its unit (``areakm2``, ``weight_kg``), not what it
measures."""


def unitless(words: Sequence[str]) -> list[str]:
    """A column's name's words without its unit (and the power after it: ``areakm2``: area),
    where any word is left."""
    out: list[str] = []
    for word in words:
        if word in UNITS or (word.isdigit() and out[-1:] == ["\0"]):
            out.append("\0")
        else:
            out.append(word)
    kept = [w for w in out if w != "\0"]
    return kept or list(words)


ROLE_ENDINGS = ("names", "name", "codes", "code", "ids", "id", "numeric", "regex", "url", "km")
"""Words a column's name may end with, run together with the thing it is of
(``currencycode``, ``countrycode``, ``isonumeric``, ``areakm``): what the column holds of
the thing (its name, its code or id, its number, a pattern, an address, a unit)."""
MIN_RUN = 3
"""Letters the thing's word has at least before a role ending run together with it."""
_WHOLE_WORDS = frozenset({
    "nickname", "nicknames", "surname", "surnames", "forename", "codename", "unicode", "decode",
    "encode", "barcode", "pyramid", "pyramids", "liquid", "hybrid", "invalid", "android",
    "orchid", "morbid", "placid", "stupid",
})  # fmt: skip
"""Words of English that end as a role does but are one word."""


def run_together(word: str) -> list[str]:
    """A word of a column's name as the words it runs together: a thing's word of
    :data:`MIN_RUN` letters or more followed by a role ending (:data:`ROLE_ENDINGS`) is the
    two ("currencyname": currency, name); any other word, itself. Measured on the headers of
    WikiTableQuestions' 1,679 training tables, where such a word is rare (a nickname)."""
    if not word.isalpha() or word in _WHOLE_WORDS:
        return [word]
    for ending in ROLE_ENDINGS:
        rest = word[: -len(ending)]
        if not word.endswith(ending) or len(rest) < MIN_RUN:
            continue
        if ending in ("id", "ids") and (len(rest) == MIN_RUN or rest.endswith("o")):
            continue  # words: "valid", "rapid", "steroid"
        return [rest, ending]
    return [word]


def column_words(name: str, spelt_out: bool = True) -> list[str]:
    """A column's name as lower-case words (:func:`name_parts`), each short form followed
    by what it stands for (unless not ``spelt_out``)."""
    out: list[str] = []
    for word in name_parts(name):
        out.append(word)
        if spelt_out:
            out += ABBREVIATIONS.get(word, ())
    return out


IRREGULAR: dict[str, str] = {
    "won": "win", "lost": "lose", "held": "hold", "made": "make", "built": "build",
    "born": "birth", "sold": "sell", "paid": "pay", "ran": "run", "hit": "hit", "led": "lead",
    "threw": "throw", "thrown": "throw", "drove": "drive", "driven": "drive", "flew": "fly",
    "flown": "fly", "wrote": "write", "written": "write", "sang": "sing", "sung": "sing",
    "began": "begin", "begun": "begin", "gave": "give", "given": "give", "took": "take",
    "taken": "take", "became": "become", "died": "death", "dead": "death",
}  # fmt: skip
"""A verb's other forms as the form a column's name uses ("won" said of ``WSWin``), for the
yes-or-no columns a question names (:func:`codes.flags`), where the learned lexicon is not
read (it learns "born": birth, and pairs "won" with no ``win``)."""

MIN_SHORT = 3
"""Letters a short form cut from a word's start has at least ("alt": altitude)."""


def short_form(name_word: str, said: Sequence[str]) -> tuple[int, int] | None:
    """Where a word of a column's name is a short form of the question's words ``said``
    (content words, in order), as the span of ``said`` it stands for: the start of one
    ("alt": altitude, "dep": departure), the initials of consecutive ones ("hr": home
    runs), or the starts of consecutive ones run together ("copperprice": copper price,
    "totemp": total employment); else None."""
    if not name_word.isalpha():
        return None
    n = len(name_word)
    for i, word in enumerate(said):
        if n >= MIN_SHORT and len(word) > n and word.startswith(name_word):
            return i, i + 1
        if (
            2 <= n <= 4
            and len(said) - i >= n
            and "".join(w[:1] for w in said[i : i + n]) == (name_word)
        ):
            return i, i + n
        end = _run_together(name_word, said, i)
        if end is not None and end - i >= 2:
            return i, end
    return None


def _run_together(rest: str, said: Sequence[str], i: int) -> int | None:
    """The end of the words from ``said[i]`` whose starts (of :data:`MIN_SHORT` letters at
    least, or whole) make ``rest``, else None."""
    if not rest:
        return i
    if i >= len(said):
        return None
    word = said[i]
    for k in range(min(len(word), len(rest)), 0, -1):
        if k < MIN_SHORT and k < len(word):
            break
        if rest.startswith(word[:k]):
            end = _run_together(rest[k:], said, i + 1)
            if end is not None:
                return end
    return None


_ROUNDED = re.compile(
    r"\b(?:rounded|round(?:ed)?\s+it|to)\s+(?:to\s+)?(\d+|one|two|three|no)\s+"
    r"(?:decimal\s+places?|decimals?|digits?\s+after)",
    re.IGNORECASE,
)
_PLACES = {"no": 0, "one": 1, "two": 2, "three": 3}
_WHOLE = re.compile(r"\b(?:rounded\s+to\s+(?:the\s+nearest\s+)?(?:whole|integer))", re.IGNORECASE)
MAX_PLACES = 10


def rounding(question: str) -> int | None:
    """The decimal places a question asks its answer rounded to ("rounded to 1 decimal
    place": 1; "to the nearest whole number": 0; at most :data:`MAX_PLACES`), or None."""
    m = _ROUNDED.search(question)
    if m:
        said = m.group(1).lower()
        places = _PLACES[said] if said in _PLACES else int(said[:3])
        return min(places, MAX_PLACES)
    return 0 if _WHOLE.search(question) else None


MEASURES: dict[str, tuple[str, ...]] = {
    "old": ("age",), "tall": ("height",), "high": ("height", "elevation", "altitude"),
    "long": ("length", "duration"), "far": ("distance",), "heavy": ("weight",),
    "deep": ("depth",), "wide": ("width",), "big": ("size", "area"), "large": ("size", "area"),
    "fast": ("speed",),
}  # fmt: skip
"""What "how <adjective>" asks, by the names of its measure ("how old": the age)."""
PRICES: dict[str, tuple[str, ...]] = {
    "cost": ("price", "cost", "fare", "fee"), "costs": ("price", "cost", "fare", "fee"),
    "paid": ("salary", "pay", "wage", "earnings"), "earn": ("salary", "pay", "wage", "earnings"),
    "earned": ("salary", "pay", "wage", "earnings"),
}  # fmt: skip
"""What "how much" asks with the verb after it, by the names of its measure ("how much did
a ticket cost": a price; "how much was he paid": a salary)."""


def priced(words: Sequence[str]) -> list[tuple[int, str]]:
    """The measures "how much" asks by a verb after it ("how much did a JetBlue ticket
    cost": a price), each with where the verb is."""
    starts = [i + 2 for i in range(len(words) - 1) if words[i : i + 2] == ["how", "much"]]
    return [(i, m) for i in range(min(starts, default=len(words)), len(words))
            for m in PRICES.get(words[i], ())]  # fmt: skip


EXTREMES: dict[str, tuple[str, ...]] = {
    "biggest": ("size", "area", "population"), "largest": ("size", "area", "population"),
    "smallest": ("size", "area", "population"), "northernmost": ("latitude",),
    "southernmost": ("latitude",), "easternmost": ("longitude",),
    "westernmost": ("longitude",),
}  # fmt: skip
"""What a superlative said of a table's rows orders them by, by the names of its measure
("the biggest city": its size, area or population; "the southernmost town": the
latitude)."""
COMPARED = {w: EXTREMES[s] for w, s in (("bigger", "biggest"), ("larger", "largest"),
                                         ("smaller", "smallest"))}  # fmt: skip
"""The same of a comparative, where the question chooses between two things ("or")."""
THING_AT_MOST = 2
"""Words after a superlative the thing it is said of is among ("the biggest Indian city")."""


def measures(words: Sequence[str], things: frozenset[str] = frozenset()) -> list[tuple[int, str]]:
    """The measures a question asks by "how <adjective>" ("how old was ...": age), or by a
    superlative said of the things a table holds (:data:`EXTREMES`; ``things``: the stems of
    the table's name, "city" of ``cities``: "the biggest amount" names its own measure),
    each with where the adjective is."""
    found = [(i, m) for i in range(1, len(words)) if words[i - 1] == "how"
             for m in MEASURES.get(words[i], ())]  # fmt: skip
    chosen = "or" in words  # "which is larger, Mexico or Argentina": of the two things named
    for i, word in enumerate(words):
        after = words[i + 1 : i + 1 + THING_AT_MOST]
        if word in EXTREMES and any(stem(w) in things for w in after):
            found += [(i, m) for m in EXTREMES[word]]
        elif word in COMPARED and chosen:
            found += [(i, m) for m in COMPARED[word]]
    return found


NAME_WORDS = frozenset({"total", "number"})
"""Words too common to name a cell that may be part of a column's name, run together with
others (``TOTEMP``: total employment)."""


FAMILIES: dict[str, tuple[str, ...]] = {
    "high": ("most", "highest", "largest", "greatest", "biggest", "maximum", "max", "top",
             "best", "longest", "tallest", "heaviest", "oldest", "farthest", "furthest",
             "widest", "deepest", "fastest", "hottest", "richest", "more", "higher", "larger",
             "greater", "bigger", "longer", "taller", "older", "better", "northernmost",
             "easternmost"),
    "low": ("least", "fewest", "lowest", "smallest", "minimum", "min", "shortest", "worst",
            "youngest", "nearest", "slowest", "coldest", "cheapest", "poorest", "less", "fewer",
            "lower", "smaller", "shorter", "younger", "worse", "southernmost", "westernmost"),
    "average": ("average", "mean", "avg"),
    "total": ("total", "sum", "combined", "altogether", "overall", "together"),
    "count": ("many", "number", "count"),
    "first": ("first", "earliest", "initial", "opening", "begin", "began", "start", "started"),
    "last": ("last", "latest", "final", "recent", "bottom", "end", "ended"),
    "after": ("after", "next", "following", "followed", "succeeded", "then", "later", "below"),
    "before": ("before", "previous", "preceding", "preceded", "prior", "earlier", "above"),
    "difference": ("difference", "differ", "between", "gap", "margin", "apart"),
    "different": ("different", "distinct", "unique", "various"),
    "other": ("other", "besides", "except", "not", "only"),
    "same": ("same", "equal", "tied", "tie", "also"),
    "common": ("common", "often", "frequent", "frequently", "popular", "usual", "majority"),
    "or": ("or", "either", "whether"),
}  # fmt: skip
"""Words that say the same thing about a query, by family: a general lexicon whose pairing
with each kind of query the ranker learns (so that "fewest" weighs as "least" does, though
the training questions say one far more often)."""
_FAMILY_OF = {w: name for name, words in FAMILIES.items() for w in words}
FAMILY_WORDS = frozenset(_FAMILY_OF)


def families(words: Sequence[str]) -> list[str]:
    """The families of the question's words, once each, in order."""
    return list(dict.fromkeys(_FAMILY_OF[w] for w in words if w in _FAMILY_OF))
