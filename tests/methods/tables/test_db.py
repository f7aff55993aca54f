"""The tables in the database: cells kept as written, what they mean read once, a summary
row left out, joins along declared or named keys (issue 53 points 4 and 5; issue 54 defects
6, 7, 10, 11 and 13)."""

from __future__ import annotations

import sqlite3

from prism_edge.engine.tables import declared_links
from prism_edge.methods.tables.db import Database, Link, join, links
from prism_edge.methods.tables.words import key
from prism_edge.text.inputs import collect
from prism_edge.text.tables import TableChunk, text_tables


def _add(db: Database, name: str, header: list[str], rows: list[list[str]]):
    sheet, _ = db.add(TableChunk(name, header, rows))
    db.prepare(sheet)
    db.type_all(sheet)
    return sheet


def test_a_column_of_numbers_stays_one_with_the_marks_of_no_value_in_it():
    db = Database()
    sheet = _add(db, "t", ["city", "population"], [["A", "1,200"], ["B", "NA"], ["C", "-"],
                                                  ["D", "N/A"], ["E", "3,400"]])  # fmt: skip
    population = sheet.columns[1]
    assert population.kind == "number" and population.present == 2
    assert (population.low, population.high, population.total) == (1200.0, 3400.0, 4600.0)
    # the marks are stored as no value: never an answer, never a text to match
    assert db.db.execute("SELECT COUNT(c1) FROM t0").fetchone() == (2,)


def test_long_ids_and_codes_stay_exact_text():
    db = Database()
    sheet = _add(db, "t", ["id", "code"], [["1234567890123456789", "4512e89"],
                                           ["1234567890123456788", "77e1"]])  # fmt: skip
    assert [c.kind for c in sheet.columns] == ["text", "text"]
    assert "1234567890123456789" in sheet.values[0] and key("4512e89") in sheet.values[1]


def test_a_header_with_no_rows_is_a_table_of_none():
    db = Database()
    sheet = _add(db, "t", ["a", "b"], [])
    assert sheet.rows == 0 and [c.kind for c in sheet.columns] == ["empty", "empty"]


def test_a_summary_row_is_found_first_or_last_and_only_once():
    db = Database()
    rows = [["Norway", "3"], ["Sweden", "2"], ["Finland", "1"], ["Total", "6"]]
    assert _add(db, "medals", ["nation", "gold"], rows).summary == (0, "Total")
    two = [["Total", "1"], ["x", "2"], ["y", "3"], ["Total", "4"]]
    assert _add(db, "other", ["nation", "gold"], two).summary is None


def test_two_tables_join_along_a_key_named_for_a_table():
    db = Database()
    _add(db, "customers", ["id", "name"], [["1", "Alice"], ["2", "Bob"]])
    _add(db, "orders", ["id", "customer_id", "amount"], [["1", "1", "10.5"], ["2", "1", "20"],
                                                        ["3", "2", "7"]])  # fmt: skip
    (link,) = links(db)
    assert link == Link("orders", "customer_id", "customers", "id")
    joined = join(db, link)
    assert joined.rows == 3 and [c.name for c in joined.columns] == [
        "orders id", "orders customer_id", "orders amount", "customers name"
    ]  # fmt: skip


def test_declared_foreign_keys_are_the_links_and_the_only_ones(tmp_path):
    path = tmp_path / "shop.db"
    with sqlite3.connect(path) as con:
        con.executescript(
            "CREATE TABLE people (pid TEXT PRIMARY KEY, name TEXT, year INTEGER);"
            "CREATE TABLE sales (pid TEXT REFERENCES people, year INTEGER, amount REAL);"
            "INSERT INTO people VALUES ('a', 'Ann', 2001), ('b', 'Bo', 2002);"
            "INSERT INTO sales VALUES ('a', 2001, 5), ('b', 2002, 7);"
        )
    con.close()
    documents = collect([str(path)]).documents
    found = declared_links(documents)
    assert found == [Link("sales", "pid", "people", "pid")]
    db = Database()
    db.declared = found
    _add(db, "people", ["pid", "name", "year"], [["a", "Ann", "2001"], ["b", "Bo", "2002"]])
    _add(db, "sales", ["pid", "year", "amount"], [["a", "2001", "5"], ["b", "2002", "7"]])
    assert links(db) == found  # not also the shared "year"


def test_a_file_named_twice_is_read_once(tmp_path):
    (tmp_path / "t.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    collected = collect([str(tmp_path), str(tmp_path / "t.csv"), str(tmp_path / "t.csv")])
    assert len(collected.documents) == 1
    assert any("read once" in w for w in collected.warnings)


def test_markdown_tables_with_short_or_aligned_separators_and_escaped_bars():
    text = "| name | n |\n|--|:-:|\n| x \\| y | 3 |\n| z | 4 |\n"
    (table,) = text_tables(text)
    assert table.splitlines() == ["name,n", "x | y,3", "z,4"]
