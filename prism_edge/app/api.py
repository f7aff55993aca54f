"""The library in one call: ``prism_edge.summarize(path_or_text)``,
``prism_edge.search_code(folder, description)`` (``prism_edge.open_code_search(folder)`` for
many descriptions), ``prism_edge.ask_table(path, question)`` and
the general ``prism_edge.run(inputs, task=..., query=...)``; ``stream`` yields its events as it
goes, and ``arun``/``astream`` are the same for asyncio code.

Each is ``prism-edge run``'s own path (:func:`prism_edge.app.planning.open_run`): the same
method choice, chunk plan, context and defaults for the same inputs, so a call answers what
the command answers. Nothing is printed and nothing is recorded in the run history; progress
comes to ``on_event`` (every :class:`~prism_edge.core.events.Event` the run yields), and the
local model is closed when the call returns.

    import prism_edge
    result = prism_edge.summarize("examples/mowglis-brothers.txt")
    print(result.answer)
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import inspect
import threading
from collections.abc import AsyncGenerator, Callable, Generator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prism_edge.app.planning import Planned, Request, open_run
from prism_edge.backends.factory import Engine
from prism_edge.core.events import Event, RunResult
from prism_edge.engine.search import IndexedSession
from prism_edge.engine.session import Session
from prism_edge.engine.tables import TableSession
from prism_edge.methods import AUTO
from prism_edge.methods.presets import TASKS
from prism_edge.text.inputs import Filters


@dataclass(frozen=True)
class Answer:
    """What a call answers: the answer, the memory it came from, the metrics, and the method
    that ran with why it was chosen (the plan line's words)."""

    answer: str | None
    memory: dict[str, Any]
    method: str
    reason: str
    chunk_tokens: int
    result: RunResult
    """Everything the run kept: its metrics, counts and ranking."""

    @property
    def ranking(self) -> list[tuple[str, float]]:
        return self.result.ranking


def run(
    inputs: str | Path | Sequence[str | Path],
    *,
    task: str = "summarize",
    query: str | None = None,
    model: str | None = None,
    server: str | None = None,
    chunk_tokens: int | None = None,
    answer_tokens: int = 512,
    method: str = AUTO,
    no_model: bool = False,
    gpu_layers: int | None = None,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    run_dir: str | Path | None = None,
    on_event: Callable[[Event], None] | None = None,
) -> Answer:
    """Read ``inputs`` (a path, or several) with ``task`` and answer ``query`` (a preset's
    own question when None), as ``prism-edge run`` would with the same options; ``run_dir``
    saves the run's state after every step (None: nothing is saved)."""
    asked = {k: v for k, v in locals().items() if k not in ("inputs", "run_dir", "on_event")}
    return _answer(_request(inputs, **asked), run_dir, on_event)


def stream(
    inputs: str | Path | Sequence[str | Path], **options: Any
) -> Generator[Event | Answer, None, None]:
    """:func:`run` as it goes: every event (a step done, a file indexed, the answer written,
    ...), then the :class:`Answer`. Stopping early (``break``) closes the model.

        for item in prism_edge.stream("book.txt"):
            if isinstance(item, prism_edge.Answer):
                print(item.answer)
    """
    if "on_event" in options:
        raise ValueError("stream yields the events; on_event is run's")
    return _events(_request(inputs, **options), options.get("run_dir"))


async def arun(inputs: str | Path | Sequence[str | Path], **options: Any) -> Answer:
    """:func:`run` for asyncio code: in a worker thread (llama.cpp releases the GIL while it
    computes), so the event loop goes on serving. Cancelled, the run stops after its current
    step and the model is closed before the cancellation goes on up."""
    on_event = options.pop("on_event", None)
    async with contextlib.aclosing(astream(inputs, **options)) as items:
        async for item in items:
            if isinstance(item, Answer):
                return item
            if on_event is not None:
                on_event(item)
    raise AssertionError("a run ends with its answer")  # pragma: no cover


async def astream(
    inputs: str | Path | Sequence[str | Path], **options: Any
) -> AsyncGenerator[Event | Answer, None]:
    """:func:`stream` for asyncio code: the run in a worker thread, its events as they come.
    Leaving the loop early stops the run after its current step and closes the model."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
    stop = threading.Event()

    def produce() -> None:
        items = stream(inputs, **options)
        try:
            for item in items:
                loop.call_soon_threadsafe(queue.put_nowait, ("item", item))
                if stop.is_set():
                    break
        except BaseException as exc:  # handed to the consumer, raised there
            loop.call_soon_threadsafe(queue.put_nowait, ("error", exc))
        finally:
            items.close()  # the model closes here, in the thread that used it
            loop.call_soon_threadsafe(queue.put_nowait, ("end", None))

    worker = loop.run_in_executor(None, produce)
    try:
        while True:
            what, value = await queue.get()
            if what == "end":
                break
            if what == "error":
                raise value
            yield value
    finally:
        stop.set()
        await worker


def _request(inputs: str | Path | Sequence[str | Path], **options: Any) -> Request:
    """The request ``prism-edge run`` would make of :func:`run`'s options, its defaults for
    those not given (a name it does not take is a TypeError, as in a call of it; ``run_dir``
    and ``on_event`` are the caller's to use)."""
    bound = inspect.signature(run).bind(inputs, **options)
    bound.apply_defaults()
    o = bound.arguments
    if o["task"] not in TASKS:
        raise ValueError(f"unknown task {o['task']!r}; choose from {', '.join(TASKS)}")
    paths = [inputs] if isinstance(inputs, str | Path) else list(inputs)
    return Request(
        [str(p) for p in paths],
        TASKS[o["task"]],
        o["query"],
        model=o["model"],
        server=o["server"],
        engine=Engine(gpu_layers=o["gpu_layers"]),
        chunk_tokens=o["chunk_tokens"],
        answer_tokens=o["answer_tokens"],
        method=o["method"],
        no_model=o["no_model"],
        filters=Filters(tuple(o["include"]), tuple(o["exclude"])),
    )


def summarize(path_or_text: str | Path, **options: Any) -> Answer:
    """A summary of a file or a folder (a path), or of the text given itself."""
    if isinstance(path_or_text, Path) or _is_path(path_or_text):
        return run(Path(path_or_text), task="summarize", **options)
    request = _request("-", **{k: v for k, v in options.items() if k != "task"})
    request = dataclasses.replace(request, stdin_text=str(path_or_text))  # the text is the input
    return _answer(request, options.get("run_dir"), options.get("on_event"))


def _is_path(value: str) -> bool:
    """Whether ``value`` names a file or folder (a text is none: too long, or no such path)."""
    if "\n" in value or len(value) > 4096:
        return False
    try:
        return Path(value).exists()
    except OSError:  # a name too long for the system
        return False


def search_code(folder: str | Path, description: str, **options: Any) -> Answer:
    """The definition in a code base that ``description`` describes (where it is and its
    name, ``path:line: name``: ``answer``; the runners-up: ``ranking``). Its files are read
    into their index, parsed only where they changed since the last search over them."""
    return run(folder, task="code-search", query=description, **options)


class CodeSearch:
    """A code base read into its index once, with the model loaded once, asked any number
    of descriptions (each costs BM25 over the index and the model's scores of its shortlist).
    Close it (or use it in a ``with``) to free the model.

        with prism_edge.open_code_search("src/") as search:
            for description in descriptions:
                print(search.ask(description).answer)
    """

    def __init__(self, folder: str | Path | Sequence[str | Path], **options: Any) -> None:
        paths = [folder] if isinstance(folder, str | Path) else list(folder)
        request = Request(
            [str(p) for p in paths],
            TASKS["code-search"],
            "a definition of this code base",  # each ask brings its own
            model=options.get("model"),
            server=options.get("server"),
            engine=Engine(gpu_layers=options.get("gpu_layers")),
            method=options.get("method", AUTO),
            no_model=options.get("no_model", False),
            filters=Filters(tuple(options.get("include", ())), tuple(options.get("exclude", ()))),
        )
        self._planned = open_run(request)
        if not self._planned.indexed:
            self._planned.backend.close()
            raise ValueError(
                "open_code_search needs a method that scores definitions: the model cannot "
                f"score ({self._planned.choice.reason})"
            )
        self._session = self._planned.indexed_session()
        self._closed = False

    def ask(self, description: str) -> Answer:
        """The definition ``description`` describes (the index is read by the first ask)."""
        if self._closed:
            raise ValueError("this code search is closed: open another to ask it more")
        return _answer_of(self._planned, self._session.ask(description))

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._planned.backend.close()

    def __enter__(self) -> CodeSearch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_code_search(folder: str | Path | Sequence[str | Path], **options: Any) -> CodeSearch:
    """A code base's index and the model, ready for many descriptions (:class:`CodeSearch`)."""
    return CodeSearch(folder, **options)


def ask_table(path: str | Path, question: str, **options: Any) -> Answer:
    """``question`` answered from a table (CSV, TSV, JSON lines, SQLite, Markdown)."""
    return run(path, task="table-qa", query=question, **options)


def _answer(
    request: Request, run_dir: str | Path | None, on_event: Callable[[Event], None] | None
) -> Answer:
    for item in _events(request, run_dir):
        if isinstance(item, Answer):
            return item
        if on_event is not None:
            on_event(item)
    raise AssertionError("a run ends with its answer")  # pragma: no cover


def _events(request: Request, run_dir: str | Path | None) -> Generator[Event | Answer, None, None]:
    """Every event of the run as it happens, then the answer; the model is closed when the
    run ends, fails, or its consumer stops early."""
    planned = open_run(request)
    try:
        session: TableSession | IndexedSession | Session
        if planned.reads_tables:  # a table question: records straight into a database
            session = planned.table_session()
        elif planned.indexed:  # files for a code search: read into their index, then asked
            session = planned.indexed_session()
        else:
            session = planned.session(None if run_dir is None else Path(run_dir))
            session.check_context()
        yield from session.events()
        result = session.result
    finally:
        planned.backend.close()
    yield _answer_of(planned, result)


def _answer_of(planned: Planned, result: RunResult) -> Answer:
    """What a call answers: the result, and the method that ran with why (the plan's)."""
    choice = planned.choice
    return Answer(
        result.answer, result.memory.data, choice.name, choice.reason, planned.chunk_tokens, result
    )
