"""A database of a domain nobody developed on (issue 53: places, made up here): the general
readings it needs, each on a small made-up database of regions, nations, towns, provinces
and districts, through the same path as a run (``answer``) where the reading is the
answer's. Every test failed before its mechanism (geo1's round)."""

from __future__ import annotations

import pytest

from prism_edge.methods.tables import db as db_module
from prism_edge.methods.tables import naming
from prism_edge.methods.tables.db import Database, Link
from prism_edge.methods.tables.mentions import read
from prism_edge.methods.tables.words import name_parts
from prism_edge.text.tables import TableChunk
from tests.methods.tables.made_up import ask

REGIONS = [["NO", "Nordland", "52000000"], ["SU", "Sudland", "90000000"],
           ["WE", "Westmark", "41000000"]]  # fmt: skip
NATIONS = [  # region, nationid, iso, name, capital, areakm2, population, currencyname, -code
    ["NO", "7001", "AV", "Avaria", "Avar City", "120500", "9100000", "Krona", "AVK"],
    ["NO", "7002", "BE", "Belmont", "Belle", "51000", "30500000", "Krona", "AVK"],
    ["NO", "7003", "CO", "Corvia", "Corvo", "8000", "2200000", "Mark", "CVM"],
    ["SU", "7004", "DO", "Dorland", "Dorburg", "300400", "45000000", "Real", "DRR"],
    ["SU", "7005", "ES", "Eskaria", "Esk", "99000", "12000000", "Real", "DRR"],
    ["SU", "7006", "SS", "South Sudland", "Port Sud", "1000", "5000000", "Peso", "SSP"],
    ["WE", "7007", "FA", "Falmark", "Fal", "64000", "41000000", "Mark", "CVM"],
]  # fmt: skip
TOWNS = [  # townid, name, nationcode, population, latitude
    ["101", "Avar City", "AV", "800000", "61.2"], ["102", "Riven", "AV", "1200000", "60.1"],
    ["103", "Most", "AV", "60000", "59.0"], ["104", "Belle", "BE", "2500000", "58.4"],
    ["105", "Gorm", "BE", "1500000", "57.9"], ["111", "Tarn", "BE", "300000", "57.0"],
    ["106", "Dorburg", "DO", "3100000", "12.5"], ["107", "Medellín", "DO", "900000", "10.1"],
    ["108", "Esk", "ES", "400000", "-8.7"], ["109", "Port Sud", "SS", "90000", "-41.3"],
    ["110", "Fal", "FA", "1100000", "45.0"],
]  # fmt: skip


def places_db() -> Database:
    db = Database()
    db.add(TableChunk("regions", ["regionCode", "name", "population"], [list(r) for r in REGIONS]))
    header = ["region", "nationid", "iso", "name", "capital", "areakm2", "population",
              "currencyname", "currencycode"]  # fmt: skip
    db.add(TableChunk("nations", header, [list(r) for r in NATIONS]))
    db.add(TableChunk("towns", ["townid", "name", "nationcode", "population", "latitude"],
                      [list(r) for r in TOWNS]))  # fmt: skip
    db.declared = [Link("nations", "region", "regions", "regionCode"),
                   Link("towns", "nationcode", "nations", "iso")]  # fmt: skip
    return db


# --- a column's name run together -------------------------------------------------------------


def test_a_name_run_together_with_what_the_column_holds_is_two_words():
    """``currencyname`` is the currency's name and ``areakm2`` an area in km: a question
    saying "currency" or "area" names them (they were one word no question says)."""
    assert name_parts("currencyname") == ["currency", "name"]
    assert name_parts("areakm2") == ["area", "km", "2"]
    assert name_parts("geonameid") == ["geoname", "id"]
    assert name_parts("countrycode") == ["country", "code"]
    # words of English that end so are one word
    assert name_parts("nickname") == ["nickname"]
    assert name_parts("humid") == ["humid"] and name_parts("steroid") == ["steroid"]
    assert name_parts("candidate") == ["candidate"]  # "date" is no role ending


def test_the_currency_asked_is_the_currency_name_column():
    db = places_db()
    assert ask(db, "What currency do they use in Corvia?") == ["Mark"]
    db.close()


def test_another_things_name_is_not_the_rows_label():
    """A table with a column named ``name`` has its rows' label there: ``currency name``
    names a currency (else "which nation" may be answered with a currency)."""
    db = Database()
    sheet, _ = db.add(TableChunk("nations", ["name", "currency name", "area"],
                                 [["Avaria", "Krona", "12"], ["Corvia", "Mark", "8"]]))  # fmt: skip
    db.type_all(sheet)
    assert naming.labels(sheet) == [0]
    sheet, _ = db.add(TableChunk("teams", ["team name", "wins"], [["Reds", "3"], ["Blues", "5"]]))
    db.type_all(sheet)
    assert naming.labels(sheet) == [0]  # no column named "name" alone: the label still
    db.close()


