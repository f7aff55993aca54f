"""The contract of a method: how one step of PRISM's loop turns a chunk into revisions.

The runner (:mod:`prism_edge.engine.runner`) keeps everything around a step: the place in the input,
cutting a chunk to the room left, folding, the budget, counts, metrics and events; the session
keeps the plan, the context check, the checkpoint and resuming. A :class:`Method` decides only
what a step does with its chunk and how the run answers, and declares:

* what it needs of the backend (``needs``: ``generate``, ``score``);
* how many chunk tokens fit beside its prompt (:meth:`Method.room`);
* its pre-pass over the whole input (:meth:`Method.prepare`: BM25's shortlist);
* its own state beyond the memory (:meth:`Method.state`, :meth:`Method.restore`), saved in the
  checkpoint beside the memory, so ``--resume`` continues exactly;
* its answer, at the end of a run (:meth:`Method.answer`) and for a later question to the
  recorded memory (:meth:`Method.ask`).
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, ClassVar, Literal, Protocol

from pydantic import BaseModel, ConfigDict

from prism_edge.backends import Backend, Scored
from prism_edge.core.config import PrismConfig
from prism_edge.core.errors import BackendError, PrismError
from prism_edge.core.events import Event, RunResult, StepDone
from prism_edge.core.memory import Memory
from prism_edge.core.metrics import CallMetrics, RunMetrics
from prism_edge.core.schema import Schema

Capability = Literal["generate", "score"]


class MethodError(PrismError):
    """A method cannot run as asked (on this backend, this task, with these options)."""

    hint = "prism-edge run --help lists the methods; --method revisions runs on every backend"


class Context(Protocol):
    """What a step reads and changes: the run (the runner is one)."""

    backend: Backend
    schema: Schema
    config: PrismConfig
    memory: Memory
    metrics: RunMetrics
    result: RunResult

    def memory_tokens(self) -> int: ...


class NoState(BaseModel):
    """The state of a method that keeps none beside the memory."""

    model_config = ConfigDict(extra="forbid")


class Method(abc.ABC):
    """How a step turns a chunk into revisions, and how the run answers."""

    name: ClassVar[str]
    needs: ClassVar[frozenset[Capability]]
    option_names: ClassVar[tuple[str, ...]] = ()
    state_model: ClassVar[type[BaseModel]] = NoState
    """The shape of :meth:`state`, checked before a saved state is restored (a damaged one
    is refused naming its file, never restored half-way)."""
    """The method's own options (keyword arguments of :func:`prism_edge.methods.make`)."""
    score_meaning: ClassVar[str] = "the model's score"
    """What the scores of the result's ranking are (shown beside the answer)."""
    can_fold: ClassVar[bool] = False
    """The memory is in the prompt, so folding amendments frees room for the chunk."""
    asks_by_search: ClassVar[bool] = False
    """A later question searches the memory for its best match (code search over stored
    definitions), so an identifier it names that the memory lacks is no reason to refuse it:
    a description says what the code does in words the code need not use."""
    decode_share: ClassVar[float] = 0.0
    """Tokens a run of this method decodes for every prompt token it prefills (0: it only
    prefills and scores); the engine's attention is chosen by it (:meth:`Backend.suit`)."""
    chunk_tokens: ClassVar[int | None] = None
    """The chunk size this method was measured to read best at (answers and speed), which a
    run uses when no chunk size is given (flag, variable or config); None: the run's own."""

    task_field: ClassVar[str | None] = None
    """The schema field this method reads and writes (its task's), None: any schema."""
    task_name: ClassVar[str] = ""
    """The task whose schema has :attr:`task_field` (for the message)."""

    @classmethod
    def check_schema(cls, schema: Schema) -> None:
        """Refuse a schema this method cannot work with: before any model is loaded."""
        if cls.task_field is not None and schema.root.field(cls.task_field) is None:
            raise MethodError(
                f"--method {cls.name} needs a schema with {cls.task_field} (the {cls.task_name} "
                "task)"
            )

    def check(self, backend: Backend, schema: Schema) -> None:
        """Refuse, before any compute, a backend or schema this method cannot work with."""
        self.check_schema(schema)
        if "score" in self.needs and not backend.can_score:
            raise MethodError(
                f"--method {self.name} needs a backend that scores continuations "
                f"({backend.name} cannot); use --method revisions"
            )

    def settings(self) -> dict[str, Any]:
        """What, beside the run's config, decides this method's output (the checkpoint's
        settings digest includes it)."""
        return {}

    def prepare(self, chunks: Iterable[str]) -> None:
        """A pre-pass over the whole input before the first step (default: none). It must
        depend on the chunks alone, so a resumed run prepares the same. The chunks may be
        cut again from their files as they are iterated: a pre-pass that keeps them all holds
        the whole input."""
        del chunks

    @abc.abstractmethod
    def room(self, run: Context) -> int:
        """Chunk tokens that fit beside this method's prompt and its output."""

    @abc.abstractmethod
    def step(self, run: Context, index: int, chunk: str, chunk_tokens: int) -> StepDone:
        """Read ``chunk`` and revise the memory (validated, as every revision is)."""

    @abc.abstractmethod
    def answer(self, run: Context) -> Iterator[Event]:
        """The final answer from the memory alone; ends with :class:`Answered` and sets
        ``run.result.answer``."""

    def answer_needs(self, run: Context) -> int:
        """Context tokens the answer step needs (its prompt and output budget; 0: the answer
        is picked from the memory without a prompt that grows with it)."""
        del run
        return 0

    def ask(self, run: Context) -> Iterator[Event]:
        """Answer ``run.config.question`` from a recorded memory (``prism-edge ask``), never
        reading the input again; by default as the run's own answer is made."""
        yield from self.answer(run)

    def state(self) -> dict[str, Any]:
        """What this method keeps beside the memory, as JSON-able data (default: nothing)."""
        return {}

    def restore(self, state: dict[str, Any]) -> None:
        """Take back what :meth:`state` returned (a resumed run)."""
        del state


def record_score(metrics: RunMetrics, s: Scored) -> CallMetrics:
    """A scored continuation as a call in the paper's accounting (prompt and continuation
    tokens; nothing decoded)."""
    # scoring is all prefill: nothing is decoded
    call = CallMetrics(
        "score", s.prompt_tokens + s.tokens, s.reused_tokens, 0, s.seconds, s.seconds
    )
    metrics.add(call)
    return call


def score(
    backend: Backend, prompt: Any, continuations: Sequence[str], metrics: RunMetrics
) -> tuple[list[Scored], list[CallMetrics]]:
    """``backend.score`` with every scored continuation recorded as a call."""
    if not backend.can_score:
        raise BackendError(f"{backend.name} cannot score; use a local model or --method revisions")
    scored = backend.score(prompt, continuations)
    return scored, [record_score(metrics, s) for s in scored]


def best_by_gain(
    backend: Backend, given: Any, alone: Any, texts: Sequence[str], metrics: RunMetrics
) -> int:
    """The index of the text the context of ``given`` makes likelier most, against ``alone``
    (the same prompt without it): pointwise mutual information, so a text likely anywhere does
    not win for being likely."""
    with_context, _ = score(backend, given, texts, metrics)
    without, _ = score(backend, alone, texts, metrics)
    gain = [a.logprob - b.logprob for a, b in zip(with_context, without, strict=True)]
    return max(range(len(texts)), key=lambda i: gain[i])
