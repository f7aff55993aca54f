"""The methods: how each step of PRISM's loop turns a chunk into revisions.

Owns the registry of methods (the only place a method is named by a string), how ``auto``
chooses one from what the model is, and each method's module: ``written`` (the paper's: the
model writes revisions), ``names`` (summaries: the model scores the chunk's names),
``definitions`` (code search: the model scores the chunk's definitions), ``tables`` (table
questions: the program computes candidate answers, the model chooses). A method may import
the core (schema, memory, revisions, metrics, events, config), the text helpers, grammars,
prompts and backends; never the runner, the session or the application.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from prism_edge.core.config import PrismConfig
from prism_edge.core.schema import Schema
from prism_edge.methods.base import Method, MethodError
from prism_edge.methods.definitions import DefinitionsOptions, ScoredDefinitions
from prism_edge.methods.names import NamesOptions, ScoredNames
from prism_edge.methods.outline.method import Outlined
from prism_edge.methods.tables import TableFacts
from prism_edge.methods.written import WrittenRevisions

METHODS: dict[str, type[Method]] = {
    WrittenRevisions.name: WrittenRevisions,
    ScoredNames.name: ScoredNames,
    ScoredDefinitions.name: ScoredDefinitions,
    TableFacts.name: TableFacts,
    Outlined.name: Outlined,
}
"""Every method by its name (``--method``, the history, the checkpoint)."""
AUTO = "auto"
WRITTEN = WrittenRevisions.name

SCORED_BELOW = 1_000_000_000
"""``auto`` lets models with fewer parameters than this choose by scores, and larger ones
write revisions. Measured here: both shipped models (135M, 270M) name 18 and 20 of the Jungle
Book's 36 key entities by names, and 0 to 2 by writing revisions (benchmarks/results/
jungle-quality-*, jungle-names-*); the paper's revisions were written by a frontier model
(Gemini 1.5 Pro). No model between was measured: 1B is where instruction-tuned models are
commonly reported to start following a JSON format reliably, so ``--method`` overrides it."""


MODEL_FREE: dict[str, dict[str, Any]] = {
    ScoredNames.name: {"scoring": "frequency"},
    ScoredDefinitions.name: {"formulation": "bm25"},
    TableFacts.name: {"chooser": "program"},
    Outlined.name: {"choose": "program"},
}
"""Each scored method with the model taken out (``--no-model``): names ranked by how often
and how widely the input names them, definitions by BM25, table answers by the learned
ranker. The program's ranking every scored method is measured against."""
MODEL_FREE_BELOW: dict[str, str] = {
    ScoredNames.name: "SmolLM2's scores added nothing to a summary on 11 texts, 4 of them held out",
    Outlined.name: "SmolLM2's choice of each part's sentence did not beat the program's on "
    "held-out texts",
    TableFacts.name: "SmolLM2's likelihood beside the learned ranker answered 127 of 300 "
    "WikiTableQuestions dev questions where the ranker alone answers 128",
}
"""Scored methods that ``auto`` runs without the model on models under :data:`SCORED_BELOW`,
with the measurement that says why (docs/benchmarks.md holds it with its command): where the
model did not add its share on held-out text, a user should not wait for it."""
SCORED_EVIDENCE = (
    "below 1B parameters a model chooses among what the program extracts: both shipped models "
    "name 18 and 20 of the Jungle Book's 36 key entities by scores, 0 to 2 by writing "
    "revisions, and find 7 of 10 code needles by scores where BM25 finds 4"
)
"""Why a small model chooses by scores (``--verbose``, docs/methods.md)."""
SCORED_EVIDENCE_OF: dict[str, str] = {
    TableFacts.name: "the model's likelihood of the question after each of the ranker's best "
    "four queries, beside the learned ranker (v5) and asked only where its best answer's "
    "probability is under 0.5, answers 127 of 300 WikiTableQuestions dev questions against "
    "128 without it (asked for 148 of them); a model of 1B or more is not measured",
}
"""A scored method's own evidence, where it was measured apart."""
WRITTEN_EVIDENCE = (
    "1B parameters is where instruction-tuned models are commonly reported to follow a JSON "
    "format reliably; no model between 270M and 1B was measured here"
)


@dataclass(frozen=True)
class Choice:
    """The method a run uses and why (the plan line says both), with the options the choice
    implies (the model-free ranking: :data:`MODEL_FREE`)."""

    name: str
    reason: str
    """Why, in a few words (the plan line's)."""
    options: tuple[tuple[str, Any], ...] = ()
    evidence: str = ""
    """What the choice rests on, measured or reported (``run --verbose``, the docs)."""

    @property
    def model_free(self) -> bool:
        return bool(self.options) and dict(self.options) == MODEL_FREE.get(self.name)


