from __future__ import annotations

import dataclasses
import itertools
import json
import re
from collections.abc import Callable

import pytest

from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.core.memory import Memory
from prism_edge.core.metrics import RunMetrics
from prism_edge.engine.runner import (
    Answered,
    BudgetExceeded,
    ChunkCut,
    Finished,
    MemoryFolded,
    Position,
    PrismConfig,
    PrismRunner,
    StepDone,
    run_prism,
)
from prism_edge.methods.presets import TASKS
from prism_edge.prompts import Prompt
from prism_edge.text.chunking import chunk_text

NAME = re.compile(r"\b([A-Z][a-z]{3,})\b")


def book_reviser(prompt: Prompt) -> str:
    """Deterministic revisions computed from the chunk alone (the same in every encoding)."""
    if "[ANSWER]" in prompt.text:
        return "Mowgli grows up in the jungle."
    chunk = prompt.of_kind("document")
    memory = prompt.of_kind("memory")
    names = list(dict.fromkeys(NAME.findall(chunk)))[:3]
    lines = ["[OBJECTS FOR UPDATE]"]
    adds = ["[OBJECTS FOR ADD]"]
    for name in names:
        sentence = chunk[chunk.index(name) :][:60].replace("\n", " ")
        path = f"$.'attributes'.'{name}'"
        if f'"{name}"' in memory or f"'{name}'" in memory:
            lines.append(json.dumps({path: {"update": [sentence]}}))
        else:
            adds.append(json.dumps({path: {"add": [sentence]}}))
    return "\n".join(lines + adds)


def run_book(text: str, encoding: str, n_ctx: int = 16384):
    backend = ScriptedBackend(responder=book_reviser, n_ctx=n_ctx)
    chunks = list(chunk_text(text, 1024, lambda t: len(backend.tokenize(t))))
    config = PrismConfig(question="Summarize the book.", encoding=encoding)  # type: ignore[arg-type]
    runner = PrismRunner(backend, TASKS["summarize"].schema, config)
    events = list(runner.run(chunks))
    return runner, events, backend


def test_jungle_book_both_encodings(jungle_book):
    text = jungle_book[:120_000]
    results = {}
    for encoding in ("in-place", "amendments"):
        runner, events, backend = run_book(text, encoding)
        result = runner.result
        m = result.metrics
        assert isinstance(events[-1], Finished) and isinstance(events[-2], Answered)
        assert result.answer == "Mowgli grows up in the jungle."
        assert len(m.calls) == result.steps + 1
        assert m.prompt_tokens == sum(c.completion.prompt_tokens for c in backend.calls)
        assert m.net_tokens == m.prompt_tokens - m.reused_tokens
        assert m.cost_index == pytest.approx((m.net_tokens + 3 * m.decoded_tokens) / 1e6)
        assert 0 < m.cache_hit < 1 and m.wall_s > 0
        assert result.applied > 10 and result.rejected == 0
        assert all(c.reused_tokens for c in m.calls[1:])  # reuse from the second call on
        results[encoding] = result
    assert results["amendments"].memory.data == results["in-place"].memory.data
    assert results["amendments"].metrics.cache_hit > results["in-place"].metrics.cache_hit


def test_steps_report_revisions_and_rejections(book_schema):
    backend = ScriptedBackend(
        [
            "[OBJECTS FOR UPDATE]\n[OBJECTS FOR ADD]\n"
            '{"$.\'attributes\'.\'Mowgli\'": {"add": ["a cub"]}}',
            '[OBJECTS FOR UPDATE]\n{"$.\'attributes\'.\'Baloo\'": {"update": ["x"]}}\nnot json',
            "The answer.",
        ]
    )
    runner = PrismRunner(backend, book_schema, PrismConfig(question="q", reasks=0))
    events = list(runner.run(["first chunk", "   ", "second chunk"]))
    steps = [e for e in events if isinstance(e, StepDone)]
    assert [len(s.applied) for s in steps] == [1, 0]
    assert [len(s.rejected) for s in steps] == [0, 2]
    assert runner.result.applied == 1 and runner.result.rejected == 2
    reasons = sorted(r.reason for r in steps[1].rejected)
    assert "malformed" in reasons[0] and "does not exist" in reasons[1]
    assert runner.result.to_dict()["revisions"] == {
        "applied": 1,
        "rejected": 2,
        "duplicates": 0,
        "cut": 0,
        "reasked": 0,
    }
    # the static prefix is identical in every call
    prefixes = {c.prompt.parts[0].text for c in backend.calls}
    assert len(prefixes) == 1


