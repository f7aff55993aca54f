"""How a question names a table's columns, beyond their headers' words.

- A joined table's column is named by its own name, not by its table's as well:
  ``flights distance`` is ``distance`` (a question saying "flights" names the table, and
  would otherwise name every one of its columns alike).
- A table's label column (``name``, ``title``) stands for the table's rows themselves: "which
  airline", "the airport" name the label column of ``airlines``, ``airports``.
- A column of codes or ids (``faa``, ``teamID``) is not what a question asking "which
  airport" wants when the same rows have a label: :func:`is_code`.
- A person's name held in two columns (``nameFirst``, ``nameLast``) is also one column of
  whole names, as a question says it ("Mike Trout"): :func:`full_names`.
- A date held in three columns (``birthYear``, ``birthMonth``, ``birthDay``) is also one
  column of dates (``birth date``), so "the youngest" orders by all three:
  :func:`whole_dates`.
"""

from __future__ import annotations

import weakref

from prism_edge.methods.tables.db import MAX_COLUMNS, Column, Database, Sheet
from prism_edge.methods.tables.words import column_words, stem

LABEL_WORDS = frozenset({"name", "title"})
CODE_WORDS = frozenset({"id", "code", "key", "abbreviation", "abbr", "symbol"})
MAX_CODE = 10
"""Characters of a code at most."""


def own_name(sheet: Sheet, column: Column) -> str:
    """The column's own name: a joined table's without the ``<table> `` it was given."""
    for part in sorted(sheet.parts, key=len, reverse=True):
        if column.name.startswith(part + " ") and len(column.name) > len(part) + 1:
            return column.name[len(part) + 1 :]
    return column.name


def owner(sheet: Sheet, column: Column) -> str:
    """The table the column comes from (a joined table's part, else the table)."""
    for part in sorted(sheet.parts, key=len, reverse=True):
        if column.name.startswith(part + " "):
            return part
    return sheet.name


def words(sheet: Sheet, column: Column, spelt_out: bool = True) -> list[str]:
    """The words of the column's own name (:func:`own_name`), as :func:`column_words`."""
    return column_words(own_name(sheet, column), spelt_out)


def is_label(sheet: Sheet, column: Column) -> bool:
    """A label column: its own name says name or title ("name", "franchName"); but where
    the same table has a column named only so (``name``), a column naming another thing's
    name (``currencyname``: the currency's) is not the rows' label."""
    said = words(sheet, column)
    if not LABEL_WORDS & set(said):
        return False
    if len(said) == 1:
        return True
    mine = owner(sheet, column)
    return not any(
        len(other) == 1 and other[0] in LABEL_WORDS
        for c in sheet.columns
        if c is not column and owner(sheet, c) == mine
        for other in (words(sheet, c),)
    )


def labels(sheet: Sheet) -> list[int]:
    """A table's label columns (:func:`is_label`)."""
    return [c.index for c in sheet.columns if is_label(sheet, c)]


ID_WORDS = frozenset({"id", "ids", "code", "codes", "key"})


def is_id(sheet: Sheet, column: Column, said: set[str]) -> bool:
    """A column that identifies rows, no measure of them: its own name ends by saying so
    (``geonameid``, ``teamID``, ``id``; ``isonumeric`` of ``iso``: no; nor years, ``yearID``)
    and the question's
    words (``said``, their stems) say no word of its name but its table's own ("the
    highest geonameid" is never asked; "the biggest town" says nothing of ``townid``)."""
    name = words(sheet, column, spelt_out=False)
    if not name or name[-1] not in ID_WORDS:
        return False
    if column.kind == "date" or (column.kind == "number" and column.low >= 1000
                                 and column.high <= 2999):  # fmt: skip
        return False  # years ("yearID"): an order and a bound of their own
    table = {stem(w) for w in table_words(owner(sheet, column))}
    return not ({stem(w) for w in name} - table) & said


def table_words(name: str) -> list[str]:
    """The words of a table's name that can name it ("airlines"; not "csv" of "590.csv",
    nor a number)."""
    return [w for w in column_words(name) if w.isalpha() and len(w) > 2 and w not in ("csv", "tsv")]


