"""Methods side by side on one backend and the same chunks: the paper's Table 2, measured.

Each method starts from a cold KV cache, so none profits from another's prefix. Next to each
method's wall time stands its physical bound on this machine: every net prompt token and every
decoded token charged at the speed measured at its KV depth, in the same run
(``SpeedProfile``).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from prism_edge.backends import Backend
from prism_edge.core.config import PrismConfig
from prism_edge.core.events import BudgetExceeded, StepDone
from prism_edge.core.footprint import Footprint, mb, peak_rss_bytes, reset_peak
from prism_edge.core.metrics import RunMetrics, SpeedProfile
from prism_edge.engine.session import Session, counter
from prism_edge.eval.baselines import (
    DECODE_SHARES,
    BaselineConfig,
    hierarchical,
    incremental,
    lead_sentences,
    long_context,
)
from prism_edge.eval.quality import (
    Entity,
    Faithfulness,
    Needle,
    Recall,
    entity_recall,
    holds_answer,
    junk_of,
    names_function,
    role_accuracy,
)
from prism_edge.methods import ScoredDefinitions, ScoredNames, TableFacts, make
from prism_edge.methods.base import Method
from prism_edge.methods.definitions import bm25_search
from prism_edge.methods.names import NothingToSummarize
from prism_edge.methods.presets import Task
from prism_edge.text.chunking import chunk_documents
from prism_edge.text.inputs import Document

PRISM_VARIANTS = {
    "PRISM in-place": ("in-place", False, False),
    "PRISM in-place add-only": ("in-place", True, False),
    "PRISM amendments": ("amendments", False, False),
    "PRISM amendments add-only": ("amendments", True, False),
}
"""The paper's four PRISM variants: (memory encoding, add-only, grounded)."""
GROUNDED_VARIANTS = {
    "PRISM amendments grounded": ("amendments", False, True),
    "PRISM in-place grounded": ("in-place", False, True),
}
"""Beyond the paper: what is stored must come from the chunk (``--grounded``)."""
DEFINITION_VARIANTS: dict[str, dict[str, Any]] = {
    "PRISM definitions": {"formulation": "likelihood", "shortlist": 0},
    "PRISM definitions yes-no": {"formulation": "yes-no", "shortlist": 0},
    "PRISM definitions + BM25 shortlist": {"formulation": "likelihood", "shortlist": 8},
}
"""Code search in which the model scores the chunks' own definitions (formulation, BM25
shortlist; a shortlist makes it a separately named method)."""
NAME_VARIANTS: dict[str, dict[str, Any]] = {
    "PRISM names": {"scoring": "pmi"},
    "PRISM names likelihood": {"scoring": "likelihood"},
    "names without the model": {"scoring": "frequency"},
    "PRISM names + frequency": {"scoring": "pmi+frequency"},
    "PRISM names gated 0.25": {"scoring": "pmi", "margin": 0.25},
    "PRISM names gated 0.5": {"scoring": "pmi", "margin": 0.5},
    "PRISM names gated 1": {"scoring": "pmi", "margin": 1.0},
    "names + model descriptions": {"scoring": "frequency", "describe": "model"},
}
"""Summaries in which the model scores each chunk's names (methods/names.py): the passage's
likelihood of a name normalised by its likelihood without the passage (pmi), or not; and the
same method with the model taken out (names ranked by how often and how widely the text names
them so far: the ablation); and gated: frequency ranks, the model reorders only the names whose
frequency score lies within the margin of where the kept names end."""
TABLE_VARIANTS: dict[str, dict[str, Any]] = {
    "PRISM tables": {"chooser": "model"},
    "tables without the model": {"chooser": "program"},
}
"""Table questions answered by the program's queries, the ranker's best with the model's
feature added or, for comparison, the learned ranker alone (methods/tables/)."""
BM25 = "BM25 definitions"
"""What a user would pick instead for code search: BM25 over the same definitions."""
LEAD = "lead sentences"
"""What a user gets without a model for a summary: each chunk's lead sentence."""
METHODS = ("long context", "incremental", "hierarchical", *PRISM_VARIANTS)
"""The paper's Table 2."""
ALL_METHODS = (
    *METHODS,
    LEAD,
    *GROUNDED_VARIANTS,
    *NAME_VARIANTS,
    BM25,
    *DEFINITION_VARIANTS,
    *TABLE_VARIANTS,
)
TASK_METHODS = {
    "summarize": (
        *METHODS,
        LEAD,
        "names without the model",
        "PRISM amendments grounded",
        "PRISM names",
    ),
    "code-search": (*METHODS, BM25, "PRISM definitions", "PRISM definitions + BM25 shortlist"),
    "table-qa": (*METHODS, *TABLE_VARIANTS),
}
"""``bench`` without ``--methods``: the paper's table, what a user would pick instead, and
the PRISM variants that measured best for the task (benchmarks/results/jungle-quality-*,
definition-search-*)."""


