"""The query space a question's words allow: a comparison said in words is read as grammar
(its direction, never left to the ranker) and kept by every query; an average asked in so
many words is an average."""

from __future__ import annotations

import pytest

from prism_edge.methods.tables.db import Database, Sheet
from prism_edge.methods.tables.enumerate import queries
from prism_edge.methods.tables.mentions import direction, read
from prism_edge.methods.tables.words import tokens
from prism_edge.text.tables import TableChunk

ROWS = [["Acme", "Sweden", "120", "900"], ["Borealis", "Sweden", "80", "400"],
        ["Cobalt", "Norway", "300", "2500"], ["Dune", "Norway", "-20", "150"]]  # fmt: skip


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("how many have more than 400 employees?", ">"),
        ("how many games with at least 3 goals?", ">="),
        ("countries with 3 or more medals", ">="),
        ("teams under 10 points", "<"),
        ("no more than 5 wins", "<="),
        ("films released after 1990", ">"),
        ("what happened in 1990?", None),
        ("how many have 400 employees?", None),
    ],
)
def test_the_direction_of_a_comparison_is_read_from_its_words(question, said):
    words = tokens(question)
    reading = read(question, Database())
    (number,) = [n for n in reading.numbers if not n.ordinal]
    assert direction(words, number) == said


def _space(question: str) -> list[str]:
    db = Database()
    db.add(
        TableChunk("firms", ["name", "country", "profits", "employees"], [list(r) for r in ROWS])
    )
    sheet = next(iter(db.sheets.values()))
    for column in sheet.columns:
        db.typed(sheet, column)
    reading = read(question, db, [sheet])
    return [f"{q.op} {[c.op for c in q.conds]}" for q in queries(reading, sheet)]


def test_a_bound_said_is_kept_by_every_query():
    space = _space("How many firms have more than 400 employees?")
    assert space and all("'>'" in q for q in space)  # none drops it, none turns it around
    assert not any("'<'" in q or "'>='" in q for q in space)
    free = _space("How many firms have 400 employees?")  # no direction: every comparison
    assert any("'<'" in q for q in free) and any(q.startswith("count []") for q in free)


def test_an_average_asked_in_so_many_words_is_an_average():
    ops = {q.split()[0] for q in _space("What is the average profit of the firms from Sweden?")}
    assert ops == {"avg"}
    # a superlative of it: the question is read as it comes
    assert len({q.split()[0] for q in _space("Which firm has the highest average profits?")}) > 1


def test_a_candidate_knows_how_many_rows_its_conditions_select():
    from prism_edge.methods.tables.enumerate import run
    from prism_edge.methods.tables.space import Cond, Query

    db = Database()
    db.add(TableChunk("firms", ["Name", "Country", "Profit", "Staff"], [list(r) for r in ROWS]))
    sheet = db.sheets["firms"]
    db.prepare(sheet)
    db.type_all(sheet)
    sweden = Cond(1, "in", ("sweden",), (0,))
    first = run(db, sheet, Query("firms", "first", 0, conds=(sweden,)))
    assert first is not None and first.values == ("Acme",) and first.selected == 2
    whole = run(db, sheet, Query("firms", "max", 2))
    assert whole is not None and whole.selected is None  # no condition: the whole table


def test_a_year_is_equal_only_to_a_column_of_years():
    from prism_edge.methods.tables.enumerate import conditions

    db = Database()
    rows = [["HOU", "2019", "5600", "107"], ["NYA", "2019", "1900", "103"],
            ["SFN", "2018", "2019", "77"]]  # fmt: skip
    db.add(TableChunk("Teams", ["team", "year", "AB", "W"], rows))
    sheet = db.sheets["Teams"]
    db.prepare(sheet)
    db.type_all(sheet)
    reading = read("Which team had the most wins in 2019?", db, [sheet])
    _, numbers = conditions(reading, sheet)
    equal = {sheet.columns[c.column].name for c in numbers if c.op == "="}
    assert "AB" not in equal  # 2,019 at bats is no year
    assert {sheet.columns[m.column].name for m in reading.cells} == {"year"}  # nor its cell
    _, numbers = conditions(read("Which team had 1,900 at bats?", db, [sheet]), sheet)
    assert "AB" in {sheet.columns[c.column].name for c in numbers if c.op == "="}


SEASONS = [["2016", "29", "120", "40"], ["2017", "33", "110", "35"], ["2018", "39", "140", "42"],
           ["2019", "45", "137", "48"], ["2020", "17", "60", "20"]]  # fmt: skip


def _seasons() -> tuple[Database, Sheet]:
    db = Database()
    sheet, _ = db.add(TableChunk("Batting", ["yearID", "HR", "H", "BB"], [r[:] for r in SEASONS]))
    return db, sheet


