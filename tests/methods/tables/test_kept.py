"""Which candidates a table question keeps before the ranker chooses (``kept``): a count or
a total where "which" or "who" asks a name, a number of a column the conditions hold at one
value, a measure the question does not name where another is named whole, a count of rows
where "how many" names an amount."""

from __future__ import annotations

from prism_edge.methods.tables.enumerate import Candidate
from prism_edge.methods.tables.kept import (
    amounts,
    measure_named,
    measured,
    numbers_a_label,
    pinned,
)
from prism_edge.methods.tables.mentions import Reading
from prism_edge.methods.tables.space import Cond, Query
from prism_edge.methods.tables.words import stem
from tests.methods.tables.test_database_measures import baseball_db


def _reading(question: str) -> Reading:
    words = question.lower().rstrip("?").split()
    return Reading(question, words, words)


def _candidate(query: Query) -> Candidate:
    return Candidate(query, (0.0,), "", ())


def test_a_count_or_total_answers_which_only_where_the_question_asks_a_number():
    count = _candidate(Query("flights", "count"))
    name = _candidate(Query("flights", "select", 0))
    assert numbers_a_label(count, _reading("Which airline flies the plane N3?"))
    assert not numbers_a_label(name, _reading("Which airline flies the plane N3?"))
    assert not numbers_a_label(count, _reading("Which airline has how many planes?"))
    assert not numbers_a_label(count, _reading("Who knows the number of planes?"))
    assert numbers_a_label(count, _reading("Which plane has tail number N3?"))
    assert not numbers_a_label(count, _reading("What is the count of planes?"))


def test_a_number_of_a_column_the_conditions_hold_at_one_value_is_no_measure():
    year = Cond(1, "in", ("2018",), (0,))
    one, other = Cond(0, "in", ("a",), (1,)), Cond(0, "in", ("b",), (2,))
    assert pinned(_candidate(Query("t", "diff", 1, conds=(one, year), other=(other, year))))
    assert not pinned(_candidate(Query("t", "diff", 2, conds=(one, year), other=(other, year))))
    assert not pinned(_candidate(Query("t", "diff", 1, conds=(one, year), other=(other,))))
    assert pinned(_candidate(Query("t", "avg", 1, conds=(year,))))
    years = Cond(1, "in", ("2018", "2019"), (0,))
    assert not pinned(_candidate(Query("t", "sum", 1, conds=(years,))))
    assert not pinned(_candidate(Query("t", "count", None, conds=(year,))))
    assert pinned(_candidate(Query("t", "groupmax", 0, by=1, conds=(year,))))  # by yearID
    assert pinned(_candidate(Query("t", "argmin", 0, by=1, conds=(year,))))
    assert not pinned(_candidate(Query("t", "argmax", 0, by=2, conds=(year,))))
    assert not pinned(_candidate(Query("t", "groupmax", 0, by=1, conds=(year,), agg="distinct")))


def _read(question: str, query: Query, f: dict[str, float]):  # type: ignore[no-untyped-def]
    return (_candidate(query), f, 0.0, _reading(question))


def test_a_measure_named_whole_leaves_out_those_named_not_at_all():
    """ "Who hit more home runs": ordered by HR (named by its short form), not by birthYear
    (named at all only by a word the lexicon pairs with it); a label asked is kept."""
    question = "Who hit more home runs in 2019, Pete Alonso or Cody Bellinger?"
    home_runs = _read(question, Query("Batting", "argmax", 0, by=2),
                      {"by:share": 1.0, "by:short": 1.0})  # fmt: skip
    born = _read(question, Query("People", "argmax", 1, by=2),
                 {"by:share": 0.0, "by:lexical": 0.5})  # fmt: skip
    runs = _read(question, Query("Batting", "sum", 3), {"col:share|agg": 0.5})
    label = _read(question, Query("People", "select", 1), {})
    assert measure_named(born[1], born[0]) == 0.0 and measure_named(label[1], label[0]) is None
    assert measured([born, home_runs, runs, label]) == [home_runs, runs, label]
    assert measured([born, runs, label]) == [born, runs, label]  # none named whole: all kept
    letter = _read(question, Query("Teams", "diff", 4), {"col:letter|agg": 1.0})
    assert measured([born, letter]) == [letter]  # "W", said by "won"


def test_how_many_of_an_amount_leaves_out_the_counts_of_rows_of_every_table():
    db = baseball_db()
    for sheet in db.sheets.values():
        db.type_all(sheet)
    question = "How many home runs did Aaron Judge hit in 2017?"
    reading = Reading(question, question.lower().rstrip("?").split(),
                      [stem(w) for w in question.lower().rstrip("?").split()])  # fmt: skip
    total = (_candidate(Query("Batting", "sum", 2)), {}, 0.0, reading)
    awards = (_candidate(Query("AwardsPlayers", "count")), {}, 0.0, reading)
    assert amounts(db, [awards, total]) == [total]
    runs = "How many players hit home runs in 2017?"
    said = Reading(runs, runs.lower().rstrip("?").split(),
                   [stem(w) for w in runs.lower().rstrip("?").split()])  # fmt: skip
    counted_rows = (_candidate(Query("AwardsPlayers", "count")), {}, 0.0, said)
    assert amounts(db, [counted_rows]) == [counted_rows]
    db.close()
