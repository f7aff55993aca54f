"""The one-call library is ``run``'s own path: the same answer as the command for the same
inputs, nothing printed, nothing recorded."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import prism_edge
from prism_edge.backends import factory
from prism_edge.backends.scripted import ScriptedBackend
from tests.cli_harness import invoke

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "mowglis-brothers.txt"
CODE = ROOT / "benchmarks" / "data" / "click" / "formatting.py"
TABLE = ROOT / "examples" / "iowa-electricity.csv"


def _scripted(monkeypatch) -> list[ScriptedBackend]:
    opened: list[ScriptedBackend] = []

    def open_backend(model=None, **options):  # type: ignore[no-untyped-def]
        opened.append(ScriptedBackend(parameters=135_000_000))
        return opened[-1]

    monkeypatch.setattr(factory, "open_backend", open_backend)
    return opened


def test_summarize_answers_what_run_answers(monkeypatch, tmp_path):
    _scripted(monkeypatch)
    result = prism_edge.summarize(EXAMPLE)
    out = invoke("run", str(EXAMPLE), "--no-log")
    assert out.exit_code == 0, out.output
    assert result.answer == out.stdout.rstrip("\n") and result.answer
    assert result.method == "outline" and "the program ranks alone" in result.reason
    assert result.memory["attributes"]
    text = prism_edge.summarize(EXAMPLE.read_text(encoding="utf-8"))  # the text itself
    assert text.answer == result.answer


def test_run_reports_progress_and_refuses_an_unknown_task(monkeypatch):
    _scripted(monkeypatch)
    events: list[object] = []
    result = prism_edge.run(EXAMPLE, on_event=events.append)
    assert [e for e in events if getattr(e, "kind", "") == "step"]
    assert result.result.steps == len([e for e in events if getattr(e, "kind", "") == "step"])
    with pytest.raises(ValueError, match="unknown task"):
        prism_edge.run(EXAMPLE, task="poetry")


def test_the_package_imports_light():
    code = "import prism_edge, sys; print('typer' in sys.modules, 'rich' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False"]


@pytest.mark.model
@pytest.mark.parametrize(
    ("call", "args"),
    [
        (
            lambda: prism_edge.search_code(CODE, "Find the function that wraps text to a width"),
            [str(CODE), "--task", "code-search", "--query",
             "Find the function that wraps text to a width"],
        ),
        (
            lambda: prism_edge.ask_table(
                TABLE, "Which source generated the most electricity in 2005?"
            ),
            [str(TABLE), "--task", "table-qa", "--query",
             "Which source generated the most electricity in 2005?"],
        ),
    ],
    ids=["search_code", "ask_table"],  # summarize: tests/test_readme.py
)  # fmt: skip
def test_each_call_gives_runs_answer_byte_for_byte_on_the_embedded_model(call, args, tmp_path):
    answer = call().answer
    done = subprocess.run(
        [str(Path(sys.executable).with_name("prism-edge")), "run", *args, "--no-log", "-q",
         "--run-dir", str(tmp_path / "r")],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert answer and done.stdout == answer + "\n"


def test_a_code_search_opened_once_answers_many_descriptions(monkeypatch, tmp_path):
    def scorer(prompt, text: str) -> float:
        document = prompt.of_kind("document").lower()
        return float(sum(word in document for word in text.lower().split()))

    opened: list[ScriptedBackend] = []

    def open_backend(model=None, **options):  # type: ignore[no-untyped-def]
        opened.append(ScriptedBackend(scorer=scorer, parameters=135_000_000))
        return opened[-1]

    monkeypatch.setattr(factory, "open_backend", open_backend)
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "a.py").write_text('def clamp(v, lo, hi):\n    """Limit a number to a range."""\n')
    (folder / "b.py").write_text('def shout(s):\n    """Upper-case a text."""\n')
    events: list[object] = []
    one = prism_edge.search_code(folder, "limit a number to a range", on_event=events.append)
    assert one.answer == f"{folder / 'a.py'}:1: clamp" and one.method == "definitions"
    assert [getattr(e, "path", "") for e in events if getattr(e, "kind", "") == "indexed"] == [
        str(folder / "a.py"),
        str(folder / "b.py"),
    ]
    with prism_edge.open_code_search(folder) as search:
        answers = [search.ask(q).answer for q in ("upper-case a text", "limit a number")]
    assert [a.rsplit(": ", 1)[1] for a in answers if a] == ["shout", "clamp"]
    assert len(opened) == 2  # one model for the one call, one for both questions


def test_stream_yields_the_events_then_the_answer_and_closes_early(monkeypatch):
    opened = _scripted(monkeypatch)
    closed: list[int] = []
    monkeypatch.setattr(ScriptedBackend, "close", lambda self: closed.append(id(self)))
    items = list(prism_edge.stream(EXAMPLE))
    answer = items[-1]
    assert isinstance(answer, prism_edge.Answer)
    assert answer.answer == prism_edge.run(EXAMPLE).answer
    steps = [i for i in items if getattr(i, "kind", "") == "step"]
    assert len(steps) == answer.result.steps >= 1 and items[-2].kind == "finished"
    assert closed == [id(opened[0]), id(opened[1])]
    items_early = prism_edge.stream(EXAMPLE)
    assert next(items_early).kind == "step"  # a consumer that stops early
    items_early.close()
    assert closed[-1] == id(opened[2])
    with pytest.raises(ValueError, match="on_event is run's"):
        prism_edge.stream(EXAMPLE, on_event=print)


def test_arun_and_astream_in_an_event_loop(monkeypatch):
    import asyncio

    _scripted(monkeypatch)

    async def main() -> tuple[str | None, list[object], list[object]]:
        answer = await prism_edge.arun(EXAMPLE)
        items = [item async for item in prism_edge.astream(EXAMPLE)]
        early = []
        async for item in prism_edge.astream(EXAMPLE):
            early.append(item)
            break
        return answer.answer, items, early

    answer, items, early = asyncio.run(main())
    assert isinstance(items[-1], prism_edge.Answer) and items[-1].answer == answer and answer
    assert len(early) == 1 and early[0].kind == "step"


def test_astream_raises_the_runs_error(monkeypatch, tmp_path):
    import asyncio

    _scripted(monkeypatch)

    async def main() -> None:
        async for _ in prism_edge.astream(tmp_path / "missing.txt"):
            pass

    with pytest.raises(Exception, match=r"missing\.txt"):
        asyncio.run(main())


def test_a_text_summarized_takes_the_same_options_as_a_file(monkeypatch):
    asked: list[dict[str, object]] = []

    def open_backend(model=None, **options):  # type: ignore[no-untyped-def]
        asked.append({"model": model, **options})
        return ScriptedBackend(parameters=135_000_000)

    monkeypatch.setattr(factory, "open_backend", open_backend)
    text = EXAMPLE.read_text(encoding="utf-8")
    answer = prism_edge.summarize(text, model="gemma3-270m", chunk_tokens=256)
    assert asked[-1]["model"] == "gemma3-270m" and answer.chunk_tokens == 256
    with pytest.raises(TypeError):
        prism_edge.summarize(text, modle="gemma3-270m")  # a misspelt option is no option
