"""The answers a question's reading allows, each computed with SQL over the whole tables, and
the program's own ranking of them by shared words."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from prism_edge.methods.tables.question import Filter, Reading, _related, label
from prism_edge.methods.tables.store import Column, Link, Store, _singular, quote, show
from prism_edge.text.bm25 import words
from prism_edge.text.grounding import FUNCTION_WORDS

# --- candidate answers --------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    description: str
    """What was computed, in full: the operation, the column, the table, every filter."""
    value: str
    table: str
    core: str = ""
    """What the model is shown: the operation and the column (and a filter the question may
    not have meant); the cells the question names are common to all and left out."""
    query: str = ""
    """The SQL that computed it, as a user can run it."""


@dataclass(frozen=True)
class View:
    """What candidates are computed over: one table, or two joined through a link."""

    name: str
    sql: str
    columns: list[tuple[str, str, Column]]
    """(how the question's side calls it, its SQL expression, its facts)."""
    tables: tuple[str, ...]


def _views(store: Store, reading: Reading, joins: list[Link]) -> list[View]:
    views = []
    for table in store.tables.values():
        cols = [(c.name, quote(c.name), c) for c in table.columns]
        views.append(View(table.name, table.sql, cols, (table.name,)))
    for link in joins:
        left, right = store.tables[link.left], store.tables[link.right]
        wanted = {link.left, link.right}
        touched = set(reading.filters) | set(reading.columns) | set(reading.tables)
        if not wanted <= touched and not (wanted & set(reading.filters) and wanted & touched):
            continue
        cols = []
        for table, alias in ((left, "a"), (right, "b")):
            for c in table.columns:
                cols.append((f"{table.name} {c.name}", f"{alias}.{quote(c.name)}", c))
        sql = (
            f"{left.sql} AS a JOIN {right.sql} AS b ON a.{quote(link.left_column)} = "
            f"b.{quote(link.right_column)}"
        )
        views.append(View(f"{left.name} and {right.name}", sql, cols, (left.name, right.name)))
    return views


def candidates(store: Store, reading: Reading, joins: list[Link]) -> list[Candidate]:
    """Every answer the question's reading allows, computed over the whole tables: under every
    cell it names; and, for a cell named only by a plain word, without it too; and where
    those leave no row, under all but one (a cell named by accident)."""
    out: dict[str, Candidate] = {}
    for view in _views(store, reading, joins):
        in_view = [(t, f) for t in view.tables for f in reading.filters.get(t, [])]
        named = {c for t in view.tables for c in reading.columns.get(t, [])}
        if not in_view and not named and not set(view.tables) & set(reading.tables):
            continue
        strong = [x for x in in_view if not x[1].weak]
        sets = [in_view] + ([strong] if len(strong) < len(in_view) else [])
        if len(strong) > 1 and not any(_count(store, view, s) for s in sets):
            sets += [strong[:i] + strong[i + 1 :] for i in range(len(strong))]
        distinct = bool(DISTINCT_WORDS & set(reading.words))
        for chosen in sets:
            for candidate in itertools.chain(
                _computed(store, view, chosen, named, distinct),
                _conditioned(store, view, chosen, reading, named),
                _grouped(store, view, chosen, reading, named),
            ):  # each yielded right after the query that computed it
                query = store.shown(*store.last)
                out.setdefault(candidate.description, replace(candidate, query=query))
    found = list(out.values())
    if reading.asks_row:  # "which company": a row's cell, never a computed number
        found = [c for c in found if _ROW_ANSWER.search(c.description)] or found
    elif reading.asks_value:  # "what is the average ...": a number, never a row's label
        found = [c for c in found if not _ROW_ANSWER.search(c.description)] or found
    if reading.asks_value:  # a computed number: never a text cell looked up
        found = [c for c in found if _is_number(c.value)] or found
    if reading.asked_columns and not reading.asks_count:  # "which neighborhood": its cells
        heads = [label(c) for c in reading.asked_columns]
        found = [
            c for c in found
            if any(c.description.startswith((f"the {h} ", f"the most common {h} ")) for h in heads)
        ] or found  # fmt: skip
    if reading.aggregate and not reading.asks_row:  # "the average ...": an average
        found = [c for c in found if reading.aggregate in words(c.description)] or found
    if reading.asks_count:  # "how many states ...": a count of rows
        found = [c for c in found if c.description.startswith("the number of")] or found
    if reading.direction is not None:  # "the lowest": never an answer about the largest
        opposite = _OPPOSITE[reading.direction]
        kept = [c for c in found if not opposite & set(words(c.description))]
        found = kept or found
    return found


_ROW_ANSWER = re.compile(r"^the .+? with the |^the most common |^the \w+ rows in ")
"""Descriptions of answers that name rows (a label, a group, a row's cell) rather than
compute a value."""
_OPPOSITE = {"high": frozenset({"smallest", "fewest"}), "low": frozenset({"largest", "most"})}
"""The description words of the other end: what a question with a direction never asks."""


def _compared(
    view: View, reading: Reading, at: int, value: float, upper: float | None
) -> list[tuple[str, str, Column]]:
    """The numeric columns a comparison applies to, among those whose values span its bounds:
    the one the question names right after its number ("more than 40 members") or right
    before it ("a poverty rate above 15", the one named by more of those words first); else
    every column whose values span the bounds (a year column for "after 1900")."""
    top = upper if upper is not None else value
    spans = [
        x for x in view.columns
        if x[2].numeric and x[2].low is not None and x[2].high is not None
        and float(x[2].low) <= value and top <= float(x[2].high)
    ]  # fmt: skip
    after = at + (4 if upper is not None else 2)  # the words past the number (and its pair)
    near: list[tuple[int, int, tuple[str, str, Column]]] = []
    for x in spans:
        named_at = [p for t in view.tables for p in reading.positions.get(t, {}).get(x[2].name, [])]
        right_after = [p for p in named_at if after <= p <= after + 1]
        right_before = [p for p in named_at if at - 3 <= p < at]
        if right_after:
            near.append((2, len(right_after), x))
        elif right_before:
            near.append((1, len(right_before) * 10 + max(right_before), x))
    if near:
        return [max(near, key=lambda n: (n[0], n[1]))[2]]
    return spans


def _conditioned(
    store: Store, view: View, chosen: Chosen, reading: Reading, named: set[str]
) -> Iterator[Candidate]:
    """Answers over the rows a comparison or a text condition selects: their count, the
    aggregates of the named columns over them, their labels, the row with the largest or
    smallest named value among them."""
    where_sql, args = _clauses(view, chosen)
    told = " and ".join(f.describe() for _, f in chosen)
    conditions: list[tuple[str, list[Any], str, str]] = []
    for comparison, at in zip(reading.comparisons, reading.compared_at, strict=False):
        for name, expr, column in _compared(view, reading, at, comparison.value, comparison.upper):
            sql, extra = comparison.sql(expr)
            numeric = f"typeof({expr}) IN ('integer', 'real')"
            said = f"{label(name)} is {comparison.describe()}"
            conditions.append((f"{numeric} AND {sql}", list(extra), said, column.name))
    for match in reading.texts:
        for name, expr, column in view.columns:
            if column.kind != "text":
                continue
            sql, texts = match.sql(expr)
            if store.query(f"SELECT 1 FROM {view.sql} WHERE {sql} LIMIT 1", texts):
                conditions.append((sql, list(texts), f"{label(name)} {match.describe()}", name))
    of = f" in {view.name}"
    noun = _noun(view)
    for sql, extra, said, compared in conditions:
        clause = " AND ".join(x for x in (where_sql, sql) if x)
        base = f"FROM {view.sql} WHERE {clause}"
        params = [*args, *extra]
        where = " and ".join(x for x in (told, said) if x)
        (count,) = store.query(f"SELECT COUNT(*) {base}", params)[0]
        core = f"the number of rows where {said}"
        yield Candidate(
            f"the number of {view.name} rows where {where}", show(count), view.name, core
        )
        if not count:
            continue
        free = [x for x in view.columns if x[2].name != compared]
        measures = [x for x in free if x[2].numeric and x[2].name in named]
        for mname, mexpr, _ in measures:
            high, low, mean, total = store.query(
                f"SELECT MAX({mexpr}), MIN({mexpr}), AVG({mexpr}), TOTAL({mexpr}) {base} "
                f"AND typeof({mexpr}) IN ('integer', 'real')",
                params,
            )[0]
            if high is None:
                continue
            m = label(mname)
            for word, value in (("largest", show(high)), ("smallest", show(low)),
                                ("average", f"{mean:.2f}"), ("total", show(total))):  # fmt: skip
                yield Candidate(f"the {word} {m}{of} where {where}", value, view.name,
                                f"the {word} {m} where {said}")  # fmt: skip
        label_column = _label(store, view, free)
        if label_column is None:
            continue
        if count <= 5:
            listed = store.query(f"SELECT {label_column[1]} {base} ORDER BY rowid", params)
            yield Candidate(f"the {noun} rows{of} where {where}",
                            ", ".join(show(v[0]) for v in listed), view.name,
                            f"the {noun} where {said}")  # fmt: skip
        for mname, mexpr, _ in measures:
            for word, order in (("largest", "DESC"), ("smallest", "ASC")):
                row = store.query(
                    f"SELECT {label_column[1]} {base} AND {mexpr} IS NOT NULL "
                    f"ORDER BY {mexpr} {order} LIMIT 1",
                    params,
                )
                if row:
                    m = label(mname)
                    yield Candidate(f"the {noun} with the {word} {m}{of} where {where}",
                                    show(row[0][0]), view.name,
                                    f"the {noun} with the {word} {m} where {said}")  # fmt: skip


def _counts_rows(said: list[str], table_words: list[str]) -> bool:
    """Whether the question counts the table's rows per group: "the most time zones" beside a
    table of zones (a plural after most, fewest or least), not "the most electricity" beside
    a table of electricity (an amount)."""
    for i, word in enumerate(said):
        if word in ("most", "fewest", "least"):
            for after in said[i + 1 : i + 3]:
                if after.endswith("s") and any(_related(after, t) for t in table_words):
                    return True
    return False


GROUPS = 64
"""A text column groups rows for a group question when it holds at most this many values."""


def _grouped(
    store: Store, view: View, chosen: Chosen, reading: Reading, named: set[str]
) -> Iterator[Candidate]:
    """Answers about groups of rows ("Which firm has the highest total investment?"): the
    value of a text column whose group has the largest or smallest total or average of a
    named column."""
    if reading.direction is None:
        return
    where_sql, args = _clauses(view, chosen)
    base = f"FROM {view.sql}" + (f" WHERE {where_sql}" if where_sql else "")
    filtered = {f.column for _, f in chosen}
    table = store.tables.get(view.tables[0])
    groups = [
        x for x in view.columns
        if x[2].kind == "text" and x[2].name not in filtered and table is not None
        and 1 < table.distinct.get(x[2].name, 0) <= min(GROUPS, table.rows - 1)
    ]  # fmt: skip
    measures = [x for x in view.columns if x[2].numeric and x[2].name in named]
    order, word = ("DESC", "largest") if reading.direction == "high" else ("ASC", "smallest")
    told = " and ".join(f.describe() for _, f in chosen)
    where = f" where {told}" if told else ""
    noun = _noun(view)
    most = "most" if reading.direction == "high" else "fewest"
    for gname, gexpr, _ in groups:
        row = store.query(
            f"SELECT {gexpr}, COUNT(*) AS n {base} GROUP BY {gexpr} "
            f"ORDER BY n {order}, MIN(rowid) LIMIT 1",
            args,
        )
        counted = _counts_rows(reading.words, words(view.tables[0]))
        if counted and row and row[0][0] is not None:  # "Which country has the most zones?"
            g = label(gname)
            core = f"the {g} with the {most} {noun} rows"  # the noun names the table
            yield Candidate(f"{core}{where}", show(row[0][0]), view.name, core)
        for mname, mexpr, _ in measures:
            for function, said in (("TOTAL", "total"), ("AVG", "average")):
                row = store.query(
                    f"SELECT {gexpr}, {function}({mexpr}) AS v {base} GROUP BY {gexpr} "
                    f"HAVING COUNT({mexpr}) > 0 ORDER BY v {order}, MIN(rowid) LIMIT 1",
                    args,
                )
                if row and row[0][0] is not None:
                    g, m = label(gname), label(mname)
                    yield Candidate(
                        f"the {g} with the {word} {said} {m} in {view.name}{where}",
                        show(row[0][0]),
                        view.name,
                        f"the {g} with the {word} {said} {m}",
                    )


Chosen = list[tuple[str, "Filter"]]


def _clauses(view: View, chosen: Chosen) -> tuple[str, list[Any]]:
    sql: list[str] = []
    args: list[Any] = []
    for table, f in chosen:
        expr = _expr(view, table, f.column)
        if f.prefix:
            sql.append(f"({expr} LIKE ? OR {expr} LIKE ?)")
            args += [f"{f.value}-%", f"{f.value}/%"]
        else:
            sql.append(f"{expr} = ?")
            args.append(f.value)
    return " AND ".join(sql), args


def _count(store: Store, view: View, chosen: Chosen) -> int:
    where, args = _clauses(view, chosen)
    sql = f"SELECT COUNT(*) FROM {view.sql}" + (f" WHERE {where}" if where else "")
    return int(store.query(sql, args)[0][0])


def _expr(view: View, table: str, column: str) -> str:
    if len(view.tables) == 1:
        return quote(column)
    alias = "a" if table == view.tables[0] else "b"
    return f"{alias}.{quote(column)}"


def _computed(
    store: Store, view: View, chosen: Chosen, named: set[str], distinct: bool
) -> Iterator[Candidate]:
    """The candidates over ``view`` under the cells ``chosen``: what the question may ask of
    the rows they select."""
    where_sql, args = _clauses(view, chosen)
    told = " and ".join(f.describe() for _, f in chosen)
    where = f" where {told}" if told else ""
    weak = " and ".join(f.describe() for _, f in chosen if f.weak)
    aside = f" where {weak}" if weak else ""  # what the core description must still say
    base = f"FROM {view.sql}" + (f" WHERE {where_sql}" if where_sql else "")
    first = "a.rowid" if len(view.tables) > 1 else "rowid"  # ties: the first seen first
    of = f" in {view.name}"

    def candidate(core: str, value: str) -> Candidate:
        return Candidate(f"{core}{of}{where}", value, view.name, f"{core}{aside}")

    filtered = {f.column for _, f in chosen}
    free = [x for x in view.columns if x[2].name not in filtered]
    numeric = [x for x in free if x[2].numeric]
    measures = [x for x in numeric if x[2].name in named] or numeric
    targets = [x for x in free if x[2].name in named] or free
    noun = _noun(view)
    label_column = _label(store, view, free)
    (count,) = store.query(f"SELECT COUNT(*) {base}", args)[0]
    yield candidate(f"the number of {view.name} rows", show(count))
    if not count:
        return
    single = count == 1  # one row: its cells are the answer, aggregates only repeat them
    for name, expr, _ in measures if not single else []:
        number = f"typeof({expr}) IN ('integer', 'real')"
        keep = f" AND {number}" if where_sql else f" WHERE {number}"
        high, low, mean, total = store.query(
            # TOTAL, not SUM: a sum past 64-bit integers (18-digit ids) is a float, not an error
            f"SELECT MAX({expr}), MIN({expr}), AVG({expr}), TOTAL({expr}) {base}{keep}",
            args,
        )[0]
        if high is None:
            continue
        said = label(name)
        yield candidate(f"the largest {said}", show(high))
        yield candidate(f"the smallest {said}", show(low))
        yield candidate(f"the average {said}", f"{mean:.2f}")
        yield candidate(f"the total {said}", show(total))
        ranked = [(label(t), e) for t, e, _ in targets if e != expr]
        if label_column is not None and label_column[1] != expr:  # "which car": its label
            ranked.append((noun, label_column[1]))
        for tname, texpr in ranked:
            for word, order in (("largest", "DESC"), ("smallest", "ASC")):
                row = store.query(
                    f"SELECT {texpr} {base}{keep} ORDER BY {expr} {order}, {first} LIMIT 1", args
                )
                if row and row[0][0] is not None:
                    yield candidate(f"the {tname} with the {word} {said}", show(row[0][0]))
    for tname, texpr, column in targets:
        not_null = f"{' AND' if where_sql else ' WHERE'} {texpr} IS NOT NULL"
        if chosen:
            values = store.query(f"SELECT DISTINCT {texpr} {base}{not_null} LIMIT 6", args)
            if values and len(values) <= 5:
                yield candidate(f"the {label(tname)}", ", ".join(show(v[0]) for v in values))
        if single:
            continue
        common = store.query(
            f"SELECT {texpr}, COUNT(*) AS n {base}{not_null} GROUP BY {texpr} "
            f"ORDER BY n DESC, MIN({first}) LIMIT 6",
            args,
        )
        if common and common[0][1] > 1:  # a value seen once is no "most common" one
            tied = [show(v) for v, n in common if n == common[0][1]]
            said = ", ".join(tied[:5]) + (f" ({common[0][1]} each)" if len(tied) > 1 else "")
            yield candidate(f"the most common {label(tname)}", said)
        if column.kind == "text" and distinct:  # asked for: "how many different ..."
            (kinds,) = store.query(f"SELECT COUNT(DISTINCT {texpr}) {base}", args)[0]
            yield candidate(f"the number of different {label(tname)} values", show(kinds))


DISTINCT_WORDS = frozenset({"different", "distinct", "unique", "kinds", "types", "sorts"})
"""Words by which a question asks how many different values a column holds."""


def _noun(view: View) -> str:
    """What one row of a view is, from its (first) table's name: ``cars`` -> ``car``."""
    said = [w for w in words(view.tables[0]) if not w.isdigit()]
    return _singular(said[-1]) if said else "row"


def _label(
    store: Store, view: View, free: list[tuple[str, str, Column]]
) -> tuple[str, str, Column] | None:
    """The column that tells a row by name: one whose words say name, title or label, else
    the first text column whose values are mostly different."""
    texts = [x for x in free if x[2].kind == "text"]
    for x in texts:
        if set(words(x[2].name)) & {"name", "title", "label"}:
            return x
    table = store.tables.get(view.tables[0])
    for x in texts:
        if table is not None and table.distinct.get(x[2].name, 0) * 2 >= max(1, table.rows):
            return x
    return None


SAME = {
    "many": "number", "count": "number", "number": "number",
    "most": "largest", "highest": "largest", "maximum": "largest", "largest": "largest",
    "biggest": "largest", "greatest": "largest", "top": "largest", "max": "largest",
    "least": "smallest", "lowest": "smallest", "minimum": "smallest", "smallest": "smallest",
    "fewest": "smallest", "min": "smallest",
    "average": "average", "mean": "average", "total": "total", "sum": "total",
    "common": "common", "frequent": "common", "often": "common", "usual": "common",
    "different": "different", "distinct": "different", "unique": "different",
}  # fmt: skip
"""Words of a question and the description words they ask for (the program's reading of
quantifiers, for ranking with no model)."""


def _is_number(value: str) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return True


_MOST_COMMON = re.compile(r"\bmost\s+(common|frequent|usual|often)\b", re.IGNORECASE)


def rank_by_words(question: str, found: Sequence[Candidate]) -> list[float]:
    """The program's own ranking, with no model: how many of the question's content words
    each description shares (prefixes of four letters count; quantifiers by :data:`SAME`),
    ties to the shorter."""
    question = _MOST_COMMON.sub(r"\1", question)  # "most common" asks for a mode, not a maximum
    asked = {SAME.get(w, w) for w in words(question) if w not in FUNCTION_WORDS or w in SAME}
    scores = []
    for candidate in found:
        description = _MOST_COMMON.sub(r"\1", candidate.description)
        said = [SAME.get(w, w) for w in words(description)]
        shared = sum(  # a run-together name holds the words: copperprice, copper, price
            1 for q in asked if any(_related(q, w) or (len(q) >= 4 and q in w) for w in said)
        )
        scores.append(shared - 0.01 * len(said))
    return scores