def test_a_number_says_the_column_it_counts():
    from prism_edge.methods.tables.enumerate import conditions

    db, sheet = _seasons()
    for question, column in (("How many seasons with more than 30 home runs?", 1),
                             ("How many seasons with 100 hits?", 2),
                             ("In how many seasons was his BB below 40?", 3)):  # fmt: skip
        _, numbers = conditions(read(question, db, [sheet]), sheet)
        assert {c.column for c in numbers} == {column}, question
    _, numbers = conditions(read("How many seasons above 40?", db, [sheet]), sheet)
    assert {c.column for c in numbers} == {0, 1, 2, 3}  # says no column: any
    db.close()


def test_a_range_of_years_is_every_year_between_not_the_two():
    from prism_edge.methods.tables.enumerate import conditions

    db, sheet = _seasons()
    reading = read("How many home runs did he hit from 2016 to 2019?", db, [sheet])
    cells, numbers = conditions(reading, sheet)
    assert not [c for c in cells if len(c.mentions) == 2]  # no "2016 or 2019"
    assert {(c.column, c.op) for c in numbers} == {(0, "between")}  # no bound of one end
    db.close()


def test_the_pairs_of_conditions_are_bounded():
    """A question naming many numbers and cells over a wide table: the pairs of its
    strongest conditions only (were every pair enumerated: 831,000 queries)."""
    from prism_edge.methods.tables import enumerate as space

    db = Database()
    header = ["name", "team"] + [f"stat{k}" for k in range(14)]
    rows = [[f"Player {k}", f"Team {k % 5}"] + [str((k * 7 + j) % 50) for j in range(14)]
            for k in range(60)]  # fmt: skip
    sheet, _ = db.add(TableChunk("players", header, rows))
    question = ("how many of Team 1, Team 2 or Team 3 had 12, 17, 25, 31 or 40 of "
                "Player 4 and Player 9?")  # fmt: skip
    found = list(space.queries(read(question, db, [sheet]), sheet))
    pairs = {q.conds for q in found if len(q.conds) == 2 and not q.other}
    assert len(pairs) == space.MIN_PAIRS  # its singles alone fill the room: the fewest pairs
    db.close()


COMMITTEES = [["Budget", "101", "42", "39"], ["Rules", "54", "13", "25"],
              ["Science", "40", "50", "58"], ["Ethics", "9", "10", "9"],
              ["Banking", "25", "51", "61"], ["Judiciary", "168", "35", "56"]]  # fmt: skip


def _committees() -> tuple[Database, Sheet]:
    db = Database()
    header = ["committee", "bills", "size", "staff"]
    sheet, _ = db.add(TableChunk("committees", header, [r[:] for r in COMMITTEES]))
    db.prepare(sheet)
    db.type_all(sheet)
    return db, sheet


def test_a_word_of_the_question_is_one_condition_never_two():
    """ "more than 40 members" bounds a column; its 40 is no cell of another (bills) too."""
    db, sheet = _committees()
    question = "What is the total staff of the committees with more than 40 members?"
    reading = read(question, db, [sheet])
    assert any(m.values == ("40",) for m in reading.cells)  # a cell of bills, read
    found = list(queries(reading, sheet))
    assert found and all(len(q.conds) == 1 for q in found)
    db.close()


def test_things_no_column_names_are_counted_by_the_column_of_their_number():
    """ "fewer than 30 members": no column is named members; the one that counts a
    committee's members is its size."""
    from prism_edge.methods.tables.enumerate import conditions

    db, sheet = _committees()
    _, numbers = conditions(read("How many committees have fewer than 30 members?", db,
                                 [sheet]), sheet)  # fmt: skip
    assert {sheet.columns[c.column].name for c in numbers} == {"size"}
    _, numbers = conditions(read("How many committees have fewer than 30 staff?", db,
                                 [sheet]), sheet)  # fmt: skip
    assert {sheet.columns[c.column].name for c in numbers} == {"staff"}  # named: its own
    db.close()


WEATHER = [["2014-01-02", "10.6", "2.8", "rain", "3"], ["2014-08-11", "35.6", "17.8", "sun", "1"],
           ["2015-02-01", "-1.6", "-7.1", "snow", "2"]]  # fmt: skip


