"""The library in one call: ``prism_edge.summarize(path)`` (``summarize_text(text)`` for a
text itself), ``prism_edge.search_code(folder, description)`` (``open_code_search(folder)`` for
many descriptions), ``prism_edge.ask_table(path, question)`` and the general
``prism_edge.run(inputs, task=..., query=...)``; ``stream`` yields its events as it goes, and
``arun``/``astream`` are the same for asyncio code.

Each is ``prism-edge run``'s own path (:func:`prism_edge.app.planning.open_run`): the same
method choice, chunk plan, context and defaults for the same inputs, so a call answers what
the command answers. The options are ``run``'s, by the same names and with the same defaults
(:class:`Options`, declared once and typed: a misspelt one is a type error to mypy and a
TypeError at run time). Nothing is printed and nothing is recorded in the run history;
progress comes to ``on_event`` (every :class:`~prism_edge.core.events.Event` the run yields),
and the local model is closed when the call returns.

    import prism_edge
    result = prism_edge.summarize("examples/mowglis-brothers.txt")
    print(result.answer)

A path and a text are told apart by the call, never guessed: ``summarize`` reads a path,
``summarize_text`` the text it is given.

To add an option: declare it in :class:`Options` (or the task's own ``...Options``), give its
default in :data:`DEFAULTS`, and pass it on in :func:`_request`.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import sys
import threading
from collections.abc import AsyncGenerator, Callable, Generator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypedDict, TypeVar

from prism_edge.app.planning import Planned, Request, ignored_options, open_run
from prism_edge.backends.factory import Engine
from prism_edge.core.events import Event, RunResult
from prism_edge.engine.reading import TextSession
from prism_edge.engine.search import IndexedSession
from prism_edge.engine.session import Session
from prism_edge.engine.tables import TableSession
from prism_edge.methods import AUTO
from prism_edge.methods.presets import TASKS
from prism_edge.text.inputs import Filters

if sys.version_info >= (3, 11):
    from typing import Unpack
else:  # pragma: no cover - Python 3.10
    from typing_extensions import Unpack

Inputs = str | Path | Sequence[str | Path]
"""A path (a file or folder; ``-`` for standard input), or several."""
TaskName = Literal["summarize", "code-search", "table-qa"]
GrammarField = Literal["auto", "grammar", "structured_outputs", "guided_grammar", "ebnf", "none"]


class Options(TypedDict, total=False):
    """The options every call takes: ``prism-edge run``'s, by the same names (``--no-model``
    is ``no_model``), with the same defaults (:data:`DEFAULTS`)."""

    # the model and where it runs
    model: str | None
    """A .gguf path, a catalog name, ``hf:OWNER/REPO/FILE.gguf``, ``ollama:NAME[:TAG]`` or
    ``lmstudio:NAME`` (None: the embedded SmolLM2-135M)."""
    server: str | None
    """URL of an inference server to use instead of a local model (ollama, llama.cpp's
    server, vLLM, SGLang)."""
    server_model: str | None
    """The model's name on the server (None: its first; on ollama its only one)."""
    api_key: str | None
    """The server's API key (never stored)."""
    grammar_field: GrammarField
    retries: int
    """Retries of a failed server call."""
    ctx: int | None
    """Context size (None: what the run needs, from its budgets; on a server, the server's)."""
    threads: int | None
    gpu_layers: int | None
    """Layers offloaded to a GPU: None every layer a GPU build can take, 0 none, -1 all."""
    batch: int
    flash_attn: bool | None
    kv_type: Literal["f16", "q8_0"]
    jump_forward: bool
    # how the input is read and the memory revised
    chunk_tokens: int | None
    """Tokens per chunk (None: the size the method was measured to read best at)."""
    answer_tokens: int
    method: str
    """``auto``, or a method: ``revisions``, ``names``, ``definitions``, ``tables``."""
    no_model: bool
    """The scored method's ranking without the model."""
    memory: Literal["in-place", "amendments"]
    add_only: bool
    grounded: bool | None
    style: Literal["compact", "paper"]
    temperature: float
    seed: int | None
    max_revisions: int | None
    max_tokens: int
    include: Sequence[str]
    """In a folder, read only the files matching these globs (as .gitignore lines)."""
    exclude: Sequence[str]
    follow_links: bool
    keep_boilerplate: bool
    # the run's state
    run_dir: str | Path | None
    """Where the state is saved after every step (None: nothing is saved)."""
    resume: bool
    """Continue the run saved in ``run_dir`` after its last completed step."""