def default_methods(task: str) -> tuple[str, ...]:
    return TASK_METHODS.get(task, METHODS)


TABLE_NEEDLE_METHODS = ("incremental", "PRISM amendments", *TABLE_VARIANTS)
"""Table questions, one at a time: the paper's baseline and PRISM, the table method and the
same method without the model."""


def needle_methods(task: str) -> tuple[str, ...]:
    return TABLE_NEEDLE_METHODS if task == "table-qa" else NEEDLE_METHODS


NEEDLE_METHODS = (
    "incremental",
    BM25,
    "PRISM amendments",
    "PRISM definitions",
    "PRISM definitions + BM25 shortlist",
)
"""Needle accuracy runs every method once per needle: the baselines (BM25 included), the
paper's PRISM and the best measured one (benchmarks/results/definition-search-*.txt)."""
SWEPT = "PRISM amendments add-only"
"""The method the chunk-size sweep runs (the paper's figure)."""
"""Needle accuracy runs every method once per needle: by default the paper's pair."""


@dataclass(frozen=True)
class BenchTask:
    """What every method is asked: a task, its question, and what the answers are scored on."""

    task: Task
    question: str
    entities: tuple[Entity, ...] = ()
    """Key entities the answer should name (entity recall; none: not measured)."""

    @property
    def summarize(self) -> bool:
        """Hierarchical merging applies to summaries only (as in the paper)."""
        return self.task.name == "summarize"


@dataclass
class MethodRow:
    name: str
    metrics: RunMetrics | None
    answer: str | None = None
    rejected: int | None = None
    not_applicable: str | None = None
    recall: Recall | None = None
    roles: Recall | None = None
    """Role accuracy (entities listed with role words; None: none are)."""
    junk: list[str] | None = None
    """What the answer holds that no kept summary should (summaries: ``junk_of``)."""
    faithfulness: Faithfulness | None = None
    memory: dict[str, Any] | None = None
    """PRISM's final memory (what the answer was written from), for the JSON report."""
    peak_rss: int | None = None
    """The process's peak resident set while the method ran (bytes; footprint.py)."""
    input_tokens: int | None = None
    """Tokens of the input the method read (every chunk's), for its input rate."""
    engine: str = ""
    """The engine setting the method ran with (:meth:`Backend.suit` chose it)."""
    calibration: SpeedProfile | None = None
    """That setting's speed by KV depth, measured in the same run (the bound's rates)."""

    def input_rate(self) -> float | None:
        """Input tokens read per second of the method's wall time."""
        m = self.metrics
        if m is None or not self.input_tokens or m.wall_s <= 0:
            return None
        return self.input_tokens / m.wall_s

    def prefill_ratio(self, prefill_tok_s: float | None) -> float | None:
        """The input rate as a share of ``prefill_tok_s``, the run's fastest depth-0 prefill
        (1: the method reads as fast as the engine's best setting prefills an empty
        context)."""
        rate = self.input_rate()
        if rate is None or not prefill_tok_s or not self.metrics or not self.metrics.calls:
            return None
        return rate / prefill_tok_s

    def over_bound(self) -> float | None:
        """Wall time over the depth-aware bound (1: no time beyond prefill and decode)."""
        bound = self.bound_s()
        if bound is None or bound <= 0 or self.metrics is None:
            return None
        return self.metrics.wall_s / bound

    def bound_s(self) -> float | None:
        if self.calibration is None or self.metrics is None:
            return None
        return self.calibration.bound_s(self.metrics)

    def to_dict(self, prefill_tok_s: float | None) -> dict[str, Any]:
        m = self.metrics
        bound = self.bound_s()
        return {
            "name": self.name,
            "engine": self.engine or None,
            "cache_hit": None if m is None else round(m.cache_hit, 4),
            "prompt_tokens": None if m is None else m.prompt_tokens,
            "net_tokens": None if m is None else m.net_tokens,
            "decoded_tokens": None if m is None else m.decoded_tokens,
            "forced_tokens": None if m is None else m.forced_tokens,
            "cost_index": None if m is None else round(m.cost_index, 6),
            "wall_s": None if m is None else round(m.wall_s, 2),
            "bound_s": None if bound is None else round(bound, 2),
            "input_tokens": self.input_tokens,
            "input_tok_s": _round(self.input_rate(), 1),
            "prefill_ratio": _round(self.prefill_ratio(prefill_tok_s), 3),
            "wall_over_bound": _round(self.over_bound(), 3),
            "rejected": self.rejected,
            "answer": self.answer,
            "not_applicable": self.not_applicable,
            "entity_recall": None if self.recall is None else round(self.recall.value, 4),
            "entities_missed": None if self.recall is None else list(self.recall.missed),
            "role_accuracy": None if self.roles is None else round(self.roles.value, 4),
            "roles_missed": None if self.roles is None else list(self.roles.missed),
            "junk": self.junk,
            "faithfulness": None
            if self.faithfulness is None or self.faithfulness.value is None
            else round(self.faithfulness.value, 4),
            "values_checked": None if self.faithfulness is None else self.faithfulness.total,
            "peak_rss_mb": None if self.peak_rss is None else round(self.peak_rss / 2**20, 1),
            "memory": self.memory,
        }


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


