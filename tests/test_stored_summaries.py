"""The stored summaries of the development set (held-out texts included) hold no junk: no
contraction, pronoun, heading word or common noun listed as a name, no footnote, heading or
table-of-contents line (benchmarks/results/dev-set-issue43-smollm2, made by
``benchmarks/summaries/dev_set.py run``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from prism_edge.eval.quality import junk_of

RESULTS = Path(__file__).resolve().parents[1] / "benchmarks" / "results" / "dev-set-issue43-smollm2"
REPORTS = sorted(RESULTS.glob("*.json"))
SUMMARIES = ("names without the model", "PRISM names")


def test_every_text_of_the_set_was_measured():
    names = {p.stem for p in REPORTS}
    held_out = {"persuasion", "rape-of-lucrece", "julius-caesar", "debian-history"}
    assert held_out <= names and len(names) >= 11


@pytest.mark.parametrize("report", REPORTS, ids=lambda p: p.stem)
def test_no_stored_summary_lists_junk(report):
    rows = {r["name"]: r for r in json.loads(report.read_text())["methods"]}
    for method in SUMMARIES:
        answer = rows[method]["answer"]
        assert answer, f"{report.stem}: {method} gave no answer"
        assert junk_of(answer) == [], f"{report.stem}: {method}"
        assert rows[method]["junk"] == []


def test_the_junk_check_finds_what_the_old_answers_held():
    old = "Main names: school (8), I'm (6), Kiyo (4).\n\n[Footnote 5: Tankei is a place in China.]"
    assert len(junk_of(old)) == 3
