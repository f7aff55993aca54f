"""The paper's method: the model writes the revisions (Algorithm 1, appendix E's prompts).

Each step shows the model the task, the question, the schema, the memory and the chunk; it
writes revision lines (under a grammar from the schema and the memory where the backend takes
one, so every line is valid by construction; in a grounded run, new keys and strings come from
the chunk). Lines that still fail validation (a server that ignored the grammar) are sent back
once with their errors. The answer is one generation from the memory alone.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from prism_edge.backends import Backend, Completion, Grammar, Sampling
from prism_edge.backends.loops import trim_loop
from prism_edge.core.config import GROUNDED_REPEAT_PENALTY, PrismConfig
from prism_edge.core.errors import RevisionError
from prism_edge.core.events import Answered, Event, StepDone
from prism_edge.core.memory import Memory
from prism_edge.core.metrics import CallMetrics, RunMetrics
from prism_edge.core.revisions import Revision, output_lines, parse_output
from prism_edge.core.schema import Schema, prompt_text
from prism_edge.grammar.revision import (
    GrammarLimits,
    answer_grammar,
    outline_grammar,
    prose_grammar,
    string_slots,
)
from prism_edge.grammar.step import StepGrammar
from prism_edge.methods.base import Capability, Context, Method
from prism_edge.prompts import Prompt, PromptBuilder, reask_prompt
from prism_edge.text.grounding import FUNCTION_WORDS, Grounding, case_variants, whole_word, words_of

GrammarFor = Callable[[Memory, str], "Grammar | None"]
"""The grammar of a revision step, from the memory and the chunk the step reads."""


class WrittenRevisions(Method):
    """The model writes each step's revisions; the answer is generated from the memory."""

    name: ClassVar[str] = "revisions"
    needs: ClassVar[frozenset[Capability]] = frozenset({"generate"})
    can_fold: ClassVar[bool] = True
    decode_share: ClassVar[float] = 0.07
    """The median over 8 bench runs of the written variants on four novels, 0.04 to 0.21, since
    the output ends at a looped line (``benchmarks/results/decode_share.txt``)."""

    def __init__(
        self, schema: Schema, config: PrismConfig, grammar_for: GrammarFor | None = None
    ) -> None:
        self.config = config
        self.prompts = prompts_for(schema, config)
        self._grammar_for = grammar_for
        self._schema = schema

    def grammar_for(self, backend: Backend) -> GrammarFor | None:
        """The step grammar: the one given, else built from the schema and the memory where
        the backend takes grammars (None: unconstrained, validated after the fact)."""
        config = self.config
        if self._grammar_for is not None or not (config.grammar and backend.supports_grammar):
            return self._grammar_for
        schema = self._schema
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
            return StepGrammar(schema, memory.data, config.add_only, limits, grounding=grounding)

        self._grammar_for = grammar_for
        return grammar_for

    # --- budget ------------------------------------------------------------------------------

    def revise_prompt(self, memory: Memory, chunk: str) -> Prompt:
        return self.prompts.revise(memory.render_parts(), chunk)

    def room(self, run: Context) -> int:
        used = run.backend.count_tokens(self.revise_prompt(run.memory, ""))
        return run.backend.n_ctx - used - self.config.max_tokens

    def answer_needs(self, run: Context) -> int:
        prompt = self.prompts.final(run.memory.render_parts())
        return run.backend.count_tokens(prompt) + self.config.answer_max_tokens

    # --- a step ------------------------------------------------------------------------------

    def step(self, run: Context, index: int, chunk: str, chunk_tokens: int) -> StepDone:
        grammar_for = self.grammar_for(run.backend)
        prompt = self.revise_prompt(run.memory, chunk)
        grammar = grammar_for(run.memory, chunk) if grammar_for else None
        completion = self._call(run, prompt, grammar, self.config.max_tokens, self._penalty)
        calls = [record(run.metrics, "revise", completion)]
        applied, rejected = self._apply_output(run, completion, self.config.max_revisions)
        # the line the backend ended the output inside (dropped): the one after the last
        written = output_lines(completion.text.rstrip("\n"))
        unfinished = f"line {len(written) + 1}"
        if isinstance(grammar, StepGrammar) and grammar.cut_repeat:
            # a line that could only repeat what is stored
            op = "update" if grammar.section == "update" else "add"
            rejected.append(RevisionError(unfinished, op, "repeats what is stored", "duplicate"))
        if completion.finish_reason == "loop" and grammar is not None:
            # a line the loop began in could not be closed: the output ended before it
            rejected.append(RevisionError(unfinished, "write", "the model fell into a loop", "cut"))
        for _ in range(self.config.reasks):
            invalid = [e for e in rejected if e.kind == "invalid"]
            if not invalid:
                break
            # a backend that ignored the grammar: show the errors, ask for those lines again
            rejected = [e for e in rejected if e.kind != "invalid"]
            run.result.reasked += len(invalid)
            retry = reask_prompt(prompt, completion.text, [str(e) for e in invalid])
            grammar = grammar_for(run.memory, chunk) if grammar_for else None
            completion = self._call(run, retry, grammar, self.config.max_tokens, self._penalty)
            calls.append(record(run.metrics, "reask", completion))
            fixed, still = self._apply_output(run, completion, len(invalid))
            applied += fixed
            rejected += still
        return StepDone(
            index,
            chunk_tokens,
            applied,
            rejected,
            tuple(calls),
            run.memory_tokens(),
            completion.finish_reason,
            chunk,
        )

    def _apply_output(
        self, run: Context, completion: Completion, limit: int | None
    ) -> tuple[list[Revision], list[RevisionError]]:
        """Parse an output and apply its revisions, each atomically: (applied, rejected)."""
        parsed = parse_output(completion.text)
        proposed, over, looping = parsed.revisions, [], []
        if completion.looped_lines:
            # lines the backend closed early because the model fell into a loop: their strings
            # keep what came before the loop; a line left with nothing but the loop is dropped
            looped = set(completion.looped_lines)
            for error in parsed.rejected:
                if error.path in {f"line {n}" for n in looped}:
                    error.kind = "cut"
            kept = [_without_loops(r) if r.line in looped else r for r in proposed]
            proposed = [r for r in kept if r is not None]
            left = {r.line for r in proposed}
            unparsed = {e.path for e in parsed.rejected}
            looping = [
                RevisionError(f"line {n}", "write", "the model fell into a loop", "cut")
                for n in sorted(looped)
                if n not in left and f"line {n}" not in unparsed
            ]
        if limit is not None and len(proposed) > limit:
            proposed, extra = proposed[:limit], proposed[limit:]
            over = [
                RevisionError(r.path, r.op, f"over the limit of {limit} revisions per step")
                for r in extra
            ]
        report = run.memory.revise(proposed, add_only=self.config.add_only)
        if completion.finish_reason in ("length", "loop"):
            last = len(output_lines(completion.text.rstrip("\n")))
            for error in parsed.rejected:
                if error.path == f"line {last}":
                    error.kind = "cut"  # the output budget ran out inside this line
        return list(report.applied), parsed.rejected + looping + report.rejected + over

    # --- the answer --------------------------------------------------------------------------

    def answer(self, run: Context) -> Iterator[Event]:
        config, backend, memory = self.config, run.backend, run.memory
        prompt = self.prompts.final(memory.render_parts())
        grammar = None
        constrained = config.grammar and backend.supports_grammar
        if config.answer_choices and constrained:
            choices = memory.data.get(config.answer_choices) or {}
            grammar = answer_grammar(sorted(choices))
        elif config.grounded and constrained:
            words = self._answer_words(memory)
            outline = memory.data.get(config.answer_outline or "")
            if isinstance(outline, dict) and outline:
                keys = by_mentions(outline, memory.data)
                grammar = outline_grammar(keys, words, config.answer_max_tokens)
            else:
                grammar = prose_grammar(words, config.answer_max_tokens)
        completion = self._call(
            run, prompt, grammar, config.answer_max_tokens, config.answer_repeat_penalty
        )
        call = record(run.metrics, "answer", completion)
        text = completion.text
        if grammar is not None and completion.finish_reason == "length":
            text = _whole_words(text)  # the budget ran out inside a word: drop its head
        run.result.answer = text.strip()
        yield Answered(run.result.answer, call)

    def _answer_words(self, memory: Memory) -> set[str]:
        """What a grounded answer may say: the memory's words, the question's and English
        function words (not the answer instruction's: small models echo it)."""
        said = json.dumps(memory.data, ensure_ascii=False)
        return case_variants([*words_of(said), *words_of(self.config.question), *FUNCTION_WORDS])

    # --- calls -------------------------------------------------------------------------------

    @property
    def _penalty(self) -> float:
        if self.config.repeat_penalty is not None:
            return self.config.repeat_penalty
        return GROUNDED_REPEAT_PENALTY if self.config.grounded else 1.0

    def _call(
        self,
        run: Context,
        prompt: Prompt,
        grammar: Grammar | None,
        max_tokens: int,
        repeat_penalty: float,
    ) -> Completion:
        sampling = Sampling(
            max_tokens, self.config.temperature, self.config.seed, repeat_penalty=repeat_penalty
        )
        return run.backend.complete(prompt, grammar=grammar, sampling=sampling)


