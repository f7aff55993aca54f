"""A scripted backend for tests and dry runs: queued or computed outputs, exact token counts.

Its tokenizer splits text into words, single punctuation marks and whitespace runs, each a
token, so counts are deterministic and close in size to a real subword tokenizer. It keeps the
tokens of the last prompt and counts reuse with llama.cpp's rule (a prefix-cache simulator).
"""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import ClassVar

from prism_edge.backends import Backend, Completion, Grammar, Sampling, reused_prefix
from prism_edge.errors import BackendError
from prism_edge.prompts import Prompt

_TOKEN = re.compile(r"\w+|[^\w\s]|\s+")
Responder = Callable[[Prompt], str]


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
    """Returns queued outputs (``enqueue``) or what ``responder(prompt)`` computes."""

    reports_reused_tokens = True
    can_reset_cache: ClassVar[bool] = True

    def __init__(
        self,
        outputs: Iterable[str] = (),
        *,
        responder: Responder | None = None,
        n_ctx: int = 8192,
        name: str = "scripted",
    ) -> None:
        self.name = name
        self.n_ctx = n_ctx
        self._queue: deque[str] = deque(outputs)
        self._responder = responder
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
