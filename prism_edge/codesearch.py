"""Code search in which the model chooses and never spells: definition-grounded PRISM.

A small model cannot write a function's name it has seen once, but it can say which of a few
functions it is shown fits a description. So, chunk by chunk, the definitions the chunk holds
(found by a parser: :mod:`prism_edge.definitions`) are the only candidates; the model *scores*
each against the description (:meth:`Backend.score`), the best few enter the memory under
their own names, described by their own lines; at the end every stored entry is scored against
the description from the memory alone, and the best one is the answer (with its score).

Two ways to ask, compared in ``benchmarks/results/``:

* ``likelihood``: how likely the model finds the description after reading the definition
  (log P(description | definition); the description is the same for every candidate, so this
  ranks as the pointwise mutual information does);
* ``yes-no``: after the description and the definition, log P("Yes") - log P("No").

BM25 over the same definitions (:func:`bm25_search`) is what a user would reach for instead.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from prism_edge.backends import Backend, Scored
from prism_edge.definitions import Definition, definitions_in
from prism_edge.errors import BackendError
from prism_edge.grounding import FUNCTION_WORDS
from prism_edge.memory import Encoding, Memory
from prism_edge.metrics import CallMetrics, RunMetrics
from prism_edge.prompts import Part, Prompt
from prism_edge.revisions import Revision
from prism_edge.runner import RunResult
from prism_edge.schema import Schema

Formulation = Literal["likelihood", "yes-no"]
FIELD = "candidate_functions"


@dataclass(frozen=True)
class SearchConfig:
    question: str
    formulation: Formulation = "likelihood"
    keep: int = 3
    """Definitions of a chunk that enter the memory: its best-scored ones."""
    encoding: Encoding = "amendments"
    shortlist: int = 0
    """With a BM25 pre-filter (a separate method): only the definitions among BM25's best
    ``shortlist`` over the whole input are scored (0: no pre-filter, plain PRISM)."""


@dataclass
class SearchResult(RunResult):
    ranking: list[tuple[str, float]] = field(default_factory=list)
    """Every stored definition with its final score, best first."""
    chunks: int = 0
    """Chunks read."""


def _prompt(config: SearchConfig, candidate: str) -> tuple[Prompt, list[str]]:
    if config.formulation == "likelihood":
        parts = (
            Part("Here is a definition from a code base.\n\n"),
            Part(candidate, "document"),
            Part("\n\nDescribe what it does, its input, its output and how it works."),
        )
        return Prompt(parts), [config.question]
    parts = (
        Part(f"Description: {config.question}\n\nCandidate:\n"),
        Part(candidate, "document"),
        Part("\n\nDoes the candidate match the description? Answer Yes or No."),
    )
    return Prompt(parts), ["Yes", "No"]


def score_candidates(
    backend: Backend, config: SearchConfig, candidates: Sequence[str], metrics: RunMetrics
) -> list[float]:
    """The model's score of each candidate text for the description (higher: better)."""
    if not backend.can_score:
        raise BackendError(f"{backend.name} cannot score candidates; use a local model")
    scores = []
    for text in candidates:
        prompt, continuations = _prompt(config, text)
        scored = backend.score(prompt, continuations)
        for s in scored:
            record_score(metrics, s)
        if config.formulation == "likelihood":
            scores.append(scored[0].logprob)
        else:
            scores.append(scored[0].logprob - scored[1].logprob)
    return scores


def record_score(metrics: RunMetrics, s: Scored) -> None:
    metrics.add(CallMetrics("score", s.prompt_tokens + s.tokens, s.reused_tokens, 0, s.seconds))


def entry_text(name: str, entry: dict[str, str]) -> str:
    """A stored entry as the final scoring reads it: the memory alone, no source."""
    return (
        f"{name}\npurpose: {entry.get('purpose', '')}\ninput: {entry.get('input', '')}\n"
        f"output: {entry.get('output', '')}\nprocedure: {entry.get('procedure', '')}"
    )


