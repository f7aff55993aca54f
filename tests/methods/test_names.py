"""Summaries by scored names: the model's scores pick what enters the memory; the answer
covers the memory with the text's own sentences."""

from __future__ import annotations

import pytest

from prism_edge.backends import factory
from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.core.events import RunResult, StepDone
from prism_edge.core.metrics import RunMetrics
from prism_edge.engine.runner import PrismRunner
from prism_edge.methods import MethodError, make
from prism_edge.methods.names import answer_question, covering_answer
from prism_edge.methods.presets import TASKS
from prism_edge.prompts import Prompt

TASK = TASKS["summarize"]


def summarize(
    backend: ScriptedBackend,
    chunks: list[str],
    answer_tokens: int = 256,
    on_step=None,
    task=TASK,
    **options,
) -> RunResult:
    """A summary by names through the runner, as every command runs it."""
    config = task.configure("Summarize.", answer_max_tokens=answer_tokens)
    method = make("names", task.schema, config, **options)
    runner = PrismRunner(backend, task.schema, config, method=method)
    for event in runner.run(chunks):
        if isinstance(event, StepDone) and on_step is not None:
            on_step(event.chunk, event.applied)
    return runner.result


CHUNKS = [
    "The wolf cub slept. Then Mowgli ran to Akela at the rock. Later Mowgli spoke to Akela "
    "again. Baloo watched Mowgli and said nothing. Baloo was old.",
    "Mowgli met Kaa by the ruins, and Kaa was hungry. The ruins were cold. Kaa coiled near "
    "Mowgli. Bagheera came too; Bagheera hissed at Kaa.",
]


def scorer(prompt: Prompt, text: str) -> float:
    """The passage makes its most-repeated names likely; with no passage every name is
    equally likely."""
    passage = prompt.of_kind("document")
    return float(passage.count(text.strip())) if passage else 0.0


def test_the_best_scored_names_enter_the_memory_with_their_own_sentences():
    backend = ScriptedBackend(scorer=scorer)
    steps = []
    result = summarize(backend, CHUNKS, 60, lambda c, a: steps.append(a), keep=2)
    stored = result.memory.data["attributes"]
    # each chunk's two best of its names (written mid-sentence twice: in the second chunk
    # only Kaa); a stored name gains a sentence when a chunk picks it again
    assert set(stored) == {"Mowgli", "Akela", "Kaa"}
    assert stored["Mowgli"] == ["Then Mowgli ran to Akela at the rock."]
    assert stored["Kaa"] == ["Mowgli met Kaa by the ruins, and Kaa was hungry."]
    assert all(s in " ".join(CHUNKS) for ss in stored.values() for s in ss)
    assert result.steps == 2 and result.applied == 3 and result.rejected == 0
    assert [len(a) for a in steps] == [2, 1]
    again = summarize(backend, [CHUNKS[0], CHUNKS[0].replace("Then ", "")], 60, keep=2)
    assert again.memory.data["attributes"]["Mowgli"] == [
        "Then Mowgli ran to Akela at the rock.",
        "Mowgli ran to Akela at the rock.",
    ]
    assert result.answer and "Mowgli" in result.answer and "Kaa" in result.answer
    assert len(backend.tokenize(result.answer)) <= 60


def test_the_answer_covers_names_within_the_budget_each_sentence_once():
    entries = {
        "Mowgli": ["Mowgli ran to Akela.", "Mowgli met Kaa and Bagheera by the ruins at night."],
        "Akela": ["Mowgli ran to Akela."],
        "Kaa": ["Mowgli met Kaa and Bagheera by the ruins at night.", "Kaa slept."],
        "Bagheera": ["Bagheera hissed."],
    }
    answer = covering_answer(entries, 100)
    # a header of the main names and how often they are mentioned (here: in the memory),
    # then every name covered, narration first (short lines count double), a paragraph per
    # main name (the heaviest it names, in the header's order)
    assert answer == (
        "Main names: Bagheera (2), Kaa (2), Mowgli (2), Akela (1).\n\n"
        "Mowgli met Kaa and Bagheera by the ruins at night. Bagheera hissed.\n\n"
        "Kaa slept.\n\n"
        "Mowgli ran to Akela."
    )
    # when not all fit: the most name weight per word (Kaa and Bagheera are mentioned twice);
    # a header that does not fit is left out, not the sentences
    tight = covering_answer(entries, 6)
    assert tight == "Bagheera hissed.\n\nKaa slept."
    # how often the input names them outweighs the memory's own mentions
    heavy = covering_answer(entries, 8, mentions={"Akela": 1000})
    assert heavy == "Main names: Akela (1000).\n\nMowgli ran to Akela."
    assert covering_answer({}, 50) == ""


