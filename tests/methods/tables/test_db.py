"""The tables in the database: cells kept as written, what they mean read once, a summary
row left out, joins along declared or named keys (issue 53 points 4 and 5; issue 54 defects
6, 7, 10, 11 and 13)."""

from __future__ import annotations

import sqlite3

from prism_edge.engine.tables import declared_links
from prism_edge.methods.tables.db import Column, Database, Link, join, links
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


def test_a_column_of_plain_numbers_is_read_by_cast_in_the_query_and_shown_as_stored():
    """A column whose every cell is a plain number stores nothing more: a query reads its
    numbers (and years' keys) as CAST does, the same values, shown as ``number(...)``."""
    from prism_edge.methods.tables.space import Cond, Query

    db = Database()
    sheet = _add(db, "t", ["name", "year", "price"], [["a", "1999", "$5"], ["b", "2004", "7"],
                                                      ["c", "", "$1,000"]])  # fmt: skip
    year, price = sheet.columns[1], sheet.columns[2]
    db.numeric(sheet, year)
    db.numeric(sheet, price)
    stored = [r[1] for r in db.db.execute("PRAGMA table_info(t0)")]
    assert year.cast and not price.cast and "n1" not in stored and "n2" in stored
    assert db.db.execute(f"SELECT {year.num}, {year.key} FROM t0 ORDER BY _row").fetchall() == [
        (1999.0, 19990000), (2004.0, 20040000), (None, None)]  # fmt: skip
    query = Query("t", "argmax", 0, 1, (Cond(2, ">", 6.0),))
    sql, args = query.sql(sheet)
    assert db.db.execute(sql, args).fetchall() == [("b",)]
    assert db.shown(sql, args, sheet) == (
        'SELECT "name" FROM "t" WHERE number("price") > 6 AND number("year") IS NOT NULL ORDER '
        'BY number("year") DESC, rowid LIMIT 1 OFFSET 0'
    )


def test_a_big_columns_cells_are_found_alike_by_a_pass_and_by_its_index(monkeypatch):
    """A big column's cells are looked up by a pass over the table the first time and
    through an index made the second: the same cells, the same texts in the same order."""
    from prism_edge.methods.tables import db as db_module

    monkeypatch.setattr(db_module, "HELD_VALUES", 3)
    db = Database()
    names = ["Mike Trout", "x", "MIKE TROUT", "y", "z", "mike trout", "w", "Mike Trout"]
    sheet = _add(db, "t", ["name"], [[n] for n in names])
    column = sheet.columns[0]
    assert column.big
    first = db.said(sheet, column, ["mike trout", "nobody"])
    texts = list(sheet.raw[0]["mike trout"])
    sheet.raw[0].clear()
    second = db.said(sheet, column, ["mike trout", "nobody"])
    indexes = [r[1] for r in db.db.execute("PRAGMA index_list(t0)")]
    assert first == second == ["mike trout"] and indexes == ["it0_0"]
    assert texts == sheet.raw[0]["mike trout"] == ["Mike Trout", "MIKE TROUT", "mike trout"]


def _profiles(batches: list[list[list[str]]], counted_as_read: bool) -> list[tuple]:
    db = Database()
    for rows in batches:
        sheet, _ = db.add(TableChunk("t", ["name", "score", "flag", "note"], rows))
        if not counted_as_read:
            db.tallies.clear()  # counted by a pass over the database instead
    db.type_all(sheet)
    stored = db.db.execute("SELECT c0, c1, c2, c3 FROM t0 ORDER BY _row").fetchall()
    return [(c.kind, c.big, c.plain, c.present, c.distinct, c.numbers, c.dates, c.low, c.high,
             c.total, c.top, sheet.values[c.index], sheet.raw[c.index])
            for c in sheet.columns] + [stored]  # fmt: skip


def test_cells_counted_as_they_are_read_are_profiled_as_a_pass_over_the_database_counts_them(
    monkeypatch,
):
    # names go big in the second batch; marks of no value, empty cells and spaces at an edge
    # are counted as stored (NA and "" as none, " 3 " as "3"), in whichever batch they come
    monkeypatch.setattr("prism_edge.methods.tables.db.HELD_VALUES", 6)
    first = [[f"name {i}", str(i % 4), "1", "NA" if i % 3 else " x "] for i in range(5)]
    second = [[f"name {i}", " 3 " if i % 2 else "", "0", "n/a"] for i in range(5, 12)]
    third = [["name 1", "2", "1", "y"], ["-", "3", "", "x"]]
    batches = [first, second, third]
    counted, fetched = _profiles(batches, True), _profiles(batches, False)
    assert counted == fetched
    name, score, flag, note = counted[:4]
    assert name[1] and not score[1]  # big; held
    assert score[3] == 11 and flag[3] == 13 and note[4] == 2  # present; distinct: x, y
    assert counted[4][5:7] == [("name 5", "3", "0", None), ("name 6", None, "0", None)]


def test_a_column_added_after_reading_is_counted_by_a_pass_over_the_database():
    db = Database()
    sheet, _ = db.add(TableChunk("t", ["first", "last"], [["Mike", "Trout"], ["Ann", "Lee"]]))
    db.db.execute(f"ALTER TABLE {sheet.sql} ADD COLUMN c2 TEXT")
    db.db.execute(f"UPDATE {sheet.sql} SET c2 = c0 || ' ' || c1")
    sheet.columns.append(Column("name", 2))
    db.type_all(sheet)
    assert [c.distinct for c in sheet.columns] == [2, 2, 2]
    assert sheet.raw[2] == {"mike trout": ["Mike Trout"], "ann lee": ["Ann Lee"]}


def test_a_big_columns_kind_is_read_from_the_same_sample_every_run(monkeypatch):
    # a big column of numbers and words mixed: a random sample's share of numbers would
    # differ from one reading to the next (by some 20 of 2,000 texts)
    monkeypatch.setattr("prism_edge.methods.tables.db.HELD_VALUES", 50)
    rows = [[str(i) if (i * 7919) % 13 < 6 else f"word {i}"] for i in range(10_000)]
    facts = []
    for _ in range(3):
        db = Database()
        sheet = _add(db, "t", ["mixed"], rows)
        column = sheet.columns[0]
        facts.append((column.big, column.numbers, column.present, column.total))
    assert facts[0][0] and 0 < facts[0][1] < 2_000
    assert facts[0] == facts[1] == facts[2]