class SummaryOptions(Options, total=False):
    """A summary's options (``run``'s, and those only a summary takes)."""

    kind: str | None
    """The kind of text (``story``, ``play``, ``poem``, ``report``, ...; None: decided from
    the text)."""
    length: str | int | float | None
    """The summary's length: words (``200``, ``"200 words"``), sentences
    (``"12 sentences"``) or a share of the text (``0.05``, ``"5%"``); None: 350 words."""


class CodeSearchOptions(Options, total=False):
    """A code search's options."""

    shortlist: int
    """Score only BM25's best ``shortlist`` definitions (0: all of them)."""


class TableOptions(Options, total=False):
    """A table question's options."""


class RunOptions(SummaryOptions, CodeSearchOptions, TableOptions, total=False):
    """Every task's options: what :func:`run` takes."""


DEFAULTS: RunOptions = {
    "model": None,
    "server": None,
    "server_model": None,
    "api_key": None,
    "grammar_field": "auto",
    "retries": 4,
    "ctx": None,
    "threads": None,
    "gpu_layers": None,
    "batch": 512,
    "flash_attn": None,
    "kv_type": "f16",
    "jump_forward": False,
    "chunk_tokens": None,
    "answer_tokens": 512,
    "method": AUTO,
    "no_model": False,
    "memory": "amendments",
    "add_only": False,
    "grounded": None,
    "style": "compact",
    "temperature": 0.0,
    "seed": None,
    "max_revisions": None,
    "max_tokens": 512,
    "include": (),
    "exclude": (),
    "follow_links": False,
    "keep_boilerplate": False,
    "run_dir": None,
    "resume": False,
    "shortlist": 8,
    "kind": None,
    "length": None,
}
"""Each option's default: ``prism-edge run``'s (``tests/test_api.py`` holds them equal), but
``run_dir``, whose None saves nothing (the command saves in the user's state folder)."""


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
    evidence: str = ""
    """What the method's choice rests on (``run --verbose`` says it)."""

    @property
    def ranking(self) -> list[tuple[str, float]]:
        return self.result.ranking

    @property
    def found(self) -> bool:
        """Whether the run answered: False when nothing was found (no definition, not in the
        table); the command exits 1 then."""
        return self.result.found


def run(
    inputs: Inputs,
    *,
    task: TaskName = "summarize",
    query: str | None = None,
    on_event: Callable[[Event], None] | None = None,
    **options: Unpack[RunOptions],
) -> Answer:
    """Read ``inputs`` (a path, or several) with ``task`` and answer ``query`` (a preset's
    own question when None), as ``prism-edge run`` would with the same options."""
    return _answer(_request(_paths(inputs), task, query, options, RunOptions), on_event)


def stream(
    inputs: Inputs,
    *,
    task: TaskName = "summarize",
    query: str | None = None,
    **options: Unpack[RunOptions],
) -> Generator[Event | Answer, None, None]:
    """:func:`run` as it goes: every event (a step done, a file indexed, the answer written,
    ...), then the :class:`Answer`. Stopping early (``break``) closes the model.

        for item in prism_edge.stream("book.txt"):
            if isinstance(item, prism_edge.Answer):
                print(item.answer)
    """
    if "on_event" in options:
        raise ValueError("stream yields the events; on_event is run's")
    return _events(_request(_paths(inputs), task, query, options, RunOptions))


async def arun(
    inputs: Inputs,
    *,
    task: TaskName = "summarize",
    query: str | None = None,
    on_event: Callable[[Event], None] | None = None,
    **options: Unpack[RunOptions],
) -> Answer:
    """:func:`run` for asyncio code: in a worker thread (llama.cpp releases the GIL while it
    computes), so the event loop goes on serving. Cancelled, the run stops after its current
    step and the model is closed before the cancellation goes on up."""
    async with contextlib.aclosing(astream(inputs, task=task, query=query, **options)) as items:
        async for item in items:
            if isinstance(item, Answer):
                return item
            if on_event is not None:
                on_event(item)
    raise AssertionError("a run ends with its answer")  # pragma: no cover


async def astream(
    inputs: Inputs,
    *,
    task: TaskName = "summarize",
    query: str | None = None,
    **options: Unpack[RunOptions],
) -> AsyncGenerator[Event | Answer, None]:
    """:func:`stream` for asyncio code: the run in a worker thread, its events as they come.
    Leaving the loop early stops the run after its current step and closes the model."""
    request = _request(_paths(inputs), task, query, options, RunOptions)
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
    stop = threading.Event()

    def produce() -> None:
        items = _events(request)
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