def size_label(parameters: int) -> str:
    if parameters >= 1e9:
        return f"{parameters / 1e9:.3g}B"
    return f"{parameters / 1e6:.3g}M"


class ModelFacts(Protocol):
    """What ``auto`` reads of a model: a backend, or a tokenizer that read the model file's
    header (``inspect`` plans as ``run`` without loading weights)."""

    @property
    def name(self) -> str: ...

    @property
    def parameters(self) -> int | None: ...

    @property
    def can_score(self) -> bool: ...


def choose(
    asked: str, scored_method: str | None, backend: ModelFacts, no_model: bool = False
) -> Choice:
    """The method of a run: ``asked`` unless it is ``auto``; then, for a task that has a
    scored method, that one on a model under :data:`SCORED_BELOW` parameters that can score
    (without the model where :data:`MODEL_FREE_BELOW` says it did not earn its time), and the
    model-written revisions otherwise. ``no_model``: the scored method's model-free ranking,
    whatever the model."""
    if no_model:
        name = scored_method if asked == AUTO else asked
        if name is None or name not in MODEL_FREE:
            what = f"--method {name}" if name else "this task"
            raise MethodError(
                f"--no-model: {what} has no ranking without the model; "
                f"the scored methods {', '.join(MODEL_FREE)} have one"
            )
        return Choice(name, "--no-model: the program ranks alone", _options(name))
    if asked != AUTO:
        if asked not in METHODS:
            raise MethodError(f"unknown method {asked!r}; choose from {', '.join(METHODS)}")
        return Choice(asked, "as asked")
    if scored_method is None:
        return Choice(WRITTEN, "auto: this task has no scored method")
    size = backend.parameters
    if size is None:
        return Choice(WRITTEN, "auto: the model does not say its size, so it writes revisions")
    label = size_label(size)
    if size >= SCORED_BELOW:
        return Choice(WRITTEN, f"auto: a {label} model writes revisions", evidence=WRITTEN_EVIDENCE)
    if scored_method in MODEL_FREE_BELOW:  # no scores needed: any backend will do
        return Choice(
            scored_method,
            f"auto: on a {label} model the program ranks alone; --method {scored_method} "
            "adds the model",
            _options(scored_method),
            MODEL_FREE_BELOW[scored_method],
        )
    if not backend.can_score and scored_method == TableFacts.name:  # answers computed, ranked
        return Choice(
            scored_method,
            f"auto: {backend.name} cannot score, so the program ranks alone",
            _options(scored_method),
        )
    if not backend.can_score:
        return Choice(
            WRITTEN, f"auto: a {label} model, but {backend.name} cannot score, so it writes"
        )
    evidence = SCORED_EVIDENCE_OF.get(scored_method, SCORED_EVIDENCE)
    if scored_method == TableFacts.name:  # the model loaded and asked only there
        how = "scores where the ranker is not sure"
        return Choice(scored_method, f"auto: a {label} model {how}", evidence=evidence)
    return Choice(scored_method, f"auto: a {label} model chooses by scores", evidence=evidence)


def _options(name: str) -> tuple[tuple[str, Any], ...]:
    return tuple(MODEL_FREE[name].items())


def make(name: str, schema: Schema, config: PrismConfig, **options: Any) -> Method:
    """The method ``name`` for a run, with its own options (``shortlist=8``...); an option
    the method does not take is a :class:`MethodError`."""
    if name not in METHODS:
        raise MethodError(f"unknown method {name!r}; choose from {', '.join(METHODS)}")
    ignored = [key for key in options if key not in METHODS[name].option_names]
    if ignored:
        raise MethodError(f"--method {name} takes no {', '.join(ignored)}")
    if name == ScoredNames.name:
        return ScoredNames(config, NamesOptions(**options))
    if name == ScoredDefinitions.name:
        return ScoredDefinitions(config, DefinitionsOptions(**options))
    if name == TableFacts.name:
        return TableFacts(config, **options)
    if name == Outlined.name:
        return Outlined(config, **options)
    return WrittenRevisions(schema, config)


__all__ = [
    "AUTO",
    "METHODS",
    "MODEL_FREE",
    "MODEL_FREE_BELOW",
    "SCORED_BELOW",
    "SCORED_EVIDENCE",
    "WRITTEN_EVIDENCE",
    "Choice",
    "DefinitionsOptions",
    "Method",
    "MethodError",
    "NamesOptions",
    "Outlined",
    "ScoredDefinitions",
    "ScoredNames",
    "TableFacts",
    "WrittenRevisions",
    "choose",
    "make",
]


def own_options(name: str, given: dict[str, Any]) -> dict[str, Any]:
    """Of ``given`` (a command's method options), those method ``name`` takes."""
    return {key: value for key, value in given.items() if key in METHODS[name].option_names}
