"""The model's feature asked only where the ranker is not sure, and the model loaded only
then (issue 53 point 5): a scripted model records whether it was asked, a fake loader whether
it was loaded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from prism_edge.backends import factory
from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.core.events import RunResult
from prism_edge.engine.runner import PrismRunner
from prism_edge.methods import make
from prism_edge.methods.presets import TASKS
from prism_edge.methods.tables import method as table_method
from prism_edge.text.chunking import chunk_documents
from prism_edge.text.inputs import collect
from tests.cli_harness import invoke

TASK = TASKS["table-qa"]
POWER = "year,source,net_generation\n" + "".join(
    f"{year}-01-01,{source},{(year - 2000) * weight}\n"
    for year in range(2001, 2011)
    for source, weight in (("Fossil Fuels", 100), ("Nuclear Energy", 10), ("Renewables", 30))
)
QUESTION = "Which source generated the most electricity in 2003?"


@pytest.fixture
def power(tmp_path: Path) -> Path:
    path = tmp_path / "power.csv"
    path.write_text(POWER, encoding="utf-8")
    return path


def _ask(path: Path, backend: ScriptedBackend, chooser: str) -> RunResult:
    config = TASK.configure(QUESTION)
    method = make("tables", TASK.schema, config, chooser=chooser)
    runner = PrismRunner(backend, TASK.schema, config, method=method)
    chunks = chunk_documents(collect([str(path)]).documents, 96, lambda t: len(t.split()))
    for _ in runner.run(chunks):
        pass
    return runner.result


def _model() -> ScriptedBackend:
    return ScriptedBackend(scorer=lambda prompt, text: -float(len(text)))


def test_the_model_is_asked_exactly_when_the_rankers_probability_is_under_the_gate(
    power, monkeypatch
):
    alone = _ask(power, ScriptedBackend(), "program")
    assert alone.table is not None and alone.table.best is not None
    sure = alone.table.best.probability  # the ranker's, before any model
    monkeypatch.setattr(table_method, "MODEL_GATE", sure)  # as sure as the gate: not asked
    kept = _ask(power, _model(), "model")
    assert kept.metrics.calls == []
    assert kept.answer == alone.answer and kept.table.best.probability == sure
    monkeypatch.setattr(table_method, "MODEL_GATE", sure + 1e-9)  # under the gate: asked
    asked = _ask(power, _model(), "model")
    assert asked.metrics.calls and all(c.kind == "score" for c in asked.metrics.calls)


def test_a_table_question_loads_the_model_only_when_it_asks_it(power, monkeypatch):
    loaded: list[dict[str, Any]] = []

    def open_backend(model: str | None = None, **options: Any) -> ScriptedBackend:
        loaded.append(options)
        return _model()

    monkeypatch.setattr(factory, "open_backend", open_backend)
    args = ["run", str(power), "--task", "table-qa", "--query", QUESTION, "--no-log"]
    monkeypatch.setattr(table_method, "MODEL_GATE", 1.01)  # never sure enough
    alone = invoke(*args)  # auto on a small model: the program ranks alone (issue 53)
    assert alone.exit_code == 0, alone.output
    assert loaded == [] and "no model call" in alone.stderr
    assert "method tables (auto: on a 135M model the program ranks alone" in alone.stderr
    args += ["--method", "tables"]  # the model asked for: loaded only where it is asked
    monkeypatch.setattr(table_method, "MODEL_GATE", 0.0)  # the ranker always sure enough
    done = invoke(*args)
    assert done.exit_code == 0, done.output
    assert loaded == [] and "no model call" in done.stderr
    monkeypatch.setattr(table_method, "MODEL_GATE", 1.01)  # never sure enough
    again = invoke(*args)
    assert again.exit_code == 0, again.output
    assert len(loaded) == 1 and "no model call" not in again.stderr
    assert again.stdout == done.stdout == "Fossil Fuels\n"