def summarize(
    path: str | Path | Sequence[str | Path],
    *,
    on_event: Callable[[Event], None] | None = None,
    **options: Unpack[SummaryOptions],
) -> Answer:
    """A summary of a file or a folder (or several): a path, never a text taken for one
    (:func:`summarize_text` summarizes a text itself)."""
    request = _request(_paths(path), "summarize", None, options, SummaryOptions)
    return _answer(request, on_event)


def summarize_text(
    text: str,
    *,
    on_event: Callable[[Event], None] | None = None,
    **options: Unpack[SummaryOptions],
) -> Answer:
    """A summary of ``text`` itself (never read as a path)."""
    if not isinstance(text, str):
        raise TypeError(f"summarize_text takes the text as a str, not {type(text).__name__}")
    request = _request(["-"], "summarize", None, options, SummaryOptions, stdin_text=text)
    return _answer(request, on_event)


def search_code(
    folder: str | Path | Sequence[str | Path],
    description: str,
    *,
    on_event: Callable[[Event], None] | None = None,
    **options: Unpack[CodeSearchOptions],
) -> Answer:
    """The definition in a code base that ``description`` describes (where it is and its
    name, ``path:line: name``: ``answer``; the runners-up: ``ranking``). Its files are read
    into their index, parsed only where they changed since the last search over them."""
    request = _request(_paths(folder), "code-search", description, options, CodeSearchOptions)
    return _answer(request, on_event)


def ask_table(
    path: str | Path | Sequence[str | Path],
    question: str,
    *,
    on_event: Callable[[Event], None] | None = None,
    **options: Unpack[TableOptions],
) -> Answer:
    """``question`` answered from a table (CSV, TSV, JSON lines, SQLite, Markdown); an
    answer not in the table is said (``found`` is then False)."""
    return _answer(_request(_paths(path), "table-qa", question, options, TableOptions), on_event)


class CodeSearch:
    """A code base read into its index once, with the model loaded once, asked any number
    of descriptions (each costs BM25 over the index and the model's scores of its shortlist).
    Close it (or use it in a ``with``) to free the model.

        with prism_edge.open_code_search("src/") as search:
            for description in descriptions:
                print(search.ask(description).answer)
    """

    def __init__(
        self, folder: str | Path | Sequence[str | Path], **options: Unpack[CodeSearchOptions]
    ) -> None:
        request = _request(
            _paths(folder),
            "code-search",
            "a definition of this code base",  # each ask brings its own
            options,
            CodeSearchOptions,
        )
        self._planned = open_run(request)
        try:
            _refuse_ignored(request, self._planned)
            if not self._planned.indexed:
                raise ValueError(
                    "open_code_search needs a method that scores definitions: the model "
                    f"cannot score ({self._planned.choice.reason})"
                )
        except ValueError:
            self._planned.backend.close()
            raise
        self._session = self._planned.indexed_session()
        self._closed = False

    def ask(self, description: str) -> Answer:
        """The definition ``description`` describes (the index is read by the first ask)."""
        if self._closed:
            raise ValueError("this code search is closed: open another")
        return _answer_of(self._planned, self._session.ask(description))

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._planned.backend.close()

    def __enter__(self) -> CodeSearch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_code_search(
    folder: str | Path | Sequence[str | Path], **options: Unpack[CodeSearchOptions]
) -> CodeSearch:
    """A code base's index and the model, ready for many descriptions (:class:`CodeSearch`)."""
    return CodeSearch(folder, **options)


def _paths(inputs: Inputs) -> list[str]:
    """The inputs as paths: a str or Path is one; an empty name is refused (it would be the
    current folder), as is a text given where a path is due."""
    paths = [inputs] if isinstance(inputs, str | Path) else list(inputs)
    for path in paths:
        if not isinstance(path, str | Path):
            raise TypeError(f"a path is a str or a Path, not {type(path).__name__}")
        if isinstance(path, str) and ("\n" in path or not path):
            what = "an empty name" if not path else "a text with line breaks"
            raise ValueError(f"{what} is no path (summarize_text summarizes a text)")
    return [str(p) for p in paths]


