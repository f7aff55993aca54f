"""The questions a table method must be able to express (issue 45), each on a small table
built here: direction words both ways (even against a model that likes the other end),
comparisons, a filtered average, a group extreme, a missing attribute, rounding, a
begins-with count, abbreviated column names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.core.events import RunResult
from prism_edge.engine.runner import PrismRunner
from prism_edge.methods import make
from prism_edge.methods.presets import TASKS
from prism_edge.methods.tables import NOT_IN_TABLE
from prism_edge.methods.tables.lexicon import comparisons, direction, rounding, text_matches
from prism_edge.prompts import Prompt
from prism_edge.text.chunking import chunk_documents
from prism_edge.text.inputs import collect

TASK = TASKS["table-qa"]
COMPANIES = """name,country,profits,employees
Acme,Sweden,120,900
Borealis,Sweden,80,400
Cobalt,Norway,300,2500
Dune,Norway,-20,150
Ember,Finland,45,300
"""
DISTRICTS = """district,county,str,testscr,enrltot,expnstu
Alder,Fresno,16.2,640.5,1200,5100
Birch,Fresno,18.9,655.0,800,4800
Cedar,Kern,15.1,661.2,2300,5600
Dogwood,Kern,21.4,630.8,450,4500
Elm,Fresno,17.0,648.9,990,5000
"""
ZONES = """zone,country,latitude
Europe/Paris,France,48.86
Europe/Oslo,Norway,59.91
America/Lima,Peru,-12.05
Europe/Rome,Italy,41.9
Africa/Cairo,Egypt,30.04
Europe/Berlin,Germany,52.52
America/Bogota,Colombia,4.71
Europe/Madrid,Spain,40.42
"""


def ask(tmp_path: Path, name: str, table: str, question: str, **options: Any) -> RunResult:
    path = tmp_path / name
    path.write_text(table, encoding="utf-8")
    backend = options.pop("backend", None) or ScriptedBackend()
    chunks = chunk_documents(
        collect([str(path)]).documents, 512, lambda t: len(backend.tokenize(t))
    )
    config = TASK.configure(question)
    chooser = "words" if options.pop("words", True) else "model"
    method = make("tables", TASK.schema, config, chooser=chooser)
    runner = PrismRunner(backend, TASK.schema, config, method=method)
    for _ in runner.run(chunks):
        pass
    return runner.result


def answer(tmp_path: Path, name: str, table: str, question: str, **options: Any) -> str:
    return ask(tmp_path, name, table, question, **options).answer or ""


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which company has the lowest profits?", "Dune"),
        ("Which company has the highest profits?", "Cobalt"),
        ("Which company has the fewest employees?", "Dune"),
        ("Which company has the most employees?", "Cobalt"),
    ],
)
def test_direction_words_are_read_both_ways(tmp_path, question, expected):
    assert answer(tmp_path, "companies.csv", COMPANIES, question) == expected


def test_a_model_that_likes_the_largest_cannot_answer_lowest_with_it(tmp_path):
    def likes_largest(prompt: Prompt, text: str) -> float:
        return 5.0 if "largest" in text else 0.0

    backend = ScriptedBackend(scorer=likes_largest)
    result = ask(tmp_path, "companies.csv", COMPANIES, "Which company has the lowest profits?",
                 backend=backend, words=False)  # fmt: skip
    assert result.answer == "Dune"
    assert all("largest" not in description for description, _ in result.ranking)


def test_the_northernmost_is_the_largest_latitude(tmp_path):
    question = "Which time zone has the northernmost latitude?"
    assert answer(tmp_path, "zones.csv", ZONES, question) == "Europe/Oslo"
    question = "Which time zone has the southernmost latitude?"
    assert answer(tmp_path, "zones.csv", ZONES, question) == "America/Lima"


def test_a_comparison_counts_the_rows_it_selects(tmp_path):
    question = "How many districts have a student-teacher ratio below 17?"
    result = ask(tmp_path, "districts.csv", DISTRICTS, question)
    assert result.answer == "2"
    assert "below 17" in result.ranking[0][0]
    assert answer(tmp_path, "companies.csv", COMPANIES,
                  "How many companies have more than 400 employees?") == "2"  # fmt: skip
    between = "How many districts have a test score between 640 and 650?"
    assert answer(tmp_path, "districts.csv", DISTRICTS, between) == "2"


def test_a_filtered_average(tmp_path):
    question = "What is the average profit of the companies from Sweden?"
    assert answer(tmp_path, "companies.csv", COMPANIES, question) == "100.00"
    question = "What is the average test score of the districts in Fresno county?"
    assert float(answer(tmp_path, "districts.csv", DISTRICTS, question)) == pytest.approx(
        (640.5 + 655.0 + 648.9) / 3, abs=0.01
    )


def test_a_group_extreme(tmp_path):
    question = "Which country has the highest total profits?"
    assert answer(tmp_path, "companies.csv", COMPANIES, question) == "Norway"
    question = "Which country has the most time zones?"
    many = ZONES + "Europe/Lyon,France,45.76\n"
    assert answer(tmp_path, "zones2.csv", many, question) == "France"


def test_an_attribute_no_column_holds_is_not_in_the_table(tmp_path):
    result = answer(tmp_path, "companies.csv", COMPANIES, "What is the revenue of Acme?")
    assert result.startswith(NOT_IN_TABLE) and "revenue" in result
    result = answer(tmp_path, "districts.csv", DISTRICTS,
                    "What is the graduation rate of the Cedar district?")  # fmt: skip
    assert result.startswith(NOT_IN_TABLE) and "graduation rate" in result
    # a missing row still says which
    row = answer(tmp_path, "companies.csv", COMPANIES, "What are the profits of Zenith?")
    assert row.startswith(NOT_IN_TABLE) and "Zenith" in row


def test_rounded_to_n_places_rounds_and_is_no_value_to_look_up(tmp_path):
    question = "What is the average test score, rounded to 1 decimal place?"
    assert answer(tmp_path, "districts.csv", DISTRICTS, question) == "647.3"
    question = "What is the average student-teacher ratio, rounded to 2 decimal places?"
    assert answer(tmp_path, "districts.csv", DISTRICTS, question) == "17.72"


def test_a_begins_with_count(tmp_path):
    question = "How many time zones begin with 'Europe/'?"
    assert answer(tmp_path, "zones.csv", ZONES, question) == "5"


def test_abbreviated_column_names_are_read_as_words(tmp_path):
    question = "What is the total enrollment of the Birch district?"
    assert answer(tmp_path, "districts.csv", DISTRICTS, question) == "800"
    question = "What is the expenditure per student of Cedar?"
    assert answer(tmp_path, "districts.csv", DISTRICTS, question) == "5600"
    question = "Which district has the highest test score?"
    assert answer(tmp_path, "districts.csv", DISTRICTS, question) == "Cedar"


def test_the_lexicon_reads_structure_words():
    assert direction("Which is the cheapest?") == "low"
    assert direction("Which is the most expensive?") == "high"
    assert direction("What are the highest and the lowest?") is None
    found = comparisons("How many have a ratio below 17 and an age of 5 or more?")
    assert [(c.op, c.value) for c in found] == [("<", 17.0), (">=", 5.0)]
    assert [(c.op, c.value, c.upper) for c in comparisons("between 1960 and 1965")] == [
        ("between", 1960.0, 1965.0)
    ]
    assert rounding("rounded to 2 decimal places") == 2 and rounding("how many?") is None
    assert [(m.how, m.text) for m in text_matches("names starting with 'Sa'")] == [("begins", "Sa")]


def test_the_form_of_the_question_says_what_kind_of_answer(tmp_path):
    # "how many <rows>": a count, never a label or a sum
    assert answer(tmp_path, "companies.csv", COMPANIES,
                  "How many companies are from Norway?") == "2"  # fmt: skip
    # "how many <a column>" of a named row: that column's cell
    assert answer(tmp_path, "companies.csv", COMPANIES,
                  "How many employees does Ember have?") == "300"  # fmt: skip
    # "which <a column>": one of that column's cells, not another column's
    question = "Which country has the company with the highest profits?"
    assert answer(tmp_path, "companies.csv", COMPANIES, question) == "Norway"
    # "what is the average": an average, not a total or a label
    assert answer(tmp_path, "companies.csv", COMPANIES,
                  "What is the average number of employees?") == "850.00"  # fmt: skip


def test_the_answer_comes_with_the_query_that_computed_it(tmp_path):
    import sqlite3

    question = "How many companies have more than 400 employees?"
    result = ask(tmp_path, "companies.csv", COMPANIES, question)
    facts = result.memory.data["table_descriptions"][0]["relevant_statistics"]
    query = next(f for f in facts if f.startswith("query: ")).removeprefix("query: ")
    assert query.startswith("SELECT COUNT(*)") and '"employees" > 400' in query
    # the query runs as it is shown, on the user's table, to the same answer
    db = sqlite3.connect(":memory:")
    db.execute('CREATE TABLE "companies" (name, country, profits, employees)')
    rows = [line.split(",") for line in COMPANIES.splitlines()[1:]]
    db.executemany("INSERT INTO companies VALUES (?, ?, ?, ?)",
                   [(n, c, int(p), int(e)) for n, c, p, e in rows])  # fmt: skip
    assert str(db.execute(query).fetchone()[0]) == result.answer == "2"
