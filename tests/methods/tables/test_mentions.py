"""What a question mentions of a table: the cells it names, the numbers it holds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import prism_edge
from prism_edge.methods.tables.db import Database
from prism_edge.methods.tables.mentions import read
from prism_edge.text.tables import TableChunk


def test_the_places_an_answer_is_rounded_to_name_no_cell():
    db = Database()
    rows = [["1", "83.0"], ["2", "88.5"], ["3", "88.2"]]
    sheet, _ = db.add(TableChunk("prices", ["Obs", "deflator"], rows))
    db.prepare(sheet)
    db.type_all(sheet)
    reading = read("What was the average deflator, rounded to 2 decimal places?", db, [sheet])
    assert not reading.cells  # "2" says how to round, not the row whose Obs is 2
    reading = read("What was the deflator of observation 2?", db, [sheet])
    assert [m.values for m in reading.cells] == [("2",)]
    db.close()
    db = Database()
    sheet, _ = db.add(
        TableChunk("results", ["year", "position"], [["2001", "1st"], ["2002", "3rd"]])
    )
    db.prepare(sheet)
    db.type_all(sheet)
    reading = read("How many times did he finish in 1st place?", db, [sheet])
    assert [m.values for m in reading.cells] == [("1st",)]  # a place, not a rounding
    db.close()


_READ_CELLS = """
import json, sys
import prism_edge
assert prism_edge.__file__.startswith(sys.argv[2]), prism_edge.__file__
from prism_edge.methods.tables import db as db_module
from prism_edge.methods.tables.db import Database
from prism_edge.methods.tables.mentions import read
from prism_edge.text.tables import TableChunk

db_module.HELD_VALUES = int(sys.argv[1])
db = Database()
rows = [[str(1985 + i), name] for i, name in enumerate(["Whitney", "Whitney", "I'm Your Baby"])]
sheet, _ = db.add(TableChunk("albums", ["year", "album"], rows))
db.prepare(sheet)
db.type_all(sheet)
reading = read("what was whitney's best year for her album whitney?", db, [sheet])
print(json.dumps([[m.values, m.start, m.end] for m in reading.cells]))
"""


@pytest.mark.parametrize("held", [5_000, 1], ids=["held column", "big column"])
def test_a_questions_cells_do_not_follow_the_string_hash(held):
    """The question read as said and without its possessive ("whitney's": whitney) names
    the same cell twice; the order its mentions come in must not follow Python's per-process
    string hashing, or the candidates, the refit and a tie's answer change from run to run."""
    root = Path(prism_edge.__file__).resolve().parents[1]  # the tree under test, not the venv's
    seen = set()
    for seed in range(4):
        done = subprocess.run(
            [sys.executable, "-c", _READ_CELLS, str(held), str(root)],
            env={**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": str(root)},
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        seen.add(done.stdout)
    assert len(seen) == 1, seen
    cells = json.loads(seen.pop())
    assert [tuple(c[0]) for c in cells] == [("whitney",)] * len(cells) and len(cells) >= 2
