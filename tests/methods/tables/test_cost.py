"""What a question costs, never what it answers: the features made once per operation and
columns and per conditions are those made query by query, and the score summed by parts
or in C is the sum in order (issue 53 point 5)."""

from __future__ import annotations

import random

from prism_edge.methods.tables.db import Database
from prism_edge.methods.tables.enumerate import queries
from prism_edge.methods.tables.features import query_features, view
from prism_edge.methods.tables.mentions import read
from prism_edge.methods.tables.ranker import query_score, score, weights
from prism_edge.methods.tables.words import tokens
from prism_edge.text.tables import TableChunk

ROWS = [["Keene", "488", "1999", "NH"], ["Telluride", "9078", "2004", "CO"],
        ["Aspen", "7820", "1999", "CO"], ["Concord", "342", "2010", "NH"]]  # fmt: skip


def _asked(question: str):  # type: ignore[no-untyped-def]
    db = Database()
    db.add(TableChunk("airports", ["name", "alt", "opened", "state"], [list(r) for r in ROWS]))
    sheet = db.sheets["airports"]
    db.prepare(sheet)
    db.type_all(sheet)
    reading = read(question, db, [sheet])
    return reading, sheet, list(queries(reading, sheet))


def test_features_made_once_are_the_features_made_each_time():
    for question in ("How many airports in CO opened after 1999 are higher than 1000?",
                     "Which one in NH or CO is the highest?",
                     "What is the difference in altitude between Keene and Aspen?"):  # fmt: skip
        reading, sheet, every = _asked(question)
        assert len(every) > 50
        shared = view(reading, sheet)
        shuffled = list(enumerate(every))
        random.Random(5).shuffle(shuffled)
        made = {i: query_features(shared, q) for i, q in shuffled}  # the caches filled
        scored = {i: query_score(shared, q) for i, q in shuffled}
        for i, query in enumerate(every):
            alone = query_features(view(reading, sheet), query)  # a view of its own
            assert list(made[i].items()) == list(alone.items())
            assert scored[i] == score(alone)  # to the last bit
            made[i]["ans:extra"] = 1.0  # what features() adds goes to this query's only
        assert all("ans:extra" not in query_features(shared, q) for q in every)


def test_the_score_is_the_sum_of_weights_times_values_in_order():
    w = dict(weights())
    names = list(w)[:40]
    f = {name: 0.1 * (i % 7) + 1e-9 for i, name in enumerate(names)} | {"unknown": 3.0}
    assert score(f, w) == sum(w.get(n, 0.0) * v for n, v in f.items())
    assert score({}, w) == 0


def test_tokens_kept_once_are_given_as_a_new_list_each_time():
    first = tokens("Dundee United F.C.")
    first.append("x")
    assert tokens("Dundee United F.C.") == ["dundee", "united", "f.c", "."] != first