def test_a_paragraph_gathers_the_sentences_of_each_main_name_in_reading_order():
    entries = {
        "Mowgli": ["Mowgli grew up with the wolves.", "Mowgli went to the village at last."],
        "Baloo": ["Baloo taught him the Law of the Jungle."],
        "Kaa": ["Kaa the python fought the monkeys."],
    }
    read_at = {
        "Baloo taught him the Law of the Jungle.": (1, 0),
        "Mowgli grew up with the wolves.": (0, 0),
        "Kaa the python fought the monkeys.": (2, 0),
        "Mowgli went to the village at last.": (3, 0),
    }
    mentions = {"Mowgli": 50, "Baloo": 20, "Kaa": 5}
    answer = covering_answer(entries, 200, read_at=read_at, mentions=mentions)
    header, *paragraphs = answer.split("\n\n")
    assert header == "Main names: Mowgli (50), Baloo (20), Kaa (5)."
    # the most mentioned name's paragraph first; its sentences in the order they were read
    assert paragraphs == [
        "Mowgli grew up with the wolves. Mowgli went to the village at last.",
        "Baloo taught him the Law of the Jungle.",
        "Kaa the python fought the monkeys.",
    ]


def test_a_name_is_stored_with_a_sentence_that_narrates_not_a_line_of_dialogue():
    chunk = (
        '"Ho! ho!" said Mowgli. "Good hunting, Mowgli," called Baloo. Then Mowgli climbed '
        'the great tree above the river and watched the herd. "Sleep," said Baloo.'
    )
    backend = ScriptedBackend(scorer=scorer)
    result = summarize(backend, [chunk], 200, keep=2)
    stored = result.memory.data["attributes"]
    assert stored["Mowgli"] == [
        "Then Mowgli climbed the great tree above the river and watched the herd."
    ]
    assert stored["Baloo"] == ['"Good hunting, Mowgli," called Baloo.']  # no narration of him


def test_names_without_the_model_rank_by_mentions_and_spread_and_call_nothing():
    backend = ScriptedBackend()  # cannot score: the ablation needs no model
    chunks = [
        "Akela led. Mowgli ran and Mowgli hid and Mowgli slept. Kaa hissed at Akela once.",
        "Kaa coiled. Mowgli woke, and Kaa watched Mowgli. Akela waited and Akela was old.",
    ]
    result = summarize(backend, chunks, 200, keep=1, scoring="frequency")
    assert list(result.memory.data["attributes"]) == ["Mowgli"]
    assert backend.calls == [] and result.metrics.calls == []
    with pytest.raises(MethodError, match="scores continuations"):
        summarize(ScriptedBackend(), chunks, 200, scoring="pmi+frequency")


def test_the_combined_ranking_adds_the_models_and_the_counts_standard_scores():
    chunk = (
        "Then Mowgli ran far into the hills. Then Mowgli ran on past the rock. Then Mowgli "
        "ran back to the cave. Then Mowgli slept in the cave. Then Akela howled at the moon. "
        "Then Akela slept on his rock. Then Akela ran with the Pack. "
        "Then Kaa hissed at Kaa's shadow alone."
    )

    def likes_kaa_then_akela(prompt: Prompt, text: str) -> float:
        if not prompt.of_kind("document"):
            return 0.0
        return {" Kaa": 4.0, " Akela": 3.0}.get(text, 0.0)

    def first(scoring: str) -> str:
        backend = ScriptedBackend(scorer=likes_kaa_then_akela)
        result = summarize(backend, [chunk], 200, keep=1, scoring=scoring)
        return next(iter(result.memory.data["attributes"]))

    # the model alone picks Kaa, the counts alone Mowgli; Akela is second in both, and first
    # when both count
    assert first("pmi") == "Kaa"
    assert first("frequency") == "Mowgli"
    assert first("pmi+frequency") == "Akela"


