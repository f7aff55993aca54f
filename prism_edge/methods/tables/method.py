"""The table method: the program reads every record and computes; the model chooses among the
answers."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from prism_edge.backends import Backend
from prism_edge.core.config import PrismConfig
from prism_edge.core.errors import RevisionError
from prism_edge.core.events import Answered, Event, StepDone
from prism_edge.core.metrics import RunMetrics
from prism_edge.core.revisions import Revision
from prism_edge.core.schema import Schema, format_path
from prism_edge.methods.base import Capability, Context, Method, MethodError, score
from prism_edge.methods.tables.candidates import Candidate, candidates, rank_by_words
from prism_edge.methods.tables.lexicon import rounding
from prism_edge.methods.tables.question import read_question
from prism_edge.methods.tables.store import Link, Store, Table, links
from prism_edge.prompts import Part, Prompt
from prism_edge.text.tables import Dialect, TableChunk, read_chunk

FIELD = "table_descriptions"
NOT_IN_TABLE = "not in the table"
MAX_CANDIDATES = 48
"""Candidate answers scored at most (the likeliest by the program's reading first)."""


# --- the method --------------------------------------------------------------------------------

_ASK = "\nTo answer it, the program computes"


def _prompt(question: str) -> Prompt:
    return Prompt((Part("Question: "), Part(question, "document"), Part(_ASK)))


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
    score_meaning: ClassVar[str] = (
        "shared words; with the model, its fit of description and value too"
    )

    def __init__(self, config: PrismConfig, chooser: str = "model") -> None:
        if chooser not in ("model", "words"):
            raise MethodError(f"unknown chooser {chooser!r} (model, words)")
        self.config = config
        self.chooser = chooser
        """``model``: the model scores the candidates; ``words``: the program's word overlap
        (the method without the model, for comparison)."""
        self.store: Store | None = None
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

    def _store(self) -> Store:
        if self.store is None:
            self.store = Store()
        return self.store

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
            table, new = self._store().add(read)
            entry = _entry(table)
            if new:
                segments: tuple[str | int, ...] = (FIELD,)
                revisions.append(Revision(format_path(segments), segments, "add", entry))
            elif _refresh(self.ingested + 1):
                revisions += _updates(run, table.index, entry)
        self.ingested += 1
        report = run.memory.revise(revisions)
        return list(report.applied), list(report.rejected)

    def answer(self, run: Context) -> Iterator[Event]:
        store = self._store()
        try:
            store.finish()
            joins = links(store)
            for table in store.tables.values():
                entry = _entry(
                    table, [j.describe() for j in joins if table.name in (j.left, j.right)]
                )
                run.memory.revise(_updates(run, table.index, entry))
            answer, ranking = self._choose(run, store, joins)
        finally:
            store.close()
            self.store = None
        run.result.ranking = ranking
        run.result.answer = answer
        if answer.startswith(NOT_IN_TABLE):  # said in words; no answer all the same
            run.result.no_answer = answer
        yield Answered(answer, None)

    def ask(self, run: Context) -> Iterator[Event]:
        """A new question needs the records, which a run does not keep (only their facts)."""
        raise MethodError(
            "a table run keeps the tables' facts, not their records: run again with this "
            "--query to answer it"
        )
        yield  # pragma: no cover - a generator that refuses

    def _choose(
        self, run: Context, store: Store, joins: list[Link]
    ) -> tuple[str, list[tuple[str, float]]]:
        question = self.config.question
        if not store.tables:
            return f"{NOT_IN_TABLE}: the input holds no table", []
        reading = read_question(question, store)
        if reading.unmatched:
            said = ", ".join(reading.unmatched)
            return f"{NOT_IN_TABLE}: no table holds {said}", []
        if reading.missing:
            return f"{NOT_IN_TABLE}: no column holds {reading.missing!r}", []
        found = candidates(store, reading, joins)
        if not found:
            return f"{NOT_IN_TABLE}: the question names no column, value or table", []
        prior = rank_by_words(question, found)
        order = sorted(range(len(found)), key=lambda i: -prior[i])[:MAX_CANDIDATES]
        found = [found[i] for i in order]
        if self.chooser == "words":
            values = [prior[i] for i in order]
        else:
            values = choose_by_model(
                run.backend, question, found, run.metrics, [prior[i] for i in order]
            )
        ranked = sorted(zip(found, values, strict=True), key=lambda p: -p[1])
        places = rounding(question)
        if places is not None:  # "rounded to 1 decimal place": every number as asked
            ranked = [(_rounded(c, places), v) for c, v in ranked]
        best = ranked[0][0]
        self.fact = f"{best.description}: {best.value}"
        self.query = best.query
        self.queries = [c.query for c, _ in ranked]
        ranking = [(f"{c.description} = {c.value}", float(v)) for c, v in ranked]
        table = store.tables.get(best.table)
        if table is not None:
            facts = [*_statistics(table), f"for the question: {self.fact}", f"query: {best.query}"]
            run.memory.revise(_update(run, table.index, "relevant_statistics", facts))
        return best.value, ranking


def _rounded(candidate: Candidate, places: int) -> Candidate:
    """The candidate with its value rounded to ``places`` decimals (a value that is no
    number stays as it is)."""
    try:
        number = float(candidate.value)
    except ValueError:
        return candidate
    value = f"{round(number, places):.{places}f}" if places else str(round(number))
    return replace(candidate, value=value, description=f"{candidate.description}, rounded")


def choose_by_model(
    backend: Backend,
    question: str,
    found: Sequence[Candidate],
    metrics: RunMetrics,
    prior: Sequence[float],
) -> list[float]:
    """Each candidate's score: three views, each as standard scores over the candidates and
    added with equal weights (so no view's scale decides): the program's word overlap
    (``prior``); the model's pointwise mutual information of the candidate's description
    with the question (after the question against alone: is this what is asked?); and the
    model's mean pointwise mutual information of the answer's value with the question, per
    token (is this what such an answer looks like: a place for "where", a number for "how
    old"?). Measured on the first ten table questions: 9 of 10 together, 8 by the words
    alone, 8 by the model's two views alone (benchmarks/results/table-qa-*)."""
    texts = [f" {c.core or c.description}." for c in found]
    given, _ = score(backend, _prompt(question), texts, metrics)
    alone, _ = score(backend, _prompt(""), texts, metrics)
    values = [f" {c.value}" for c in found]
    fits, _ = score(backend, _answer_prompt(question), values, metrics)
    plain, _ = score(backend, _answer_prompt(""), values, metrics)
    described = [a.logprob - b.logprob for a, b in zip(given, alone, strict=True)]
    typed_as = [
        (a.logprob - b.logprob) / max(1, a.tokens) for a, b in zip(fits, plain, strict=True)
    ]
    return [
        w + d + v
        for w, d, v in zip(_standard(prior), _standard(described), _standard(typed_as), strict=True)
    ]


def _answer_prompt(question: str) -> Prompt:
    return Prompt((Part("Question: "), Part(question, "document"), Part("\nAnswer:")))


def _standard(values: Sequence[float]) -> list[float]:
    """Standard scores (mean 0, deviation 1; all 0 when the values do not vary)."""
    if not values:
        return []
    mean = sum(values) / len(values)
    spread = (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5
    return [(v - mean) / spread if spread else 0.0 for v in values]


def _statistics(table: Table) -> list[str]:
    facts = [f"rows: {table.rows}"]
    for column in table.columns:
        line = column.facts()
        if column.name in table.distinct:
            line += f", {table.distinct[column.name]} distinct"
        if table.top.get(column.name):
            line += "; most frequent: " + ", ".join(f"{v} ({n})" for v, n in table.top[column.name])
        facts.append(line)
    return facts


def _entry(table: Table, relationships: list[str] | None = None) -> dict[str, Any]:
    return {
        "table_name": table.name,
        "table_description": f"{table.rows} rows of {len(table.columns)} columns",
        "columns_observed": [c.observed() for c in table.columns],
        "relevant_statistics": _statistics(table),
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
