"""A scripted backend for tests and dry runs: queued or computed outputs, exact token counts.

Its tokenizer splits text into words, single punctuation marks and whitespace runs, each a
token, so counts are deterministic and close in size to a real subword tokenizer. It keeps the
tokens of the last prompt and counts reuse with llama.cpp's rule (a prefix-cache simulator).
"""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from prism_edge.backends import Backend, Completion, Grammar, Sampling, Scored, reused_prefix
from prism_edge.core.errors import BackendError
from prism_edge.prompts import Prompt

_TOKEN = re.compile(r"\w+|[^\w\s]|\s+")
Responder = Callable[[Prompt], str]
Scorer = Callable[[Prompt, str], float]
"""The log-probability a scripted model gives a continuation after a prompt."""


@dataclass(frozen=True)
class Call:
    prompt: Prompt
    grammar: str | None
    max_tokens: int
    completion: Completion
    temperature: float = 0.0
    seed: int | None = None
    repeat_penalty: float = 1.0


class ScriptedBackend(Backend):
    """Returns queued outputs (``enqueue``) or what ``responder(prompt)`` computes; scores
    continuations with ``scorer(prompt, continuation)`` when one is given."""

    reports_reused_tokens = True
    can_reset_cache: ClassVar[bool] = True

    def __init__(
        self,
        outputs: Iterable[str] = (),
        *,
        responder: Responder | None = None,
        scorer: Scorer | None = None,
        n_ctx: int = 8192,
        name: str = "scripted",
        parameters: int | None = 135_000_000,
    ) -> None:
        self.name = name
        self.parameters = parameters
        self.n_ctx = n_ctx
        self._queue: deque[str] = deque(outputs)
        self._responder = responder
        self._scorer = scorer
        self.can_score = scorer is not None
        self.evaluated = 0
        """Prompt tokens evaluated (not served from the cache), over all calls and scores."""
        self._vocab: dict[str, int] = {}
        self._cache: list[int] = []
        self.calls: list[Call] = []

    def enqueue(self, *outputs: str) -> None:
        self._queue.extend(outputs)

    def tokenize(self, text: str) -> list[int]:
        return [self._vocab.setdefault(t, len(self._vocab)) for t in _TOKEN.findall(text)]

    def prompt_tokens(self, prompt: Prompt) -> list[int]:
        tokens: list[int] = []
        for part in prompt.parts:
            tokens.extend(self.tokenize(part.text))
        return tokens

    def count_tokens(self, prompt: Prompt) -> int:
        return len(self.prompt_tokens(prompt))

    def reset_cache(self) -> None:
        self._cache = []

    def score(self, prompt: Prompt, continuations: Sequence[str]) -> list[Scored]:
        if self._scorer is None:
            return super().score(prompt, continuations)
        tokens = self.prompt_tokens(prompt)
        out = []
        for text in continuations:
            start = time.perf_counter()
            reused = reused_prefix(self._cache, tokens)
            wanted = self.tokenize(text)
            self.evaluated += len(tokens) - reused + max(0, len(wanted) - 1)
            self._cache = tokens + wanted[:-1]
            logprob = self._scorer(prompt, text)
            out.append(
                Scored(logprob, len(wanted), len(tokens), reused, time.perf_counter() - start)
            )
        return out

    def generate(self, prompt: Prompt, sampling: Sampling, grammar: Grammar | None) -> Completion:
        start = time.perf_counter()
        max_tokens = sampling.max_tokens
        tokens = self.prompt_tokens(prompt)
        if len(tokens) + max_tokens > self.n_ctx:
            raise BackendError(
                f"prompt of {len(tokens)} tokens + {max_tokens} to generate "
                f"exceeds n_ctx={self.n_ctx}"
            )
        if self._queue:
            text = self._queue.popleft()
        elif self._responder is not None:
            text = self._responder(prompt)
        else:
            raise BackendError("scripted backend has no output left for this call")
        pieces = _TOKEN.findall(text)
        finish = "stop"
        if len(pieces) > max_tokens:
            text, finish = "".join(pieces[:max_tokens]), "length"
        decoded = min(len(pieces), max_tokens)
        reused = reused_prefix(self._cache, tokens)
        self.evaluated += len(tokens) - reused
        self._cache = tokens + self.tokenize(text)
        completion = Completion(
            text, len(tokens), reused, decoded, time.perf_counter() - start, finish
        )
        text_grammar = grammar if grammar is None or isinstance(grammar, str) else grammar.initial()
        self.calls.append(
            Call(
                prompt,
                text_grammar,
                max_tokens,
                completion,
                sampling.temperature,
                sampling.seed,
                sampling.repeat_penalty,
            )
        )
        return completion
