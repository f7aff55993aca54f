"""The table method: the program reads every record and computes; the model chooses among the
answers."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from prism_edge.backends import Backend
from prism_edge.core.config import PrismConfig
from prism_edge.core.errors import RevisionError
from prism_edge.core.events import Answered, Event, StepDone, TableAnswer
from prism_edge.core.metrics import RunMetrics
from prism_edge.core.revisions import Revision
from prism_edge.core.schema import Schema, format_path
from prism_edge.methods.base import Capability, Context, Method, MethodError, score
from prism_edge.methods.tables.answer import (
    Scored,
    answer,
    decide,
    rendered,
    said,
    shown_sql,
)
from prism_edge.methods.tables.db import Column, Database, Link, Sheet, links, show_number
from prism_edge.methods.tables.enumerate import Candidate
from prism_edge.methods.tables.keys import shared_keys
from prism_edge.methods.tables.ranker import probabilities
from prism_edge.prompts import Part, Prompt
from prism_edge.text.tables import Dialect, TableChunk, read_chunk

FIELD = "table_descriptions"
NOT_IN_TABLE = "not in the table"
MAX_CANDIDATES = 48
"""Candidates kept in the result's ranking (and its SQL list), the best first."""
MODEL_SHORTLIST = 4
"""The ranker's best candidates the model's feature is added to (4: through :data:`MODEL_GATE`
as many of 300 held-apart training questions right as over the best 8, 163)."""
MODEL_WEIGHT = 0.05
"""The model feature's weight beside the ranker's score (v5), learned on 300 training
questions of the tables the ranker's choice holds apart (0.05: 162 right over the best 8,
against 160 at 0 and 159 at 0.2; SmolLM2-135M; ``benchmarks/tables/model_feature.py
learn``). With ranker v4 it was 0.2 (159 against 153): the v5 ranker leaves the model less
to add."""
MODEL_GATE = 0.5
"""The model's feature is asked for only where the ranker's best answer has a probability
under this (:func:`consults_model`); elsewhere the model is not asked, nor even loaded.
Learned with the weight and the shortlist on the same training questions: at 0.5 the model
is asked for 125 of the 300 and they answer 163, more than asking it for all (162)
(``model_feature.py learn``, ``table-model-feature-learn.txt``); measured on 300 dev
questions by ``measure`` (``table-model-feature-measure.txt``)."""

# --- the method --------------------------------------------------------------------------------


class TablesState(BaseModel):
    """The shape of a table run's saved state: how many chunks of records it read."""

    model_config = ConfigDict(extra="forbid")
    ingested: Annotated[int, Field(ge=0)] = 0


