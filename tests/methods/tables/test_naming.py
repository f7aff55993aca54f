"""How a question names a table's columns beyond their headers: a joined column by its own
name, a label column by its table's name after "which", codes beside names, a person's name
held in two columns (issue 53, the databases)."""

from __future__ import annotations

from prism_edge.methods.tables import naming
from prism_edge.methods.tables.db import Database, Link, join
from prism_edge.methods.tables.features import view
from prism_edge.methods.tables.mentions import read
from prism_edge.text.tables import TableChunk


def flights() -> Database:
    db = Database()
    db.add(TableChunk("airlines", ["carrier", "name"], [["UA", "United Air Lines Inc."],
                                                        ["B6", "JetBlue Airways"]]))  # fmt: skip
    rows = [["UA", "11", "1400"], ["B6", "11", "187"], ["UA", "15", "719"]]
    db.add(TableChunk("flights", ["carrier", "flight", "distance"], rows))
    db.declared = [Link("flights", "carrier", "airlines", "carrier")]
    for sheet in db.sheets.values():
        db.type_all(sheet)
    return db


def test_a_joined_column_is_named_by_its_own_name():
    db = flights()
    sheet = join(db, db.declared[0])
    names = {c.name: naming.own_name(sheet, c) for c in sheet.columns}
    assert names["flights distance"] == "distance" and names["airlines name"] == "name"
    assert naming.owner(sheet, sheet.columns[-1]) == "airlines"
    db.close()


def test_the_table_word_names_neither_a_column_named_like_it_nor_all_its_columns():
    """ "flights" names the table's rows: the joined ``flights flight`` and ``flights
    distance`` are not both named by it (they were, whole, and tied)."""
    db = flights()
    sheet = join(db, db.declared[0])
    q = view(read("What was the total distance flown by JetBlue Airways flights?", db, [sheet]),
             sheet)  # fmt: skip
    share = {sheet.columns[i].name: s for i, (s, _) in q.column_match.items()}
    assert share["flights distance"] == 1.0 and share["flights flight"] == 0.0
    db.close()


def test_which_table_names_its_label_column():
    db = flights()
    sheet = join(db, db.declared[0])
    q = view(read("Which airline flew the most flights?", db, [sheet]), sheet)
    label = next(c.index for c in sheet.columns if c.name == "airlines name")
    assert q.column_match[label][0] == 1.0
    q = view(read("How many flights are there by airline?", db, [sheet]), sheet)
    assert q.column_match[label][0] == 0.0  # not what is asked for
    db.close()


def test_a_column_of_short_unique_words_beside_names_is_one_of_codes():
    db = Database()
    db.add(TableChunk("airports", ["faa", "name", "tz"], [["TEX", "Telluride", "-7"],
           ["JFK", "John F Kennedy Intl", "-5"], ["04G", "Lansdowne Airport", "-5"]]))  # fmt: skip
    sheet = db.sheets["airports"]
    db.type_all(sheet)
    assert naming.is_code(sheet, sheet.columns[0])
    assert not naming.is_code(sheet, sheet.columns[1])  # the names
    assert not naming.is_code(sheet, sheet.columns[2])  # numbers
    db.close()


def test_a_name_in_two_columns_is_joined_into_one_column_once():
    db = Database()
    db.add(TableChunk("People", ["playerID", "nameFirst", "nameLast", "nameGiven"],
                      [["troutmi01", "Mike", "Trout", "Michael Nelson"],
                       ["x01", "", "Madonna", ""]]))  # fmt: skip
    sheet = db.sheets["People"]
    added = naming.full_names(db, sheet)
    assert added is not None and added.name == "name"
    assert naming.full_names(db, sheet) is None  # once
    cells = [r[0] for r in db.db.execute(f"SELECT {added.text} FROM {sheet.sql} ORDER BY _row")]
    assert cells == ["Mike Trout", "Madonna"]  # the first name, not every given name
    db.close()


def test_no_name_column_without_both_parts():
    db = Database()
    db.add(TableChunk("t", ["first name", "age"], [["Ann", "3"]]))
    assert naming.full_names(db, db.sheets["t"]) is None
    db.close()
