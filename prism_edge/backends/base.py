"""The backend contract: tokenize, and complete a prompt (optionally under a grammar); the
capabilities a backend declares; how many prompt tokens came from the KV cache."""

from __future__ import annotations

import abc
import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Protocol

from prism_edge.core.footprint import Footprint
from prism_edge.core.metrics import SpeedProfile
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
    """``stop`` (the model ended), ``length`` (max_tokens reached), ``loop`` (free text fell
    into a loop and was ended where it began: :mod:`prism_edge.backends.loops`)."""
    prefill_seconds: float | None = None
    """Of ``seconds``, the time spent evaluating the prompt; None when unknown."""
    forced_tokens: int = 0
    """Of the decoded tokens, those the grammar forced and jump-forward evaluated in a batch."""
    looped_lines: tuple[int, ...] = ()
    """Output lines (1-based) the backend closed early because the model fell into a loop in
    them, for the applier to trim of the loop (the local backend ends the output with the first
    such line, so it holds one at most, the last)."""


class LineGrammar(Protocol):
    """A grammar that changes as the output grows: a new one after every finished line.

    Backends that cannot switch grammars mid-generation use :meth:`initial` for the whole
    output (the applier still validates every line).
    """

    def initial(self) -> str: ...

    def after_line(self, line: str, line_tokens: int, tokens_left: int) -> str | None:
        """The grammar of the rest of the output after ``line``; None ends the output."""
        ...

    def repeat_free(self) -> str | None:
        """The grammar of the rest of the output (the one last given) without the lines the
        applier would refuse as repeats of what is stored; None when it has none to leave out.
        A backend that follows both ends the output as soon as this one refuses a token."""
        ...

    def repeated(self) -> None:
        """The backend ended the output inside a line that could only be a repeat."""
        ...


Grammar = str | LineGrammar


@dataclass(frozen=True)
class Scored:
    """How likely a continuation is after a prompt: the sum of its tokens' log-probabilities."""

    logprob: float
    tokens: int
    prompt_tokens: int
    reused_tokens: int | None
    """Prompt tokens served from the cache (the prompt is evaluated once for all candidates)."""
    seconds: float

    @property
    def mean(self) -> float:
        """Length-normalised: the mean log-probability of a token."""
        return self.logprob / self.tokens if self.tokens else 0.0


@dataclass(frozen=True)
class Sampling:
    """How a call samples: the output budget and the sampler's settings, as one object."""

    max_tokens: int = 512
    temperature: float = 0.0
    """0: greedy; above: top-k 40 with this temperature."""
    seed: int | None = None
    repeat_penalty: float = 1.0
    """Above 1 discourages tokens generated in the last 64 (1.0: off)."""


class Backend(abc.ABC):
    """What runs a model: tokenize, and generate from a prompt (optionally under a grammar).

    What a backend can do is declared here, each capability with its default, and overridden
    by the backends that have it; callers read these, never probe for methods.
    """

    name: str
    n_ctx: int
    supports_grammar: ClassVar[bool] = False
    """Generation follows a GBNF grammar (else the output is validated after the fact)."""
    reports_reused_tokens: bool = False
    """Each completion says how many prompt tokens came from the cache (else: unknown)."""
    prefix_reuse: bool = True
    """Consecutive calls reuse the KV cache of a shared prompt prefix (not: recurrent models)."""
    device: str = ""
    """Where the model runs, as the plan line says it ("CPU", "GPU (all layers)"); empty
    where the backend cannot tell (a server)."""
    can_reset_cache: ClassVar[bool] = False
    """:meth:`reset_cache` forgets the cache (benchmarks start each method cold)."""
    can_calibrate: ClassVar[bool] = False
    """:meth:`calibrate` measures this machine's speed by KV depth (the physical bound)."""
    can_score: bool = False
    """:meth:`score` gives each candidate continuation's log-probability after a prompt."""
    parameters: int | None = None
    """The model's parameter count, when the model file or the server says it (``auto``
    chooses the method by it)."""
    shares_cores_with: int | None = None
    """Another prism-edge process that was running a local model on this machine when this
    backend loaded its own (its process id; 0: unknown): both run slower while they share the
    cores (:mod:`~prism_edge.backends.cpu_share`). None: none was, or the model is not here."""

    @abc.abstractmethod
    def tokenize(self, text: str) -> list[int]:
        """Tokens of plain text (special tokens never parsed)."""

    @abc.abstractmethod
    def count_tokens(self, prompt: Prompt) -> int:
        """Tokens the prompt occupies in the context, chat template included."""

    @abc.abstractmethod
    def generate(self, prompt: Prompt, sampling: Sampling, grammar: Grammar | None) -> Completion:
        """One completion of ``prompt``."""

    def complete(
        self,
        prompt: Prompt,
        *,
        grammar: Grammar | None = None,
        sampling: Sampling | None = None,
        **settings: Any,
    ) -> Completion:
        """:meth:`generate` with ``sampling``, or with one built from keyword settings
        (``max_tokens=64, temperature=0.7``...)."""
        if sampling is None:
            sampling = Sampling(**settings)
        elif settings:
            sampling = replace(sampling, **settings)
        return self.generate(prompt, sampling, grammar)

    def score(self, prompt: Prompt, continuations: Sequence[str]) -> list[Scored]:
        """Each continuation's log-probability after ``prompt``, the prompt evaluated once.

        Small models rank options they are shown better than they write; this is how they are
        asked. A backend that cannot (``can_score`` False) raises :class:`NotImplementedError`.
        """
        raise NotImplementedError(f"{type(self).__name__} cannot score continuations")

    def reset_cache(self) -> None:  # noqa: B027 -- a capability's default, not abstract
        """Forget the KV cache (a backend that cannot: nothing to do)."""

    def close(self) -> None:  # noqa: B027 -- a capability's default, not abstract
        """Let go of the model and what it holds (memory, a connection); nothing to do for a
        backend that holds nothing. The backend is not used after."""

    def calibrate(self) -> SpeedProfile | None:
        """Prefill and decode speed by KV depth on this machine (None: cannot measure)."""
        return None

    def fit(self, n_ctx: int) -> None:
        """Hold a context of ``n_ctx`` tokens where it holds more (a run that turned out to
        need less: less memory), before the run's first call, as the KV cache is emptied. A
        backend whose context is not its own to size (a server): nothing to do."""
        del n_ctx

    @property
    def engine(self) -> str:
        """The engine setting its speed depends on, as :meth:`suit` left it ("": there is
        only one)."""
        return ""

    def suit(self, decode_share: float) -> str | None:
        """Set the engine up for a run that decodes ``decode_share`` tokens for every prompt
        token it prefills (0: it only prefills and scores), before the run's first call (it
        may empty the KV cache). Returns the setting chosen and why, for the plan; None when
        there is nothing to choose (a server, or settings the user gave)."""
        del decode_share
        return None

    @contextlib.contextmanager
    def pinned(self, slot: int | None) -> Iterator[None]:
        """Within the block, this thread's calls go to cache slot ``slot`` (a server with several
        slots keeps each document's prefix in its own; elsewhere: nothing to do)."""
        del slot
        yield

    slots: int = 1
    """Cache slots the backend keeps apart (:meth:`pinned`)."""

    def footprint(self) -> Footprint | None:
        """The model file's and the KV cache's sizes (None: not known here, as on a server)."""
        return None


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