def test_a_superlative_said_of_a_column_of_numbers_asks_its_number():
    """ "What was the highest maximum temperature" asks temp_max's number, not the date of
    the row that holds it; "the highest ranked team" asks a team."""
    from prism_edge.methods.tables.enumerate import valued

    db = Database()
    header = ["date", "temp_max", "temp_min", "weather", "rank"]
    sheet, _ = db.add(TableChunk("weather", header, [r[:] for r in WEATHER]))
    db.prepare(sheet)
    db.type_all(sheet)
    reading = read("What was the highest maximum temperature recorded?", db, [sheet])
    assert valued(reading, sheet) == 1
    assert {q.column for q in queries(reading, sheet)} == {1}
    reading = read("What is the largest temp_min value of the rain days?", db, [sheet])
    assert valued(reading, sheet) == 2
    for question in (
        "What is the highest ranked weather?",
        "Which date had the highest maximum temperature?",
        "What was the average maximum temperature?",
    ):
        assert valued(read(question, db, [sheet]), sheet) is None, question
    db.close()


def test_things_a_column_names_in_part_are_not_counted_by_the_total():
    from prism_edge.methods.tables.enumerate import amount_of

    db = Database()
    rows = [["Lisbon", "12", "3", "15"], ["Evora", "4", "9", "13"], ["Goa", "6", "1", "7"]]
    header = ["Tribunal", "Executions in persona", "Executions in effigie", "Total"]
    sheet, _ = db.add(TableChunk("tribunals", header, rows))
    db.prepare(sheet)
    db.type_all(sheet)
    question = "How many tribunals had more than 5 executions in persona?"
    reading = read(question, db, [sheet])
    assert amount_of(reading, sheet, reading.numbers[0]) == set()  # may bound any column
    db.close()


def test_how_many_more_of_one_than_of_another_asks_their_difference():
    from prism_edge.methods.tables.enumerate import how_many_more

    db = Database()
    for question, said in (
        ("How many more flights did JetBlue fly than United in 2014?", True),
        ("How much more did Acme earn than Borealis?", True),
        ("How many firms had more than 5 employees?", False),  # a bound
        ("How many more than 400 employees did Acme have?", False),
        ("Which firm had more employees than Acme?", False),
    ):
        assert how_many_more(read(question, db)) is said, question
    db.close()


def test_a_date_said_is_one_date_not_two_cells_of_a_column():
    """ "on 1/2" is January 2nd, never "the day is 1 or 2"."""
    from prism_edge.methods.tables.enumerate import conditions

    db = Database()
    rows = [["EWR", "1", "1", "UA"], ["JFK", "1", "2", "UA"], ["EWR", "1", "2", "B6"]]
    sheet, _ = db.add(TableChunk("flights", ["origin", "month", "day", "carrier"], rows))
    db.prepare(sheet)
    db.type_all(sheet)
    cells, _ = conditions(read("Which carrier flew out of EWR on 1/2?", db, [sheet]), sheet)
    assert not [c for c in cells if len(c.mentions) == 2]
    db.close()


def test_the_most_of_a_mass_noun_is_an_amount_not_a_count_of_rows():
    """ "the most electricity", of a table named "iowa-electricity", is the most generated,
    not the most rows: only a plural ("the most nations") counts the table's things."""
    from prism_edge.methods.tables.enumerate import superlative_row
    from prism_edge.methods.tables.mentions import read

    db = Database()
    rows = [["2016", "Renewables", "10"], ["2017", "Renewables", "12"], ["2017", "Coal", "30"]]
    db.add(TableChunk("iowa-electricity", ["year", "source", "net_generation"], rows))
    sheet = db.sheets["iowa-electricity"]
    question = "In which year did Renewables generate the most electricity?"
    _, counted = superlative_row(read(question, db, [sheet]), sheet)
    assert counted == set()
    db.close()
    db = Database()
    db.add(TableChunk("nations", ["name", "region"], [["A", "X"], ["B", "X"], ["C", "Y"]]))
    sheet = db.sheets["nations"]
    _, counted = superlative_row(read("Which region has the most nations?", db, [sheet]), sheet)
    assert counted == {"nations"}
    db.close()


@pytest.mark.parametrize(
    "question",
    [
        "How many firms are not from Sweden?",
        "Other than Acme, which firm is from Sweden?",
        "Which firms besides Cobalt have more than 100 employees?",
        "Which firm isn't in Norway?",
    ],
)
def test_a_named_cell_is_also_left_out_where_the_question_negates(question):
    space = _space(question)
    assert any("'notin'" in q for q in space)
    assert any("'in'" in q for q in space)  # the cell kept too: the ranker chooses


def test_no_named_cell_is_left_out_where_the_question_does_not_negate():
    assert not any("'notin'" in q for q in _space("How many firms are from Sweden?"))


def test_the_other_rows_sharing_a_named_rows_cell_are_asked_where_the_question_says_same():
    assert any(q.startswith("same ['in']") for q in _space("Which firm is in the same country "
                                                           "as Acme?"))  # fmt: skip
    assert not any(q.startswith("same") for q in _space("Which firm is in the country of Acme?"))
