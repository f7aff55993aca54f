"""Algorithm 1 of the paper as a stream of events, inside a context budget that never overflows.

For each chunk d_i: r_i <- LLM(T, q, S, m_i, d_i); m_{i+1} <- ReviseMemory(m_i, r_i). Then
answer <- LLM(T_final, q, S, m_{n+1}). How a step turns its chunk into revisions is the run's
method (:mod:`prism_edge.methods`: the model writes them, or scores what the program offers);
the runner keeps everything around it, whatever the method: the place in the input, the budget,
cutting, folding, the counts, the metrics and the events. The library never prints:
:meth:`PrismRunner.run` yields an :class:`Event` per step and ends with :class:`Finished`,
which holds the :class:`RunResult` (answer, final memory, metrics).

Context budget. Before every step the runner asks the method how many chunk tokens fit beside
its prompt (for the paper's method: the static prefix, the rendered memory and the output
budget). When the chunk does not fit, it is cut at a natural boundary and the rest goes on to
the next step (nothing is dropped), down to ``min_chunk_tokens``; below that floor, when the
memory is in the prompt as amendments, they are folded into the base object when that frees
the room; only when the memory alone leaves no room does the run stop with
:class:`BudgetExceeded`, which carries the numbers and the memory so far.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from prism_edge.backends import Backend
from prism_edge.core.config import PrismConfig
from prism_edge.core.events import (
    COUNTS,
    Answered,
    BudgetExceeded,
    ChunkCut,
    Event,
    Finished,
    MemoryFolded,
    RunResult,
    StepDone,
)
from prism_edge.core.memory import Memory
from prism_edge.core.metrics import RunMetrics
from prism_edge.core.schema import Schema
from prism_edge.methods.base import Method
from prism_edge.methods.written import GrammarFor, WrittenRevisions
from prism_edge.text.chunking import split_to_fit

__all__ = [
    "Answered",
    "BudgetExceeded",
    "ChunkCut",
    "Event",
    "Finished",
    "MemoryFolded",
    "Position",
    "PrismConfig",
    "PrismRunner",
    "RunResult",
    "StepDone",
    "run_prism",
]


@dataclass
class Position:
    """Where a run stands in its input: chunks taken from the source, text still to read."""

    consumed: int = 0
    pending: list[str] = field(default_factory=list)


# --- the runner ------------------------------------------------------------------------------


class PrismRunner:
    """One PRISM run over one backend with one method; resumable from a memory and a step
    count."""

    def __init__(
        self,
        backend: Backend,
        schema: Schema,
        config: PrismConfig,
        *,
        method: Method | None = None,
        memory: Memory | None = None,
        metrics: RunMetrics | None = None,
        grammar_for: GrammarFor | None = None,
    ) -> None:
        self.backend = backend
        self.schema = schema
        self.config = config
        self.method = method or WrittenRevisions(schema, config, grammar_for)
        self.method.check(backend, schema)
        self.memory = memory or Memory(schema, config.encoding)
        if self.memory.encoding != config.encoding:
            raise ValueError("memory encoding differs from the configured encoding")
        self.metrics = metrics or RunMetrics()
        self.result = RunResult(None, self.memory, self.metrics, method=self.method.name)
        self.position = Position()
        self._prepared = False
        self._suited = False
        self._engine_note: str | None = None

    def snapshot(self) -> dict[str, Any]:
        """What :meth:`restore` needs to continue this run, as JSON-able data: the place in the
        input, the memory, the method's own state, the metrics, the counts and the answer."""
        result = self.result
        return {
            "position": {"consumed": self.position.consumed, "pending": self.position.pending},
            "memory": self.memory.state(),
            "method": {"name": self.method.name, "state": self.method.state()},
            "metrics": self.metrics.state(),
            "counts": {name: getattr(result, name) for name in COUNTS},
            "answer": result.answer,
            "ranking": [[name, value] for name, value in result.ranking],
        }

    def restore(
        self,
        memory: Memory,
        metrics: RunMetrics,
        position: Position,
        counts: dict[str, int],
        answer: str | None,
        method_state: dict[str, Any] | None = None,
        ranking: list[tuple[str, float]] | None = None,
    ) -> None:
        """Continue a saved run: its memory, metrics, place in the input, counts, answer and
        the method's own state."""
        if memory.encoding != self.config.encoding:
            raise ValueError("memory encoding differs from the configured encoding")
        self.memory = self.result.memory = memory
        self.metrics = self.result.metrics = metrics
        self.position = position
        for name in COUNTS:
            setattr(self.result, name, int(counts.get(name, 0)))
        self.result.answer = answer
        self.result.ranking = list(ranking or [])
        self.method.restore(method_state or {})

    # budget helpers

    def room_for_chunk(self) -> int:
        """Chunk tokens that fit beside the method's prompt (the memory, for the paper's
        method) and its output budget."""
        return self.method.room(self)

    def _fold_if_it_helps(self, index: int, needed_room: int) -> MemoryFolded | None:
        if not self.method.can_fold:
            return None
        if self.memory.encoding != "amendments" or not self.memory.amendments:
            return None
        memory_before = self.memory_tokens()
        saved = self.memory.state()
        self.memory.fold()
        if self.method.room(self) < needed_room or self.memory_tokens() >= memory_before:
            self.memory = self.result.memory = Memory.from_state(self.schema, saved)
            return None
        return MemoryFolded(index, memory_before, self.memory_tokens())

    def memory_tokens(self) -> int:
        return sum(len(self.backend.tokenize(p)) for p in self.memory.render_parts())

    def _overflow(self, what: str, needed: int) -> BudgetExceeded:
        return BudgetExceeded(needed, self.backend.n_ctx, what, self.result)

    # the loop

    def prepare(self, chunks: Iterable[str]) -> None:
        """The method's pre-pass over the whole input (once per run, resumed or not); the
        chunks are iterated again for the steps, so a one-shot iterator is not accepted."""
        if iter(chunks) is chunks:
            raise TypeError("the chunks must be iterable more than once (a list, a ChunkSource)")
        if not self._prepared:
            self.method.prepare(chunks)
            self._prepared = True

    def steps(self, chunks: Iterable[str]) -> Iterator[Event]:
        """The steps over ``chunks``; cut chunks continue in the following steps.

        Resuming: the first ``position.consumed`` chunks are skipped and ``position.pending``
        (the rest of a cut chunk) is read first, so a resumed run sees exactly the text an
        uninterrupted one would.
        """
        if iter(chunks) is chunks:
            chunks = list(chunks)  # a one-shot iterator: held, to be read twice
        self.prepare(chunks)
        position = self.position
        pending: deque[str] = deque(position.pending)
        source = iter(chunks)
        for _ in range(position.consumed):
            if next(source, None) is None:
                raise ValueError("the checkpoint is past the end of the input")
        while True:
            if not pending:
                nxt = next(source, None)
                if nxt is None:
                    return
                position.consumed += 1
                if not nxt.strip():
                    continue
                pending.append(nxt)
            chunk = pending.popleft()
            for event in self._fit_and_step(chunk, pending):
                position.pending = list(pending)
                yield event

    def _fit_and_step(self, chunk: str, pending: deque[str]) -> Iterator[Event]:
        index = self.result.steps
        chunk_tokens = len(self.backend.tokenize(chunk))
        room = self.room_for_chunk()
        floor = min(self.config.min_chunk_tokens, chunk_tokens)
        if room < floor:
            folded = self._fold_if_it_helps(index, floor)
            if folded is not None:
                yield folded
                room = self.room_for_chunk()
        if room < floor:
            used = self.backend.n_ctx - room
            raise self._overflow(
                "the prompt (instructions, schema, memory), the smallest chunk "
                "and the output budget",
                used + floor,
            )
        if chunk_tokens > room:
            head, rest = split_to_fit(chunk, room, lambda t: len(self.backend.tokenize(t)))
            pending.appendleft(rest)
            yield ChunkCut(index, chunk_tokens, room)
            chunk, chunk_tokens = head, len(self.backend.tokenize(head))
        step = self.method.step(self, index, chunk, chunk_tokens)
        self.result.count(step)
        yield step

    def answer(self) -> Iterator[Event]:
        """The final answer, from the memory alone (folded first when that makes it fit)."""
        needed = self.method.answer_needs(self)
        if needed > self.backend.n_ctx:
            folded = self._fold_if_it_helps(self.result.steps, 0)
            if folded is not None:
                yield folded
                needed = self.method.answer_needs(self)
        if needed > self.backend.n_ctx:
            raise self._overflow("the final-answer prompt and its output budget", needed)
        yield from self.method.answer(self)

    def ask(self) -> Iterator[Event]:
        """Answer the config's question from the (restored) memory alone: a later question
        to a recorded run, no input read; under the engine the run's method is suited to."""
        needed = self.method.answer_needs(self)
        if needed > self.backend.n_ctx:
            raise self._overflow("the final-answer prompt and its output budget", needed)
        self.suit()
        yield from self.method.ask(self)

    def preflight(self, floor: int | None = None) -> None:
        """Fail before any compute when even the current memory leaves no room for a chunk of
        ``floor`` tokens (default: ``min_chunk_tokens``) or for the answer."""
        floor = self.config.min_chunk_tokens if floor is None else floor
        room = self.room_for_chunk()
        if room < floor:
            raise self._overflow(
                "instructions, schema, memory, a chunk of at least "
                f"{floor} tokens and the output budget",
                self.backend.n_ctx - room + floor,
            )
        needed = self.method.answer_needs(self)
        if needed > self.backend.n_ctx:
            raise self._overflow("the final-answer prompt and its output budget", needed)

    def suit(self) -> str | None:
        """Set the backend's engine up for this run's method (:meth:`Backend.suit`), once,
        before the first call; returns the setting chosen and why (None: nothing to say)."""
        if not self._suited:
            self._suited = True
            self._engine_note = self.backend.suit(self.method.decode_share)
        return self._engine_note

    def run(self, chunks: Iterable[str], floor: int | None = None) -> Iterator[Event]:
        """Every step, then the answer, then :class:`Finished` (checked first with
        :meth:`preflight` for a chunk of ``floor`` tokens; the engine suited to the method
        first, outside the run's wall time, as loading the model is)."""
        self.preflight(floor)
        self.suit()
        start = time.perf_counter()
        wall_before = self.metrics.wall_s
        try:
            yield from self.steps(chunks)
            yield from self.answer()
        finally:
            self.metrics.wall_s = wall_before + time.perf_counter() - start
        yield Finished(self.result)


def run_prism(
    backend: Backend,
    schema: Schema,
    config: PrismConfig,
    chunks: Iterable[str],
    method: Method | None = None,
) -> RunResult:
    """Run PRISM to the end and return the result (events are discarded)."""
    runner = PrismRunner(backend, schema, config, method=method)
    for _ in runner.run(chunks):
        pass
    return runner.result
