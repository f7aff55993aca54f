"""An output that falls into a loop: free text ends where the loop began, keeping the piece
once; a revision line is closed at once, reported for the applier, and the output ends with it.

The decoder reads an adversary's logits (``test_line_guard``) that, after a few tokens, favour
one token so strongly that greedy decoding repeats it wherever the grammar allows it (inside
a JSON string, in a per-line output): the loop SmolLM2 falls into writing ``}}}}...``.
"""

from __future__ import annotations

from typing import Any

import pytest

from prism_edge.backends.loops import LOOP_SPAN, loop_start
from prism_edge.core.memory import Memory
from prism_edge.core.revisions import parse_output
from prism_edge.grammar.revision import GrammarLimits
from prism_edge.grammar.step import StepGrammar
from prism_edge.methods.presets import TASKS
from tests.backends.test_line_guard import Adversary, vocab_backend

pytestmark = pytest.mark.model

SCHEMA = TASKS["summarize"].schema


class Looper(Adversary):
    """The adversary's noise, then from the ``after``-th call on one token far above the rest."""

    def __init__(self, backend: Any, seed: int, token: int, after: int) -> None:
        super().__init__(backend, seed)
        self.token, self.after, self.calls = token, after, 0

    def __call__(self, ctx: Any, index: int) -> Any:
        pointer = super().__call__(ctx, index)
        self.calls += 1
        if self.calls > self.after:
            self.logits[self.token] = 100.0
        return pointer


def _decode(monkeypatch, grammar, seed: int, budget: int, on: bool, token: int, after: int):
    import llama_cpp

    backend = vocab_backend()
    backend.stop_on_loop = on
    monkeypatch.setattr(llama_cpp, "llama_get_logits_ith", Looper(backend, seed, token, after))
    try:
        return backend._decode(grammar, budget, 0.0, seed, stop_at_eog=False)
    finally:
        backend.stop_on_loop = True


def test_free_text_keeps_the_looping_piece_once(monkeypatch):
    backend = vocab_backend()
    token = backend._tokenize(" lines", special=False)[0]
    for seed in range(5):
        full, finish = _decode(monkeypatch, None, seed, 120, on=False, token=token, after=10)
        assert finish == "length" and len(full) == 120
        cut, finish = _decode(monkeypatch, None, seed, 120, on=True, token=token, after=10)
        assert finish == "loop"
        assert cut == full[: len(cut)]
        assert cut[-1] == token and cut.count(token) <= full[:11].count(token) + 1
        assert len(cut) <= 11 + 1  # the noise, then the piece once
        assert loop_start(full) == len(cut)


def test_a_revision_line_in_a_loop_is_closed_at_once_and_ends_the_output(monkeypatch):
    backend = vocab_backend()
    token = backend._tokenize("}", special=False)[0]
    closed = 0
    for seed in range(12):
        grammar_off = StepGrammar(SCHEMA, {}, limits=GrammarLimits(max_string=400))
        full, _ = _decode(monkeypatch, grammar_off, seed, 240, False, token, after=25)
        assert not backend._last_looped
        grammar_on = StepGrammar(SCHEMA, {}, limits=GrammarLimits(max_string=400))
        out, finish = _decode(monkeypatch, grammar_on, seed, 240, True, token, after=25)
        looped = list(backend._last_looped)
        text = backend._text(out)
        if not looped:
            assert out == full, seed
            continue
        closed += 1
        assert finish != "loop", seed
        lines = text.split("\n")
        # the output ends with the line the loop was closed in
        assert looped == [len(lines) - 1] and lines[-1] == "", seed
        # the output is the same as without the stop until LOOP_SPAN tokens into the loop
        same = next(
            (i for i, (a, b) in enumerate(zip(out, full, strict=False)) if a != b), len(out)
        )
        before = len("\n".join(lines[: looped[0] - 1]))
        assert len(backend._text(out[:same])) >= before + LOOP_SPAN, seed
        for n in looped:
            assert "}" * LOOP_SPAN in lines[n - 1], seed
        # every line parses; the lines before the loop are revisions the memory takes
        parsed = parse_output(text)
        assert not parsed.rejected, seed
        kept = [r for r in parsed.revisions if r.line not in looped]
        assert not Memory(SCHEMA, "in-place", {}).revise(kept).rejected, seed
    assert closed >= 6  # the stop is exercised, not vacuous


def test_a_fixed_grammar_is_never_cut(monkeypatch):
    backend = vocab_backend()
    token = backend._tokenize("}", special=False)[0]
    grammar = 'root ::= "{\\"a\\": \\"" [^"]* "\\"}"'
    out, finish = _decode(monkeypatch, grammar, 0, 80, True, token, after=5)
    assert finish == "length" and len(out) == 80


def test_the_stop_reads_no_logits_after_the_loop(monkeypatch):
    # ending at the loop is what saves the time: decoding stops LOOP_SPAN tokens into it
    import llama_cpp

    backend = vocab_backend()
    token = backend._tokenize(" lines", special=False)[0]
    looper = Looper(backend, 0, token, after=10)
    monkeypatch.setattr(llama_cpp, "llama_get_logits_ith", looper)
    _, finish = backend._decode(None, 500, 0.0, 0, stop_at_eog=False)
    assert finish == "loop"
    assert looper.calls <= 11 + LOOP_SPAN + 1