ENTRIES = {
    "Mowgli": ["Mowgli ran to Akela at the rock.", "Mowgli learned the Law from Baloo."],
    "Akela": ["Mowgli ran to Akela at the rock.", "Akela missed his kill and grew old."],
    "Kaa": ["Kaa the python hunted the monkeys at the ruins.", "Akela and Kaa never met."],
    "Baloo": ["Mowgli learned the Law from Baloo.", "Baloo taught the cubs the Law."],
}


def test_a_question_naming_a_stored_name_gets_that_names_sentences_without_a_model_call():
    backend = ScriptedBackend()  # cannot score: none is needed when they fit
    metrics = RunMetrics()
    said = answer_question(backend, ENTRIES, "What happened to akela?", 100, metrics)
    assert said == (  # whichever name kept them
        "Mowgli ran to Akela at the rock. Akela missed his kill and grew old. Akela and Kaa "
        "never met."
    )
    assert metrics.calls == [] and backend.calls == []


def test_the_model_ranks_what_does_not_fit_and_the_answer_keeps_memory_order():
    def prefers_teaching(prompt: Prompt, text: str) -> float:
        # given the question, the sentence about teaching is likelier; alone, all are equal
        return 5.0 if prompt.of_kind("document") and "taught" in text else 0.0

    backend = ScriptedBackend(scorer=prefers_teaching)
    metrics = RunMetrics()
    # "Law" is in two sentences; only one fits in 14 tokens, and the model picks it
    said = answer_question(backend, ENTRIES, "Who taught the Law?", 14, metrics)
    assert said == "Baloo taught the cubs the Law."
    assert len(metrics.calls) == 4  # two sentences, with and without the question
    assert answer_question(backend, ENTRIES, "Who taught the Law?", 1, RunMetrics()) == said
    both = answer_question(backend, ENTRIES, "Who taught the Law?", 100, RunMetrics())
    assert both == "Mowgli learned the Law from Baloo. Baloo taught the cubs the Law."


def test_a_question_about_the_whole_gets_the_covering_answer():
    backend = ScriptedBackend()
    said = answer_question(backend, ENTRIES, "What is it about?", 40, RunMetrics())
    assert said == covering_answer(ENTRIES, 40, lambda t: len(backend.tokenize(t)))
    assert said


def test_a_backend_that_cannot_score_is_refused():
    with pytest.raises(MethodError, match=r"scores continuations.*use --method revisions"):
        summarize(ScriptedBackend(), CHUNKS)
    with pytest.raises(MethodError, match="attributes"):
        summarize(ScriptedBackend(scorer=scorer), CHUNKS, task=TASKS["code-search"])


def test_run_summarizes_by_names_where_the_model_can_score(monkeypatch, tmp_path):
    from prism_edge.app.history import History
    from tests.cli_harness import invoke

    backend = ScriptedBackend(scorer=scorer, outputs=["Mowgli ran."])
    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: backend)
    story = tmp_path / "story.txt"
    story.write_text("\n\n".join(CHUNKS), encoding="utf-8")
    out = invoke(
        "run",
        str(story),
        "--task",
        "summarize",
        "--method",
        "names",
        "--run-dir",
        str(tmp_path / "r"),
    )
    assert out.exit_code == 0, out.output
    cast, *happens = out.stdout.strip().split("\n\n")
    lines = cast.splitlines()
    assert lines[0] == "Who and what:" and lines[1].startswith("- Mowgli: ")
    said = [line.split(": ", 1)[1] for line in lines[1:] if line.startswith("- ")]
    said += happens[0].splitlines()[1:] if happens else []
    assert said and all(s in " ".join(CHUNKS) for s in said)  # every sentence the text's
    (entry,) = History().recent()
    assert entry.method == "names" and entry.memory["attributes"]
    asked = invoke("ask", str(entry.id), "Who is Kaa?")
    assert asked.exit_code == 0, asked.output
    kaa = entry.memory["attributes"]["Kaa"]
    assert asked.stdout.strip() == " ".join(kaa)  # the stored sentences, not a generated line
    assert f"done: answered from run {entry.id}'s memory; no model call" in asked.stderr
    wrong = invoke("run", str(story), "--task", "summarize", "--method", "definitions")
    assert (
        wrong.exit_code == 2
        and "--method definitions needs a schema with candidate_functions" in wrong.stderr
    )
    plain = ScriptedBackend(scorer=scorer, outputs=["[OBJECTS FOR UPDATE]\n[OBJECTS FOR ADD]"] * 9)
    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: plain)
    free = invoke("run", str(story), "--method", "revisions", "--run-dir", str(tmp_path / "f"))
    assert free.exit_code == 0 and History().recent(1)[0].method == "revisions"