# --- ids are no measure --------------------------------------------------------------------------


def test_an_id_is_no_measure_unless_the_question_names_it():
    """The highest, total or bound of ``nationid`` is never asked where the question says
    no word of it: "Dorland's" answer is its population, not its id."""
    db = places_db()
    sheet = db.sheets["nations"]
    db.type_all(sheet)
    column = sheet.columns[1]
    assert naming.is_id(sheet, column, {"id"}) is False  # said
    assert naming.is_id(sheet, column, {"nation"}) is True  # the table's own name
    assert naming.is_id(sheet, column, {"popul"}) is True
    assert naming.is_id(sheet, sheet.columns[6], {"popul"}) is False  # population
    assert ask(db, "Which nation has the second highest population?") == ["Falmark"]
    db.close()


# --- cells said whole ----------------------------------------------------------------------------


def test_a_name_said_whole_names_that_cell_not_the_cells_it_is_part_of():
    """ "Sudland" is a region written whole; ``South Sudland`` only holds it: the nations
    counted are those of the region (it was one nation, South Sudland)."""
    db = places_db()
    assert ask(db, "How many nations are there in Sudland?") == ["3"]
    db.close()


def test_a_tables_name_inside_a_name_said_whole_does_not_name_the_table():
    """ "the Towns Union" names a nation, not the table of towns."""
    db = Database()
    nations = [["Towns Union", "900"], ["Avaria", "120"], ["Belmont", "400"]]
    db.add(TableChunk("nations", ["name", "areakm2"], nations))
    db.add(TableChunk("towns", ["name", "nation"], [["Riven", "Avaria"], ["Fal", "Belmont"]]))
    db.declared = [Link("towns", "nation", "nations", "name")]
    assert ask(db, "Which is bigger by area, Avaria or the Towns Union?") == ["Towns Union"]
    db.close()


def test_a_word_that_says_how_to_compute_names_no_cell():
    """A town named ``Most`` is not "the most populous town" (the word qualifies the next
    one), nor "most" in lower case where the question writes names with capitals."""
    db = places_db()
    sheets = [db.sheets["towns"]]
    reading = read("Which is the most populous town?", db, sheets)
    assert not reading.cells
    reading = read("How many people live in Most?", db, sheets)
    assert [m.values for m in reading.cells] == [("most",)]
    db.close()


def test_a_big_columns_cell_written_with_an_accent_is_found(monkeypatch):
    """A big column's cells are looked up by their text; "Medellín" is said "medellin"
    (accents folded), which no text equals: it was "not in the table"."""
    monkeypatch.setattr(db_module, "HELD_VALUES", 3)
    db = places_db()
    sheet = db.sheets["towns"]
    db.type_all(sheet)
    assert sheet.columns[1].big
    reading = read("How many people live in Medellín?", db, [sheet])
    assert [m.values for m in reading.cells] == [("medellin",)]
    db.close()


# --- numbers -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "value"),
    [("How many towns have over a million people?", 1e6),
     ("How many towns have more than 1.5 million people?", 1.5e6),
     ("Which nations have fewer than 20 thousand people?", 2e4)],
)  # fmt: skip
def test_a_number_said_with_its_scale_is_one_number(question, value):
    db = places_db()
    reading = read(question, db, [db.sheets["towns"]])
    assert [n.value for n in reading.numbers] == [value]
    db.close()


def test_a_bound_on_people_is_on_the_population_of_the_things_counted():
    """ "towns in Avaria with over a million people": the towns' population (the lexicon
    pairs "people" with it), not their nation's, which the question does not name."""
    db = places_db()
    assert ask(db, "How many towns in Avaria have over a million people?") == ["1"]
    db.close()


# --- superlatives --------------------------------------------------------------------------------


def test_the_biggest_thing_of_a_table_is_a_row_ordered_by_its_size():
    """ "the third biggest town" is a town (not a number), ordered by its population where
    no size or area is its own; "biggest" is never the least."""
    db = places_db()
    assert ask(db, "What's the second biggest town in Avaria?") == ["Avar City"]
    assert ask(db, "What is the most populous town in Belmont?") == ["Belle"]
    db.close()


def test_the_number_asked_of_the_row_a_superlative_picks():
    """ "the population of the biggest town in Belmont" asks the number, not the town."""
    db = places_db()
    assert ask(db, "What's the population of the biggest town in Belmont?") == ["2500000"]
    db.close()