class Calibrations:
    """The engine's speed by KV depth, measured once for each setting a method ran with
    (methods that decode may run with another attention than those that only prefill), right
    after the first method that ran with it (``measure=False``: none is measured)."""

    def __init__(self, backend: Backend, measure: bool = True) -> None:
        self.backend = backend
        self.measure = measure
        self.by_engine: dict[str, SpeedProfile] = {}
        self.fresh: list[str] = []
        """Settings measured since the caller last looked (:meth:`take_fresh`)."""

    def current(self) -> SpeedProfile | None:
        """The profile of the setting the backend has now, measured if it is new."""
        engine = self.backend.engine
        if engine not in self.by_engine and self.measure:
            profile = self.backend.calibrate()
            if profile is None:
                self.measure = False  # a backend that cannot measure: none will be
                return None
            self.by_engine[engine] = profile
            self.fresh.append(engine)
        return self.by_engine.get(engine)

    def include_prefill_engine(self) -> None:
        """Measure the setting a run that only prefills and scores takes, when no method ran
        with it: its depth-0 prefill is what every input rate is set against, so a bench of
        methods that write is not measured against their own slower prefill."""
        if self.measure:
            self.backend.suit(0.0)
            self.current()

    def take_fresh(self) -> list[tuple[str, SpeedProfile]]:
        fresh, self.fresh = self.fresh, []
        return [(engine, self.by_engine[engine]) for engine in fresh]

    @property
    def prefill_tok_s(self) -> float | None:
        """The fastest depth-0 prefill measured: what every method's input rate is set
        against, whichever setting it ran with."""
        return max((p.prefill_tok_s for p in self.by_engine.values()), default=None)

    @property
    def reference(self) -> SpeedProfile | None:
        """The profile of that fastest prefill."""
        return max(self.by_engine.values(), key=lambda p: p.prefill_tok_s, default=None)

    def to_dict(self) -> dict[str, Any]:
        return {engine or "default": p.to_dict() for engine, p in self.by_engine.items()}