def test_add_only_config(book_schema):
    backend = ScriptedBackend(
        [
            '{"$.\'attributes\'.\'a\'": {"add": ["x"]}}',
            '{"$.\'attributes\'.\'a\'": {"update": ["y"]}}',
            "done",
        ]
    )
    result = run_prism(
        backend, book_schema, PrismConfig(question="q", add_only=True, reasks=0), ["one", "two"]
    )
    assert result.memory.data == {"attributes": {"a": ["x"]}}
    assert "add-only" in result.rejections[0].reason


def test_invalid_revisions_are_reasked_with_their_errors(book_schema):
    backend = ScriptedBackend(
        [
            '{"$.\'attributes\'.\'Mowgli\'": {"add": ["a cub"]}}\n'
            '{"$.\'attributes\'.\'Baloo\'": {"update": ["a bear"]}}',
            '{"$.\'attributes\'.\'Baloo\'": {"add": ["a bear"]}}',
            "{\"$.'attributes'.'Kaa'\": {\"add\": 3}}",
            "{\"$.'attributes'.'Kaa'\": {\"add\": 4}}",
            "The answer.",
        ]
    )
    runner = PrismRunner(backend, book_schema, PrismConfig(question="q"))
    events = list(runner.run(["first chunk", "second chunk"]))
    steps = [e for e in events if isinstance(e, StepDone)]
    assert runner.memory.data == {"attributes": {"Mowgli": ["a cub"], "Baloo": ["a bear"]}}
    assert [len(s.applied) for s in steps] == [2, 0]
    assert runner.result.reasked == 2 and runner.result.rejected == 1
    assert "expected a list" in steps[1].rejected[0].reason
    first, reask = backend.calls[0], backend.calls[1]
    assert reask.prompt.parts[: len(first.prompt.parts)] == first.prompt.parts
    feedback = reask.prompt.parts[-1]
    assert feedback.kind == "feedback"
    assert "Baloo" in feedback.text and "does not exist" in feedback.text
    assert "[YOUR OUTPUT]" in feedback.text and "a cub" in feedback.text
    # the re-ask extends the prompt just answered: all of it comes from the cache
    assert reask.completion.reused_tokens == first.completion.prompt_tokens
    kinds = [c.kind for c in runner.metrics.calls]
    assert kinds == ["revise", "reask", "revise", "reask", "answer"]


def test_no_reask_without_invalid_revisions(book_schema):
    backend = ScriptedBackend(['{"$.\'attributes\'.\'a\'": {"add": ["x"]}}', "done"])
    result = run_prism(backend, book_schema, PrismConfig(question="q", reasks=3), ["one"])
    assert len(backend.calls) == 2 and result.reasked == 0


def make_grower() -> Callable[[Prompt], str]:
    steps = itertools.count()

    def grower(prompt: Prompt) -> str:
        """Each step rewrites one long entry (folding helps) and adds a new one (it cannot)."""
        if "[ANSWER]" in prompt.text:
            return "answer"
        return grow(prompt.of_kind("memory"), next(steps))

    return grower


def grow(memory: str, step: int) -> str:
    long_value = json.dumps(
        {
            "$.'attributes'.'hero'": {
                "update" if "hero" in memory else "add": [f"version {step} " + "word " * 30]
            }
        }
    )
    new = json.dumps({f"$.'attributes'.'k{step}'": {"add": ["fact " * 20]}})
    return long_value + "\n" + new


