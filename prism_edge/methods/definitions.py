"""Code search in which the model chooses and never spells: definition-grounded PRISM.

A small model cannot write a function's name it has seen once, but it can say which of a few
functions it is shown fits a description. So, chunk by chunk, the definitions the chunk holds
(found by a parser: :mod:`prism_edge.text.code`) are the only candidates: every one enters the
memory under its own name, described by its own lines (the memory is an index of the code),
and the model *scores* each against the description (:meth:`Backend.score`), the best few of
each chunk becoming the run's candidates. At the end every candidate is scored against the
description from the memory alone, and the best one is the answer (with its score).

A later description (``prism-edge ask``) is answered from the memory without reading the code
again: BM25's best stored definitions for it (:data:`ASK_SHORTLIST`), each scored by the model
from its stored entry.

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

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from prism_edge.backends import Backend
from prism_edge.core.config import PrismConfig
from prism_edge.core.events import Answered, Event, StepDone
from prism_edge.core.metrics import CallMetrics
from prism_edge.core.revisions import Revision
from prism_edge.core.schema import Schema
from prism_edge.methods.base import Capability, Context, Method, score
from prism_edge.prompts import Part, Prompt
from prism_edge.text.bm25 import bm25_scores, code_query, words
from prism_edge.text.code import Definition, Located, definitions_in

Formulation = Literal["likelihood", "yes-no", "bm25"]
"""How a definition is scored against the description: by the model (``likelihood``,
``yes-no``), or by BM25 alone over the stored entries (``bm25``: no model, ``--no-model``)."""
FIELD = "candidate_functions"
NAME_WEIGHT = 2
"""BM25 reads a definition's name this many times: where a name says what the code does, it
says it best."""
ASK_SHORTLIST = 8
"""Stored definitions the model scores for a later description (BM25's best over the memory)."""
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


class DefinitionsState(BaseModel):
    """The shape of a code search's saved state: the run's candidates so far."""

    model_config = ConfigDict(extra="forbid")
    chosen: list[str] = []


class ScoredDefinitions(Method):
    """Each step scores the chunk's own definitions against the description; the best few
    enter the memory, described by their own lines. The answer: every stored entry scored
    from the memory alone, the best first."""

    name: ClassVar[str] = "definitions"
    task_field: ClassVar[str | None] = FIELD
    task_name: ClassVar[str] = "code-search"
    needs: ClassVar[frozenset[Capability]] = frozenset({"score"})
    option_names: ClassVar[tuple[str, ...]] = ("formulation", "keep", "shortlist")
    state_model: ClassVar[type[BaseModel]] = DefinitionsState
    score_meaning: ClassVar[str] = "log-probability of the description given it"
    asks_by_search: ClassVar[bool] = True

    def __init__(self, config: PrismConfig, options: DefinitionsOptions | None = None) -> None:
        self.config = config
        self.options = options or DefinitionsOptions()
        self.allowed: set[str] | None = None
        self.chosen: list[str] = []
        """The run's candidates: each chunk's best-scored definitions, in reading order."""

    def check(self, backend: Backend, schema: Schema) -> None:
        self.check_schema(schema)
        if self.options.formulation != "bm25":
            super().check(backend, schema)

    def settings(self) -> dict[str, Any]:
        return asdict(self.options)

    def state(self) -> dict[str, Any]:
        return {"chosen": list(self.chosen)}

    def restore(self, state: dict[str, Any]) -> None:
        self.chosen = [str(name) for name in state.get("chosen", [])]

    def prepare(self, chunks: Iterable[str]) -> None:
        if self.options.shortlist:
            ranked = bm25_search(list(chunks), self.config.question)
            self.allowed = {name for name, _ in ranked[: self.options.shortlist]}

    def room(self, run: Context) -> int:
        # a chunk is never in a prompt: each of its definitions is, on its own (cut to fit)
        return run.backend.n_ctx

    def step(self, run: Context, index: int, chunk: str, chunk_tokens: int) -> StepDone:
        stored = run.memory.data.get(FIELD, {})
        allowed = self.allowed
        fresh = {d.name: d for d in definitions_in(chunk) if d.name not in stored}
        scored = [d for d in fresh.values() if allowed is None or d.name in allowed]
        calls: list[CallMetrics] = []
        if scored and self.options.formulation != "bm25":  # bm25 ranks at the end, no model
            texts = [d.source for d in scored]
            scores = self.scores(run, texts, self.config.question, calls)
            ranked = sorted(zip(scores, scored, strict=True), key=lambda p: -p[0])
            self.chosen += [d.name for _, d in ranked[: self.options.keep]]
        report = run.memory.revise(_add(d) for d in fresh.values())
        return StepDone(
            index,
            chunk_tokens,
            list(report.applied),
            list(report.rejected),
            tuple(calls),
            run.memory_tokens(),
            chunk=chunk,
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
        """The run's candidates scored for the description from the memory alone (no
        source); the best is the answer and the ranking holds them all, best first."""
        entries = run.memory.data.get(FIELD, {})
        if self.options.formulation == "bm25":
            yield from self._by_bm25(run, entries)
            return
        names = [n for n in dict.fromkeys(self.chosen) if n in entries]
        yield from self._choose(run, names or self.shortlist(entries, self.config.question))

    def _by_bm25(self, run: Context, entries: dict[str, dict[str, str]]) -> Iterator[Event]:
        """The program's answer: BM25 over every stored entry, the best first."""
        texts = {name: entry_text(name, entry) for name, entry in entries.items()}
        ranking = bm25_ranked(texts, self.config.question)[:ASK_SHORTLIST]
        run.result.score_meaning = BM25_MEANING
        yield from _answered(run, ranking)

    def ask(self, run: Context) -> Iterator[Event]:
        """A new description, from the stored definitions alone: BM25's best of them, each
        scored by the model from its stored entry."""
        entries = run.memory.data.get(FIELD, {})
        if self.options.formulation == "bm25":
            yield from self._by_bm25(run, entries)
            return
        yield from self._choose(run, self.shortlist(entries, self.config.question))

    @staticmethod
    def shortlist(entries: dict[str, dict[str, str]], question: str) -> list[str]:
        """BM25's best :data:`ASK_SHORTLIST` stored definitions for ``question``."""
        texts = {name: entry_text(name, entry) for name, entry in entries.items()}
        return [name for name, _ in bm25_ranked(texts, question)[:ASK_SHORTLIST]]

    def _choose(self, run: Context, names: Sequence[str]) -> Iterator[Event]:
        entries = run.memory.data.get(FIELD, {})
        ranking: list[tuple[str, float]] = []
        if names:
            texts = [entry_text(name, entries[name]) for name in names]
            scores = self.scores(run, texts, self.config.question, [])
            ranking = sorted(zip(names, scores, strict=True), key=lambda p: -p[1])
        yield from _answered(run, ranking)

    def search(self, run: Context, index: DefinitionSearch) -> Iterator[Event]:
        """The question over a repository's index (:mod:`prism_edge.engine.index`): BM25's
        best ``shortlist`` located definitions (0: every one), each scored by the model from
        its own lines (``bm25``: BM25's order, no model). The memory holds the shortlist's
        entries, under ``path:line: name``; the best is the answer."""
        ranked = index.ranked(self.config.question)
        size = self.options.shortlist or None
        if self.options.formulation == "bm25":  # BM25's order is the answer: its best few kept
            size = size or ASK_SHORTLIST
        shortlist = ranked[:size]
        found = [located for located, _ in shortlist]
        ranking = [(located.key, value) for located, value in shortlist]
        if found and self.options.formulation != "bm25":
            texts = [scored_text(located.definition) for located in found]
            scores = self.scores(run, texts, self.config.question, [])
            ranking = sorted(
                zip((located.key for located in found), scores, strict=True), key=lambda p: -p[1]
            )
        run.memory.revise(_add_located(located) for located in found)
        if self.options.formulation == "bm25":
            run.result.score_meaning = BM25_MEANING
        yield from _answered(run, ranking)


BM25_MEANING = "BM25 score of its words against the description's"
"""What the scores of a ranking without the model are (``--no-model``)."""
NO_DEFINITION = "no definition found: the code read defines no function, class or method"


def _answered(run: Context, ranking: list[tuple[str, float]]) -> Iterator[Event]:
    """The ranking's best as the answer; with no candidate at all, no answer (said why)."""
    run.result.ranking = ranking
    run.result.answer = ranking[0][0] if ranking else ""
    if not ranking:
        run.result.no_answer = NO_DEFINITION
    yield Answered(run.result.answer, None)


class DefinitionSearch:
    """BM25 over the definitions of an index, built once and asked any number of
    questions."""

    def __init__(self, found: Sequence[Located], reads: BM25Reads | None = None) -> None:
        from rank_bm25 import BM25Okapi

        self.found = list(found)
        corpus = [bm25_words(located.definition, reads or BM25_READS) for located in self.found]
        self._bm25 = BM25Okapi(corpus) if corpus else None

    def ranked(self, question: str) -> list[tuple[Located, float]]:
        """The definitions by BM25 score for ``question``, best first."""
        if self._bm25 is None:
            return []
        scores = self._bm25.get_scores(code_query(question))
        order = sorted(range(len(self.found)), key=lambda i: -scores[i])
        return [(self.found[i], float(scores[i])) for i in order]


BM25Reads = Literal["source", "entry", "both"]
"""What BM25 reads of a definition beside its name: its own lines (the head of its source:
signature, docstring, first statements), its entry (first sentence of its docstring,
parameters, what it returns, first statements), or both."""
BM25_READS: BM25Reads = "both"
"""What a code search's BM25 reads: both, the best on the rule needles (37 of 46 in the top 8,
source 36, entry 33; benchmarks/results/repo-search-shortlist.txt)."""


def bm25_words(definition: Definition, reads: BM25Reads = "source") -> list[str]:
    """What BM25 reads of a definition: its name (split into words) :data:`NAME_WEIGHT`
    times, then its source, its entry or both (:data:`BM25Reads`)."""
    out = words(definition.name) * NAME_WEIGHT
    if reads in ("source", "both"):
        out += words(definition.source)
    if reads in ("entry", "both"):
        d = definition
        out += words(f"{d.purpose} {d.inputs} {d.output} {d.procedure}")
    return out


def scored_text(definition: Definition) -> str:
    """What the model reads of an indexed definition when it scores it: its own lines."""
    return definition.source


SIGNATURE_CHARS = 120


def signature_of(definition: Definition) -> str:
    """A definition as a short reply naming it: ``Owner.name(parameters)``, or ``class
    Name(bases)`` (what the model scores after a description, :func:`named_prompt`)."""
    d = definition
    if d.kind == "class":
        bases = "" if d.inputs.startswith("no base") else f"({d.inputs})"
        return f"class {d.name}{bases}"[:SIGNATURE_CHARS]
    params = "" if d.inputs == "no parameters" else d.inputs
    return f"{d.name}({params})"[:SIGNATURE_CHARS]


def named_prompt(question: str) -> Prompt:
    """The question as a request for the name of what it describes: every candidate's
    signature is scored as the reply to one shared prompt (its cache reused)."""
    return Prompt(
        (
            Part("A function or class in a code base is described like this:\n\n"),
            Part(question, "document"),
            Part("\n\nWhat is its name and what are its parameters?"),
        )
    )


def _add_located(located: Located) -> Revision:
    segments = (FIELD, located.key)
    return Revision(f"$.'{FIELD}'[{located.key!r}]", segments, "add", located.definition.describe())


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
    return bm25_ranked({name: d.source for name, d in found.items()}, question)


def bm25_ranked(texts: dict[str, str], question: str) -> list[tuple[str, float]]:
    """BM25 (Okapi) over definitions given as name -> text (its source, or its stored
    entry), each name read NAME_WEIGHT more times: names ranked for the question."""
    if not texts:
        return []
    corpus = [words(name) * NAME_WEIGHT + words(text) for name, text in texts.items()]
    scores = bm25_scores(corpus, code_query(question))
    return sorted(zip(texts, scores, strict=True), key=lambda p: -p[1])
