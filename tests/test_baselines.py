from __future__ import annotations

import pytest

from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.eval.baselines import BaselineConfig, hierarchical, incremental, long_context, words
from prism_edge.prompts import Prompt

CHUNKS = [f"Chunk {i}: Mowgli meets animal number {i} in the jungle. " * 3 for i in range(6)]


def echo_notes(prompt: Prompt) -> str:
    return "notes about " + prompt.of_kind("document")[:20]


def test_incremental_call_pattern_and_chunk_first_layout():
    backend = ScriptedBackend(responder=echo_notes)
    result = incremental(backend, CHUNKS, BaselineConfig("Summarize.", max_tokens=64))
    kinds = [c.kind for c in result.metrics.calls]
    assert kinds == ["update"] * 6
    first, second = backend.calls[0].prompt, backend.calls[1].prompt
    assert first.text.startswith("Below is the first segment")
    # the chunk comes before the notes (BooookScore's layout), so little is ever cached
    assert second.text.index(CHUNKS[1]) < second.text.index("notes about")
    assert result.answer == result.notes == "notes about " + CHUNKS[5][:20]
    assert result.metrics.cache_hit < 0.2


def test_incremental_compresses_notes_over_budget():
    def long_notes(prompt: Prompt) -> str:
        return "short" if "Shortened notes" in prompt.text else "word " * 80

    backend = ScriptedBackend(responder=long_notes)
    result = incremental(
        backend, CHUNKS[:3], BaselineConfig("Summarize.", max_tokens=200, words=50)
    )
    kinds = [c.kind for c in result.metrics.calls]
    assert kinds == ["update", "compress"] * 3
    assert result.notes == "short"
    compress = next(c for c in backend.calls if "Shortened notes" in c.prompt.text)
    assert "These notes have 80 words" in compress.prompt.text


def test_incremental_for_retrieval_answers_from_the_notes():
    backend = ScriptedBackend(responder=lambda p: "clamp" if "Answer:" in p.text else "n")
    config = BaselineConfig(
        "Which function clamps?", "Name only.", max_tokens=32, answer_from_notes=True
    )
    result = incremental(backend, CHUNKS[:2], config)
    assert [c.kind for c in result.metrics.calls] == ["update", "update", "answer"]
    assert result.answer == "clamp"


def test_hierarchical_merges_level_by_level_within_the_context():
    backend = ScriptedBackend(responder=lambda p: "merged notes " * 20, n_ctx=600)
    result = hierarchical(backend, CHUNKS, BaselineConfig("Summarize.", max_tokens=100))
    kinds = [c.kind for c in result.metrics.calls]
    assert kinds[:6] == ["summarize"] * 6
    assert kinds.count("merge") >= 2  # more than one level: not everything fits at once
    assert all(c.completion.prompt_tokens + c.max_tokens <= 600 for c in backend.calls)
    assert result.answer and result.not_applicable is None


def test_long_context_fits_or_is_not_applicable():
    text = "".join(CHUNKS)
    fits = long_context(ScriptedBackend(["the answer"]), text, BaselineConfig("q"))
    assert fits.answer == "the answer" and len(fits.metrics.calls) == 1
    small = long_context(
        ScriptedBackend(["never"], n_ctx=300), text, BaselineConfig("q", max_tokens=50)
    )
    assert small.answer is None and not small.metrics.calls
    assert "does not fit" in (small.not_applicable or "") and "300" in small.not_applicable


def test_words():
    assert words(" a b\nc ") == 3


@pytest.mark.parametrize("bad", [0])
def test_word_budget_derived(bad):
    assert BaselineConfig("q", max_tokens=100, words=bad).word_budget == 60


def test_lead_sentences_cover_the_input_within_the_word_budget() -> None:
    from prism_edge.eval.baselines import lead_sentences

    chunks = [
        f"Chapter {i}. Mowgli met animal number {i} in the hills today. It was late."
        for i in range(10)
    ]
    everything = lead_sentences(chunks, 1000)
    assert everything.answer is not None
    assert everything.answer.count("Mowgli met animal") == 10
    assert everything.metrics.calls == [] and everything.metrics.cost_index == 0
    short = lead_sentences(chunks, 40)
    assert short.answer is not None and len(short.answer.split()) <= 40
    leads = short.answer.count("Mowgli met animal")
    assert 2 <= leads < 10 and "number 0 " in short.answer  # every k-th chunk, from the first
    assert lead_sentences([], 50).answer == ""


def test_lead_sentences_take_the_same_token_budget_as_the_answers_they_are_compared_with():
    from prism_edge.eval.baselines import lead_sentences

    chunks = [f"Mowgli met animal number {i} in the hills today. It was late." for i in range(10)]
    characters = len  # a tokenizer of one token a character
    fitted = lead_sentences(chunks, 120, characters)
    assert fitted.answer and len(fitted.answer) <= 120
    assert fitted.answer.startswith("Mowgli met animal number 0 ")
    # a lead longer than the whole budget is cut to it
    alone = lead_sentences(["A" * 50 + " long first sentence here."], 20, characters)
    assert alone.answer is not None and len(alone.answer) <= 20
