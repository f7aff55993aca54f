"""Ask a recorded run's memory a new question, without reading its input again.

The memory is replayed from the history (``Memory.from_state``), the schema rebuilt from its
JSON Schema and the run's settings reused with the new question; then only the answer step
runs: one call for a prose or choice answer; for a code search built by scoring definitions,
BM25's best stored definitions for the new description, each scored by the model from its stored
entry; for a summary by names, the stored
sentences that answer it (:func:`prism_edge.methods.names.answer_question`).

A question the memory cannot answer is refused before any call: an empty memory, or a question
that names something (a capitalised name, an identifier, a quoted phrase) the memory never
mentions. Generic questions ("what is it about?") are always answered.
"""

from __future__ import annotations

import json
import re
import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prism_edge import methods
from prism_edge.app.history import Entry
from prism_edge.backends import Backend
from prism_edge.core.config import PrismConfig
from prism_edge.core.errors import PrismError
from prism_edge.core.events import RunResult
from prism_edge.core.memory import Memory
from prism_edge.core.metrics import RunMetrics
from prism_edge.core.schema import Schema, from_json_schema
from prism_edge.engine.runner import Position, PrismRunner
from prism_edge.engine.search import IndexedSession
from prism_edge.methods.definitions import ASK_SHORTLIST, ScoredDefinitions
from prism_edge.methods.tables import TableFacts
from prism_edge.text.grounding import FUNCTION_WORDS
from prism_edge.text.inputs import Filters, collect

DEFAULT_ANSWER_TOKENS = 256

_QUOTED = re.compile(r"[\"“'`]([^\"”'`]{2,60})[\"”'`]")
_IDENTIFIER = re.compile(r"\b[A-Za-z]+(?:_[A-Za-z0-9]+)+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b")
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*")


class RecallError(PrismError):
    hint = "start a new run with this --query: prism-edge run INPUTS --query ..."


def named_in(question: str) -> list[str]:
    """What a question names: quoted phrases, identifiers (snake_case, camelCase) and names
    capitalised in mid-sentence."""
    named = [m.group(1).strip() for m in _QUOTED.finditer(question)]
    named += _IDENTIFIER.findall(question)
    named += [n for n in _NAME.findall(question.strip()) if n.casefold() not in FUNCTION_WORDS]
    return list(dict.fromkeys(n for n in named if n))


def missing_names(question: str, memory: dict[str, object]) -> list[str]:
    """The names a question asks about that the memory never mentions (case-insensitive)."""
    said = json.dumps(memory, ensure_ascii=False).casefold()
    return [name for name in named_in(question) if name.casefold() not in said]


def check(entry: Entry, question: str) -> None:
    """:class:`RecallError` when ``entry``'s memory cannot answer ``question`` (before any
    model is loaded)."""
    question = question.strip()
    if not question:
        raise RecallError("the question is empty")
    if entry.status != "done" and not entry.memory_state:
        raise RecallError(f"run {entry.id} ended without a memory ({entry.status})")
    if not entry.memory or not any(entry.memory.values()):
        raise RecallError(f"run {entry.id}'s memory is empty: there is nothing to answer from")
    if entry.method == TableFacts.name:
        inputs = " ".join(shlex.quote(str(i.get("name", "?"))) for i in entry.inputs)
        raise RecallError(
            f"run {entry.id} answered from its tables' records, which a run does not keep (only "
            f"their facts): run again with this --query: prism-edge run {inputs} --task table-qa "
            f"--query {shlex.quote(question)}"
        )
    method = methods.METHODS.get(entry.method)
    searched = method is not None and method.asks_by_search
    missing = [] if searched else missing_names(question, entry.memory)
    if missing:
        raise RecallError(
            f"run {entry.id}'s memory ({entry.task}) never mentions "
            + ", ".join(repr(m) for m in missing)
            + ": its schema did not keep what this question needs"
        )