def prompts_for(schema: Schema, config: PrismConfig) -> PromptBuilder:
    return PromptBuilder(
        config.question, prompt_text(schema), config.style, config.answer_instruction
    )


def record(metrics: RunMetrics, kind: str, completion: Completion) -> CallMetrics:
    """A completion as a call in the run's metrics."""
    call = CallMetrics(
        kind,
        completion.prompt_tokens,
        completion.reused_tokens,
        completion.decoded_tokens,
        completion.seconds,
        completion.prefill_seconds,
        completion.forced_tokens,
    )
    metrics.add(call)
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


def _without_loops(revision: Revision) -> Revision | None:
    """A revision from a line the decoder closed inside a loop, its strings without the loop
    (:func:`~prism_edge.backends.loops.trim_loop`); None when no string keeps a letter or a
    digit (the line was the loop and nothing else)."""

    def trim(value: Any) -> Any:
        if isinstance(value, str):
            return trim_loop(value)
        if isinstance(value, list):
            return [trim(v) for v in value]
        if isinstance(value, dict):
            return {k: trim(v) for k, v in value.items()}
        return value

    def words(value: Any) -> bool:
        if isinstance(value, str):
            return any(c.isalnum() for c in value)
        if isinstance(value, list):
            return any(words(v) for v in value)
        if isinstance(value, dict):
            return any(words(v) for v in value.values())
        return True

    value = trim(revision.value)
    return dataclasses.replace(revision, value=value) if words(value) else None
