"""Whether a question is one its tables answer at all (issue 53 point 6, "sure or saying
so"): how much of it a table accounts for, the learned model's chance, an answer not called
sure where the chance is low (with the words nothing holds), and the learner on made-up pairs."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from prism_edge.app.tableqa import explain
from prism_edge.methods.tables import answerable
from prism_edge.methods.tables.answer import answer, held_by
from prism_edge.methods.tables.answerable import Accounted
from prism_edge.methods.tables.db import Database
from prism_edge.text.tables import TableChunk
from tests.methods.tables.test_answer import COUNTRIES, HEADER


def _db() -> Database:
    db = Database()
    db.add(TableChunk("countries", HEADER, [list(r) for r in COUNTRIES]))
    return db


def test_the_words_no_table_accounts_for_are_those_of_another_subject():
    db = _db()
    held = held_by(db, "How many gold medals did the swimmers of Chile win?")
    unrelated = held_by(db, "Who directed the film with the biggest budget?")
    whole = held_by(db, "What is the capital of Chile?")
    db.close()
    assert held is not None and whole is not None
    assert {"gold", "swimmers"} <= set(held.unheld) and held.exact == 1
    assert "chile" not in held.unheld and held.share < 1.0
    assert whole.unheld == () and whole.share == 1.0
    assert unrelated is None  # it names nothing of the table: "not in the table" says so


def test_the_shipped_model_trusts_a_question_its_table_accounts_for_and_not_one_it_does_not():
    whole = Accounted(content=3, unheld=(), exact=1)
    stray = Accounted(content=5, unheld=("gold", "medals", "swimmers", "won"), exact=0)
    assert answerable.chance(whole.features()) > 0.9
    assert answerable.chance(stray.features()) < answerable.AT_LEAST


def test_an_answer_to_a_question_the_table_may_not_hold_is_not_called_sure(monkeypatch):
    db = _db()
    question = "What is the capital of Chile?"
    sure, _ = answer(db, question)
    assert sure.sure and sure.unheld == ()
    assert "nothing in the input" not in explain(sure)[0]
    monkeypatch.setattr(answerable, "chance", lambda features, w=None: 0.1)
    doubted, _ = answer(db, question)
    db.close()
    assert doubted.values == sure.values and not doubted.sure
    assert "NOT SURE" in explain(doubted)[0]


def test_the_words_nothing_holds_are_said_beside_not_sure(monkeypatch):
    monkeypatch.setattr(answerable, "chance", lambda features, w=None: 0.1)
    db = _db()
    result, _ = answer(db, "Which capital of Chile has the most swimmers?")
    db.close()
    assert result.best is not None and not result.sure
    assert result.unheld == ("swimmers",) and result.to_dict()["unheld"] == ["swimmers"]
    assert explain(result)[0].endswith("nothing in the input for swimmers)")


def _learner():
    path = Path(__file__).resolve().parents[3] / "benchmarks" / "tables" / "learn_answerable.py"
    sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location("learn_answerable", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_learner_weighs_the_share_accounted_for(tmp_path):
    records = []
    for i in range(40):
        own = i % 2 == 0
        share = 0.9 if own else 0.2
        if i % 10 == 0:
            share = 1.0 - share  # some noise
        a = Accounted(content=5, unheld=("x",) * round(5 * (1 - share)), exact=int(own))
        records.append({"id": str(i), "own": own, "right": own, "features": a.features()})
    data = tmp_path / "pairs.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    out = tmp_path / "answerable.json"
    _learner().fit(data, 1.0, out)
    w = json.loads(out.read_text())["weights"]
    assert w["share"] > 0 and w["exact"] > 0
    high = Accounted(5, (), 1).features()
    low = Accounted(5, ("a", "b", "c", "d"), 0).features()
    assert answerable.chance(high, w) > 0.5 > answerable.chance(low, w)


@pytest.mark.parametrize("name", ["answerable.json"])
def test_the_shipped_model_says_where_it_was_learned(name):
    from importlib import resources

    data = json.loads(resources.files("prism_edge.methods.tables").joinpath(name).read_text())
    assert data["learned"]["source"].startswith("WikiTableQuestions")
    assert set(data["weights"]) == set(Accounted(1, (), 0).features())