def is_code(sheet: Sheet, column: Column) -> bool:
    """A column of codes or ids: its name says so (``teamID``, ``country_code``), or it is a
    column of text whose every cell differs and is one short word (``faa``: "TEX", "JFK")
    beside a label column of the same rows whose cells are longer (names)."""
    said = words(sheet, column)
    if len(said) > 1 and said[-1] in CODE_WORDS:
        return True
    if column.kind != "text" or not column.present or column.distinct != column.present:
        return False
    codes = [t for texts in sheet.raw.get(column.index, {}).values() for t in texts]
    if not codes or any(" " in t or len(t) > MAX_CODE for t in codes):
        return False
    for index in labels(sheet):
        names = [t for texts in sheet.raw.get(index, {}).values() for t in texts]
        if index != column.index and names and sum(" " in t for t in names) * 2 >= len(names):
            return True
    return False


# --- a person's name split across two columns ---------------------------------------------------

_FIRST = ("first", "fore", "given")
_LAST = ("last", "sur", "family")
_DONE: weakref.WeakKeyDictionary[Database, set[str]] = weakref.WeakKeyDictionary()


def _name_part(sheet: Sheet, kinds: tuple[str, ...]) -> Column | None:
    """The column that holds a person's first (or last) name, by the first of ``kinds`` its
    name says ("nameFirst", "first_name", "forename", "surname"; "first" before "given": a
    given name may be every given name)."""
    for kind in kinds:
        for column in sheet.columns:
            said = words(sheet, column)
            joined = "".join(said)
            if ("name" in said and kind in said) or joined in (f"{kind}name", f"{kind}names"):
                return column
    return None


def full_names(db: Database, sheet: Sheet) -> Column | None:
    """Where a table holds people's names in two columns (a first and a last name), a column
    of the whole names added to it ("Mike" and "Trout": "Mike Trout"), named ``name`` (or
    ``full name`` where a column is named so), once: a question names a person whole, and
    asks who with the whole name. The column added, else None."""
    done = _DONE.setdefault(db, set())
    if sheet.sql in done or sheet.parts:
        return None
    done.add(sheet.sql)
    first, last = _name_part(sheet, _FIRST), _name_part(sheet, _LAST)
    if first is None or last is None or first is last or len(sheet.columns) >= MAX_COLUMNS:
        return None
    taken = {c.name.casefold() for c in sheet.columns}
    name = next((n for n in ("name", "full name", "whole name") if n not in taken), None)
    if name is None:
        return None
    column = Column(name, len(sheet.columns))
    a, b = first.text, last.text
    db.db.execute(f"ALTER TABLE {sheet.sql} ADD COLUMN {column.text} TEXT")
    db.db.execute(
        f"UPDATE {sheet.sql} SET {column.text} = NULLIF(TRIM(COALESCE({a}, '') || ' ' || "
        f"COALESCE({b}, '')), '')"
    )
    sheet.columns.append(column)
    return column


# --- a date split across three columns ----------------------------------------------------------

_DATED: weakref.WeakKeyDictionary[Database, set[str]] = weakref.WeakKeyDictionary()


def whole_dates(db: Database, sheet: Sheet) -> list[Column]:
    """Where a table holds a date in three columns of one name and its year, month and day
    (``birthYear``, ``birthMonth``, ``birthDay``; ``death_year`` ...), a column of the whole
    dates added to it (``birth date``: "1992-04-26"; empty where a part is missing), once:
    ordering by the year alone ("the youngest player") ties every player born in one year.
    The columns added."""
    done = _DATED.setdefault(db, set())
    if sheet.sql in done or sheet.parts:
        return []
    done.add(sheet.sql)
    by_words = {tuple(words(sheet, c)): c for c in sheet.columns}
    taken = {c.name.casefold() for c in sheet.columns}
    added = []
    for said, year in list(by_words.items()):
        if len(said) < 2 or said[-1] != "year" or len(sheet.columns) >= MAX_COLUMNS:
            continue
        month, day = by_words.get((*said[:-1], "month")), by_words.get((*said[:-1], "day"))
        name = " ".join((*said[:-1], "date"))
        if month is None or day is None or name in taken:
            continue
        column = Column(name, len(sheet.columns))
        parts = [f"CAST({c.text} AS INTEGER)" for c in (year, month, day)]
        present = " AND ".join(f"{c.text} GLOB '[0-9]*'" for c in (year, month, day))
        db.db.execute(f"ALTER TABLE {sheet.sql} ADD COLUMN {column.text} TEXT")
        db.db.execute(
            f"UPDATE {sheet.sql} SET {column.text} = CASE WHEN {present} THEN "
            f"printf('%04d-%02d-%02d', {', '.join(parts)}) END"
        )
        sheet.columns.append(column)
        taken.add(name)
        added.append(column)
    return added
