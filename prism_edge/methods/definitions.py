"""Code search in which the model chooses and never spells: definition-grounded PRISM.

A small model cannot write a function's name it has seen once, but it can say which of a few
functions it is shown fits a description. So, chunk by chunk, the definitions the chunk holds
(found by a parser: :mod:`prism_edge.text.code`) are the only candidates; the model *scores*
each against the description (:meth:`Backend.score`), the best few enter the memory under
their own names, described by their own lines; at the end every stored entry is scored against
the description from the memory alone, and the best one is the answer (with its score).

Two ways to ask, compared in ``benchmarks/results/``:

* ``likelihood``: how likely the model finds the description after reading the definition
  (log P(description | definition); the description is the same for every candidate, so this
  ranks as the pointwise mutual information does);
* ``yes-no``: after the description and the definition, log P("Yes") - log P("No").

BM25 over the same definitions (:func:`bm25_search`) is what a user would reach for instead;
with a shortlist, only BM25's best definitions over the whole input are scored (the method's
pre-pass).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, Literal

from prism_edge.backends import Backend
from prism_edge.core.config import PrismConfig
from prism_edge.core.events import Answered, Event, StepDone
from prism_edge.core.metrics import CallMetrics
from prism_edge.core.revisions import Revision
from prism_edge.core.schema import Schema
from prism_edge.methods.base import Capability, Context, Method, MethodError, score
from prism_edge.prompts import Part, Prompt
from prism_edge.text.bm25 import bm25_scores, query_words, words
from prism_edge.text.code import Definition, definitions_in

Formulation = Literal["likelihood", "yes-no"]
FIELD = "candidate_functions"
NAME_WEIGHT = 2
"""BM25 reads a definition's name this many times: where a name says what the code does, it
says it best."""
SOURCE_ROOM = 64
"""Tokens of the context kept for the instructions and the description beside a definition
(a longer definition is scored by its head)."""


@dataclass(frozen=True)
class DefinitionsOptions:
    """How code search by definitions chooses (the method's own settings)."""

    formulation: Formulation = "likelihood"
    keep: int = 3
    """Definitions of a chunk that enter the memory: its best-scored ones."""
    shortlist: int = 0
    """Score only BM25's best ``shortlist`` definitions over the whole input (0: all)."""


class ScoredDefinitions(Method):
    """Each step scores the chunk's own definitions against the description; the best few
    enter the memory, described by their own lines. The answer: every stored entry scored
    from the memory alone, the best first."""

    name: ClassVar[str] = "definitions"
    needs: ClassVar[frozenset[Capability]] = frozenset({"score"})
    option_names: ClassVar[tuple[str, ...]] = ("formulation", "keep", "shortlist")
    score_meaning: ClassVar[str] = "log-probability of the description given it"

    def __init__(self, config: PrismConfig, options: DefinitionsOptions | None = None) -> None:
        self.config = config
        self.options = options or DefinitionsOptions()
        self.allowed: set[str] | None = None

    def check(self, backend: Backend, schema: Schema) -> None:
        if schema.root.field(FIELD) is None:
            raise MethodError(
                f"--method definitions needs a schema with {FIELD} (the code-search task)"
            )
        super().check(backend, schema)

    def settings(self) -> dict[str, Any]:
        return asdict(self.options)

    def prepare(self, chunks: Sequence[str]) -> None:
        if self.options.shortlist:
            ranked = bm25_search(chunks, self.config.question)
            self.allowed = {name for name, _ in ranked[: self.options.shortlist]}

    def room(self, run: Context) -> int:
        # a chunk is never in a prompt: each of its definitions is, on its own (cut to fit)
        return run.backend.n_ctx

    def step(self, run: Context, index: int, chunk: str, chunk_tokens: int) -> StepDone:
        stored = run.memory.data.get(FIELD, {})
        allowed = self.allowed
        fresh = {
            d.name: d
            for d in definitions_in(chunk)
            if d.name not in stored and (allowed is None or d.name in allowed)
        }
        calls: list[CallMetrics] = []
        applied: list[Revision] = []
        rejected = []
        if fresh:
            texts = [d.source for d in fresh.values()]
            scores = self.scores(run, texts, self.config.question, calls)
            ranked = sorted(zip(scores, fresh.values(), strict=True), key=lambda p: -p[0])
            report = run.memory.revise(_add(d) for _, d in ranked[: self.options.keep])
            applied, rejected = list(report.applied), list(report.rejected)
        return StepDone(
            index, chunk_tokens, applied, rejected, tuple(calls), run.memory_tokens(), chunk=chunk
        )

    def scores(
        self, run: Context, candidates: Sequence[str], question: str, calls: list[CallMetrics]
    ) -> list[float]:
        """The model's score of each candidate text for the description (higher: better)."""
        out = []
        for text in candidates:
            prompt, continuations = self._prompt(run.backend, text, question)
            scored, made = score(run.backend, prompt, continuations, run.metrics)
            calls += made
            if self.options.formulation == "likelihood":
                out.append(scored[0].logprob)
            else:
                out.append(scored[0].logprob - scored[1].logprob)
        return out

    def _prompt(self, backend: Backend, candidate: str, question: str) -> tuple[Prompt, list[str]]:
        prompt, continuations = candidate_prompt(self.options.formulation, candidate, question)
        longest = max(len(backend.tokenize(c)) for c in continuations)
        room = backend.n_ctx - SOURCE_ROOM - longest
        while backend.count_tokens(prompt) > room and len(candidate) > 1:
            # a definition longer than the context is scored by its head
            tokens = len(backend.tokenize(candidate))
            over = backend.count_tokens(prompt) - room
            candidate = candidate[: len(candidate) * max(1, tokens - over) // tokens - 1]
            prompt, continuations = candidate_prompt(self.options.formulation, candidate, question)
        return prompt, continuations

    def answer(self, run: Context) -> Iterator[Event]:
        """Every stored entry scored for the description from the memory alone (no source);
        the best is the answer and the ranking holds them all, best first."""
        entries = run.memory.data.get(FIELD, {})
        answer = ""
        if entries:
            texts = [entry_text(name, entry) for name, entry in entries.items()]
            scores = self.scores(run, texts, self.config.question, [])
            ranking = sorted(zip(entries, scores, strict=True), key=lambda p: -p[1])
            run.result.ranking = ranking
            answer = ranking[0][0]
        run.result.answer = answer
        yield Answered(answer, None)


def candidate_prompt(
    formulation: Formulation, candidate: str, question: str
) -> tuple[Prompt, list[str]]:
    if formulation == "likelihood":
        parts = (
            Part("Here is a definition from a code base.\n\n"),
            Part(candidate, "document"),
            Part("\n\nDescribe what it does, its input, its output and how it works."),
        )
        return Prompt(parts), [question]
    parts = (
        Part(f"Description: {question}\n\nCandidate:\n"),
        Part(candidate, "document"),
        Part("\n\nDoes the candidate match the description? Answer Yes or No."),
    )
    return Prompt(parts), ["Yes", "No"]


def entry_text(name: str, entry: dict[str, str]) -> str:
    """A stored entry as the final scoring reads it: the memory alone, no source."""
    return (
        f"{name}\npurpose: {entry.get('purpose', '')}\ninput: {entry.get('input', '')}\n"
        f"output: {entry.get('output', '')}\nprocedure: {entry.get('procedure', '')}"
    )


def _add(definition: Definition) -> Revision:
    segments = (FIELD, definition.name)
    path = f"$.'{FIELD}'.'{definition.name}'"
    return Revision(path, segments, "add", definition.describe())


def bm25_search(chunks: Sequence[str], question: str) -> list[tuple[str, float]]:
    """BM25 (Okapi) over the definitions of every chunk: names ranked for the question."""
    found: dict[str, Definition] = {}
    for chunk in chunks:
        for definition in definitions_in(chunk):
            found.setdefault(definition.name, definition)
    if not found:
        return []
    corpus = [words(d.name) * NAME_WEIGHT + words(d.source) for d in found.values()]
    scores = bm25_scores(corpus, query_words(question) or words(question))
    return sorted(zip(found, scores, strict=True), key=lambda p: -p[1])
