"""The backend contract: one abstract ``generate``, sampling as one object, capabilities
declared with defaults and overridden by the backends that have them."""

from __future__ import annotations

import httpx
import pytest

from prism_edge.backends import Backend, Completion, Grammar, Sampling
from prism_edge.backends.llama_cpp import LlamaCppBackend
from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.backends.server import ServerBackend
from prism_edge.prompts import Part, Prompt
from tests.fake_server import FakeServer


class Minimal(Backend):
    name, n_ctx = "minimal", 64

    def __init__(self) -> None:
        self.seen: list[Sampling] = []

    def tokenize(self, text: str) -> list[int]:
        return list(range(len(text.split())))

    def count_tokens(self, prompt: Prompt) -> int:
        return len(self.tokenize(prompt.text))

    def generate(self, prompt: Prompt, sampling: Sampling, grammar: Grammar | None) -> Completion:
        self.seen.append(sampling)
        return Completion("ok", self.count_tokens(prompt), None, 1, 0.0)


def test_a_backend_needs_only_the_three_methods_and_gets_the_defaults() -> None:
    backend = Minimal()
    assert not backend.supports_grammar and not backend.reports_reused_tokens
    assert backend.prefix_reuse and not backend.can_reset_cache and not backend.can_calibrate
    backend.reset_cache()  # nothing to forget
    assert backend.calibrate() is None
    with pytest.raises(TypeError):
        Backend()  # type: ignore[abstract]


def test_sampling_travels_as_one_object() -> None:
    backend = Minimal()
    prompt = Prompt((Part("a b c"),))
    backend.complete(prompt, max_tokens=7, temperature=0.5)
    chosen = Sampling(max_tokens=9, seed=3, repeat_penalty=1.2)
    backend.complete(prompt, sampling=chosen)
    backend.complete(prompt, sampling=chosen, max_tokens=2)
    assert backend.seen == [
        Sampling(7, 0.5),
        chosen,
        Sampling(2, 0.0, 3, 1.2),
    ]


def test_each_backend_declares_what_it_can() -> None:
    assert LlamaCppBackend.supports_grammar and LlamaCppBackend.reports_reused_tokens
    assert LlamaCppBackend.can_reset_cache and LlamaCppBackend.can_calibrate
    assert ScriptedBackend.can_reset_cache and not ScriptedBackend.can_calibrate
    assert ServerBackend.supports_grammar and not ServerBackend.can_reset_cache
    scripted = ScriptedBackend(["x", "y"])
    prompt = Prompt((Part("the same prompt"),))
    scripted.complete(prompt, max_tokens=4)
    scripted.reset_cache()
    assert scripted.complete(prompt, max_tokens=4).reused_tokens == 0


@pytest.mark.parametrize(
    ("flavor", "reports"), [("llama.cpp", True), ("vllm", True), ("llama-cpp-python", False)]
)
def test_a_server_reports_reused_tokens_as_its_kind_does(flavor: str, reports: bool) -> None:
    backend = ServerBackend(
        "http://fake:8080", transport=httpx.MockTransport(FakeServer(flavor)), n_ctx=2048
    )
    assert backend.reports_reused_tokens is reports
