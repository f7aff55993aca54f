from __future__ import annotations

import json
from dataclasses import replace

import pytest

from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.core.metrics import CallMetrics, RunMetrics, SpeedProfile
from prism_edge.eval.bench import (
    METHODS,
    NEEDLE_METHODS,
    BenchTask,
    MethodRow,
    markdown_table,
    needle_table,
    run_methods,
    run_needles,
)
from prism_edge.eval.quality import Entity, Needle
from prism_edge.methods.presets import TASKS
from prism_edge.prompts import Prompt

CHUNKS = [f"Part {i}. Mowgli and Baloo walk to the river number {i}. " * 4 for i in range(5)]


def responder(prompt: Prompt) -> str:
    if "[ANSWER]" in prompt.text or "Answer:" in prompt.text:
        return "Mowgli and Baloo."
    if "[OBJECTS FOR" in prompt.text or "[PARTIAL_SUMMARY]" in prompt.text:
        n = prompt.text.count("river number")
        return json.dumps({f"$.'attributes'.'river {n} {len(prompt.text)}'": {"add": ["x"]}})
    return "Mowgli and Baloo walk to a river."


def test_every_method_runs_side_by_side():
    backend = ScriptedBackend(responder=responder, n_ctx=4096)
    task = TASKS["summarize"]
    bench_task = BenchTask(task, task.default_question or "")
    rows = run_methods(
        backend, bench_task, CHUNKS, "".join(CHUNKS), max_tokens=64, answer_tokens=32
    )
    assert [r.name for r in rows] == list(METHODS)
    by_name = {r.name: r for r in rows}
    assert all(r.metrics is not None and r.answer for r in rows)
    assert len(by_name["long context"].metrics.calls) == 1
    assert len(by_name["PRISM amendments"].metrics.calls) == len(CHUNKS) + 1
    assert by_name["PRISM amendments"].metrics.cache_hit > by_name["incremental"].metrics.cache_hit
    assert by_name["PRISM amendments"].rejected == 0


def test_retrieval_tasks_skip_hierarchical_and_long_context_can_be_too_long():
    backend = ScriptedBackend(responder=responder, n_ctx=900)
    task = TASKS["code-search"]
    bench_task = BenchTask(task, "find it")
    rows = run_methods(
        backend,
        bench_task,
        CHUNKS,
        "".join(CHUNKS) * 3,
        max_tokens=64,
        answer_tokens=32,
        methods=("long context", "hierarchical"),
    )
    assert rows[0].metrics is None and "does not fit" in (rows[0].not_applicable or "")
    assert rows[1].not_applicable == "summaries only (as in the paper)"
    table = markdown_table(rows, None)
    assert "n/a: the whole input does not fit" in table


def test_table_arithmetic_and_bound():
    metrics = RunMetrics(
        [
            CallMetrics("revise", 1000, 600, 100, 2.0, forced_tokens=10),
            CallMetrics("answer", 500, 400, 50, 1.0),
        ],
        wall_s=3.5,
    )
    flat = SpeedProfile.flat(100.0, 50.0)
    row = MethodRow("PRISM amendments", metrics, "a", 0, input_tokens=700, calibration=flat)
    d = row.to_dict(flat.prefill_tok_s)
    assert d["net_tokens"] == 500 and d["decoded_tokens"] == 150 and d["forced_tokens"] == 10
    assert d["cache_hit"] == pytest.approx(1000 / 1500, abs=1e-4)
    assert d["cost_index"] == pytest.approx((500 + 3 * 150) / 1e6)
    # the 10 forced output tokens at the prefill rate, the other 140 at the decode rate
    assert d["bound_s"] == pytest.approx(510 / 100 + 140 / 50)
    # 700 input tokens in 3.5 s: 200 tok/s, twice the depth-0 prefill rate; 3.5 s of a 7.9 s bound
    assert d["input_tok_s"] == 200 and d["prefill_ratio"] == 2.0
    assert d["wall_over_bound"] == pytest.approx(3.5 / 7.9, abs=1e-3)
    table = markdown_table([row], flat.prefill_tok_s)
    assert (
        "| PRISM amendments | 67 | 1500 | 500 | 150 | 0.0009 | 3.5 | 7.9 | 200 | 2.00 | 0.44 | 0 |"
        in table
    )


