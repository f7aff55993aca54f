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
from typing import Any

from prism_edge.backends import Backend
from prism_edge.core.config import PrismConfig
from prism_edge.core.schema import Schema
from prism_edge.methods.base import Method, MethodError
from prism_edge.methods.definitions import DefinitionsOptions, ScoredDefinitions
from prism_edge.methods.names import NamesOptions, ScoredNames
from prism_edge.methods.tables import TableFacts
from prism_edge.methods.written import WrittenRevisions

METHODS: dict[str, type[Method]] = {
    WrittenRevisions.name: WrittenRevisions,
    ScoredNames.name: ScoredNames,
    ScoredDefinitions.name: ScoredDefinitions,
    TableFacts.name: TableFacts,
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


@dataclass(frozen=True)
class Choice:
    """The method a run uses and why (the plan line says both)."""

    name: str
    reason: str


def size_label(parameters: int) -> str:
    if parameters >= 1e9:
        return f"{parameters / 1e9:.3g}B"
    return f"{parameters / 1e6:.3g}M"


def choose(asked: str, scored_method: str | None, backend: Backend) -> Choice:
    """The method of a run: ``asked`` unless it is ``auto``; then, for a task that has a
    scored method, that one on a model under :data:`SCORED_BELOW` parameters that can score,
    and the model-written revisions otherwise."""
    if asked != AUTO:
        if asked not in METHODS:
            raise MethodError(f"unknown method {asked!r}; choose from {', '.join(METHODS)}")
        return Choice(asked, "as asked")
    if scored_method is None:
        return Choice(WRITTEN, "auto: this task has no scored method")
    size = backend.parameters
    if size is None:
        return Choice(
            WRITTEN, f"auto: {backend.name} does not say its size; the model writes revisions"
        )
    label = size_label(size)
    if size >= SCORED_BELOW:
        return Choice(WRITTEN, f"auto: a {label} model writes revisions (scored below 1B)")
    if not backend.can_score:
        return Choice(
            WRITTEN, f"auto: a {label} model, but {backend.name} cannot score continuations"
        )
    return Choice(scored_method, f"auto: a {label} model chooses by scores (below 1B)")


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
    return WrittenRevisions(schema, config)


__all__ = [
    "AUTO",
    "METHODS",
    "SCORED_BELOW",
    "Choice",
    "DefinitionsOptions",
    "Method",
    "MethodError",
    "NamesOptions",
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
