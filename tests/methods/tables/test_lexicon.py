"""The learned lexicon: a question's word that names a column whose name is not that word
("how tall": ``height``), where the hand lists and short forms said so before, on made-up
tables with a made-up lexicon; and the learner that writes the shipped one, on made-up
questions."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Iterator
from dataclasses import replace
from importlib import resources
from pathlib import Path

import pytest

from prism_edge.methods.tables import lexicon
from prism_edge.methods.tables.answer import answer, said
from prism_edge.methods.tables.db import Database
from prism_edge.methods.tables.features import query_features, view
from prism_edge.methods.tables.mentions import read
from prism_edge.methods.tables.space import Cond, Query
from prism_edge.methods.tables.words import stem, tokens
from prism_edge.text.tables import TableChunk

MADE_UP = {"statur": {"height": 2.0}, "elev": {"alt": 2.0}}
"""Made-up pairs of stems no hand list pairs ("how tall" is a measure of its own:
:func:`words.measures`)."""


@pytest.fixture
def made_up() -> Iterator[None]:
    lexicon.use(MADE_UP)
    yield
    lexicon.use(None)


@pytest.fixture
def none() -> Iterator[None]:
    lexicon.use({})
    yield
    lexicon.use(None)


def _db(name: str, header: list[str], rows: list[list[str]]) -> Database:
    db = Database()
    db.add(TableChunk(name, header, rows))
    sheet = db.sheets[name]
    db.prepare(sheet)
    db.type_all(sheet)
    return db


PLAYERS = (["name", "height", "HR"], [["Aaron Judge", "79", "52"], ["Mookie Betts", "69", "29"]])


def _view(question: str):
    db = _db("players", *PLAYERS)
    sheet = db.sheets["players"]
    return view(read(question, db, [sheet]), sheet)


def test_a_word_the_lexicon_pairs_with_a_columns_name_names_the_column(made_up):
    q = _view("What is the stature of Aaron Judge?")
    assert q.lexical_match == {1: 1.0} and not q.short_match  # "height" starts no "stature"
    assert q.column_match[1][0] == 0.0  # weighed apart from the name's own words
    select = Query("players", "select", 1, conds=(Cond(0, "in", ("aaron judge",), (0,)),))
    assert query_features(q, select)["col:lexical|row"] == 1.0
    assert "col:lexical|row" not in query_features(q, replace(select, column=2))


def test_without_the_pair_the_column_is_not_named(none):
    q = _view("What is the stature of Aaron Judge?")
    assert q.column_match[1][0] == 0.0 and not q.lexical_match


def test_a_word_naming_a_column_as_written_names_no_other_by_the_lexicon():
    lexicon.use({"height": {"hr": 2.0}})
    try:
        q = _view("What is the height of Aaron Judge?")
    finally:
        lexicon.use(None)
    assert q.column_match[1][0] == 1.0 and not q.lexical_match


def test_an_attribute_the_lexicon_names_is_in_the_table(made_up):
    db = Database()
    db.add(TableChunk("airports", ["name", "alt"], [["Keene", "488"], ["Telluride", "9078"]]))
    result, _ = answer(db, "What is the elevation of Telluride?")
    assert result.best is not None and [said(v) for v in result.values] == ["9078"]
    lexicon.use({})
    result, _ = answer(db, "What is the elevation of Telluride?")
    assert result.best is None and result.not_in_table == "no column holds 'elevation'"


def test_the_shipped_lexicon_pairs_no_word_with_itself():
    data = json.loads(
        resources.files("prism_edge.methods.tables").joinpath("lexicon.json").read_text()
    )
    pairs = data["pairs"]
    assert pairs and data["learned"]["source"].startswith("WikiTableQuestions")
    assert all(q != n for q, names in pairs.items() for n in names)
    least = data["learned"]["threshold"]
    assert all(s >= least for names in pairs.values() for s in names.values())
    assert lexicon.pairs() == {q: dict(n) for q, n in pairs.items()}


# --- the learner (benchmarks/tables/learn_lexicon.py) ---------------------------------------------

SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "tables" / "learn_lexicon.py"


@pytest.fixture(scope="module")
def learner():
    spec = importlib.util.spec_from_file_location("learn_lexicon", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["learn_lexicon"] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("learn_lexicon", None)


def _records(learner, n_tables: int, question: str, columns: tuple[str, ...], use: tuple):
    return [learner.Record(f"q{t}", f"t{t}", tuple(tokens(question)), columns, use)
            for t in range(n_tables)]  # fmt: skip


def test_the_learner_pairs_a_word_with_the_column_its_questions_use(learner):
    columns = ("Player", "Height", "Team")
    records = _records(learner, 4, "how tall is the player?", columns, (0.0, 1.0, 0.0))
    records += _records(learner, 6, "which team has the player?", columns, (0.0, 0.0, 1.0))
    pairs = learner.learn(records, 1.0)
    assert "height" in pairs[stem("tall")]
    assert "team" not in pairs.get(stem("tall"), {})  # never used where "tall" is said
    assert stem("player") not in pairs  # "player" names the Player column as written


def test_the_learner_keeps_a_pair_said_of_a_few_tables_only(learner):
    columns = ("Player", "Height")
    few = _records(learner, 2, "how tall is the player?", columns, (0.0, 1.0))
    few += _records(learner, 6, "which player?", columns, (1.0, 0.0))
    assert stem("tall") not in learner.learn(few, 0.0)