def test_unknown_method_is_an_error():
    with pytest.raises(ValueError, match="unknown method"):
        run_methods(
            ScriptedBackend(), BenchTask(TASKS["summarize"], "q"), [], "", methods=("magic",)
        )


def test_quality_measures_join_the_table():
    backend = ScriptedBackend(responder=responder, n_ctx=4096)
    task = TASKS["summarize"]
    entities = (Entity("Mowgli"), Entity("Baloo"), Entity("Bagheera"))
    bench_task = BenchTask(task, "Summarize.", entities=entities)
    rows = run_methods(
        backend,
        bench_task,
        CHUNKS,
        "".join(CHUNKS),
        max_tokens=64,
        answer_tokens=32,
        methods=("incremental", "PRISM amendments"),
    )
    incremental, prism = rows
    assert incremental.recall is not None and incremental.recall.missed == ("Bagheera",)
    assert incremental.faithfulness is None
    # every stored value is "river N <len>" / "x": "river" occurs in the chunk, the numbers
    # are no content words of 3+ letters except the lengths, so 1 of 2 words: unsupported
    assert prism.faithfulness is not None and prism.faithfulness.total == len(CHUNKS)
    assert prism.faithfulness.supported == 0
    table = markdown_table(rows, None)
    assert "| entity recall | faithful |" in table
    assert "| 0.67 (2/3) | 0.00 (0/5) |" in table
    assert prism.to_dict(None)["entities_missed"] == ["Bagheera"]
    # the report keeps what PRISM's answer was written from
    assert prism.to_dict(None)["memory"] == prism.memory and prism.memory["attributes"]
    assert incremental.to_dict(None)["memory"] is None


PAIR = ("incremental", "PRISM amendments")


def test_needle_defaults_hold_the_baselines_and_the_best_prism():
    assert NEEDLE_METHODS == (
        "incremental",
        "BM25 definitions",
        "PRISM amendments",
        "PRISM definitions",
        "PRISM definitions + BM25 shortlist",
    )


def test_definition_methods_run_on_code_and_say_why_not_elsewhere():
    code = [
        'File path: f.py\nContent:\ndef do_round(x):\n    """Round a number."""\n    return x\n',
        'File path: f.py\nContent:\ndef do_upper(s):\n    """Upper-case text."""\n    return s\n',
        'File path: f.py\nContent:\ndef do_join(xs):\n    """Join strings."""\n    return xs\n',
        'File path: f.py\nContent:\ndef do_trim(s):\n    """Strip a string."""\n    return s\n',
    ]

    def scorer(prompt: Prompt, text: str) -> float:
        return 0.0 if "round" in prompt.of_kind("document").lower() else -5.0

    backend = ScriptedBackend(scorer=scorer)
    task = BenchTask(TASKS["code-search"], "round a number")
    rows = run_methods(backend, task, code, "", methods=("BM25 definitions", "PRISM definitions"))
    assert [r.answer for r in rows] == ["do_round", "do_round"]
    assert rows[0].metrics is not None and not rows[0].metrics.calls  # BM25: no model call
    summary = run_methods(
        backend, BenchTask(TASKS["summarize"], "q"), code, "", methods=("BM25 definitions",)
    )
    assert summary[0].not_applicable == "code search only"
    plain = run_methods(ScriptedBackend(), task, code, "", methods=("PRISM definitions",))
    assert "cannot score" in (plain[0].not_applicable or "")


