"""Jump-forward decoding: what the grammar forces is found by llama.cpp's grammar engine and
evaluated in one batch, and the output is the one token-by-token decoding gives."""

from __future__ import annotations

import pytest

from prism_edge.backends.llama_cpp import LlamaCppBackend
from prism_edge.backends.llama_grammar import Constraint
from prism_edge.grammar.revision import GrammarLimits
from prism_edge.grammar.step import StepGrammar
from prism_edge.methods.presets import TASKS
from prism_edge.prompts import Part, Prompt
from prism_edge.text.grounding import Grounding
from tests.backends.test_line_guard import CHUNK, vocab_backend

pytestmark = pytest.mark.model


def _constraint(backend: LlamaCppBackend, grammar: str) -> Constraint:
    import llama_cpp

    vocab = llama_cpp.llama_model_get_vocab(backend.llama.model)
    return Constraint(vocab, grammar, backend._token_bytes)


def test_the_forced_bytes_are_what_the_grammar_allows_alone():
    backend = vocab_backend()
    backend.completion_steps()
    assert backend._byte_tokens is not None
    grammar = 'root ::= "{\\"key\\": " [0-9]+ ", \\"end\\": true}"'
    constraint = _constraint(backend, grammar)
    try:
        ends = [backend.llama.token_eos()]
        assert constraint.forced(backend._byte_tokens, ends, 100) == b'{"key": '
        assert constraint.forced(backend._byte_tokens, ends, 3) == b'{"k'  # the limit
        for token in backend._tokenize('{"key": 4', special=False):
            constraint.accept(token, 100, backend._text)
        assert constraint.forced(backend._byte_tokens, ends, 100) == b""  # a digit or ","
        for token in backend._tokenize(",", special=False):
            constraint.accept(token, 100, backend._text)
        assert constraint.forced(backend._byte_tokens, ends, 100) == b' "end": true}'
    finally:
        constraint.close()


@pytest.fixture(scope="module")
def model() -> LlamaCppBackend:
    return LlamaCppBackend(n_ctx=2048)


@pytest.mark.parametrize("grounded", [False, True])
def test_jump_forward_writes_what_token_by_token_decoding_writes(model, grounded):
    schema = TASKS["summarize"].schema
    grounding = Grounding.of(CHUNK, kind="extractive") if grounded else None
    prompt = Prompt(
        (
            Part("Store the characters of this text as revisions.\n[TEXT]\n"),
            Part(CHUNK, "document"),
            Part("\n[OBJECTS FOR UPDATE]\n"),
        )
    )
    texts, forced = {}, {}
    model.forced_start = False  # the header too is left to jump-forward (test_forced_start)
    for on in (False, True):
        model.jump_forward = on
        model.reset_cache()
        grammar = StepGrammar(
            schema, schema.empty_memory(), limits=GrammarLimits(max_string=80), grounding=grounding
        )
        completion = model.complete(prompt, grammar=grammar, max_tokens=160, temperature=0.0)
        texts[on], forced[on] = completion.text, completion.forced_tokens
    model.jump_forward, model.forced_start = True, True
    assert texts[True] == texts[False]
    assert forced[False] == 0 and forced[True] > 0
