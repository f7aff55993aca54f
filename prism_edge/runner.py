"""Algorithm 1 of the paper as a stream of events, inside a context budget that never overflows.

For each chunk d_i: r_i <- LLM(T, q, S, m_i, d_i); m_{i+1} <- ReviseMemory(m_i, r_i). Then
answer <- LLM(T_final, q, S, m_{n+1}). The library never prints: :meth:`PrismRunner.run`
yields an :class:`Event` per step and ends with :class:`Finished`, which holds the
:class:`RunResult` (answer, final memory, metrics).

Context budget. Before every call the runner knows the tokens of the static prefix, the
rendered memory, the chunk and the output budget. When the chunk does not fit the room left,
it is cut at a natural boundary and the rest goes on to the next step (nothing is dropped),
down to ``min_chunk_tokens``; below that floor, in amendments mode, the amendments are folded
into the base object when that frees the room; only when the memory alone leaves no room does
the run stop with :class:`BudgetExceeded`, which carries the numbers and the memory so far.
"""

from __future__ import annotations

import json
import re
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from prism_edge.backends import Backend, Completion, Grammar, Sampling
from prism_edge.chunking import split_to_fit
from prism_edge.errors import ContextOverflow, RevisionError
from prism_edge.grammar import (
    GrammarLimits,
    answer_grammar,
    outline_grammar,
    prose_grammar,
    string_slots,
)
from prism_edge.grounding import (
    FUNCTION_WORDS,
    Grounding,
    GroundingKind,
    case_variants,
    whole_word,
    words_of,
)
from prism_edge.memory import Encoding, Memory, dumps
from prism_edge.metrics import CallMetrics, RunMetrics
from prism_edge.prompts import Prompt, PromptBuilder, Style, reask_prompt
from prism_edge.revisions import Revision, parse_output
from prism_edge.schema import Schema, prompt_text
from prism_edge.step_grammar import StepGrammar

GrammarFor = Callable[[Memory, str], "Grammar | None"]
"""The grammar of a revision step, from the memory and the chunk the step reads."""
"""Given the current memory, the GBNF grammar for the next revision call (or None)."""


GROUNDED_REPEAT_PENALTY = 1.15
"""Revision calls' repeat penalty in a grounded run unless set: measured on the Jungle Book's
first 4 chunks, SmolLM2-135M stores nothing at 1.0 and 5 revisions at 1.15, all faithful."""