def test_needle_accuracy_runs_each_query_on_each_method():
    def answers(prompt: Prompt) -> str:
        if "[ANSWER]" in prompt.text or "Answer:" in prompt.text:
            return "do_round" if "round" in prompt.text else "do_indent"
        return responder(prompt)

    backend = ScriptedBackend(responder=answers, n_ctx=4096)
    task = TASKS["code-search"]
    bench_task = BenchTask(task, "unused")
    needles = [Needle("round a number", "do_round"), Needle("count words", "do_wordcount")]
    heard: list[tuple[int, str, bool]] = []
    rows = run_needles(
        backend,
        bench_task,
        CHUNKS,
        "".join(CHUNKS),
        needles,
        methods=PAIR,
        max_tokens=64,
        answer_tokens=32,
        on_answer=lambda index, method, hit, answer: heard.append((index, method, hit)),
    )
    assert [r.name for r in rows] == list(PAIR)
    # each answer is told as it comes, in the order asked
    assert heard == [
        (0, PAIR[0], True),
        (0, PAIR[1], True),
        (1, PAIR[0], False),
        (1, PAIR[1], False),
    ]
    assert all(r.hits == [True, False] and r.accuracy == 0.5 for r in rows)
    asked = [c.prompt.text for c in backend.calls]
    assert sum("round a number" in t for t in asked) > 0
    assert sum("count words" in t for t in asked) > 0
    table = needle_table(rows, needles)
    assert "| PRISM amendments | 0.50 (1/2) | yes | no |" in table


class GrammarScripted(ScriptedBackend):
    supports_grammar = True


def test_grounded_variants_run_when_named(grammar_checker):
    backend = GrammarScripted(responder=responder, n_ctx=4096)
    bench_task = BenchTask(replace(TASKS["summarize"], grounding="words"), "Summarize.")
    rows = run_methods(
        backend,
        bench_task,
        CHUNKS,
        "".join(CHUNKS),
        max_tokens=64,
        answer_tokens=32,
        methods=("PRISM amendments grounded", "PRISM amendments"),
    )
    assert [r.name for r in rows] == ["PRISM amendments grounded", "PRISM amendments"]
    assert all(r.metrics is not None and len(r.metrics.calls) == len(CHUNKS) + 1 for r in rows)
    assert "grounded" not in " ".join(METHODS)
    grounded, free = backend.calls[0].grammar, backend.calls[len(CHUNKS) + 1].grammar
    line = "[OBJECTS FOR UPDATE]\n[OBJECTS FOR ADD]\n{\"$.'attributes'.'%s'\": {\"add\": []}}\n"
    assert grammar_checker(grounded, line % "Mowgli and Baloo")
    assert not grammar_checker(grounded, line % "Bagheera")
    assert grammar_checker(free, line % "Bagheera")


def test_a_task_s_grounding_and_outline_reach_the_grounded_variants(grammar_checker):
    backend = GrammarScripted(responder=responder, n_ctx=4096)
    task = TASKS["summarize"]
    assert (task.grounding, task.answer_outline) == ("extractive", "attributes")
    bench_task = BenchTask(task, "Summarize.")
    run_methods(
        backend,
        bench_task,
        ["Then Mowgli met Baloo. Mowgli and Baloo ran on."],
        "",
        max_tokens=64,
        answer_tokens=32,
        methods=("PRISM amendments grounded",),
    )
    line = '[OBJECTS FOR UPDATE]\n[OBJECTS FOR ADD]\n{"$.\'attributes\'.\'%s\'": {"add": ["%s"]}}\n'
    revise = backend.calls[0].grammar
    assert grammar_checker(revise, line % ("Baloo", "Then Mowgli met Baloo."))
    assert not grammar_checker(revise, line % ("Mowgli and Baloo", "Then Mowgli met Baloo."))
    assert not grammar_checker(revise, line % ("Baloo", "Mowgli met Baloo"))


class TwoEngines(ScriptedBackend):
    """A scripted backend with two engine settings, a speed profile for each: the setting
    flips to "writing" for a run that decodes (as flash attention off does on SmolLM2)."""

    can_calibrate = True

    def __init__(self) -> None:
        super().__init__(responder=responder, n_ctx=4096)
        self.setting = "scoring"
        self.suited: list[float] = []
        self.calibrated: list[str] = []

    @property
    def engine(self) -> str:
        return self.setting

    def suit(self, decode_share: float) -> str | None:
        self.suited.append(decode_share)
        self.setting = "writing" if decode_share > 0 else "scoring"
        return self.setting

    def calibrate(self) -> SpeedProfile:
        self.calibrated.append(self.setting)
        rate = 300.0 if self.setting == "scoring" else 200.0
        return SpeedProfile.flat(rate, 50.0)