@dataclass(frozen=True)
class Recall:
    """A question to a recorded memory, checked and replayed: all that needs no model."""

    entry: Entry
    schema: Schema
    memory: Memory
    config: PrismConfig
    method: str
    options: dict[str, Any] = field(default_factory=dict)
    """The method's own options as the run had them (a code search's shortlist and way of
    scoring: ``--no-model`` scores by BM25 again, never by the model)."""

    def answer(self, backend: Backend) -> RunResult:
        """The run's own answer step on ``backend`` (one generation, a score for each of BM25's
        best stored definitions, or the stored sentences of a summary by names). A code search
        over files asks its index, brought up to date first (only changed files parsed)."""
        config, schema = self.config, self.schema
        method = methods.make(self.method, schema, config, **self.options)
        indexed = self.entry.settings.get("index")
        if isinstance(indexed, dict) and isinstance(method, ScoredDefinitions):
            return _ask_index(backend, schema, config, method, indexed)
        runner = PrismRunner(backend, schema, config, method=method)
        runner.restore(self.memory, RunMetrics(), Position(), {}, None)
        runner.suit()  # outside the answer's wall time, as loading the model is
        start = time.perf_counter()
        for _ in runner.ask():
            pass
        runner.metrics.wall_s = time.perf_counter() - start
        return runner.result


def _ask_index(
    backend: Backend,
    schema: Schema,
    config: PrismConfig,
    method: ScoredDefinitions,
    indexed: dict[str, Any],
) -> RunResult:
    inputs = [str(i) for i in indexed.get("inputs", [])]
    filters = Filters(
        tuple(str(g) for g in indexed.get("include", [])),
        tuple(str(g) for g in indexed.get("exclude", [])),
    )
    follow = indexed.get("follow_links") is True
    documents = collect(inputs, filters=filters, hold_code=False, follow_links=follow).documents
    folder = Path(str(indexed["folder"])) if indexed.get("folder") else None
    session = IndexedSession(backend, schema, config, method, documents, inputs, folder)
    start = time.perf_counter()
    result = session.ask(config.question)
    result.metrics.wall_s = time.perf_counter() - start
    return result


def prepare(entry: Entry, question: str, answer_tokens: int | None = None) -> Recall:
    """``question`` to ``entry``'s memory, checked (:class:`RecallError` when the memory cannot
    hold the answer) and replayed, before any model is loaded."""
    check(entry, question)
    try:
        schema = from_json_schema(entry.schema)
        memory = Memory.from_state(schema, entry.memory_state)
    except (ValueError, KeyError, TypeError) as exc:
        raise RecallError(f"run {entry.id}'s memory cannot be replayed: {exc}") from None
    recorded = dict(entry.settings.get("config", {}))
    budget = answer_tokens or recorded.get("answer_max_tokens") or DEFAULT_ANSWER_TOKENS
    config = PrismConfig(**{**recorded, "question": question.strip(), "answer_max_tokens": budget})
    name = entry.method if entry.method in methods.METHODS else methods.WRITTEN
    return Recall(entry, schema, memory, config, name, _options(name, entry.settings))


FORMULATIONS = ("likelihood", "yes-no", "bm25")


def _options(method: str, settings: dict[str, Any]) -> dict[str, Any]:
    """The options of the run's method that its answer step reads, as recorded (checked: a
    row is read from a file): a code search's formulation and shortlist (a run recorded before
    they were: BM25's best :data:`ASK_SHORTLIST`, as ``run`` chose by default)."""
    if method != ScoredDefinitions.name:
        return {}
    recorded = settings.get("method_options")
    recorded = recorded if isinstance(recorded, dict) else {}
    out: dict[str, Any] = {"shortlist": ASK_SHORTLIST}
    if recorded.get("formulation") in FORMULATIONS:
        out["formulation"] = recorded["formulation"]
    for name in ("shortlist", "keep"):
        value = recorded.get(name)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            out[name] = value
    return out


def ask(
    backend: Backend, entry: Entry, question: str, answer_tokens: int | None = None
) -> RunResult:
    """Answer ``question`` from ``entry``'s memory with the run's own method;
    :class:`RecallError` when the memory cannot hold the answer."""
    return prepare(entry, question, answer_tokens).answer(backend)
