"""The model a run names but does not use, left unloaded: a table question ranked by the
program alone never calls a model, so it never waits for one to load (nor imports llama.cpp).

It says what the run needs to choose its method and to plan (the model's name and size, from
the catalog); any call to the model itself is an error, which would be a bug of the method
that chose to run without it."""

from __future__ import annotations

from collections.abc import Sequence

from prism_edge.backends import Backend, Completion, Grammar, Sampling, Scored
from prism_edge.core.errors import BackendError
from prism_edge.prompts import Prompt


class Unloaded(Backend):
    """A model by its catalog name and size, never loaded."""

    def __init__(self, name: str, parameters: int | None, n_ctx: int = 8192) -> None:
        self.name = name
        self.parameters = parameters
        self.n_ctx = n_ctx
        self.can_score = False

    def _refuse(self) -> BackendError:
        return BackendError(f"{self.name} is not loaded: this run uses no model")

    def tokenize(self, text: str) -> list[int]:
        raise self._refuse()

    def count_tokens(self, prompt: Prompt) -> int:
        raise self._refuse()

    def generate(self, prompt: Prompt, sampling: Sampling, grammar: Grammar | None) -> Completion:
        raise self._refuse()

    def score(self, prompt: Prompt, continuations: Sequence[str]) -> list[Scored]:
        raise self._refuse()
