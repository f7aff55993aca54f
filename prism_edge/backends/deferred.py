"""A local model opened when a run first calls it: a table question the learned ranker is sure
of never calls the model, so it never waits for it to load (about a second here, llama.cpp's
import included); one it is not sure of loads it then.

Before it opens, it says what a run needs to choose its method and to plan: the model file's
name, its size (from the GGUF header), the context it will be opened with, and that it scores
(a local llama.cpp model does). Once open, it is the model: every call goes to it, and what it
reports (its name, context, device, cores shared) is the model's own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from prism_edge.backends.base import Backend, Completion, Grammar, Sampling, Scored
from prism_edge.core.footprint import Footprint
from prism_edge.prompts import Prompt


class Deferred(Backend):
    """A model by its file's name and size, opened by ``opener`` (given the context size) on
    its first call."""

    def __init__(
        self, opener: Callable[[int], Backend], name: str, parameters: int | None, n_ctx: int
    ) -> None:
        self._opener = opener
        self._model: Backend | None = None
        self._decode_share: float | None = None
        self.name = name
        self.parameters = parameters
        self.n_ctx = n_ctx
        self.can_score = True

    @property
    def opened(self) -> bool:
        """Whether the model was loaded (a call needed it)."""
        return self._model is not None

    def model(self) -> Backend:
        """The model, opened now if it was not."""
        if self._model is None:
            model = self._opener(self.n_ctx)
            if self._decode_share is not None:
                model.suit(self._decode_share)
            self._model = model
            self.name, self.n_ctx, self.parameters = model.name, model.n_ctx, model.parameters
            self.can_score, self.device = model.can_score, model.device
            self.prefix_reuse = model.prefix_reuse
            self.reports_reused_tokens = model.reports_reused_tokens
            self.shares_cores_with = model.shares_cores_with
        return self._model

    def tokenize(self, text: str) -> list[int]:
        return self.model().tokenize(text)

    def count_tokens(self, prompt: Prompt) -> int:
        return self.model().count_tokens(prompt)

    def generate(self, prompt: Prompt, sampling: Sampling, grammar: Grammar | None) -> Completion:
        return self.model().generate(prompt, sampling, grammar)

    def score(self, prompt: Prompt, continuations: Sequence[str]) -> list[Scored]:
        return self.model().score(prompt, continuations)

    def reset_cache(self) -> None:
        if self._model is not None:
            self._model.reset_cache()

    def close(self) -> None:
        if self._model is not None:
            self._model.close()

    def fit(self, n_ctx: int) -> None:
        if self._model is not None:
            self._model.fit(n_ctx)
            self.n_ctx = self._model.n_ctx
        else:
            self.n_ctx = min(self.n_ctx, n_ctx)

    @property
    def engine(self) -> str:
        return "" if self._model is None else self._model.engine

    def suit(self, decode_share: float) -> str | None:
        """Suits the model when open; else it is suited as it opens (nothing to say yet)."""
        if self._model is not None:
            return self._model.suit(decode_share)
        self._decode_share = decode_share
        return None

    def footprint(self) -> Footprint | None:
        return None if self._model is None else self._model.footprint()