def test_a_compass_superlative_orders_by_latitude():
    db = places_db()
    assert ask(db, "What's the southernmost town?") == ["Port Sud"]
    db.close()


# --- names for codes -----------------------------------------------------------------------------


def test_a_foreign_key_answer_is_given_as_the_other_tables_label():
    """A column of another table's codes (a declared foreign key, ``nations.region``, a
    name that says no code) answered with that table's label ("Nordland", not "NO")."""
    db = places_db()
    assert ask(db, "Which region has the most nations?") == ["Nordland"]
    db.close()


# --- what the tables do not hold -----------------------------------------------------------------


def test_an_attribute_asked_of_a_names_possessive_that_no_column_holds():
    db = places_db()
    answer = ask(db, "What is Avaria's GDP?")
    assert answer[0].startswith("no column holds")
    assert ask(db, "What is Avaria's capital?") == ["Avar City"]
    db.close()


def test_a_measure_asked_by_how_that_no_column_holds():
    """ "how high above sea level" asks a height, an elevation or an altitude: no column is
    named so, nor "high", so it is not in the table (it was a town's neighbour's name)."""
    db = places_db()
    assert ask(db, "How high above sea level is Gorm?")[0].startswith("no column holds")
    assert ask(db, "How big is Corvia?") == ["8000"]  # "big": an area, ``areakm2``
    db.close()


def test_a_place_by_its_adjective_beside_the_initials_it_makes():
    """ "the South Sudlandic nations": the region ``Sudland``... here "North Nordlandic" is
    no place; "South American" makes the initials ``SA`` (a nation's code) and is the
    region ``South America`` by its adjective: the region, which the code no longer
    shadows."""
    db = Database()
    db.add(TableChunk("regions", ["code", "name"], [["SA", "South America"], ["EU", "Europe"]]))
    nations = [["SA", "Saudi Arabia", "EU", "2000"], ["BR", "Brazil", "SA", "8500"],
               ["AR", "Argentina", "SA", "2700"], ["FR", "France", "EU", "550"]]  # fmt: skip
    db.add(TableChunk("nations", ["iso", "name", "region", "areakm2"], nations))
    db.declared = [Link("nations", "region", "regions", "code")]
    assert ask(db, "What's the combined area of the South American nations?") == ["11200"]
    db.close()


def test_a_total_asked_in_so_many_words_of_a_column_it_names():
    """ "the combined area" is the sum of ``areakm2`` (its unit aside), not a count of the
    rows selected."""
    db = places_db()
    assert ask(db, "What's the combined area of the Sudland nations?") == ["400400"]
    assert ask(db, "What's the total area of the nations of Sudland?") == ["400400"]
    db.close()


def test_the_row_a_superlative_of_a_table_asks_is_named_by_its_label():
    """ "the largest nation in Sudland by area" is a nation, said by its name (not its area,
    its id, nor its region's code)."""
    db = places_db()
    assert ask(db, "What's the largest nation in Sudland by area?") == ["Dorland"]
    assert ask(db, "What is the second largest nation in Nordland by area?") == ["Belmont"]
    db.close()


def test_a_unit_in_a_columns_name_is_not_a_word_the_question_must_say():
    """ "by area" names ``areakm2`` whole (the "km2" is its unit): the smallest nation by
    area is ordered by it, not by the population "smallest" may also mean."""
    db = places_db()
    assert ask(db, "What is the smallest nation by area?") == ["South Sudland"]
    db.close()


def test_a_kind_of_value_said_after_a_columns_name_is_that_columns():
    """ "the FIPS code" is the ``fips`` column's value (a code), not the column named
    ``code``."""
    db = Database()
    provinces = [["AV", "Avon", "02"], ["BR", "Brill", "04"], ["CO", "Colt", "05"]]
    db.add(TableChunk("provinces", ["code", "name", "fips"], provinces))
    districts = [["02001", "North Avon", "AV"], ["04001", "Brill Vale", "BR"]]
    db.add(TableChunk("districts", ["fips", "name", "province"], districts))
    db.declared = [Link("districts", "province", "provinces", "code")]
    assert ask(db, "What is the FIPS code of Brill?") == ["04"]
    db.close()


def test_a_name_two_linked_tables_hold_is_the_container_of_the_rows_counted():
    """A town and a nation both named ``Riven``: "how many towns are in Riven" counts the
    nation's towns; "how many towns are named Riven" the towns so named."""
    db = places_db()
    header = ["region", "nationid", "iso", "name", "capital", "areakm2", "population",
              "currencyname", "currencycode"]  # fmt: skip
    riven = ["WE", "7008", "RI", "Riven", "Rivet", "5000", "800000", "Mark", "CVM"]
    db.add(TableChunk("nations", header, [riven]))
    db.add(TableChunk("towns", ["townid", "name", "nationcode", "population", "latitude"],
                      [["112", "Rivet", "RI", "300000", "44.0"],
                       ["113", "Rill", "RI", "200000", "43.0"]]))  # fmt: skip
    assert ask(db, "How many towns are in Riven?") == ["2"]
    assert ask(db, "How many towns are named Riven?") == ["1"]
    db.close()


