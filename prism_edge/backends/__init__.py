"""The backend contract: tokenize, and complete a prompt (optionally under a grammar).

A backend turns a :class:`~prism_edge.prompts.Prompt` into tokens part by part, so a static
prefix tokenizes identically on every call and a grown memory shares its token prefix with the
previous one. Reused tokens follow llama.cpp's rule: the longest common prefix with the tokens
already evaluated, one less when the whole prompt was already cached (the last token is always
evaluated again to produce logits).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol, runtime_checkable

from prism_edge.prompts import Prompt


@dataclass(frozen=True)
class Completion:
    text: str
    prompt_tokens: int
    reused_tokens: int | None
    """Prompt tokens served from the KV cache; None when the backend cannot tell."""
    decoded_tokens: int
    seconds: float
    finish_reason: str = "stop"
    """``stop`` (the model ended), ``length`` (max_tokens reached)."""


class LineGrammar(Protocol):
    """A grammar that changes as the output grows: a new one after every finished line.

    Backends that cannot switch grammars mid-generation use :meth:`initial` for the whole
    output (the applier still validates every line).
    """

    def initial(self) -> str: ...

    def after_line(self, line: str, line_tokens: int, tokens_left: int) -> str | None:
        """The grammar of the rest of the output after ``line``; None ends the output."""
        ...


Grammar = str | LineGrammar


@runtime_checkable
class Backend(Protocol):
    name: str
    n_ctx: int
    supports_grammar: ClassVar[bool]
    reports_reused_tokens: ClassVar[bool]

    def tokenize(self, text: str) -> list[int]:
        """Tokens of plain text (special tokens never parsed)."""
        ...

    def count_tokens(self, prompt: Prompt) -> int:
        """Tokens the prompt occupies in the context, chat template included."""
        ...

    def complete(
        self,
        prompt: Prompt,
        *,
        grammar: Grammar | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        seed: int | None = None,
        repeat_penalty: float = 1.0,
    ) -> Completion:
        """``repeat_penalty`` > 1 discourages tokens generated in the last 64 (1.0: off)."""
        ...


def reused_prefix(cached: Sequence[int], prompt: Sequence[int]) -> int:
    """Prompt tokens llama.cpp takes from the KV cache holding ``cached``."""
    n = 0
    for a, b in zip(cached, prompt):  # noqa: B905 -- stops at the shorter on purpose
        if a != b:
            break
        n += 1
    if n and n == len(prompt):
        n -= 1  # the last prompt token is evaluated again to get logits
    return n
