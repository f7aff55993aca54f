"""Age said of people or things: "the youngest player" is the one born last, "the oldest"
the one born first, by the table's column of birth dates (or of birth years where it has no
whole date: :func:`naming.whole_dates` makes one of a year, a month and a day); "the oldest
plane" is the one of the earliest year, by the year column of the table the noun names
(``planes``: its ``year``).
"""

from __future__ import annotations

from collections.abc import Sequence

from prism_edge.methods.tables import naming
from prism_edge.methods.tables.db import Sheet
from prism_edge.methods.tables.mentions import YEAR_NAMES, of_years
from prism_edge.methods.tables.words import stem

YOUNG = frozenset({"youngest", "younger", "newest", "newer"})
OLD = frozenset({"oldest", "older", "eldest"})
BIRTH_WORDS = frozenset({"birth", "born", "dob"})


def births(sheet: Sheet, words: Sequence[str] = ()) -> list[int]:
    """The columns an age word of ``words`` orders by: the table's columns of birth dates,
    else of birth years (``birth date``, ``birthYear``, ``dob``: their names say birth);
    where it has none, the years of the table the noun after the age word is the name of
    (``planes year`` for "the oldest plane", not ``AwardsPlayers yearID`` for "the youngest
    player": a column of years or dates whose name says only that)."""
    found = [c for c in sheet.columns if BIRTH_WORDS & set(naming.words(sheet, c))]
    whole = [c.index for c in found if c.kind == "date"]
    if whole or found:
        return whole or [c.index for c in found if c.kind == "number"]
    nouns = {stem(words[i + 1]) for i in age_words(words) if i + 1 < len(words)}
    tables = [t for t in sheet.parts or (sheet.name,)
              if {stem(w) for w in naming.table_words(t)} <= nouns]  # fmt: skip
    return [c.index for c in sheet.columns if naming.owner(sheet, c) in tables and of_years(c)
            and set(naming.words(sheet, c)) <= YEAR_NAMES]  # fmt: skip


def aged(words: Sequence[str]) -> str:
    """The order an age word of the question asks ("youngest": ``argmax`` of the birth
    date, "oldest": ``argmin``), else ""."""
    said = set(words)
    young, old = bool(said & YOUNG), bool(said & OLD)
    if young == old:
        return ""
    return "argmax" if young else "argmin"


def age_words(words: Sequence[str]) -> set[int]:
    """The indexes of the question's age words."""
    return {i for i, w in enumerate(words) if w in YOUNG or w in OLD}
