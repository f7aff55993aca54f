"""A step ended at the first token after which its line can only be a repeat applies exactly
what decoding that line to its end applies.

The decoder reads an adversary's logits (``test_line_guard``), the same ones in both runs, over
the vocabulary alone, with llama.cpp's own grammar engine; the memory already holds some of the
chunk's sentences, so lines that repeat them are common.
"""

from __future__ import annotations

import json

import pytest

from prism_edge.core.memory import Memory
from prism_edge.core.revisions import output_lines, parse_output
from prism_edge.grammar.revision import GrammarLimits
from prism_edge.grammar.step import StepGrammar
from prism_edge.methods.presets import TASKS
from prism_edge.text.grounding import Grounding, sentences_of
from tests.backends.test_line_guard import CHUNK, Adversary, vocab_backend

pytestmark = pytest.mark.model

SCHEMA = TASKS["summarize"].schema


def _decode(monkeypatch, memory, seed: int, budget: int, on: bool) -> tuple[str, StepGrammar]:
    import llama_cpp

    backend = vocab_backend()
    backend.stop_on_repeat = on
    monkeypatch.setattr(llama_cpp, "llama_get_logits_ith", Adversary(backend, seed))
    grounding = Grounding.of(CHUNK, kind="extractive", max_chars=120)
    grammar = StepGrammar(SCHEMA, memory, limits=GrammarLimits(max_string=60), grounding=grounding)
    out, _ = backend._decode(grammar, budget, 0.0, seed)
    return backend._text(out), grammar


def _applied(memory, text: str):
    data = json.loads(json.dumps(memory))
    store = Memory(SCHEMA, "in-place", data)
    report = store.revise(parse_output(text).revisions)
    return store.data, report


def test_the_early_stop_applies_what_the_whole_line_would(monkeypatch):
    first, second = sentences_of(CHUNK, 120)[:2]
    memory = {"attributes": {"Mowgli": [first], "Akela": [second]}}
    stopped = saved = 0
    for seed in range(20):  # 17 of them stop early (measured)
        full, _ = _decode(monkeypatch, memory, seed, 160, on=False)
        cut, grammar = _decode(monkeypatch, memory, seed, 160, on=True)
        assert full.startswith(cut), seed
        kept, _ = _applied(memory, cut)
        whole, report = _applied(memory, full)
        assert kept == whole, seed
        if grammar.cut_repeat:
            stopped += 1
            saved += len(full) - len(cut)
            # the line cut short is the one the whole output repeats, and ends on
            rest = output_lines(full[len(cut) :].rstrip("\n"))
            assert len(rest) == 1, seed
            assert report.rejected and report.rejected[-1].kind == "duplicate", seed
        else:
            assert cut == full, seed
    assert stopped >= 5 and saved > 0  # the early stop is exercised, not vacuous
