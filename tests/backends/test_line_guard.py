"""No line is ever cut by the output budget, whatever tokens are chosen.

The decoder is driven by an adversary: instead of a model's logits it reads random ones that
favour tokens opening structure (brackets, quotes, commas) and long tokens, at several
temperatures, for every budget from 8 to 200 tokens and the three presets (free, and grounded
for the summary). Only the model's vocabulary is loaded; the grammar engine is llama.cpp's own.
Every output must parse with no rejected line, and apply to the memory but for repeated list
items (refused as duplicates, as in any run).
"""

from __future__ import annotations

import ctypes
from functools import lru_cache
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prism_edge.backends.llama_cpp import LlamaCppBackend, _load, embedded_model_path
from prism_edge.core.memory import Memory
from prism_edge.core.revisions import parse_output
from prism_edge.grammar.revision import GrammarLimits
from prism_edge.grammar.step import StepGrammar
from prism_edge.methods.presets import TASKS
from prism_edge.text.grounding import Grounding

pytestmark = pytest.mark.model

CHUNK = (
    "Mowgli ran with the wolves of the Seeonee hills. Akela, the great gray Lone Wolf, led the "
    "Pack. Shere Khan the tiger wanted the man-cub, and Bagheera the black panther bought him "
    "for a bull."
)


class Adversary:
    """Logits for the decoder: noise, with structure-opening and long tokens favoured."""

    def __init__(self, backend: LlamaCppBackend, seed: int) -> None:
        n_vocab = backend.llama.n_vocab()
        self.rng = np.random.default_rng(seed)
        self.bonus = np.zeros(n_vocab, dtype=np.float32)
        for token in range(n_vocab):
            piece = backend._piece_bytes(token)
            if any(c in piece for c in b"{[,\"':") or len(piece) > 6:
                self.bonus[token] = 4.0
        self.logits = np.zeros(n_vocab, dtype=np.float32)

    def __call__(self, ctx: Any, index: int) -> Any:
        self.logits[:] = self.rng.standard_normal(len(self.logits)) * 3 + self.bonus
        return self.logits.ctypes.data_as(ctypes.POINTER(ctypes.c_float))


@lru_cache(maxsize=1)
def vocab_backend() -> LlamaCppBackend:
    """A LlamaCppBackend over the vocabulary alone: no weights, no evaluation."""
    backend = LlamaCppBackend.__new__(LlamaCppBackend)
    backend.llama = _load(embedded_model_path(), vocab_only=True)
    backend.llama.eval = lambda tokens: None
    backend._pieces = lru_cache(maxsize=None)(backend._piece_bytes)
    backend._steps = None
    backend._byte_tokens = None
    backend._numeral_tokens = None
    backend.grammar_fallbacks = 0
    backend.jump_forward = False  # nothing is evaluated here (jump-forward: test_jump_forward)
    backend.forced_start = True
    backend.stop_on_repeat = True
    backend.stop_on_loop = True
    backend._last_forced = 0
    backend._end_tokens = [backend.llama.token_eos()]
    return backend


@given(
    budget=st.integers(min_value=8, max_value=200),
    seed=st.integers(min_value=0, max_value=2**16),
    temperature=st.sampled_from([0.0, 0.7, 1.5]),
    task=st.sampled_from(["code-search", "table-qa", "summarize", "summarize-grounded"]),
)
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_budget_cuts_a_line(monkeypatch, budget, seed, temperature, task):
    import llama_cpp

    backend = vocab_backend()
    adversary = Adversary(backend, seed)
    monkeypatch.setattr(llama_cpp, "llama_get_logits_ith", adversary)
    name = task.removesuffix("-grounded")
    schema = TASKS[name].schema
    grounding = Grounding.of(CHUNK, kind="extractive", max_chars=120) if task != name else None
    grammar = StepGrammar(
        schema, schema.empty_memory(), limits=GrammarLimits(max_string=60), grounding=grounding
    )
    out, finish = backend._decode(grammar, budget, temperature, seed)
    assert len(out) <= budget
    text = backend._text(out)
    parsed = parse_output(text)
    assert not parsed.rejected, (finish, text)
    report = Memory(schema, "in-place").revise(parsed.revisions)
    # the grammar lets a list repeat an item, which the memory refuses as a duplicate (a
    # looping model); anything else would be a line the grammar should not have allowed
    assert all(e.kind == "duplicate" for e in report.rejected), text