def run_methods(
    backend: Backend,
    task: BenchTask,
    chunks: Sequence[str],
    full_text: str,
    *,
    max_tokens: int = 512,
    answer_tokens: int = 512,
    methods: Sequence[str] = METHODS,
    calibrations: Calibrations | None = None,
) -> list[MethodRow]:
    """Every requested method on the same chunks, each from a cold cache, each with the
    engine suited to it (``calibrations``: each row gets its setting's speed profile)."""
    unknown = [m for m in methods if m not in ALL_METHODS]
    if unknown:
        raise ValueError(f"unknown method {unknown[0]!r}; choose from {', '.join(ALL_METHODS)}")
    rows: list[MethodRow] = []
    instruction = task.task.answer_instruction
    base = BaselineConfig(
        task.question, instruction, max_tokens, answer_from_notes=not task.summarize
    )
    input_tokens = sum(len(backend.tokenize(c)) for c in chunks)
    for name in methods:
        backend.reset_cache()
        gc.collect()  # what an earlier method left is not this one's peak
        reset_peak()
        if name == "hierarchical" and not task.summarize:
            rows.append(MethodRow(name, None, not_applicable="summaries only (as in the paper)"))
        elif name == LEAD:
            if not task.summarize:
                rows.append(MethodRow(name, None, not_applicable="summaries only"))
            else:
                # the same budget as the summaries it is compared with: the answer's tokens
                lead = lead_sentences(chunks, answer_tokens, lambda t: len(backend.tokenize(t)))
                rows.append(MethodRow(name, lead.metrics, lead.answer, 0))
        elif name == BM25 or name in DEFINITION_VARIANTS:
            rows.append(_definitions(backend, task, chunks, name, answer_tokens))
        elif name in NAME_VARIANTS:
            rows.append(_names(backend, task, chunks, name, answer_tokens))
        elif name in TABLE_VARIANTS:
            rows.append(_tables(backend, task, chunks, name))
        elif name in ("long context", "incremental", "hierarchical"):
            backend.suit(DECODE_SHARES[name])
            if name == "long context":
                result = long_context(
                    backend,
                    full_text,
                    BaselineConfig(task.question, instruction, answer_tokens),
                )
            else:
                result = (incremental if name == "incremental" else hierarchical)(
                    backend, chunks, base
                )
            metrics = None if result.not_applicable and not result.metrics.calls else result.metrics
            rows.append(
                MethodRow(name, metrics, result.answer, not_applicable=result.not_applicable)
            )
        else:
            encoding, add_only, grounded = {**PRISM_VARIANTS, **GROUNDED_VARIANTS}[name]
            config = task.task.configure(
                task.question,
                encoding=encoding,
                add_only=add_only,
                grounded=grounded,
                max_tokens=max_tokens,
                answer_max_tokens=answer_tokens,
            )
            rows.append(_prism(backend, task, chunks, name, config))
        rows[-1].peak_rss = peak_rss_bytes()
        if rows[-1].metrics is not None:
            rows[-1].input_tokens = input_tokens
            rows[-1].engine = backend.engine
            if calibrations is not None and rows[-1].metrics.calls:
                rows[-1].calibration = calibrations.current()
        if task.entities and rows[-1].metrics is not None and rows[-1].answer is not None:
            rows[-1].recall = entity_recall(rows[-1].answer, task.entities)
            if any(e.roles for e in task.entities):
                rows[-1].roles = role_accuracy(rows[-1].answer, task.entities)
        if task.summarize and rows[-1].answer is not None:
            rows[-1].junk = junk_of(rows[-1].answer)
    return rows


def _definitions(
    backend: Backend,
    task: BenchTask,
    chunks: Sequence[str],
    name: str,
    answer_tokens: int,
) -> MethodRow:
    """BM25 or definition-grounded PRISM (code search only)."""
    if task.task.name != "code-search":
        return MethodRow(name, None, not_applicable="code search only")
    if name == BM25:
        start = time.perf_counter()
        ranking = bm25_search(chunks, task.question)
        metrics = RunMetrics(wall_s=time.perf_counter() - start)
        return MethodRow(name, metrics, ranking[0][0] if ranking else "", 0)
    if not backend.can_score:
        return MethodRow(name, None, not_applicable=f"{backend.name} cannot score")
    config = task.task.configure(task.question, answer_max_tokens=answer_tokens)
    method = make(ScoredDefinitions.name, task.task.schema, config, **DEFINITION_VARIANTS[name])
    return _prism(backend, task, chunks, name, config, method)


def _names(
    backend: Backend, task: BenchTask, chunks: Sequence[str], name: str, answer_tokens: int
) -> MethodRow:
    """A summary by scored names (summaries only, on a backend that can score)."""
    if not task.summarize:
        return MethodRow(name, None, not_applicable="summaries only")
    options = NAME_VARIANTS[name]
    model = options["scoring"] != "frequency" or options.get("describe") == "model"
    if model and not backend.can_score:
        return MethodRow(name, None, not_applicable=f"{backend.name} cannot score")
    config = task.task.configure(task.question, answer_max_tokens=answer_tokens)
    method = make(ScoredNames.name, task.task.schema, config, **NAME_VARIANTS[name])
    return _prism(backend, task, chunks, name, config, method)


def _tables(backend: Backend, task: BenchTask, chunks: Sequence[str], name: str) -> MethodRow:
    """Table questions by the program's facts (table-qa only)."""
    if task.task.name != "table-qa":
        return MethodRow(name, None, not_applicable="table questions only")
    options = TABLE_VARIANTS[name]
    if options["chooser"] == "model" and not backend.can_score:
        return MethodRow(name, None, not_applicable=f"{backend.name} cannot score")
    config = task.task.configure(task.question)
    method = make(TableFacts.name, task.task.schema, config, **options)
    return _prism(backend, task, chunks, name, config, method)


