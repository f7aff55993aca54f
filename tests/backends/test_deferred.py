"""A local model opened on its first call (a table question the ranker is sure of never
waits for it): what it says before, that it opens once with the context fitted, and that
what it says after is the model's."""

from __future__ import annotations

from prism_edge.backends.deferred import Deferred
from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.prompts import Part, Prompt


def test_a_deferred_model_opens_on_its_first_call_once_with_its_context_fitted():
    opened: list[int] = []

    def opener(n_ctx: int) -> ScriptedBackend:
        opened.append(n_ctx)
        return ScriptedBackend(scorer=lambda p, t: -1.0, n_ctx=n_ctx, name="model.gguf")

    later = Deferred(opener, "model.gguf", 135_000_000, 8192)
    assert later.can_score and later.parameters == 135_000_000 and later.n_ctx == 8192
    later.fit(4096)
    later.fit(6000)  # a context is fitted down, never up
    assert later.suit(0.0) is None and later.engine == "" and later.footprint() is None
    later.reset_cache()
    assert opened == [] and not later.opened
    (scored,) = later.score(Prompt((Part("Query:"),)), [" a"])
    assert scored.logprob == -1.0 and later.tokenize("a b") == later.model().tokenize("a b")
    assert opened == [4096] and later.opened and later.n_ctx == 4096
    later.close()
    assert opened == [4096]