def test_budget_cuts_chunks_folds_and_finally_stops(book_schema):
    n_ctx = 1400
    backend = ScriptedBackend(responder=make_grower(), n_ctx=n_ctx)
    config = PrismConfig(question="q", max_tokens=200, min_chunk_tokens=100)
    runner = PrismRunner(backend, book_schema, config)
    chunks = ["lorem ipsum dolor sit amet. " * 60] * 12
    events = []
    with pytest.raises(BudgetExceeded) as info:
        for event in runner.run(chunks):
            events.append(event)
    kinds = [type(e) for e in events]
    assert all(
        not e.rejected and e.finish_reason == "stop" for e in events if isinstance(e, StepDone)
    )
    assert ChunkCut in kinds and MemoryFolded in kinds and StepDone in kinds
    error = info.value
    assert error.n_ctx == n_ctx and error.needed > n_ctx
    assert str(n_ctx) in str(error)
    assert error.result.memory.data["attributes"]  # the memory so far is kept
    book_schema.validate(error.result.memory.data)
    # no call ever exceeded the context
    for call in backend.calls:
        assert call.completion.prompt_tokens + call.max_tokens <= n_ctx
    cut = next(e for e in events if isinstance(e, ChunkCut))
    assert cut.room_tokens < cut.chunk_tokens
    fold = next(e for e in events if isinstance(e, MemoryFolded))
    assert fold.tokens_after < fold.tokens_before


def test_cut_chunks_lose_no_text(book_schema):
    backend = ScriptedBackend(responder=lambda p: "", n_ctx=700)
    config = PrismConfig(question="q", max_tokens=100, min_chunk_tokens=20, answer_max_tokens=50)
    runner = PrismRunner(backend, book_schema, config)
    chunk = " ".join(f"w{i}." for i in range(400))
    list(runner.run([chunk]))
    seen = "".join(c.prompt.of_kind("document") for c in backend.calls)
    assert seen == chunk
    assert len(backend.calls) > 2


def test_in_place_memory_cannot_fold_and_stops(book_schema):
    backend = ScriptedBackend(responder=make_grower(), n_ctx=1400)
    config = PrismConfig(question="q", encoding="in-place", max_tokens=200, min_chunk_tokens=100)
    runner = PrismRunner(backend, book_schema, config)
    with pytest.raises(BudgetExceeded):
        list(runner.run(["text. " * 100] * 20))
    assert runner.memory.folds == 0


def test_resume_from_memory(book_schema):
    memory = Memory(book_schema, "amendments")
    backend = ScriptedBackend(['{"$.\'attributes\'.\'b\'": {"add": ["y"]}}', "ans"])
    memory.revise(
        __import__("prism_edge.core.revisions", fromlist=["x"])
        .parse_output('{"$.\'attributes\'.\'a\'": {"add": ["x"]}}')
        .revisions
    )
    runner = PrismRunner(backend, book_schema, PrismConfig(question="q"), memory=memory)
    list(runner.run(["c"]))
    assert runner.memory.data == {"attributes": {"a": ["x"], "b": ["y"]}}


def test_config_is_strict():
    with pytest.raises(ValueError):
        PrismConfig(question="q", colour="blue")  # type: ignore[call-arg]
    with pytest.raises(ValueError):
        PrismConfig(question="")


def test_preflight_fails_before_any_call(book_schema):
    backend = ScriptedBackend(["never used"], n_ctx=300)
    runner = PrismRunner(backend, book_schema, PrismConfig(question="q", max_tokens=200))
    with pytest.raises(BudgetExceeded) as info:
        list(runner.run(["text"]))
    assert info.value.needed > 300 and not backend.calls


def test_repeats_and_cut_lines_are_counted_apart(book_schema):
    line = '{"$.\'attributes\'.\'a\'": {"add": ["x"]}}'
    two_lines = line + "\n" + line + "\n"
    long_line = '{"$.\'attributes\'.\'b\'": {"add": ["' + "y " * 100
    backend = ScriptedBackend([two_lines + long_line, "answer"])
    config = PrismConfig(question="q", max_tokens=len(backend.tokenize(two_lines)) + 10)
    result = run_prism(backend, book_schema, config, ["chunk"])
    assert (result.applied, result.rejected, result.duplicates, result.cut) == (1, 0, 1, 1)
    kinds = sorted(e.kind for e in result.rejections)
    assert kinds == ["cut", "duplicate"]


class LoopingScripted(ScriptedBackend):
    """The scripted backend, reporting that it closed line 2 early: the model looped in it."""

    def generate(self, prompt, sampling, grammar):
        completion = super().generate(prompt, sampling, grammar)
        if completion.text.startswith("{"):
            return dataclasses.replace(completion, looped_lines=(2,))
        return completion


