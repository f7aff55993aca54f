"""The paper's baselines on the same backend and chunks: incremental and hierarchical merging
(BooookScore's methods, their prompts rewritten for any task), and a single long-context call.

* **incremental**: a running set of prose notes, rewritten with every chunk (the chunk comes
  first in the prompt, as in BooookScore, so little of it is ever cached); when the notes
  outgrow their word budget they are compressed by another call. For retrieval tasks a final
  call answers from the notes (the paper's adaptation); for summaries the notes are the answer.
* **hierarchical**: notes on every chunk, then merged level by level, as many per call as the
  context holds, until one remains (summaries only, as in the paper).
* **long context**: the whole input in one call, when it fits the context; otherwise the method
  is reported as not applicable with the numbers, never truncated.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from prism_edge.backends import Backend, Sampling
from prism_edge.core.errors import ContextOverflow
from prism_edge.core.metrics import CallMetrics, RunMetrics
from prism_edge.prompts import Prompt, render_prompt
from prism_edge.text.grounding import sentences_of

DECODE_SHARES = {"incremental": 0.35, "hierarchical": 0.13, "long context": 0.02}
"""Tokens each baseline decodes per prompt token it prefills: the medians over the bench
reports kept here (``benchmarks/results/decode_share.txt``; long context: one answer of at
most 512 tokens after a whole input), which the engine is suited to before it runs
(:meth:`Backend.suit`)."""


@dataclass
class BaselineResult:
    name: str
    answer: str | None
    metrics: RunMetrics = field(default_factory=RunMetrics)
    notes: str = ""
    not_applicable: str | None = None
    """Why the method could not run on this input (None: it ran)."""


@dataclass(frozen=True)
class BaselineConfig:
    question: str
    answer_instruction: str = ""
    max_tokens: int = 512
    """Output budget of every call."""
    words: int = 0
    """Word budget of the notes (0: derived from max_tokens)."""
    answer_from_notes: bool = False
    """Retrieval tasks: a final call answers from the notes (summaries: the notes are it)."""
    temperature: float = 0.0
    seed: int | None = None
    repeat_penalty: float = 1.15
    """Curbs loops in prose (the same default as PRISM's final answer)."""

    @property
    def sampling(self) -> Sampling:
        return Sampling(self.max_tokens, self.temperature, self.seed, self.repeat_penalty)

    @property
    def word_budget(self) -> int:
        return self.words or max(32, int(self.max_tokens * 0.6))


def words(text: str) -> int:
    return len(text.split())


class _Caller:
    def __init__(self, backend: Backend, config: BaselineConfig, result: BaselineResult):
        self.backend, self.config, self.result = backend, config, result

    def __call__(self, prompt: Prompt, kind: str) -> str:
        needed = self.backend.count_tokens(prompt) + self.config.max_tokens
        if needed > self.backend.n_ctx:
            raise ContextOverflow(needed, self.backend.n_ctx, f"a {kind} prompt")
        out = self.backend.complete(prompt, sampling=self.config.sampling)
        self.result.metrics.add(
            CallMetrics(kind, out.prompt_tokens, out.reused_tokens, out.decoded_tokens, out.seconds)
        )
        return out.text.strip()


def incremental(backend: Backend, chunks: Sequence[str], config: BaselineConfig) -> BaselineResult:
    result = BaselineResult("incremental", None)
    call = _Caller(backend, config, result)
    start = time.perf_counter()
    budget = config.word_budget
    common = {"question": config.question, "words": budget}
    try:
        notes = ""
        for i, chunk in enumerate(chunks):
            if i == 0:
                prompt = render_prompt("baseline_first.j2", {"text": (chunk, "document")}, **common)
            else:
                prompt = render_prompt(
                    "baseline_incremental.j2",
                    {"text": (chunk, "document"), "notes": (notes, "memory")},
                    **common,
                )
            notes = call(prompt, "update")
            if words(notes) > budget:
                notes = call(
                    render_prompt(
                        "baseline_compress.j2",
                        {"notes": (notes, "memory")},
                        count=words(notes),
                        **common,
                    ),
                    "compress",
                )
        result.notes = notes
        result.answer = notes
        if config.answer_from_notes:
            result.answer = call(
                render_prompt(
                    "baseline_answer.j2",
                    {"notes": (notes, "memory")},
                    question=config.question,
                    answer_instruction=config.answer_instruction,
                ),
                "answer",
            )
    except ContextOverflow as exc:
        result.not_applicable = str(exc)
    result.metrics.wall_s = time.perf_counter() - start
    return result


def hierarchical(backend: Backend, chunks: Sequence[str], config: BaselineConfig) -> BaselineResult:
    result = BaselineResult("hierarchical", None)
    call = _Caller(backend, config, result)
    start = time.perf_counter()
    common = {"question": config.question, "words": config.word_budget}
    try:
        level = [
            call(
                render_prompt("baseline_first.j2", {"text": (c, "document")}, **common), "summarize"
            )
            for c in chunks
        ]
        while len(level) > 1:
            level = _merge_level(backend, call, level, config, common)
        result.notes = result.answer = level[0] if level else ""
    except ContextOverflow as exc:
        result.not_applicable = str(exc)
    result.metrics.wall_s = time.perf_counter() - start
    return result


def _merge_level(
    backend: Backend,
    call: _Caller,
    level: list[str],
    config: BaselineConfig,
    common: dict[str, object],
) -> list[str]:
    """Merge consecutive notes, as many per call as the context holds."""

    def prompt(group: list[str]) -> Prompt:
        joined = "\n\n".join(f"Part {i + 1}:\n{n}" for i, n in enumerate(group))
        return render_prompt("baseline_merge.j2", {"notes": (joined, "memory")}, **common)

    merged: list[str] = []
    group: list[str] = []
    for notes in level:
        trial = [*group, notes]
        if group and backend.count_tokens(prompt(trial)) + config.max_tokens > backend.n_ctx:
            merged.append(call(prompt(group), "merge"))
            group = [notes]
        else:
            group = trial
    if len(group) == 1 and not merged:
        return group
    if len(group) == 1:
        merged.append(group[0])  # an odd one out goes up a level as it is
    else:
        merged.append(call(prompt(group), "merge"))
    if len(merged) >= len(level):
        needed = backend.count_tokens(prompt(level[:2])) + config.max_tokens
        raise ContextOverflow(needed, backend.n_ctx, "merging two sets of notes")
    return merged


def lead_sentences(
    chunks: Sequence[str], budget: int, count: Callable[[str], int] = words
) -> BaselineResult:
    """What a user gets without a model: the lead sentence of every chunk, in order (LEAD, as
    in news summarization, taken per chunk so the whole input is covered), cut to the answer's
    budget (in ``count``'s units: words, or the model's tokens, as the other methods' answers
    are) by taking every k-th chunk's lead when all of them would not fit."""
    result = BaselineResult("lead sentences", None)
    start = time.perf_counter()
    leads = []
    for chunk in chunks:
        found = sentences_of(chunk, 400)
        if found:
            leads.append(found[0])
    step = 1
    while step < len(leads) and count(" ".join(leads[::step])) > budget:
        step += 1
    chosen = leads[::step]
    text = " ".join(chosen)
    kept = text.split()
    while kept and count(" ".join(kept)) > budget:  # one lead alone is longer than the budget
        kept = kept[: min(len(kept) - 1, budget)]
    result.answer = " ".join(kept)
    result.metrics.wall_s = time.perf_counter() - start
    return result


def long_context(backend: Backend, text: str, config: BaselineConfig) -> BaselineResult:
    result = BaselineResult("long context", None)
    call = _Caller(backend, config, result)
    start = time.perf_counter()
    try:
        result.answer = call(
            render_prompt(
                "long_context.j2",
                {"text": (text, "document")},
                question=config.question,
                answer_instruction=config.answer_instruction,
            ),
            "answer",
        )
    except ContextOverflow as exc:
        result.not_applicable = f"the whole input does not fit: {exc}"
    result.metrics.wall_s = time.perf_counter() - start
    return result
