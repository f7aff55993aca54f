from __future__ import annotations

import pytest

from prism_edge.metrics import CallMetrics, RunMetrics, cost_index


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