def test_a_text_without_names_is_summarized_by_the_words_it_repeats():
    manual = (
        "the cache keeps every prompt prefix. when the prompt grows, the cache reuses the prefix "
        "and evaluates only the rest. a cache that is full drops its oldest prefix first."
    )
    backend = ScriptedBackend(scorer=scorer)
    result = summarize(backend, [manual], keep=2)
    stored = result.memory.data["attributes"]
    assert set(stored) == {"cache", "prefix"}  # each written three times, "prompt" twice
    assert result.answer and all(s in manual for ss in stored.values() for s in ss)


def test_a_run_over_text_with_nothing_to_summarize_says_so(monkeypatch, tmp_path):
    from tests.cli_harness import invoke

    backend = ScriptedBackend(scorer=scorer)
    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: backend)
    marks = tmp_path / "marks.txt"
    marks.write_text("!?.,;: " * 400, encoding="utf-8")
    out = invoke("run", str(marks), "--method", "names", "--run-dir", str(tmp_path / "r"))
    assert out.exit_code == 1 and out.stdout == ""
    assert "nothing to summarize by names" in out.stderr and "--method revisions" in out.stderr


def test_the_outline_of_text_with_nothing_to_quote_says_so(monkeypatch, tmp_path):
    from tests.cli_harness import invoke

    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: ScriptedBackend())
    marks = tmp_path / "marks.txt"
    marks.write_text("!?.,;: " * 400, encoding="utf-8")
    out = invoke("run", str(marks), "--run-dir", str(tmp_path / "r"))
    assert out.exit_code == 1 and out.stdout == ""
    assert "nothing to summarize: the text has no sentence" in out.stderr


def test_narration_is_told_apart_from_dialogue_exclamations_and_lists():
    from prism_edge.methods.names import _narrates

    assert _narrates("Then Mowgli climbed the great tree above the river.", "Mowgli")
    assert not _narrates('"Ho! ho! Good hunting to you all," said Mowgli.', "Mowgli")
    assert not _narrates("Illo, look up, Baloo of the Seeonee Wolf Pack!")
    assert not _narrates("Have they ever called me that, Kaa, in all the years?")
    assert not _narrates("Mowgli's Brothers\nKaa's Hunting\nTiger! Tiger!\nThe White Seal")
    assert _narrates("Mowgli ran on.\nHe did not stop,\nand the wolves ran with him at last.")


def test_run_reads_by_the_methods_measured_chunk_size_unless_one_is_given(monkeypatch, tmp_path):
    from prism_edge.app.planning import context_for
    from prism_edge.methods.names import ScoredNames
    from tests.cli_harness import invoke

    backend = ScriptedBackend(scorer=scorer)
    fitted: list[int] = []
    monkeypatch.setattr(backend, "fit", fitted.append)
    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: backend)
    story = tmp_path / "story.txt"
    story.write_text("\n\n".join(CHUNKS * 40), encoding="utf-8")
    measured = ScoredNames.chunk_tokens
    assert measured is not None
    names = ("--method", "names")
    out = invoke("run", str(story), *names, "--run-dir", str(tmp_path / "a"), "--verbose")
    assert out.exit_code == 0, out.output
    assert f"chunks of up to {measured} tokens (" in out.stderr
    assert f"chunks of {measured} tokens (measured best for names" in out.stderr
    # the context opened for the built-in chunk size shrinks to what this size needs
    assert fitted == [context_for(measured, 512)]
    given = invoke(
        "run", str(story), *names, "--chunk-tokens", "300", "--run-dir", str(tmp_path / "b")
    )
    assert "chunks of up to 300 tokens (" in given.stderr
    monkeypatch.setenv("PRISM_EDGE_CHUNK_TOKENS", "400")
    env = invoke("run", str(story), *names, "--run-dir", str(tmp_path / "c"))
    assert "chunks of up to 400 tokens (" in env.stderr
    # a context given is kept whatever the chunk size
    monkeypatch.delenv("PRISM_EDGE_CHUNK_TOKENS")
    kept = invoke("run", str(story), *names, "--ctx", "8000", "--run-dir", str(tmp_path / "d"))
    assert kept.exit_code == 0, kept.output
    assert fitted == [context_for(measured, 512)]


