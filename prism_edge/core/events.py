"""What a run reports as it goes (events) and what it ends with (:class:`RunResult`).

The runner yields an event per step and ends with :class:`Finished`; a method's step builds
the :class:`StepDone` of its step, and its answer the :class:`Answered`. These are plain data,
shared by the methods and the runner that drives them, and read by the command line, the
history and the benchmarks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from prism_edge.core.errors import ContextOverflow, RevisionError
from prism_edge.core.memory import Memory
from prism_edge.core.metrics import CallMetrics, RunMetrics
from prism_edge.core.revisions import Revision


@dataclass(frozen=True)
class StepDone:
    index: int
    """0-based number of the step (a cut chunk spans several steps)."""
    chunk_tokens: int
    applied: list[Revision]
    rejected: list[RevisionError]
    calls: tuple[CallMetrics, ...]
    """The model calls the step made (a revision and its re-asks, or the scores)."""
    memory_tokens: int
    finish_reason: str = "stop"
    """How the step's (last) generation ended: ``stop``, ``length``; ``stop`` for scores."""
    chunk: str = field(default="", repr=False)
    """The text the step read (a cut chunk's head)."""
    kind: Literal["step"] = "step"


@dataclass(frozen=True)
class ChunkCut:
    """The chunk did not fit the room left; ``rest_tokens`` go on to the next step."""

    index: int
    chunk_tokens: int
    room_tokens: int
    kind: Literal["cut"] = "cut"


@dataclass(frozen=True)
class MemoryFolded:
    """Amendments were folded into the base object to free room."""

    index: int
    tokens_before: int
    tokens_after: int
    kind: Literal["fold"] = "fold"


@dataclass(frozen=True)
class Answered:
    answer: str
    call: CallMetrics | None
    """The answer's model call; None when the method answered without one (scored methods
    that pick from the memory)."""
    kind: Literal["answer"] = "answer"


@dataclass(frozen=True)
class Computed:
    """One computed answer of a table question: its values, the query that computed them
    (as SQL a user can run, and in words) and the ranker's probability for it."""

    values: tuple[str | float, ...]
    sql: str
    said: str
    probability: float
    places: int | None = None
    """The decimal places its numbers are said to (an average: two beyond its values'),
    their own value kept whole in ``values``; None: as computed."""

    def to_dict(self) -> dict[str, Any]:
        return {"values": list(self.values), "sql": self.sql, "said": self.said,
                "probability": round(self.probability, 4)}  # fmt: skip


@dataclass(frozen=True)
class TableAnswer:
    """A table question's answer: the best computed answer, the runner-up with other values,
    and whether the ranker is sure (``None`` answers: the question names nothing the tables
    hold, with why)."""

    best: Computed | None
    runner_up: Computed | None = None
    sure: bool = False
    not_in_table: str = ""
    candidates: int = 0
    unheld: tuple[str, ...] = ()
    """The question's words no table accounts for (a reason not to be sure)."""
    tied: tuple[str | float, ...] = ()
    """Other values the best answer ties with, first of the same order ("the most common
    year" where three years have as many rows): which one is first is arbitrary, so the
    answer is not sure."""

    @property
    def values(self) -> list[str | float]:
        return list(self.best.values) if self.best else []

    def to_dict(self) -> dict[str, Any]:
        return {
            "values": self.values,
            "best": self.best.to_dict() if self.best else None,
            "runner_up": self.runner_up.to_dict() if self.runner_up else None,
            "sure": self.sure,
            "not_in_table": self.not_in_table,
            "candidates": self.candidates,
            "unheld": list(self.unheld),
            "tied": list(self.tied),
        }


@dataclass
class RunResult:
    answer: str | None
    memory: Memory
    metrics: RunMetrics
    steps: int = 0
    applied: int = 0
    rejected: int = 0
    """Invalid revisions (should stay 0 under a grammar)."""
    duplicates: int = 0
    """Revisions that repeated what was stored (dropped; a looping model)."""
    cut: int = 0
    """Last lines left incomplete when an output hit its token budget or fell into a loop
    (dropped)."""
    reasked: int = 0
    """Invalid revisions sent back with their errors (re-asks; then applied or rejected)."""
    rejections: list[RevisionError] = field(default_factory=list)
    method: str = "revisions"
    """The method that revised the memory (``prism_edge.methods``)."""
    ranking: list[tuple[str, float]] = field(default_factory=list)
    """A scored method's final candidates with their scores, best first (else empty)."""
    score_meaning: str = ""
    """What the ranking's scores are, when the method says (else its class's
    :attr:`~prism_edge.methods.base.Method.score_meaning`)."""
    no_answer: str | None = None
    """Why the run found no answer (no definition in the code, not in the table), when it
    found none; the answer then says so in words. None: answered."""

    @property
    def found(self) -> bool:
        """Whether the run answered (the command line's exit status 0; 1 when not)."""
        return self.no_answer is None and bool(self.answer)

    table: TableAnswer | None = None
    """A table question's computed answer (the table method's), else None."""

    def count(self, step: StepDone) -> None:
        """Add a finished step's revisions to the counts."""
        self.steps += 1
        self.applied += len(step.applied)
        for error in step.rejected:
            if error.kind == "duplicate":
                self.duplicates += 1
            elif error.kind == "cut":
                self.cut += 1
            else:
                self.rejected += 1
        self.rejections.extend(step.rejected)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "answer": self.answer,
            "method": self.method,
            "memory": self.memory.data,
            "metrics": self.metrics.to_dict(),
            "revisions": {
                "applied": self.applied,
                "rejected": self.rejected,
                "duplicates": self.duplicates,
                "cut": self.cut,
                "reasked": self.reasked,
            },
            "steps": self.steps,
        }
        if self.ranking:
            out["ranking"] = [[name, score] for name, score in self.ranking]
            if self.score_meaning:
                out["score_meaning"] = self.score_meaning
        out["found"] = self.found
        if self.no_answer is not None:
            out["no_answer"] = self.no_answer
        if self.table is not None:
            out["table"] = self.table.to_dict()
        return out


COUNTS = ("steps", "applied", "rejected", "duplicates", "cut", "reasked")
"""The revision counts of a :class:`RunResult` a checkpoint carries."""


@dataclass(frozen=True)
class Finished:
    result: RunResult
    kind: Literal["finished"] = "finished"


@dataclass(frozen=True)
class FileIndexed:
    """A code file read into a repository's index: parsed, or unchanged since the last
    reading (``engine/index.py``)."""

    done: int
    total: int
    path: str
    definitions: int
    parsed: bool
    kind: Literal["indexed"] = "indexed"


Event = StepDone | ChunkCut | MemoryFolded | Answered | Finished | FileIndexed


class BudgetExceeded(ContextOverflow):
    """The memory has outgrown the context; ``result`` holds the memory and metrics so far."""

    hint = (
        "raise --ctx, lower --max-revisions or the output budget, use add-only mode or a "
        "smaller schema; the memory so far was kept"
    )

    def __init__(self, needed: int, n_ctx: int, what: str, result: RunResult) -> None:
        super().__init__(needed, n_ctx, what)
        self.result = result
