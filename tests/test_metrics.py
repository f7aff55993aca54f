from __future__ import annotations

import pytest

from prism_edge.core.metrics import CallMetrics, RunMetrics, SpeedProfile, cost_index


def test_run_totals_and_derived_figures():
    run = RunMetrics(
        [
            CallMetrics("revise", 1000, 0, 100, 1.0),
            CallMetrics("revise", 1200, 900, 50, 0.5),
            CallMetrics("answer", 800, 700, 200, 0.7),
        ],
        wall_s=2.5,
    )
    assert run.prompt_tokens == 3000
    assert run.reused_tokens == 1600
    assert run.net_tokens == 1400
    assert run.decoded_tokens == 350
    assert run.cache_hit == pytest.approx(1600 / 3000)
    assert run.cost_index == pytest.approx((1400 + 3 * 350) / 1e6)
    assert run.calls[1].net_tokens == 300 and run.calls[1].cache_hit == 0.75
    d = run.to_dict()
    assert d["net_tokens"] == d["prompt_tokens"] - d["reused_tokens"]
    assert RunMetrics.from_state(run.state()).to_dict() == d


def test_unknown_reuse_is_reported_as_unknown():
    run = RunMetrics([CallMetrics("revise", 10, None, 1, 0.1)])
    assert run.to_dict()["reused_tokens"] is None
    assert run.to_dict()["cache_hit"] is None
    assert run.net_tokens == 10


def test_paper_table2_cost_index():
    # BooookScore amendments row: net 171k, output 47k -> 0.31
    assert round(cost_index(171_000, 47_000), 2) == 0.31


def test_speed_profile_charges_each_token_at_its_depth():
    # 1 ms a prefill token at depth 0 rising to 3 ms at depth 2000; decode 10 ms flat
    profile = SpeedProfile(((0.0, 0.001), (2000.0, 0.003)), ((0.0, 0.01),))
    assert profile.prefill_seconds(0, 1) == pytest.approx(0.001)
    assert profile.prefill_seconds(1000, 1001) == pytest.approx(0.002)
    assert profile.prefill_seconds(5000, 5002) == pytest.approx(0.006)  # clamped past the end
    assert profile.prefill_seconds(10, 10) == 0.0
    # tokens 0..1999: mean of the linear ramp 1..(3 - 0.001) ms
    assert profile.prefill_seconds(0, 2000) == pytest.approx(2000 * 0.002, rel=1e-3)
    # a call reusing 1000 of 1500 prompt tokens, decoding 10: only the 500 net are charged
    call = CallMetrics("revise", 1500, 1000, 10, 9.0)
    expected = profile.prefill_seconds(1000, 1500) + 10 * 0.01
    assert profile.call_seconds(call) == pytest.approx(expected)
    assert profile.bound_s(RunMetrics([call, call])) == pytest.approx(2 * expected)
    # unknown reuse counts as none reused
    assert profile.call_seconds(CallMetrics("x", 100, None, 0, 1.0)) == pytest.approx(
        profile.prefill_seconds(0, 100)
    )
    assert profile.to_dict()["prefill_tok_s"] == 1000.0
    assert profile.to_dict()["prefill_by_depth"] == [[0, 1000.0], [2000, 333.3]]


def test_forced_output_tokens_are_charged_at_the_prefill_rate():
    # 10 of 30 output tokens forced by the grammar (evaluated in a batch, like the prompt)
    profile = SpeedProfile(((0.0, 0.001), (2000.0, 0.003)), ((0.0, 0.01),))
    call = CallMetrics("revise", 1500, 1000, 30, 1.0, forced_tokens=10)
    expected = profile.prefill_seconds(1000, 1510) + 20 * 0.01
    assert profile.call_seconds(call) == pytest.approx(expected)
    assert profile.call_seconds(call) < profile.call_seconds(
        CallMetrics("revise", 1500, 1000, 30, 1.0)
    )


def test_a_flat_profile_is_the_old_bound():
    profile = SpeedProfile.flat(200.0, 50.0)
    run = RunMetrics([CallMetrics("revise", 3000, 1000, 100, 1.0)])
    assert profile.bound_s(run) == pytest.approx(2000 / 200 + 100 / 50)
    with pytest.raises(ValueError):
        SpeedProfile((), ((0.0, 1.0),))


def test_prefill_and_decode_rates_come_from_the_calls_that_time_their_prefill():
    from prism_edge.core.metrics import CallMetrics, RunMetrics

    metrics = RunMetrics(
        [
            CallMetrics("revise", 1000, 200, 50, 5.0, 2.0),  # 800 evaluated in 2 s, 50 in 3 s
            CallMetrics("revise", 1200, 1000, 30, 2.0, 1.0),  # 200 in 1 s, 30 in 1 s
            CallMetrics("answer", 500, None, 10, 9.0),  # untimed: left out of the rates
        ]
    )
    prefill, decode = metrics.rates()
    assert prefill == pytest.approx(1000 / 3.0) and decode == pytest.approx(80 / 4.0)
    assert RunMetrics([CallMetrics("revise", 10, 0, 0, 1.0)]).rates() == (None, None)
    restored = RunMetrics.from_state(metrics.state())
    assert restored.rates() == metrics.rates()
    old = {"wall_s": 1.0, "calls": [{"kind": "revise", "prompt_tokens": 5, "reused_tokens": 0,
                                     "decoded_tokens": 1, "seconds": 0.5}]}  # fmt: skip
    assert RunMetrics.from_state(old).calls[0].prefill_seconds is None  # older checkpoints


def test_the_progress_line_shows_rates_cache_memory_and_eta():
    from prism_edge.app.render import eta, progress_stats
    from prism_edge.core.metrics import CallMetrics, RunMetrics

    metrics = RunMetrics([CallMetrics("revise", 1000, 600, 40, 3.0, 1.0)])
    line = progress_stats(metrics, 321, eta(30.0, 2048, 6144))
    assert line == "prefill 400 tok/s, decode 20 tok/s, cache 60%, memory 321 tok, ETA 1:30"
    assert eta(10.0, 0, 100) is None
    unknown = RunMetrics([CallMetrics("revise", 100, None, 5, 1.0)])
    assert progress_stats(unknown, 5, None) == "memory 5 tok"