class TableFacts(Method):
    """The program reads every record and computes; the model chooses among the answers."""

    name: ClassVar[str] = "tables"
    task_field: ClassVar[str | None] = FIELD
    task_name: ClassVar[str] = "table-qa"
    needs: ClassVar[frozenset[Capability]] = frozenset({"score"})
    option_names: ClassVar[tuple[str, ...]] = ("chooser",)
    state_model: ClassVar[type[BaseModel]] = TablesState
    score_meaning: ClassVar[str] = "the ranker's probability"

    def __init__(self, config: PrismConfig, chooser: str = "model") -> None:
        if chooser not in ("model", "program"):
            raise MethodError(f"unknown chooser {chooser!r} (model, program)")
        self.config = config
        self.chooser = chooser
        """``program``: the learned ranker alone; ``model``: the ranker with the model's
        feature added over its best :data:`MODEL_SHORTLIST` (measured against it)."""
        self.store: Database | None = None
        self._declared: list[Link] = []
        self.ingested = 0
        self._dialects: dict[str, Dialect] = {}
        self._replay = 0
        self.fact: str = ""
        self.query: str = ""
        """The SQL the answer came from (shown with it)."""
        self.queries: list[str] = []
        """The SQL of every ranked candidate, in the ranking's order."""

    def check(self, backend: Backend, schema: Schema) -> None:
        self.check_schema(schema)
        if self.chooser == "model":
            super().check(backend, schema)

    def settings(self) -> dict[str, Any]:
        return {"chooser": self.chooser}

    def state(self) -> dict[str, Any]:
        return {"ingested": self.ingested}

    def restore(self, state: dict[str, Any]) -> None:
        self._replay = int(state.get("ingested", 0))

    def prepare(self, chunks: Iterable[str]) -> None:
        """A resumed run reads again the records it had read (the database is not kept)."""
        if self._replay:
            done = itertools.islice((c for c in chunks if c.strip()), self._replay)
            for chunk in done:
                read = read_chunk(chunk, self._dialects)
                if read is not None:
                    self._store().add(read)
            self.ingested = self._replay

    def room(self, run: Context) -> int:
        return run.backend.n_ctx  # the records go to the program, never into a prompt

    def _store(self) -> Database:
        if self.store is None:
            self.store = Database()
            self.store.declared = list(self._declared)
        return self.store

    def declare(self, found: list[Link]) -> None:
        """The foreign keys the input declares (read from an SQLite file's schema)."""
        self._declared = list(found)
        if self.store is not None:
            self.store.declared = list(found)

    def step(self, run: Context, index: int, chunk: str, chunk_tokens: int) -> StepDone:
        read = read_chunk(chunk, self._dialects)
        applied, rejected = self._add(run, read)
        return StepDone(
            index, chunk_tokens, applied, rejected, (), run.memory_tokens(), chunk=chunk
        )

    def ingest(self, run: Context, index: int, read: TableChunk) -> StepDone:
        """Records read straight from a table (``text.tables.records``), no chunk text and no
        token counted: what a run of this method reads (``engine/tables.py``)."""
        applied, rejected = self._add(run, read)
        return StepDone(index, 0, applied, rejected, (), 0)

    def _add(
        self, run: Context, read: TableChunk | None
    ) -> tuple[list[Revision], list[RevisionError]]:
        revisions: list[Revision] = []
        if read is not None and read.header:
            sheet, new = self._store().add(read)
            if new:
                segments: tuple[str | int, ...] = (FIELD,)
                entry = _entry(self._store(), sheet)
                revisions.append(Revision(format_path(segments), segments, "add", entry))
            elif _refresh(self.ingested + 1):
                revisions += _update(run, sheet.index, "table_description", _size(sheet))
        self.ingested += 1
        report = run.memory.revise(revisions)
        return list(report.applied), list(report.rejected)

    def answer(self, run: Context) -> Iterator[Event]:
        db = self._store()
        try:
            for sheet in list(db.sheets.values()):
                db.type_all(sheet)
            joins = links(db) + shared_keys(db)
            for sheet in db.sheets.values():
                related = [j.describe() for j in joins if sheet.name in (j.left, j.right)]
                entry = _entry(db, sheet, related)
                run.memory.revise(_updates(run, sheet.index, entry))
            result, ranking = self._choose(run, db)
        finally:
            db.close()
            self.store = None
        run.result.table = result
        run.result.ranking = ranking
        answer = text_of(result)
        run.result.answer = answer
        if result.best is None:  # not in the table, said in words; no answer all the same
            run.result.no_answer = answer
        yield Answered(answer, None)

    def ask(self, run: Context) -> Iterator[Event]:
        """A new question needs the records, which a run does not keep (only their facts)."""
        raise MethodError(
            "a table run keeps the tables' facts, not their records: run again with this "
            "--query to answer it"
        )
        yield  # pragma: no cover - a generator that refuses

    def _choose(self, run: Context, db: Database) -> tuple[TableAnswer, list[tuple[str, float]]]:
        question = self.config.question
        result, scored = answer(db, question)
        if result.best is None:
            return result, []
        top = scored[:MAX_CANDIDATES]
        if self.chooser == "model" and len(top) > 1 and consults_model(result):
            result, top = self._rescore(run, db, question, top)
        best = result.best
        if best is None:  # the model's choice keeps an answer: only the order changes
            return result, []
        chances = probabilities([s for _, _, s in top])
        ranking = [
            (f"{rendered(db, c)} = {', '.join(map(said, c.values))}", float(p))
            for (c, _, _), p in zip(top, chances, strict=True)
        ]
        self.query = best.sql
        self.queries = [shown_sql(db, c) for c, _, _ in top]
        sheet = db.sheets.get(top[0][0].query.sheet)
        if sheet is not None:
            facts = [*_statistics(db, sheet), f"for the question: {best.said}: "
                     f"{text_of(result)}", f"query: {best.sql}"]  # fmt: skip
            run.memory.revise(_update(run, sheet.index, "relevant_statistics", facts))
        return result, ranking

    def _rescore(
        self, run: Context, db: Database, question: str, top: list[Scored]
    ) -> tuple[TableAnswer, list[Scored]]:
        """The ranker's best :data:`MODEL_SHORTLIST` with the model's feature added: how
        likely the question is after each candidate's words (against after none), weighed by
        :data:`MODEL_WEIGHT`."""
        head = top[:MODEL_SHORTLIST]
        likely = question_given(run.backend, question, [c.query.render(_sheet(db, c)) for c, _, _
                                                        in head], run.metrics)  # fmt: skip
        rescored = [
            (c, {**f, "model:question|query": m}, s + MODEL_WEIGHT * m)
            for (c, f, s), m in zip(head, likely, strict=True)
        ]
        rescored.sort(key=lambda x: -x[2])
        merged = rescored + top[MODEL_SHORTLIST:]
        return decide(db, question, merged), merged


