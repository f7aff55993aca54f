"""Cells counted as they are read give the same profiles as a pass over the database: each
table read twice, once with its columns counted batch by batch as they are read
(``db._Tally``, what a run does) and once counted afterwards by a pass over its stored cells
(``Database._counts``), and every column's profile compared (kind, counts, range, sum, most
frequent texts, texts by their words) with the cells as stored.

    python benchmarks/tables/counted.py [--limit 400] [--seed 7]

The tables: a sample of WikiTableQuestions' training tables, speed.py's 60,000 x 24 TSV and
the databases of ``databases.py`` ($DBS: Lahman, GeoNames), each read whole and again in
batches of 7 records with at most 40 texts held a column (so columns go big between batches).
Writes benchmarks/results/table-counted.txt.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from speed import make_big
from wtq_common import WTQ

from prism_edge.methods.tables import db as dbm
from prism_edge.text.tables import TableChunk, records, sqlite_records, sqlite_table_names

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"
DBS = Path(os.environ.get("DBS", "/tmp/table-dbs"))


def _chunks(path: Path, batch: int | None) -> Iterator[TableChunk]:
    if path.suffix == ".db":
        for table in sqlite_table_names(path):
            yield from sqlite_records(path, table, table, batch=batch)
        return
    with path.open(encoding="utf-8", newline="") as lines:
        yield from records(path.name, lines, batch=batch)


def _profiles(chunks: list[TableChunk], as_read: bool) -> dict[str, Any]:
    db = dbm.Database()
    for chunk in chunks:
        db.add(chunk)
        if not as_read:
            db.tallies.clear()  # counted afterwards, by a pass over the database
    out = {}
    for sheet in db.sheets.values():
        db.type_all(sheet)
        cells = db.db.execute(f"SELECT * FROM {sheet.sql} ORDER BY _row").fetchall()
        columns = [dataclasses.asdict(c) for c in sheet.columns]
        out[sheet.name] = (columns, sheet.values, sheet.raw, cells)
    db.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=400, help="WikiTableQuestions tables")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    tables = sorted((WTQ / "csv").glob("*/*.csv"))
    paths = random.Random(args.seed).sample(tables, min(args.limit, len(tables)))
    paths += [make_big()] + [p for p in (DBS / "lahman.db", DBS / "geonames.db") if p.exists()]
    held, checks, differ = dbm.HELD_VALUES, 0, []
    for path in paths:
        for batch, most in ((None, held), (7, 40)):
            dbm.HELD_VALUES = most
            chunks = list(_chunks(path, batch))
            checks += 1
            if _profiles(chunks, True) != _profiles(chunks, False):
                differ.append(f"{path} (batch {batch or 'default'}, {most} held)")
    dbm.HELD_VALUES = held
    lines = [
        f"{len(paths)} tables ({len(paths) - 3} WikiTableQuestions training tables, seed "
        f"{args.seed}; the TSV; Lahman; GeoNames), {checks} readings: {len(differ)} differ",
        *differ,
    ]
    print("\n".join(lines))
    (RESULTS / "table-counted.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