@pytest.mark.parametrize(
    ("closed", "stored"),
    [
        # a phrase loop: what came before it is kept, the phrase once
        (
            '["Bingley came, and Jane smiled, and Jane smiled, and Jane smiled, and Ja"]',
            ["Bingley came, and Jane smiled"],
        ),
        ('["x}}}}}}}}}}}}}}}}"]', ["x}"]),
        ('["}}}}}}}}}}}}}}}}}}"]', None),  # nothing but the loop: dropped
        ('["x}}}}}}}', None),  # not even closed: dropped, never re-asked
    ],
)
def test_a_line_closed_in_a_loop_keeps_what_came_before_and_the_lines_after_apply(
    book_schema, closed, stored
):
    first = '{"$.\'attributes\'.\'a\'": {"add": ["x"]}}'
    looped = "{\"$.'attributes'.'b'\": {\"add\": " + closed + "}}"
    last = '{"$.\'attributes\'.\'c\'": {"add": ["z"]}}'
    backend = LoopingScripted(["\n".join([first, looped, last]) + "\n", "answer"])
    result = run_prism(backend, book_schema, PrismConfig(question="q"), ["chunk"])
    attributes = result.memory.data["attributes"]
    assert attributes["a"] == ["x"] and attributes["c"] == ["z"]
    assert attributes.get("b") == stored
    dropped = stored is None
    assert (result.applied, result.rejected, result.cut, result.reasked) == (
        3 - dropped,
        0,
        int(dropped),
        0,
    )
    assert [e.path for e in result.rejections if e.kind == "cut"] == ["line 2"] * dropped


class GrammarScripted(ScriptedBackend):
    """The scripted backend, taking grammars (it records them; it does not follow them)."""

    supports_grammar = True


def test_grounded_steps_get_their_chunks_words_and_the_answer_the_memorys(
    book_schema, grammar_checker
):
    backend = GrammarScripted(
        [
            "[OBJECTS FOR UPDATE]\n[OBJECTS FOR ADD]\n"
            '{"$.\'attributes\'.\'Kaa\'": {"add": ["Kaa the python"]}}\n',
            "Kaa the python.",
        ]
    )
    config = PrismConfig(question="Who is in it?", grounded=True, reasks=0)
    result = run_prism(backend, book_schema, config, ["Kaa the python hissed."])
    assert result.memory.data == {"attributes": {"Kaa": ["Kaa the python"]}}
    revise, answer = backend.calls
    assert revise.grammar is not None and answer.grammar is not None
    line = '[OBJECTS FOR UPDATE]\n[OBJECTS FOR ADD]\n{"$.\'attributes\'.\'%s\'": {"add": ["%s"]}}\n'
    assert grammar_checker(revise.grammar, line % ("python hissed", "Kaa hissed"))
    assert not grammar_checker(revise.grammar, line % ("Bagheera", "Kaa hissed"))
    assert not grammar_checker(revise.grammar, line % ("Kaa", "Kaa roared"))
    # the answer: the memory's words, the question's, function words; not the chunk's others
    assert grammar_checker(answer.grammar, "Who is in it? Kaa, the python.")
    assert not grammar_checker(answer.grammar, "Kaa hissed.")


def test_an_extractive_run_files_sentences_under_names_and_answers_name_by_name(
    book_schema, grammar_checker
):
    chunk = "Then Kaa the python hissed at Mowgli. The night fell."
    backend = GrammarScripted(
        [
            "[OBJECTS FOR UPDATE]\n[OBJECTS FOR ADD]\n"
            '{"$.\'attributes\'.\'Kaa\'": {"add": ["Then Kaa the python hissed at Mowgli."]}}\n'
            '{"$.\'attributes\'.\'Mowgli\'": {"add": ["Then Kaa the python hissed at Mowgli."]}}\n',
            "Kaa hissed.\n\nMowgli the python.",
        ]
    )
    config = PrismConfig(
        question="Who is in it?",
        grounded=True,
        grounding="extractive",
        answer_outline="attributes",
        reasks=0,
    )
    result = run_prism(backend, book_schema, config, [chunk])
    assert list(result.memory.data["attributes"]) == ["Kaa", "Mowgli"]
    revise, answer = backend.calls
    line = '[OBJECTS FOR UPDATE]\n[OBJECTS FOR ADD]\n{"$.\'attributes\'.\'%s\'": {"add": ["%s"]}}\n'
    assert not grammar_checker(revise.grammar, line % ("Kaa", "The night fell."))
    assert not grammar_checker(
        revise.grammar, line % ("python", "Then Kaa the python hissed at Mowgli.")
    )
    # paragraphs open with the memory's names, in its order
    assert answer.grammar is not None
    assert grammar_checker(answer.grammar, "Kaa hissed at Mowgli.\n\nMowgli the python.")
    assert not grammar_checker(answer.grammar, "Mowgli hissed.\n\nKaa hissed.")
    assert not grammar_checker(answer.grammar, "Kaa hissed.")  # the walk goes to the last key
    assert not grammar_checker(answer.grammar, "The python hissed.")