def consults_model(result: TableAnswer) -> bool:
    """Whether the model's feature is asked for: only where the ranker's best answer has a
    probability under :data:`MODEL_GATE` (elsewhere it is not asked, nor loaded)."""
    return result.best is not None and result.best.probability < MODEL_GATE


def _sheet(db: Database, candidate: Candidate) -> Sheet:
    name = candidate.query.sheet
    return db.sheets.get(name) or db.joined[name]


def text_of(result: TableAnswer) -> str:
    """The answer as the command prints it: the values, one per line when several; "not in
    the table" with why."""
    if result.best is None:
        return f"{NOT_IN_TABLE}: {result.not_in_table}"
    return "\n".join(said(v, result.best.places) for v in result.best.values)


def question_given(
    backend: Backend, question: str, renderings: Sequence[str], metrics: RunMetrics
) -> list[float]:
    """For each query in words, the model's log-probability of the question after it, less
    the question's after no query (pointwise mutual information: does this query say what
    the question asks?)."""
    given = []
    for said_as in renderings:
        prompt = Prompt((Part("Query: "), Part(said_as, "document"), Part("\nQuestion:")))
        (s,), _ = score(backend, prompt, [f" {question}"], metrics)
        given.append(s.logprob)
    (alone,), _ = score(backend, Prompt((Part("Query:\nQuestion:"),)), [f" {question}"], metrics)
    return [g - alone.logprob for g in given]


def _size(sheet: Sheet) -> str:
    return f"{sheet.rows} rows of {len(sheet.columns)} columns"


def _statistics(db: Database, sheet: Sheet) -> list[str]:
    """The facts of every column read so far: its count of values and of distinct ones;
    for numbers the least, the greatest, the sum and the mean; for text the most frequent."""
    facts = [f"rows: {sheet.rows}"]
    for column in sheet.columns:
        if not column.typed:
            facts.append(f"{column.name}: not read yet")
            continue
        line = f"{column.name}: {column.present} values, {column.distinct} distinct"
        if column.kind == "number" and column.numbers:
            line += (
                f", from {show_number(column.low)} to {show_number(column.high)}, sum "
                f"{show_number(column.total)}, mean {show_number(column.total / column.numbers)}"
            )
        elif column.top:
            line += "; most frequent: " + ", ".join(f"{v} ({n})" for v, n in column.top)
        facts.append(line)
    return facts


def _observed(column: Column) -> str:
    return f"{column.name} ({column.kind if column.typed else 'not read yet'})"


def _entry(db: Database, sheet: Sheet, relationships: list[str] | None = None) -> dict[str, Any]:
    return {
        "table_name": sheet.name,
        "table_description": _size(sheet),
        "columns_observed": [_observed(c) for c in sheet.columns],
        "relevant_statistics": _statistics(db, sheet),
        "relationships": relationships or [],
    }


def _refresh(step: int) -> bool:
    """Whether step ``step`` (1-based) writes the running facts into the memory: at doubling
    intervals (1, 2, 4, 8...), so a table of millions of rows costs the memory a few dozen
    records and the run stays linear; the exact facts are written at the end."""
    return step & (step - 1) == 0


def _update(run: Context, index: int, key: str, value: Any) -> list[Revision]:
    entries = run.memory.data.get(FIELD) or []
    if index >= len(entries) or entries[index].get(key) == value:
        return []
    segments: tuple[str | int, ...] = (FIELD, index, key)
    return [Revision(format_path(segments), segments, "update", value)]


def _updates(run: Context, index: int, entry: dict[str, Any]) -> list[Revision]:
    return [r for key, value in entry.items() for r in _update(run, index, key, value)]