def _prism(
    backend: Backend,
    task: BenchTask,
    chunks: Sequence[str],
    name: str,
    config: PrismConfig,
    method: Method | None = None,
) -> MethodRow:
    """A PRISM variant through the session, as ``prism-edge run`` drives it."""
    session = Session(backend, task.task.schema, config, chunks, method=method)
    faithful = Faithfulness()
    stopped = None
    try:
        for event in session.events():
            if isinstance(event, StepDone):
                faithful.add_step(event.chunk, event.applied)
    except (BudgetExceeded, NothingToSummarize) as exc:
        stopped = f"stopped: {exc}"
    result = session.result
    return MethodRow(
        name,
        result.metrics,
        None if stopped else result.answer,
        result.rejected,
        not_applicable=stopped,
        faithfulness=faithful,
        memory=result.memory.data,
    )


def sweep(
    backend: Backend,
    task: BenchTask,
    documents: Sequence[Document],
    sizes: Sequence[int],
    done: dict[int, MethodRow],
    *,
    max_tokens: int,
    answer_tokens: int,
    calibrations: Calibrations | None,
) -> list[dict[str, Any]]:
    """The paper's chunk-size figure: PRISM amendments add-only at each chunk size (a size
    whose row ``done`` holds already is not run again)."""
    full = "\n\n".join(d.text for d in documents)
    points = []
    for size in sizes:
        row = done.get(size)
        if row is None:
            chunks = chunk_documents(documents, size, counter(backend))
            row = run_methods(
                backend,
                task,
                chunks,
                full,
                max_tokens=max_tokens,
                answer_tokens=answer_tokens,
                methods=(SWEPT,),
                calibrations=calibrations,
            )[0]
        reference = None if calibrations is None else calibrations.prefill_tok_s
        points.append({"chunk_tokens": size, **row.to_dict(reference)})
    return points


def sweep_table(points: Sequence[dict[str, Any]]) -> str:
    lines = [
        "| chunk tokens | net tokens | decoded tokens | cost index | cache hit % |",
        "|---|---|---|---|---|",
    ]
    for p in points:
        lines.append(
            f"| {p['chunk_tokens']} | {p['net_tokens']} | {p['decoded_tokens']} | "
            f"{p['cost_index']} | {100 * (p['cache_hit'] or 0):.0f} |"
        )
    return "\n".join(lines)


@dataclass
class NeedleRow:
    name: str
    hits: list[bool]
    answers: list[str | None]

    @property
    def accuracy(self) -> float:
        return sum(self.hits) / len(self.hits) if self.hits else 0.0


def run_needles(
    backend: Backend,
    task: BenchTask,
    chunks: Sequence[str],
    full_text: str,
    needles: Sequence[Needle],
    *,
    methods: Sequence[str],
    max_tokens: int = 512,
    answer_tokens: int = 512,
    on_answer: Callable[[int, str, bool, str | None], None] | None = None,
) -> list[NeedleRow]:
    """Each needle's description as the question, every method on it: accuracy per method.
    ``on_answer(needle index, method, hit, answer)`` is called as each answer comes (a long
    run shows, and keeps, its results as they come)."""
    rows = {m: NeedleRow(m, [], []) for m in methods}
    matches = names_function if task.task.name == "code-search" else holds_answer
    for index, needle in enumerate(needles):
        asked = replace(task, question=needle.query)
        for row in run_methods(
            backend,
            asked,
            chunks,
            full_text,
            max_tokens=max_tokens,
            answer_tokens=answer_tokens,
            methods=methods,
        ):
            if row.metrics is None and row.answer is None:
                continue  # not applicable to this input: no accuracy either way
            hit = matches(row.answer, needle.expected)
            rows[row.name].hits.append(hit)
            rows[row.name].answers.append(row.answer)
            if on_answer is not None:
                on_answer(index, row.name, hit, row.answer)
    return [r for r in rows.values() if r.hits]


def needle_report(rows: Sequence[NeedleRow], needles: Sequence[Needle]) -> dict[str, Any]:
    """The needles and each method's hits and answers, as ``bench --needles --json`` writes."""
    return {
        "needles": [{"query": n.query, "expected": n.expected} for n in needles],
        "methods": [
            {"name": r.name, "accuracy": r.accuracy, "hits": r.hits, "answers": r.answers}
            for r in rows
        ],
    }