def definition_search(
    backend: Backend, schema: Schema, config: SearchConfig, chunks: Sequence[str]
) -> SearchResult:
    """Definition-grounded PRISM over ``chunks`` (the code-search schema's memory)."""
    if schema.root.field(FIELD) is None:
        raise ValueError(f"definition search needs a schema with {FIELD} (the code-search task)")
    memory = Memory(schema, config.encoding)
    result = SearchResult(None, memory, RunMetrics())
    start = time.perf_counter()
    allowed = None
    if config.shortlist:
        allowed = {name for name, _ in bm25_search(chunks, config.question)[: config.shortlist]}
    for chunk in chunks:
        stored = memory.data.get(FIELD, {})
        fresh = {
            d.name: d
            for d in definitions_in(chunk)
            if d.name not in stored and (allowed is None or d.name in allowed)
        }
        result.steps += 1
        if not fresh:
            continue
        scores = score_candidates(
            backend, config, [d.source for d in fresh.values()], result.metrics
        )
        ranked = sorted(zip(scores, fresh.values(), strict=True), key=lambda p: -p[0])
        report = memory.revise(_add(d) for _, d in ranked[: config.keep])
        result.applied += len(report.applied)
        result.rejected += len(report.rejected)
    answer_from_memory(backend, config, result)
    result.metrics.wall_s = time.perf_counter() - start
    return result


def answer_from_memory(backend: Backend, config: SearchConfig, result: SearchResult) -> None:
    """The answer step: every stored entry scored for the description from the memory alone
    (no source); the best is the answer and ``ranking`` holds them all, best first."""
    entries = result.memory.data.get(FIELD, {})
    if not entries:
        result.answer = ""
        return
    texts = [entry_text(name, entry) for name, entry in entries.items()]
    scores = score_candidates(backend, config, texts, result.metrics)
    result.ranking = sorted(zip(entries, scores, strict=True), key=lambda p: -p[1])
    result.answer = result.ranking[0][0]


def _add(definition: Definition) -> Revision:
    segments = (FIELD, definition.name)
    path = f"$.'{FIELD}'.'{definition.name}'"
    return Revision(path, segments, "add", definition.describe())


_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def words(text: str) -> list[str]:
    """Lower-case words, identifiers split at underscores and case changes."""
    return [w.lower() for w in _WORD.findall(text)]


NAME_WEIGHT = 2
_REQUEST = re.compile(
    r"^\s*(?:please\s+)?(?:(?:find|show|locate|give|get|search\s+for|look\s+for|where\s+is|"
    r"which\s+is|what\s+is|which|what)\s+)?(?:me\s+)?(?:(?:the|a|an)\s+)?"
    r"(?:function|method|class|code|definition|routine)s?\s+(?:that|which|to)?\b",
    re.IGNORECASE,
)


def query_words(question: str) -> list[str]:
    """The words of a description that can match code: without a leading request ("Find the
    function that"), function words and single letters, which match names such as
    ``find_file`` by accident."""
    return [w for w in words(_REQUEST.sub("", question)) if w not in FUNCTION_WORDS and len(w) > 1]


def bm25_search(chunks: Sequence[str], question: str) -> list[tuple[str, float]]:
    """BM25 (Okapi) over the definitions of every chunk: names ranked for the question."""
    from rank_bm25 import BM25Okapi

    found: dict[str, Definition] = {}
    for chunk in chunks:
        for definition in definitions_in(chunk):
            found.setdefault(definition.name, definition)
    if not found:
        return []
    # a definition's name counts twice: where a name says what the code does, it says it best
    corpus = [words(d.name) * NAME_WEIGHT + words(d.source) for d in found.values()]
    scores = BM25Okapi(corpus).get_scores(query_words(question) or words(question))
    return sorted(zip(found, (float(s) for s in scores), strict=True), key=lambda p: -p[1])
