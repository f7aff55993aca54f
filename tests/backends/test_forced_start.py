"""The whole lines a grammar forces at the start of an output are evaluated with the prompt:
spelled by the tokenizer, never read from logits, and in the KV cache as if decoded."""

from __future__ import annotations

from typing import Any

import pytest

from prism_edge.backends.llama_cpp import LlamaCppBackend
from prism_edge.core.revisions import ADD_HEADER, UPDATE_HEADER, parse_output
from prism_edge.grammar.revision import GrammarLimits
from prism_edge.grammar.step import StepGrammar
from prism_edge.methods.presets import TASKS
from prism_edge.prompts import Part, Prompt
from tests.backends.test_line_guard import CHUNK, Adversary, vocab_backend

pytestmark = pytest.mark.model

SCHEMA = TASKS["summarize"].schema
MEMORY = {"attributes": {"Mowgli": "a man-cub raised by wolves"}}


class Counting(Adversary):
    """The adversary's logits, counting the positions whose logits were read."""

    def __init__(self, backend: LlamaCppBackend, seed: int) -> None:
        super().__init__(backend, seed)
        self.reads = 0

    def __call__(self, ctx: Any, index: int) -> Any:
        self.reads += 1
        return super().__call__(ctx, index)


def _decode(
    monkeypatch, grammar: Any, on: bool, seed: int = 0, *, to_the_end: bool = False
) -> tuple[list[int], int]:
    import llama_cpp

    backend = vocab_backend()
    adversary = Counting(backend, seed)
    monkeypatch.setattr(llama_cpp, "llama_get_logits_ith", adversary)
    backend.forced_start = on
    try:
        out, _ = backend._decode(grammar, 200, 0.0, seed, stop_at_eog=not to_the_end)
    finally:
        backend.forced_start = True
    return out, adversary.reads


def _header_tokens(*headers: str) -> list[int]:
    backend = vocab_backend()
    return [t for h in headers for t in backend._tokenize(h + "\n", special=False)]


@pytest.mark.parametrize(
    ("memory", "headers"),
    [({}, (UPDATE_HEADER, ADD_HEADER)), (MEMORY, (UPDATE_HEADER,))],
    ids=["empty memory: both headers", "a key to update: the first header"],
)
def test_the_forced_lines_are_the_tokenizers_spelling_and_read_no_logits(
    monkeypatch, memory, headers
):
    """With nothing to update, the grammar forces both section headers; with a stored key, only
    the first (the model chooses between an update and the add header)."""
    for seed in range(4):
        grammar = StepGrammar(SCHEMA, memory, limits=GrammarLimits(max_string=80))
        out, reads = _decode(monkeypatch, grammar, on=True, seed=seed, to_the_end=True)
        start = _header_tokens(*headers)
        assert out[: len(start)] == start
        assert vocab_backend()._last_forced == len(start)
        assert reads == len(out) - len(start)  # no forced token consulted the logits
        assert not parse_output(vocab_backend()._text(out)).rejected


def test_off_every_token_reads_its_logits(monkeypatch):
    grammar = StepGrammar(SCHEMA, {}, limits=GrammarLimits(max_string=80))
    out, reads = _decode(monkeypatch, grammar, on=False, to_the_end=True)
    # the header in whatever spelling the logits favour (here an adversary's), token by token
    assert vocab_backend()._text(out).startswith(UPDATE_HEADER + "\n")
    assert reads == len(out) and vocab_backend()._last_forced == 0


def test_a_forced_run_that_does_not_end_its_line_is_left_to_the_decoder(monkeypatch):
    grammar = 'root ::= "{\\"key\\": " [0-9]+ "}\\n"'
    out, reads = _decode(monkeypatch, grammar, on=True, to_the_end=True)
    assert vocab_backend()._last_forced == 0 and reads == len(out)
    assert vocab_backend()._text(out).startswith('{"key": ')


def test_a_grammar_that_forces_everything_reads_only_the_end(monkeypatch):
    grammar = 'root ::= "one line\\n" "and another\\n"'
    out, reads = _decode(monkeypatch, grammar, on=True)
    assert vocab_backend()._text(out) == "one line\nand another\n"
    assert reads == 1  # where the grammar allows only the end of generation


@pytest.fixture(scope="module")
def model() -> LlamaCppBackend:
    return LlamaCppBackend(n_ctx=2048)


def test_the_cache_holds_the_forced_lines_as_if_decoded(model):
    """The prompt, the forced header and every decoded token but the last are in the KV cache,
    in order: the next step's prompt reuses it as it would a decoded output's."""
    prompt = Prompt(
        (
            Part("Store the characters of this text as revisions.\n[TEXT]\n"),
            Part(CHUNK, "document"),
        )
    )
    model.reset_cache()
    grammar = StepGrammar(SCHEMA, MEMORY, limits=GrammarLimits(max_string=80))
    completion = model.complete(prompt, grammar=grammar, max_tokens=120, temperature=0.0)
    assert completion.text.startswith(UPDATE_HEADER + "\n")
    assert completion.forced_tokens == len(_header_tokens(UPDATE_HEADER))
    assert not parse_output(completion.text).rejected
    cached = model.cached_tokens()
    tokens = model.prompt_tokens(prompt)
    header = _header_tokens(UPDATE_HEADER)
    assert cached[: len(tokens)] == tokens
    assert cached[len(tokens) : len(tokens) + len(header)] == header
    # every emitted token but the last is evaluated, and nothing else
    assert len(cached) == len(tokens) + completion.decoded_tokens - 1
    assert completion.text.startswith(model._text(cached[len(tokens) :]))
