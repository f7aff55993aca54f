"""Age said of people with a birth date: "the youngest player" is the one born last, "the
oldest" the one born first, by the table's column of birth dates (or of birth years where it
has no whole date: :func:`naming.whole_dates` makes one of a year, a month and a day).
"""

from __future__ import annotations

from prism_edge.methods.tables import naming
from prism_edge.methods.tables.db import Sheet

YOUNG = frozenset({"youngest", "younger"})
OLD = frozenset({"oldest", "older", "eldest"})
BIRTH_WORDS = frozenset({"birth", "born", "dob"})


def births(sheet: Sheet) -> list[int]:
    """The table's columns of birth dates, else of birth years (``birth date``,
    ``birthYear``, ``dob``): their names say birth, their cells are dates or years."""
    found = [c for c in sheet.columns if BIRTH_WORDS & set(naming.words(sheet, c))]
    whole = [c.index for c in found if c.kind == "date"]
    return whole or [c.index for c in found if c.kind == "number"]


def aged(words: list[str]) -> str:
    """The order an age word of the question asks ("youngest": ``argmax`` of the birth
    date, "oldest": ``argmin``), else ""."""
    said = set(words)
    young, old = bool(said & YOUNG), bool(said & OLD)
    if young == old:
        return ""
    return "argmax" if young else "argmin"


def age_words(words: list[str]) -> set[int]:
    """The indexes of the question's age words."""
    return {i for i, w in enumerate(words) if w in YOUNG or w in OLD}