@pytest.mark.parametrize(
    ("grounded", "penalty", "used"), [(False, None, 1.0), (True, None, 1.15), (True, 1.3, 1.3)]
)
def test_revision_calls_repeat_penalty_defaults_by_grounding(book_schema, grounded, penalty, used):
    backend = ScriptedBackend(["[OBJECTS FOR UPDATE]\n[OBJECTS FOR ADD]\n", "Nothing."])
    config = PrismConfig(question="q", grounded=grounded, repeat_penalty=penalty, reasks=0)
    run_prism(backend, book_schema, config, ["Kaa hissed."])
    assert backend.calls[0].repeat_penalty == used
    assert backend.calls[1].repeat_penalty == config.answer_repeat_penalty


def test_ungrounded_answers_are_free_prose(book_schema, grammar_checker):
    backend = GrammarScripted(["[OBJECTS FOR UPDATE]\n[OBJECTS FOR ADD]\n", "Nothing."])
    run_prism(backend, book_schema, PrismConfig(question="q", reasks=0), ["Kaa hissed."])
    line = (
        "[OBJECTS FOR UPDATE]\n[OBJECTS FOR ADD]\n{\"$.'attributes'.'Bagheera'\": {\"add\": []}}\n"
    )
    assert backend.calls[0].grammar is not None
    assert grammar_checker(backend.calls[0].grammar, line)
    assert backend.calls[1].grammar is None


def test_an_answer_cut_by_its_budget_keeps_only_whole_words():
    from prism_edge.methods.written import _whole_words

    assert _whole_words("Kaa met the python. Baloo sl") == "Kaa met the python. Baloo"
    assert _whole_words("Tabaqui-Not: A most unt") == "Tabaqui-Not: A most"
    assert _whole_words("one") == ""


def test_the_engine_is_suited_to_the_method_once_before_the_first_call(book_schema):
    """A run sets the backend's engine up for what its method does (the written revisions
    decode; names only score), once, before any call."""
    from prism_edge.methods.written import WrittenRevisions

    order: list[str] = []

    class Suiting(ScriptedBackend):
        def suit(self, decode_share: float) -> str | None:
            order.append(f"suit {decode_share}")
            return "chosen"

        def generate(self, prompt, sampling, grammar):  # type: ignore[no-untyped-def]
            order.append("call")
            return super().generate(prompt, sampling, grammar)

    backend = Suiting(responder=book_reviser)
    config = PrismConfig(question="Summarize.", grammar=False)
    runner = PrismRunner(backend, book_schema, config)
    assert runner.suit() == "chosen" and runner.suit() == "chosen"
    assert order == [f"suit {WrittenRevisions.decode_share}"]  # asked once
    order.clear()
    result = run_prism(backend, book_schema, config, ["Mowgli ran. Baloo slept."] * 2)
    assert order[0] == f"suit {WrittenRevisions.decode_share}"
    assert len(order) > 2 and set(order[1:]) == {"call"}
    assert result.answer
    order.clear()  # a later question to the memory: under the same engine as the run
    later = PrismRunner(backend, book_schema, config.model_copy(update={"question": "Who?"}))
    later.restore(result.memory, RunMetrics(), Position(), {}, None)
    assert [type(e).__name__ for e in later.ask()][-1] == "Answered"
    assert order == [f"suit {WrittenRevisions.decode_share}", "call"]