def test_alphabetical_order_is_an_order_of_the_answers_own_text():
    """ "which town comes first alphabetically" orders the towns' names as text (the space
    ordered only numbers and dates: it answered the first row)."""
    db = places_db()
    assert ask(db, "Which town comes first alphabetically?") == ["Avar City"]
    assert ask(db, "Which nation comes last alphabetically?") == ["South Sudland"]
    assert ask(db, "Which town in Belmont comes last in alphabetical order?") == ["Tarn"]
    db.close()


def test_a_cell_named_whole_is_kept_beside_a_column_the_question_names_in_part():
    """ "the currency name of Corvia": ``Corvia`` is a nation named whole; a column the
    question's word "currency" names, holding "Corvia" only in part, does not displace
    it (it was read as the only mention)."""
    db = Database()
    rows = [["Avaria", "Krona of Avaria"], ["Corvia", "Corvia Mark"], ["Dorland", "Real"]]
    db.add(TableChunk("nations", ["name", "currency"], rows))
    db.add(TableChunk("towns", ["name", "nation"], [["Riven", "Avaria"], ["Esk", "Dorland"]]))
    db.declared = [Link("towns", "nation", "nations", "name")]
    reading = read("What is the currency of Corvia?", db, [db.sheets["nations"]])
    assert {(m.column, m.exact) for m in reading.cells} == {(0, True), (1, False)}
    db.close()


def test_which_thing_has_the_most_of_another_counts_rows_by_group():
    """ "which region has the fewest nations" counts each region's nations (not the region
    of the nation with the lowest id or area); "which nation in Sudland has the most
    people" is a nation, not the number."""
    db = places_db()
    assert ask(db, "Which region has the fewest nations?") == ["Westmark"]
    assert ask(db, "Which nation in Sudland has the most people?") == ["Dorland"]
    db.close()


def test_which_of_two_named_is_the_more_of_what_the_comparative_says():
    """ "which has more people, Riven or Gorm": the one of the two ordered first by the
    number (it was "the most common name" of the two, a tie broken by the table's order)."""
    db = places_db()
    assert ask(db, "Which has more people, Riven or Gorm?") == ["Gorm"]
    assert ask(db, "Which has fewer people, Gorm or Riven?") == ["Riven"]
    assert ask(db, "Which is bigger by area, Falmark or Eskaria?") == ["Eskaria"]
    db.close()


def test_the_attribute_asked_of_the_row_a_superlative_picks():
    """ "the capital of the most populous nation in Sudland": its capital, not its name."""
    db = places_db()
    assert ask(db, "What is the capital of the most populous nation in Sudland?") == ["Dorburg"]
    db.close()


def test_the_highest_total_asked_in_so_many_words_is_a_groups_total():
    """ "which region has the largest total area" sums each region's nations' areas (not the
    region of the one largest nation)."""
    db = places_db()
    # Sudland: 300400 + 99000 + 1000; Nordland: 120500 + 51000 + 8000; Westmark: 64000
    assert ask(db, "Which region has the largest total area?") == ["Sudland"]
    assert ask(db, "Which region has the smallest total area?") == ["Westmark"]
    db.close()


def test_which_of_two_is_bigger_where_no_measure_is_named():
    """ "which is smaller, Eskaria or Falmark": of two places, their size, area or
    population (here the area, ``areakm2``), as "the biggest city" is; over a wide table,
    whose columns the question does not name are not enumerated, no order was left."""
    db = Database()
    extra = [f"note{i}" for i in range(12)]
    header = ["name", "capital", "areakm2", "population", "currencyname", *extra]
    rows = [["Avaria", "Avar City", "120500", "9100000", "Krona"], ["Eskaria", "Esk", "99000",
            "1000", "Real"], ["Falmark", "Fal", "64000", "41000000", "Mark"]]  # fmt: skip
    db.add(TableChunk("nations", header, [r + [f"n{i}" for i in range(12)] for r in rows]))
    db.add(TableChunk("towns", ["name", "nation"], [["Riven", "Avaria"], ["Gorm", "Falmark"]]))
    db.declared = [Link("towns", "nation", "nations", "name")]
    assert ask(db, "Which is smaller, Eskaria or Falmark?") == ["Falmark"]
    db.close()