def test_a_name_mostly_said_inside_longer_names_is_not_a_main_name():
    entries = {
        "Wolf": ["The Wolf howled."],
        "Father Wolf": ["Father Wolf listened."],
        "Mother Wolf": ["Mother Wolf lay with her cubs."],
        "Elizabeth": ["Elizabeth laughed."],
        "Elizabeth Bennet": ["Elizabeth Bennet was at the ball."],
    }
    mentions = {
        "Wolf": 34, "Father Wolf": 21, "Mother Wolf": 10, "Elizabeth": 90, "Elizabeth Bennet": 4,
    }  # fmt: skip
    header = covering_answer(entries, 300, mentions=mentions).split("\n\n")[0]
    # "Wolf" is said alone 3 times of 34; "Elizabeth" mostly alone, so she stays
    assert header == (
        "Main names: Elizabeth (90), Father Wolf (21), Mother Wolf (10), Elizabeth Bennet (4)."
    )


GATED_CHUNKS = [
    "Then Mowgli ran far into the hills with Akela. Then Mowgli ran on past the rock with "
    "Akela. Then Mowgli slept in the cave near Baloo. Then Baloo watched over him at night.",
    "Then Mowgli met Kaa by the ruins, and then Kaa was hungry. Then Kaa coiled near "
    "Mowgli at the ruins. Then Bagheera came too, and then Bagheera hissed at the water.",
]


def test_gated_the_model_is_asked_only_where_the_counts_do_not_decide():
    def likes_baloo(prompt: Prompt, text: str) -> float:
        return 5.0 if prompt.of_kind("document") and text == " Baloo" else 0.0

    def run(margin):
        backend = ScriptedBackend(scorer=likes_baloo)
        config = TASK.configure("Summarize.", answer_max_tokens=200)
        method = make("names", TASK.schema, config, keep=1, margin=margin)
        runner = PrismRunner(backend, TASK.schema, config, method=method)
        for _ in runner.run(GATED_CHUNKS):
            pass
        return method, runner.result, backend

    # a wide margin: every chunk's names are near the boundary, the model reorders them
    wide, result, backend = run(10.0)
    assert wide.decided == [0, 2] and backend.evaluated > 0
    assert "Baloo" in result.memory.data["attributes"]  # the model's pick in the first chunk
    # no margin: the counts decide alone, the model is never called
    narrow, result, backend = run(0.0)
    assert narrow.decided == [2, 0] and backend.evaluated == 0
    assert set(result.memory.data["attributes"]) == {"Mowgli"}  # the most said, both chunks
    assert narrow.state()["decided"] == [2, 0]


def test_the_model_chooses_a_describing_sentence_only_among_close_ones():
    entries_chunk = (
        "Then Akela sat at the rock while the wolves talked all night long. "
        "Then Akela watched the young wolves run past the great council rock. "
        "By then Akela was old and tired, and he led the wolves no longer that year."
    )

    def likes_old(prompt: Prompt, text: str) -> float:
        return 4.0 if prompt.of_kind("document") == "Akela" and "old" in text else 0.0

    backend = ScriptedBackend(scorer=likes_old)
    chunks = [entries_chunk] * 3  # each step stores one more of its sentences
    result = summarize(backend, chunks, 300, scoring="frequency", describe="model")
    line = next(x for x in (result.answer or "").splitlines() if x.startswith("- Akela: "))
    said = "By then Akela was old and tired, and he led the wolves no longer that year."
    assert line == f"- Akela: {said}"
    assert backend.evaluated > 0
    plain = summarize(ScriptedBackend(), [entries_chunk] * 2, 300, scoring="frequency")
    assert "- Akela: " in (plain.answer or "")  # the cues alone need no model
