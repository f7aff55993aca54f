from __future__ import annotations

import pytest

from prism_edge.backends import reused_prefix
from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.core.errors import BackendError
from prism_edge.prompts import Part, Prompt


def prompt(*texts: str) -> Prompt:
    return Prompt(tuple(Part(t) for t in texts))


@pytest.mark.parametrize(
    ("cached", "new", "reused"),
    [
        ([], [1, 2], 0),
        ([1, 2, 3], [1, 2, 4], 2),
        ([1, 2, 3], [1, 2, 3], 2),
        ([1, 2, 3, 4], [1, 2], 1),
        ([5], [1, 2], 0),
    ],
)
def test_llama_cpp_reuse_rule(cached, new, reused):
    assert reused_prefix(cached, new) == reused


def test_scripted_counts_reuse_like_a_prefix_cache():
    backend = ScriptedBackend(["a b", "c"], n_ctx=100)
    first = backend.complete(prompt("static text ", "memory one"), max_tokens=10)
    second = backend.complete(prompt("static text ", "memory two"), max_tokens=10)
    assert first.reused_tokens == 0 and first.prompt_tokens == 7
    assert second.reused_tokens == 6  # everything up to "one"/"two"
    assert second.text == "c" and second.decoded_tokens == 1


def test_scripted_truncates_at_max_tokens_and_refuses_overflow():
    backend = ScriptedBackend(["w " * 50], n_ctx=40)
    out = backend.complete(prompt("x"), max_tokens=10)
    assert out.decoded_tokens == 10 and out.finish_reason == "length"
    with pytest.raises(BackendError, match="exceeds n_ctx"):
        backend.complete(prompt("x " * 30), max_tokens=20)
    with pytest.raises(BackendError, match="no output left"):
        backend.complete(prompt("x"), max_tokens=5)


def test_responder_computes_outputs():
    backend = ScriptedBackend(responder=lambda p: p.text.upper())
    assert backend.complete(prompt("hi")).text == "HI"
