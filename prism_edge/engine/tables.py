"""A table question read at the database's speed: every table's records go straight into the
method's database, batch by batch, never cut into token-counted chunks.

The table method never puts a record in a prompt (the program computes, the model chooses
among computed answers), so its reading is parsing and inserting: each table document's
records, streamed from disk in batches (:meth:`Document.records`: a CSV file's lines and JSON
lines converted a record at a time read by :func:`prism_edge.text.tables.records`, an SQLite
table's rows taken as they are), are handed to the method (:meth:`TableFacts.ingest`); then
the method answers. A file that
changes while it is read is an error (the document's stamp), as before. Nothing is
checkpointed per batch: the method's database is never kept (a resumed chunked run read every
record again too), so an interrupted question is asked again from the start.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from prism_edge.backends import Backend
from prism_edge.core.config import PrismConfig
from prism_edge.core.events import Event
from prism_edge.core.schema import Schema
from prism_edge.engine.runner import PrismRunner
from prism_edge.engine.whole import WholeSession
from prism_edge.methods.tables import Link, TableFacts
from prism_edge.text.inputs import Document
from prism_edge.text.tables import sqlite_foreign_keys, table_label


def declared_links(documents: Sequence[Document]) -> list[Link]:
    """The foreign keys the SQLite files among ``documents`` declare, between the tables as
    the run names them."""
    named = {
        (d.source, d.table): table_label(d.name, d.label)
        for d in documents
        if d.source is not None and d.table
    }
    found = []
    for (source, table), label in named.items():
        assert source is not None
        for own, target, theirs in sqlite_foreign_keys(source, table):
            other = named.get((source, target))
            if other is not None:
                found.append(Link(label, own, other, theirs))
    return found


class TableSession(WholeSession):
    """A table question over documents: their records read into the method's database,
    then the answer."""

    def __init__(
        self,
        backend: Backend,
        schema: Schema,
        config: PrismConfig,
        method: TableFacts,
        documents: Sequence[Document],
    ) -> None:
        self.backend = backend
        self.method = method
        self.documents = [d for d in documents if d.kind == "table"]
        self.runner = PrismRunner(backend, schema, config, method=method)
        self.rows = 0
        """Records read so far."""

    def steps(self) -> Iterator[Event]:
        """A :class:`StepDone` per batch of records (each read and stored with the collector
        paused), then the answer."""
        self.method.declare(declared_links(self.documents))
        for document in self.documents:
            batches = document.records()
            while True:
                with collector_paused():
                    batch = next(batches, None)
                    if batch is None:
                        break
                    step = self.method.ingest(self.runner, self.result.steps, batch)
                self.rows += len(batch.rows)
                self.result.count(step)
                yield step
        yield from self.runner.answer()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused within: reading a batch of records makes
    hundreds of thousands of objects and no cycle, and the collector's passes over them cost
    about a fifth of the reading (measured on a 60,000-record TSV)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
