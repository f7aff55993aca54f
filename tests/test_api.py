"""The one-call library is ``run``'s own path: the same answer as the command for the same
inputs, nothing printed, nothing recorded."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import prism_edge
from prism_edge.backends import factory
from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.core.errors import NoAnswer, PrismError
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
    # a model that cannot score stands in for the local one: opened at once, as a server is
    monkeypatch.setattr(factory, "open_later", lambda model=None, **kw: open_backend(model))
    return opened


def test_summarize_answers_what_run_answers(monkeypatch, tmp_path):
    _scripted(monkeypatch)
    result = prism_edge.summarize(EXAMPLE)
    out = invoke("run", str(EXAMPLE), "--no-log")
    assert out.exit_code == 0, out.output
    assert result.answer == out.stdout.rstrip("\n") and result.answer
    assert result.method == "outline" and "the program ranks alone" in result.reason
    assert result.memory["attributes"]
    text = prism_edge.summarize_text(EXAMPLE.read_text(encoding="utf-8"))  # the text itself
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
    with pytest.raises(ValueError, match="closed"):  # never into a freed model
        search.ask("limit a number")
    with pytest.raises(ValueError, match="memory"):  # an option its method would ignore
        prism_edge.open_code_search(folder, memory="in-place")


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
    answer = prism_edge.summarize_text(text, model="gemma3-270m", chunk_tokens=256)
    assert asked[-1]["model"] == "gemma3-270m" and answer.chunk_tokens == 256
    with pytest.raises(TypeError, match="modle"):
        prism_edge.summarize_text(text, modle="gemma3-270m")  # type: ignore[call-arg]


def test_a_text_is_never_taken_for_a_path(monkeypatch, tmp_path):
    """Issue 54, defect 1: summarize(text) read any path the text named, and summarize("")
    the current folder; a path and a text are told apart by the call now."""
    _scripted(monkeypatch)
    secret = tmp_path / "secret.txt"
    secret.write_text("Then Quentin Zorbas hid the key. " * 20, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(NoAnswer, match="nothing to summarize"):  # the path's words alone
        prism_edge.summarize_text(str(secret))  # a text that names a file: the text
    said = prism_edge.summarize_text(f"{EXAMPLE.read_text(encoding='utf-8')}\n{secret}\n")
    assert "Zorbas" not in json.dumps(said.memory) and "Akela" in json.dumps(said.memory)
    with pytest.raises(ValueError, match="empty name"):
        prism_edge.summarize("")  # never the current folder
    with pytest.raises(ValueError, match="summarize_text"):
        prism_edge.summarize("Mowgli ran.\nAkela led.")
    with pytest.raises(PrismError, match="no such file"):
        prism_edge.summarize("Mowgli ran with the wolves")  # a misspelt path is no text
    with pytest.raises(TypeError):
        prism_edge.summarize_text(secret)  # type: ignore[arg-type]


def test_each_call_takes_runs_options_by_name_with_runs_defaults():
    """The library is as wide as `run`: the same option names and defaults, declared (no
    **options: Any), shown in each call's signature."""
    import inspect as python_inspect
    import typing

    from prism_edge.app import api
    from prism_edge.app import run as run_command

    cli = python_inspect.signature(run_command.run).parameters
    declared = api.RunOptions.__optional_keys__
    assert set(api.DEFAULTS) == set(declared)
    library_only = {"run_dir"}  # None saves nothing; the command saves in the state folder
    for name, default in api.DEFAULTS.items():
        assert name in cli, f"{name} is no option of prism-edge run"
        if name in library_only:
            continue
        expected = cli[name].default
        expected = getattr(expected, "value", expected)  # an Enum's value
        assert default == expected or (default == () and expected is None), name
    for name in ("server_model", "api_key", "ctx", "server", "model", "shortlist"):
        assert name in declared
    for function in (prism_edge.summarize, prism_edge.summarize_text, prism_edge.run,
                     prism_edge.search_code, prism_edge.ask_table, prism_edge.open_code_search,
                     prism_edge.stream, prism_edge.arun, prism_edge.astream):  # fmt: skip
        parameters = python_inspect.signature(function).parameters
        assert "model" in parameters and "api_key" in parameters, function
        assert all(p.kind != p.VAR_KEYWORD for p in parameters.values()), function
        hints = typing.get_type_hints(function, include_extras=True)
        assert "options" in hints and "Any" not in str(hints["options"]), function
    assert "shortlist" in python_inspect.signature(prism_edge.search_code).parameters
    assert "shortlist" not in python_inspect.signature(prism_edge.summarize).parameters


def test_server_options_reach_the_backend(monkeypatch):
    asked: list[dict[str, object]] = []

    def open_backend(model=None, **options):  # type: ignore[no-untyped-def]
        asked.append({"model": model, **options})
        return ScriptedBackend(parameters=135_000_000)

    monkeypatch.setattr(factory, "open_backend", open_backend)
    prism_edge.ask_table(
        TABLE, "Which source generated most?", server="http://gpu:8000",
        server_model="qwen", api_key="sk-1", ctx=8192, retries=1,
    )  # fmt: skip
    (opened,) = asked
    assert opened["server"] == "http://gpu:8000" and opened["server_model"] == "qwen"
    assert opened["api_key"] == "sk-1" and opened["n_ctx"] == 8192 and opened["retries"] == 1
    with pytest.raises(ValueError, match="shortlist"):  # an option the method ignores
        prism_edge.run(EXAMPLE, shortlist=3)


def test_no_answer_is_said_by_found(monkeypatch, tmp_path):
    _scripted(monkeypatch)
    found = prism_edge.ask_table(TABLE, "Which source generated the most electricity in 2005?")
    assert found.found and found.answer
    missing = prism_edge.ask_table(TABLE, "What was the price of coal in Ohio?")
    assert not missing.found and missing.answer.startswith("not in the table")