def _request(
    inputs: list[str],
    task: str,
    query: str | None,
    given: Any,
    allowed: type,
    stdin_text: str | None = None,
) -> Request:
    """The request ``prism-edge run`` would make of these options, :data:`DEFAULTS` for
    those not given; an option the call does not take is a TypeError, as in any call."""
    unknown = sorted(set(given) - set(allowed.__optional_keys__))  # type: ignore[attr-defined]
    if unknown:
        raise TypeError(f"unexpected keyword argument {', '.join(map(repr, unknown))}")
    if task not in TASKS:
        raise ValueError(f"unknown task {task!r}; choose from {', '.join(TASKS)}")
    o: dict[str, Any] = {**DEFAULTS, **given}
    if o["resume"] and o["run_dir"] is None:
        raise ValueError("resume continues a run saved in run_dir: give its run_dir")
    return Request(
        inputs,
        TASKS[task],
        query,
        model=o["model"],
        server=o["server"],
        server_model=o["server_model"],
        api_key=o["api_key"],
        grammar_field=o["grammar_field"],
        retries=o["retries"],
        engine=Engine(
            threads=o["threads"],
            batch=o["batch"],
            flash_attn=o["flash_attn"],
            kv_type=o["kv_type"],
            jump_forward=o["jump_forward"],
            gpu_layers=o["gpu_layers"],
        ),
        ctx=o["ctx"],
        chunk_tokens=o["chunk_tokens"],
        max_tokens=o["max_tokens"],
        answer_tokens=o["answer_tokens"],
        method=o["method"],
        no_model=o["no_model"],
        shortlist=o["shortlist"],
        kind=o["kind"],
        length=o["length"],
        settings={
            "encoding": o["memory"],
            "add_only": o["add_only"],
            "grounded": o["grounded"],
            "style": o["style"],
            "max_revisions": o["max_revisions"],
            "temperature": o["temperature"],
            "seed": o["seed"],
        },
        keep_boilerplate=o["keep_boilerplate"],
        follow_links=o["follow_links"],
        filters=Filters(tuple(o["include"]), tuple(o["exclude"])),
        stdin_text=stdin_text,
        given=tuple(given),
        run_dir=None if o["run_dir"] is None else Path(o["run_dir"]),
        resume=o["resume"],
    )


def _answer(request: Request, on_event: Callable[[Event], None] | None) -> Answer:
    for item in _events(request):
        if isinstance(item, Answer):
            return item
        if on_event is not None:
            on_event(item)
    raise AssertionError("a run ends with its answer")  # pragma: no cover


def _events(request: Request) -> Generator[Event | Answer, None, None]:
    """Every event of the run as it happens, then the answer; the model is closed when the
    run ends, fails, or its consumer stops early."""
    planned = open_run(request)
    try:
        _refuse_ignored(request, planned)
        session: TableSession | IndexedSession | TextSession | Session
        if planned.reads_whole_text:  # a summary by outline: the text read whole
            session = planned.text_session()
        elif planned.reads_tables:  # a table question: records straight into a database
            session = planned.table_session()
        elif planned.indexed:  # files for a code search: read into their index, then asked
            session = planned.indexed_session()
        else:
            session = planned.session(request.run_dir)
            if request.resume:
                session.resume()
            elif request.run_dir is not None:
                session.start_afresh()
            session.check_context()
        yield from session.events()
        result = session.result
    finally:
        planned.backend.close()
    yield _answer_of(planned, result)


def _refuse_ignored(request: Request, planned: Planned) -> None:
    """An option the chosen method would ignore is an error, as on the command line."""
    ignored = ignored_options(request.given, planned.choice)
    if ignored:
        raise ValueError(
            f"{', '.join(ignored)}: not an option of method {planned.choice.name} "
            f"({planned.choice.reason})"
        )


def _answer_of(planned: Planned, result: RunResult) -> Answer:
    """What a call answers: the result, and the method that ran with why (the plan's)."""
    choice = planned.choice
    return Answer(
        result.answer,
        result.memory.data,
        choice.name,
        choice.reason,
        planned.chunk_tokens,
        result,
        choice.evidence,
    )


F = TypeVar("F", bound=Callable[..., Any])


def _with_options(function: F, options: type) -> F:
    """``function``'s signature as ``help()`` and an editor show it: its own parameters, then
    each option of ``options`` by name with its default (their types are the TypedDict's)."""
    signature = inspect.signature(function)
    own = [p for p in signature.parameters.values() if p.kind != p.VAR_KEYWORD]
    names: frozenset[str] = options.__optional_keys__  # type: ignore[attr-defined]
    defaults: dict[str, Any] = dict(DEFAULTS)
    extra = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default)
        for name, default in defaults.items()
        if name in names
    ]
    function.__signature__ = signature.replace(parameters=[*own, *extra])  # type: ignore[attr-defined]
    return function


for _function, _options in (
    (run, RunOptions),
    (stream, RunOptions),
    (arun, RunOptions),
    (astream, RunOptions),
    (summarize, SummaryOptions),
    (summarize_text, SummaryOptions),
    (search_code, CodeSearchOptions),
    (ask_table, TableOptions),
    (open_code_search, CodeSearchOptions),
):
    _with_options(_function, _options)