def test_each_method_runs_with_its_engine_and_is_bound_by_that_engines_speed():
    from prism_edge.eval.baselines import DECODE_SHARES
    from prism_edge.eval.bench import Calibrations
    from prism_edge.methods.written import WrittenRevisions

    backend = TwoEngines()
    task = TASKS["summarize"]
    calibrations = Calibrations(backend)
    rows = run_methods(
        backend,
        BenchTask(task, task.default_question or ""),
        CHUNKS,
        "".join(CHUNKS),
        max_tokens=64,
        answer_tokens=32,
        methods=("incremental", "lead sentences", "PRISM amendments", "names without the model"),
        calibrations=calibrations,
    )
    by_name = {r.name: r for r in rows}
    # the baseline and the written method decode; counting names does not
    assert backend.suited == [DECODE_SHARES["incremental"], WrittenRevisions.decode_share, 0.0]
    assert by_name["incremental"].engine == "writing"
    assert by_name["PRISM amendments"].engine == "writing"
    assert by_name["names without the model"].engine == "scoring"
    # each setting measured once, right after the first method that ran with it; a method
    # that called no model (lead sentences, names counted) has no bound
    assert backend.calibrated == ["writing"]
    assert by_name["incremental"].calibration == SpeedProfile.flat(200.0, 50.0)
    assert by_name["lead sentences"].calibration is None
    assert by_name["names without the model"].calibration is None
    # input rates are set against the fastest depth-0 prefill measured in the run
    assert calibrations.prefill_tok_s == 200.0
    table = markdown_table(rows, calibrations.prefill_tok_s)
    assert "| PRISM amendments |" in table and "| names without the model |" in table
    # a method that ran the model with another setting than the first says which
    called = RunMetrics([CallMetrics("score", 100, 0, 0, 1.0)], wall_s=1.0)
    other = MethodRow("PRISM names", called, "a", engine="scoring")
    assert "| PRISM names [scoring] |" in markdown_table([*rows, other], 200.0)


def test_the_fastest_prefill_is_the_reference_whichever_engine_ran_first():
    from prism_edge.eval.bench import Calibrations

    backend = TwoEngines()
    calibrations = Calibrations(backend)
    backend.suit(0.3)
    assert calibrations.current() == SpeedProfile.flat(200.0, 50.0)
    backend.suit(0.0)
    assert calibrations.current() == SpeedProfile.flat(300.0, 50.0)
    assert calibrations.current() == SpeedProfile.flat(300.0, 50.0)  # measured once
    assert backend.calibrated == ["writing", "scoring"]
    assert calibrations.prefill_tok_s == 300.0
    assert calibrations.reference == SpeedProfile.flat(300.0, 50.0)
    assert [engine for engine, _ in calibrations.take_fresh()] == ["writing", "scoring"]
    assert calibrations.take_fresh() == []
    assert set(calibrations.to_dict()) == {"writing", "scoring"}


def test_a_bench_of_methods_that_write_is_set_against_the_scoring_engines_prefill():
    from prism_edge.eval.bench import Calibrations

    backend = TwoEngines()
    calibrations = Calibrations(backend)
    backend.suit(0.3)
    calibrations.current()
    assert calibrations.prefill_tok_s == 200.0  # only the writing setting measured so far
    calibrations.include_prefill_engine()
    assert backend.calibrated == ["writing", "scoring"]
    assert calibrations.prefill_tok_s == 300.0
    calibrations.include_prefill_engine()  # measured already: not again
    assert backend.calibrated == ["writing", "scoring"]
    # a backend that cannot measure is not asked again
    silent = Calibrations(ScriptedBackend(responder=responder), measure=True)
    silent.include_prefill_engine()
    assert silent.prefill_tok_s is None and not silent.measure