def needle_table(rows: Sequence[NeedleRow], needles: Sequence[Needle]) -> str:
    lines = [
        "| method | accuracy | " + " | ".join(n.expected for n in needles) + " |",
        "|---|---|" + "---|" * len(needles),
    ]
    for row in rows:
        marks = " | ".join("yes" if h else "no" for h in row.hits)
        lines.append(
            f"| {row.name} | {row.accuracy:.2f} ({sum(row.hits)}/{len(row.hits)}) | {marks} |"
        )
    return "\n".join(lines)


def markdown_table(
    rows: Sequence[MethodRow],
    prefill_tok_s: float | None,
    footprint: Footprint | None = None,
) -> str:
    """The paper's Table 2 with wall time and its physical bound, peak memory, then the quality
    measures that were taken (entity recall when entities were given, PRISM's faithfulness
    proxy); under it the model file's and KV cache's sizes. ``x prefill`` is each input rate
    over ``prefill_tok_s``, the run's fastest depth-0 prefill; a method that ran with another
    engine setting than the first says which after its name."""
    first = next((r.engine for r in rows if r.metrics is not None and r.metrics.calls), "")
    recall = any(r.recall is not None for r in rows)
    roles = any(r.roles is not None for r in rows)
    faithful = any(r.faithfulness is not None for r in rows)
    extra = (
        (" entity recall |" if recall else "")
        + (" role accuracy |" if roles else "")
        + (" faithful |" if faithful else "")
    )
    lines = [
        "| method | cache hit % | total tokens | net tokens | output tokens | cost index | "
        "wall s | bound s | input tok/s | x prefill | wall/bound | rejected | peak RSS MB |"
        + extra,
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
        + "---|" * (recall + roles + faithful),
    ]
    for row in rows:
        m = row.metrics
        if m is None:
            lines.append(
                f"| {row.name} | n/a: {row.not_applicable} | | | | | | | | | | | |"
                + " |" * (recall + roles + faithful)
            )
            continue
        bound = row.bound_s()
        note = f" ({row.not_applicable})" if row.not_applicable else ""
        if row.engine and row.engine != first and m.calls:
            note += f" [{row.engine}]"
        cells = [
            f"{100 * m.cache_hit:.0f}",
            str(m.prompt_tokens),
            str(m.net_tokens),
            str(m.decoded_tokens),
            f"{m.cost_index:.4f}",
            f"{m.wall_s:.1f}",
            "" if bound is None else f"{bound:.1f}",
            _cell(row.input_rate(), "{:.0f}"),
            _cell(row.prefill_ratio(prefill_tok_s), "{:.2f}"),
            _cell(row.over_bound(), "{:.2f}"),
            "" if row.rejected is None else str(row.rejected),
            mb(row.peak_rss),
        ]
        if recall:
            r = row.recall
            cells.append(
                ""
                if r is None
                else f"{r.value:.2f} ({len(r.found)}/{len(r.found) + len(r.missed)})"
            )
        if roles:
            r = row.roles
            cells.append(
                ""
                if r is None
                else f"{r.value:.2f} ({len(r.found)}/{len(r.found) + len(r.missed)})"
            )
        if faithful:
            f = row.faithfulness
            cells.append(
                "" if f is None or f.value is None else f"{f.value:.2f} ({f.supported}/{f.total})"
            )
        lines.append(f"| {row.name}{note} | " + " | ".join(cells) + " |")
    if footprint is not None:
        lines.append("")
        lines.append(
            f"model file {mb(footprint.model_bytes)} MB, KV cache {mb(footprint.kv_bytes)} MB "
            f"(peak RSS per method: the process's resident set while it ran)"
        )
    return "\n".join(lines)


def _cell(value: float | None, form: str) -> str:
    return "" if value is None else form.format(value)


def plot_sweep(points: Sequence[dict[str, Any]], path: Path) -> None:
    """The paper's chunk-size figure: net encoded, decoded and weighted cost per chunk size."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = [p["chunk_tokens"] for p in points]
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6))
    series = (
        ("net_tokens", "net encoded tokens"),
        ("decoded_tokens", "decoded tokens"),
        ("cost_index", "weighted cost (net + 3 x decoded) / 1e6"),
    )
    for ax, (key, title) in zip(axes, series, strict=True):
        ax.plot(sizes, [p[key] for p in points], marker="o")
        ax.set_xscale("log", base=2)
        ax.set_xticks(sizes, [str(s) for s in sizes])
        ax.set_xlabel("chunk size (tokens)")
        ax.set_title(title, fontsize=10)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