class PrismConfig(BaseModel):
    """Settings of one PRISM run."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    question: str = Field(min_length=1)
    encoding: Encoding = "amendments"
    add_only: bool = False
    style: Style = "compact"
    answer_instruction: str = ""
    answer_choices: str | None = Field(
        None, description="a root dict field whose keys are the only allowed answers"
    )
    answer_outline: str | None = Field(
        None,
        description="in a grounded run, a root dict field whose keys open the paragraphs of "
        "the answer, in memory order",
    )
    example: str = ""
    max_tokens: int = Field(512, ge=16, description="output budget of a revision call")
    answer_max_tokens: int = Field(512, ge=1, description="output budget of the final answer")
    max_revisions: int | None = Field(
        None, ge=1, description="revisions applied per step at most; the rest are rejected"
    )
    min_chunk_tokens: int = Field(
        128, ge=1, description="chunks are not cut below this; fold or stop instead"
    )
    temperature: float = Field(0.0, ge=0.0)
    seed: int | None = None
    repeat_penalty: float | None = Field(
        None,
        ge=1.0,
        description="on revision calls; by default 1.15 in a grounded run (a grounded small "
        "model otherwise writes empty sections: benchmarks/quality_settings.py), else 1.0",
    )
    answer_repeat_penalty: float = Field(1.15, ge=1.0, description="on the final answer")
    reasks: int = Field(
        1,
        ge=0,
        description="re-asks per step when revisions fail validation (a backend that "
        "ignores the grammar); what still fails is rejected",
    )
    grammar: bool = Field(
        True, description="constrain revisions with a grammar when the backend supports it"
    )
    grounded: bool = Field(
        False,
        description="with a grammar: new keys are word spans of the chunk, strings are made of "
        "its words, and a prose answer only uses words of the memory, the question and English "
        "function words",
    )
    grounding: GroundingKind = Field(
        "words",
        description="in a grounded run, what new keys and strings are: word spans and words of "
        "the chunk, or (extractive) its names and whole sentences",
    )


# --- events ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class StepDone:
    index: int
    """0-based number of the revision step (a cut chunk spans several steps)."""
    chunk_tokens: int
    applied: list[Revision]
    rejected: list[RevisionError]
    call: CallMetrics
    memory_tokens: int
    finish_reason: str
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
    call: CallMetrics
    kind: Literal["answer"] = "answer"


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
    """Last lines left incomplete when an output hit its token budget (dropped)."""
    reasked: int = 0
    """Invalid revisions sent back with their errors (re-asks; then applied or rejected)."""
    rejections: list[RevisionError] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "answer": self.answer,
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


COUNTS = ("steps", "applied", "rejected", "duplicates", "cut", "reasked")
"""The revision counts of a :class:`RunResult` a checkpoint carries."""


@dataclass(frozen=True)
class Finished:
    result: RunResult
    kind: Literal["finished"] = "finished"


Event = StepDone | ChunkCut | MemoryFolded | Answered | Finished


@dataclass
class Position:
    """Where a run stands in its input: chunks taken from the source, text still to read."""

    consumed: int = 0
    pending: list[str] = field(default_factory=list)


class BudgetExceeded(ContextOverflow):
    """The memory has outgrown the context; ``result`` holds the memory and metrics so far."""

    hint = (
        "raise --ctx, lower --max-revisions or the output budget, use add-only mode or a "
        "smaller schema; the memory so far was kept"
    )

    def __init__(self, needed: int, n_ctx: int, what: str, result: RunResult) -> None:
        super().__init__(needed, n_ctx, what)
        self.result = result


# --- the runner ------------------------------------------------------------------------------


class PrismRunner:
    """One PRISM run over one backend; resumable from a memory and a step count."""

    def __init__(
        self,
        backend: Backend,
        schema: Schema,
        config: PrismConfig,
        *,
        memory: Memory | None = None,
        metrics: RunMetrics | None = None,
        grammar_for: GrammarFor | None = None,
    ) -> None:
        self.backend = backend
        self.schema = schema
        self.config = config
        self.memory = memory or Memory(schema, config.encoding)
        if self.memory.encoding != config.encoding:
            raise ValueError("memory encoding differs from the configured encoding")
        self.metrics = metrics or RunMetrics()
        self.prompts = PromptBuilder(
            config.question, prompt_text(schema), config.style, config.answer_instruction
        )
        if grammar_for is None and config.grammar and backend.supports_grammar:
            # the strings of one line share the output budget (2 characters a token, a
            # conservative rate), so a whole line fits and is rarely cut
            share = config.max_tokens * 2 // string_slots(schema)
            limits = GrammarLimits(
                max_revisions=config.max_revisions or 8, max_string=max(24, min(400, share))
            )

            def grammar_for(memory: Memory, chunk: str) -> Grammar | None:
                grounding = (
                    Grounding.of(chunk, kind=config.grounding, max_chars=limits.max_string)
                    if config.grounded
                    else None
                )
                return StepGrammar(
                    schema, memory.data, config.add_only, limits, grounding=grounding
                )

        self.grammar_for = grammar_for
        self.result = RunResult(None, self.memory, self.metrics)
        self.position = Position()

    def snapshot(self) -> dict[str, Any]:
        """What :meth:`restore` needs to continue this run, as JSON-able data: the place in the
        input, the memory, the metrics, the counts and the answer."""
        result = self.result
        return {
            "position": {"consumed": self.position.consumed, "pending": self.position.pending},
            "memory": self.memory.state(),
            "metrics": self.metrics.state(),
            "counts": {name: getattr(result, name) for name in COUNTS},
            "answer": result.answer,
        }

    def restore(
        self,
        memory: Memory,
        metrics: RunMetrics,
        position: Position,
        counts: dict[str, int],
        answer: str | None,
    ) -> None:
        """Continue a saved run: its memory, metrics, place in the input, counts and answer."""
        if memory.encoding != self.config.encoding:
            raise ValueError("memory encoding differs from the configured encoding")
        self.memory = self.result.memory = memory
        self.metrics = self.result.metrics = metrics
        self.position = position
        for name in COUNTS:
            setattr(self.result, name, int(counts.get(name, 0)))
        self.result.answer = answer

    # budget helpers

    def _revise_prompt(self, chunk: str) -> Prompt:
        return self.prompts.revise(self.memory.render_parts(), chunk)

    def room_for_chunk(self) -> int:
        """Chunk tokens that fit beside the static prefix, the memory and the output budget."""
        used = self.backend.count_tokens(self._revise_prompt(""))
        return self.backend.n_ctx - used - self.config.max_tokens

    def _fold_if_it_helps(self, index: int, needed_room: int) -> MemoryFolded | None:
        if self.memory.encoding != "amendments" or not self.memory.amendments:
            return None
        before = self.backend.count_tokens(self.prompts.revise(self.memory.render_parts(), ""))
        after = self.backend.count_tokens(self.prompts.revise([dumps(self.memory.data)], ""))
        room_after = self.backend.n_ctx - after - self.config.max_tokens
        if after >= before or room_after < needed_room:
            return None
        memory_before = self._memory_tokens()
        self.memory.fold()
        return MemoryFolded(index, memory_before, self._memory_tokens())

    def _memory_tokens(self) -> int:
        return sum(len(self.backend.tokenize(p)) for p in self.memory.render_parts())

    def _overflow(self, what: str, needed: int) -> BudgetExceeded:
        return BudgetExceeded(needed, self.backend.n_ctx, what, self.result)

    # the loop

    def steps(self, chunks: Iterable[str]) -> Iterator[Event]:
        """Revision steps over ``chunks``; cut chunks continue in the following steps.

        Resuming: the first ``position.consumed`` chunks are skipped and ``position.pending``
        (the rest of a cut chunk) is read first, so a resumed run sees exactly the text an
        uninterrupted one would.
        """
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
        yield self._step(index, chunk, chunk_tokens)

    def _step(self, index: int, chunk: str, chunk_tokens: int) -> StepDone:
        prompt = self._revise_prompt(chunk)
        grammar = self.grammar_for(self.memory, chunk) if self.grammar_for else None
        completion = self._call(prompt, grammar, self.config.max_tokens, self._revision_penalty)
        call = self._record("revise", completion)
        applied, rejected = self._apply_output(completion, self.config.max_revisions)
        for _ in range(self.config.reasks):
            invalid = [e for e in rejected if e.kind == "invalid"]
            if not invalid:
                break
            # a backend that ignored the grammar: show the errors, ask for those lines again
            rejected = [e for e in rejected if e.kind != "invalid"]
            self.result.reasked += len(invalid)
            retry = reask_prompt(prompt, completion.text, [str(e) for e in invalid])
            grammar = self.grammar_for(self.memory, chunk) if self.grammar_for else None
            completion = self._call(retry, grammar, self.config.max_tokens, self._revision_penalty)
            self._record("reask", completion)
            fixed, still = self._apply_output(completion, len(invalid))
            applied += fixed
            rejected += still
        self.result.steps += 1
        self.result.applied += len(applied)
        for error in rejected:
            if error.kind == "duplicate":
                self.result.duplicates += 1
            elif error.kind == "cut":
                self.result.cut += 1
            else:
                self.result.rejected += 1
        self.result.rejections.extend(rejected)
        return StepDone(
            index,
            chunk_tokens,
            applied,
            rejected,
            call,
            self._memory_tokens(),
            completion.finish_reason,
            chunk,
        )

    def _apply_output(
        self, completion: Completion, limit: int | None
    ) -> tuple[list[Revision], list[RevisionError]]:
        """Parse an output and apply its revisions, each atomically: (applied, rejected)."""
        parsed = parse_output(completion.text)
        proposed, over = parsed.revisions, []
        if limit is not None and len(proposed) > limit:
            proposed, extra = proposed[:limit], proposed[limit:]
            over = [
                RevisionError(r.path, r.op, f"over the limit of {limit} revisions per step")
                for r in extra
            ]
        report = self.memory.revise(proposed, add_only=self.config.add_only)
        if completion.finish_reason == "length":
            last = len(completion.text.rstrip("\n").splitlines())
            for error in parsed.rejected:
                if error.path == f"line {last}":
                    error.kind = "cut"  # the output budget ran out inside this line
        return list(report.applied), parsed.rejected + report.rejected + over

    def answer(self) -> Iterator[Event]:
        """The final call: answer the question from the memory alone."""
        prompt = self.prompts.final(self.memory.render_parts())
        needed = self.backend.count_tokens(prompt) + self.config.answer_max_tokens
        if needed > self.backend.n_ctx:
            folded = self._fold_if_it_helps(self.result.steps, 0)
            if folded is not None:
                yield folded
                prompt = self.prompts.final(self.memory.render_parts())
                needed = self.backend.count_tokens(prompt) + self.config.answer_max_tokens
        if needed > self.backend.n_ctx:
            raise self._overflow("the final-answer prompt and its output budget", needed)
        grammar = None
        constrained = self.config.grammar and self.backend.supports_grammar
        if self.config.answer_choices and constrained:
            choices = self.memory.data.get(self.config.answer_choices) or {}
            grammar = answer_grammar(sorted(choices))
        elif self.config.grounded and constrained:
            words = self._answer_words()
            outline = self.memory.data.get(self.config.answer_outline or "")
            if isinstance(outline, dict) and outline:
                keys = by_mentions(outline, self.memory.data)
                grammar = outline_grammar(keys, words, self.config.answer_max_tokens)
            else:
                grammar = prose_grammar(words, self.config.answer_max_tokens)
        completion = self._call(
            prompt, grammar, self.config.answer_max_tokens, self.config.answer_repeat_penalty
        )
        call = self._record("answer", completion)
        text = completion.text
        if grammar is not None and completion.finish_reason == "length":
            text = _whole_words(text)  # the budget ran out inside a word: drop its head
        self.result.answer = text.strip()
        yield Answered(self.result.answer, call)

    def _answer_words(self) -> set[str]:
        """What a grounded answer may say: the memory's words, the question's and English
        function words (not the answer instruction's: small models echo it)."""
        said = json.dumps(self.memory.data, ensure_ascii=False)
        return case_variants([*words_of(said), *words_of(self.config.question), *FUNCTION_WORDS])

    def preflight(self) -> None:
        """Fail before any compute when even an empty memory leaves no room to work."""
        floor = self.config.min_chunk_tokens
        step = self.backend.n_ctx - self.room_for_chunk() + floor
        if step > self.backend.n_ctx:
            raise self._overflow(
                "instructions, schema, memory, a chunk of at least "
                f"{floor} tokens and the output budget",
                step,
            )
        final = self.backend.count_tokens(self.prompts.final(self.memory.render_parts()))
        if final + self.config.answer_max_tokens > self.backend.n_ctx:
            raise self._overflow(
                "the final-answer prompt and its output budget",
                final + self.config.answer_max_tokens,
            )

    def run(self, chunks: Iterable[str]) -> Iterator[Event]:
        """Every revision step, then the answer, then :class:`Finished`."""
        self.preflight()
        start = time.perf_counter()
        wall_before = self.metrics.wall_s
        try:
            yield from self.steps(chunks)
            yield from self.answer()
        finally:
            self.metrics.wall_s = wall_before + time.perf_counter() - start
        yield Finished(self.result)

    @property
    def _revision_penalty(self) -> float:
        if self.config.repeat_penalty is not None:
            return self.config.repeat_penalty
        return GROUNDED_REPEAT_PENALTY if self.config.grounded else 1.0

    def _call(
        self, prompt: Prompt, grammar: Grammar | None, max_tokens: int, repeat_penalty: float
    ) -> Completion:
        sampling = Sampling(
            max_tokens, self.config.temperature, self.config.seed, repeat_penalty=repeat_penalty
        )
        return self.backend.complete(prompt, grammar=grammar, sampling=sampling)

    def _record(self, kind: str, completion: Completion) -> CallMetrics:
        call = CallMetrics(
            kind,
            completion.prompt_tokens,
            completion.reused_tokens,
            completion.decoded_tokens,
            completion.seconds,
            completion.prefill_seconds,
            completion.forced_tokens,
        )
        self.metrics.add(call)
        return call


def _whole_words(text: str) -> str:
    """``text`` up to its last whole word (a grounded answer cut by its budget says only
    words the memory holds)."""
    match = re.search(r"[\s,.;:!?()\-]+\S*$", text)
    return text[: match.start()] if match else ""


def by_mentions(entries: dict[str, Any], memory: dict[str, Any]) -> list[str]:
    """The keys of ``entries``, most mentioned in the whole memory first (ties: stored order):
    how often each name stands, as a whole word, in what the memory holds."""
    said = json.dumps(memory, ensure_ascii=False)
    counts = {key: len(whole_word(key).findall(said)) for key in entries}
    return sorted(entries, key=lambda key: -counts[key])


def run_prism(
    backend: Backend, schema: Schema, config: PrismConfig, chunks: Iterable[str]
) -> RunResult:
    """Run PRISM to the end and return the result (events are discarded)."""
    runner = PrismRunner(backend, schema, config)
    for _ in runner.run(chunks):
        pass
    return runner.result
