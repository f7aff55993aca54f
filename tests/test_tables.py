"""Tables as the program reads them: JSON lines, SQLite, Markdown and fixed-width tables as
CSV documents; table chunks back into records; typed cells."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prism_edge.text.chunking import chunk_document
from prism_edge.text.inputs import collect, with_text_tables
from prism_edge.text.tables import jsonl_to_csv, read_chunk, table_label, text_tables, typed


def test_cells_are_typed_as_numbers_text_or_nothing():
    assert [typed(v) for v in ("8", "-3", "35.6", "1e3", " ", "007", "2001-01-01", "x")] == [
        8,
        -3,
        35.6,
        1000.0,
        None,
        "007",  # a code, not a number
        "2001-01-01",
        "x",
    ]


def test_json_lines_become_csv_with_every_key():
    text = '{"a": 1, "b": "x"}\n\n{"b": "y, z", "c": [1, 2]}\n'
    assert jsonl_to_csv(text) == 'a,b,c\n1,x,\n,"y, z","[1, 2]"\n'
    with pytest.raises(ValueError, match="line 2 is not a JSON object"):
        jsonl_to_csv('{"a": 1}\n[1]\n')


def test_an_sqlite_file_is_one_table_document_per_table(tmp_path: Path):
    path = tmp_path / "shop.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE customers (id INTEGER, name TEXT)")
        db.execute("CREATE TABLE orders (id INTEGER, customer_id INTEGER, amount REAL)")
        db.execute("INSERT INTO customers VALUES (1, 'Alice')")
        db.execute("INSERT INTO orders VALUES (7, 1, 2.5)")
    before = path.read_bytes()
    docs = collect([str(path)]).documents
    assert [(d.name.rsplit("/", 1)[-1], d.kind) for d in docs] == [
        ("shop.db#customers", "table"),
        ("shop.db#orders", "table"),
    ]
    assert docs[1].text == "id,customer_id,amount\n7,1,2.5\n"
    assert path.read_bytes() == before  # read, never written
    assert [table_label(d.name, d.label) for d in docs] == ["customers", "orders"]


def test_a_table_goes_by_its_own_name_whatever_characters_it_holds(tmp_path: Path):
    path = tmp_path / "shop#2.db"
    with sqlite3.connect(path) as db:
        db.execute('CREATE TABLE "order#items" (id INTEGER)')
        db.execute('CREATE TABLE "odd\nname" (id INTEGER)')
        db.execute('INSERT INTO "order#items" VALUES (1)')
        db.execute('INSERT INTO "odd\nname" VALUES (2)')
    (tmp_path / "a#b.csv").write_text("x\n1\n", encoding="utf-8")
    docs = collect([str(path), str(tmp_path / "a#b.csv")]).documents
    chunks = [
        c for d in docs for c in chunk_document(d.name, d.text, "table", 64, len, table=d.label)
    ]
    assert [c.split("\n", 1)[0] for c in chunks] == [
        'Table: "odd\\nname"',  # one line, escaped: "odd name" would be another table
        "Table: order#items",
        "Table: a#b",
    ]
    assert [read_chunk(c).table for c in chunks] == ['"odd\\nname"', "order#items", "a#b"]


def test_tables_that_would_share_a_name_go_by_their_paths(tmp_path: Path):
    for year in ("2023", "2024"):
        (tmp_path / year).mkdir()
        (tmp_path / year / "sales.csv").write_text(f"year\n{year}\n", encoding="utf-8")
    (tmp_path / "costs.csv").write_text("c\n1\n", encoding="utf-8")
    docs = collect([str(tmp_path)]).documents
    labels = {d.name: table_label(d.name, d.label) for d in docs}
    assert labels == {
        str(tmp_path / "2023" / "sales.csv"): "2023/sales.csv",
        str(tmp_path / "2024" / "sales.csv"): "2024/sales.csv",
        str(tmp_path / "costs.csv"): "costs",
    }
    db = tmp_path / "shop.db"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE costs (c INTEGER)")
    docs = collect([str(tmp_path / "costs.csv"), str(db)]).documents
    assert [table_label(d.name, d.label) for d in docs] == ["costs.csv", "shop.db#costs"]


def test_markdown_and_fixed_width_tables_in_text_are_read_as_tables(tmp_path: Path):
    text = (
        "Notes on the harvest.\n\n| crop | tons |\n|------|-----:|\n| wheat | 12 |\n| rye | 7 |\n\n"
        "Later:\n\nname     city     \n-------  -------\nAlice    Oslo\nBob      Lima\n"
    )
    assert text_tables(text) == [
        "crop,tons\nwheat,12\nrye,7\n",
        "name,city\nAlice,Oslo\nBob,Lima\n",
    ]
    path = tmp_path / "notes.md"
    path.write_text(text, encoding="utf-8")
    docs = with_text_tables(collect([str(path)]).documents)
    assert [d.name.rsplit("/", 1)[-1] for d in docs] == ["notes.md#1", "notes.md#2"]
    assert [table_label(d.name, d.label) for d in docs] == ["notes 1", "notes 2"]
    plain = tmp_path / "plain.txt"
    plain.write_text("No table here.\n", encoding="utf-8")
    assert with_text_tables(collect([str(plain)]).documents)[0].kind == "prose"


def test_a_table_chunk_reads_back_as_its_header_and_records():
    text = 'name,note\nAlice,"two\nlines"\nBob,plain\n' * 30
    chunks = list(chunk_document("data/people.csv", text, "table", 64, lambda t: len(t) // 4))
    assert len(chunks) > 1
    rows = []
    for chunk in chunks:
        read = read_chunk(chunk)
        assert read is not None and read.table == "people" and read.header == ["name", "note"]
        rows += read.rows
    assert rows.count(["Alice", "two\nlines"]) == 30 and len(rows) == 89  # the header repeats
    assert read_chunk("File path: x.py\nContent:\n") is None


@pytest.mark.parametrize(
    "column",
    [
        ["1", "22", "-3", "0"],
        ["1.5", ".5", "-2.", "1e5", "3.25E-2"],
        ["North", "South west", "Ålesund", "apples."],
        ["007", "12"],  # a code keeps its zeros
        ["1", "2.5", "x"],
        ["", "4"],
        [" 5", "6"],
        ["1" * 19, "2"],  # past 64 bits: a number as text or float, as typed() says
        ["1.5e999"],
        ["Apple 2", "B"],
        ["1_000", "2"],
    ],
)
def test_a_column_is_typed_as_each_cell_would_be(column):
    from prism_edge.text.tables import typed, typed_column

    assert typed_column(column) == [typed(t) for t in column]
    assert [type(v) for v in typed_column(column)] == [type(typed(t)) for t in column]


@given(st.lists(st.sampled_from(["1", "-2", "3.5", ".5", "007", "", " x", "word", "1e3", "2."])))
def test_any_column_is_typed_as_its_cells(column):
    from prism_edge.text.tables import typed, typed_column

    assert typed_column(column) == [typed(t) for t in column]


def test_a_batch_holds_about_as_many_cells_whatever_the_tables_width(tmp_path):
    """A narrow table is read 5,000 records a batch, a 24-column one 1,000 (its cells stay
    in the caches), a wide one never fewer than 1,000; the same from an SQLite file."""
    from prism_edge.text.tables import batch_rows, records, sqlite_records

    assert (batch_rows(3), batch_rows(24), batch_rows(200)) == (5_000, 1_000, 1_000)
    assert batch_rows(12) == 2_000
    header = ",".join(f"c{i}" for i in range(24))
    lines = [header + "\n"] + [",".join([str(r)] * 24) + "\n" for r in range(2_500)]
    sizes = [len(chunk.rows) for chunk in records("t.csv", lines)]
    assert sizes == [1_000, 1_000, 500]
    db = sqlite3.connect(tmp_path / "t.db")
    db.execute(f"CREATE TABLE t ({header})")
    db.executemany(
        f"INSERT INTO t VALUES ({', '.join('?' * 24)})", [[r] * 24 for r in range(2_500)]
    )
    db.commit()
    db.close()
    sizes = [len(chunk.rows) for chunk in sqlite_records(tmp_path / "t.db", "t", "t.db")]
    assert sizes == [1_000, 1_000, 500]
