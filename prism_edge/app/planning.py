"""What a run is, decided in one place: its inputs read, its model opened, its task configured,
its method chosen and its chunk size set. ``prism-edge run`` and the library
(:mod:`prism_edge.app.api`) both call :func:`open_run`, so a library call makes the choices the
command makes for the same inputs, and cannot drift from it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prism_edge.backends import Backend, factory
from prism_edge.backends.catalog import ModelNotFound
from prism_edge.backends.deferred import Deferred
from prism_edge.backends.factory import Engine
from prism_edge.backends.unloaded import Unloaded
from prism_edge.core.config import PrismConfig
from prism_edge.core.schema import Schema
from prism_edge.engine.reading import TextSession
from prism_edge.engine.search import IndexedSession
from prism_edge.engine.session import Session
from prism_edge.engine.tables import TableSession
from prism_edge.methods import (
    AUTO,
    METHODS,
    MODEL_FREE,
    MODEL_FREE_BELOW,
    SCORED_BELOW,
    Choice,
    Method,
)
from prism_edge.methods.definitions import ScoredDefinitions
from prism_edge.methods.outline.method import Outlined
from prism_edge.methods.presets import Task
from prism_edge.methods.tables import TableFacts
from prism_edge.text.code import is_code
from prism_edge.text.inputs import (
    Collected,
    Document,
    Filters,
    InputError,
    collect,
    shown,
    with_text_tables,
)

DEFAULT_CHUNK_TOKENS = 2048
"""A run's chunk size when neither it nor its method says another."""
DEFAULT_MAX_TOKENS = 512
"""Output tokens of a revision step when none is given."""
EMBEDDED = "smollm2-135m"
"""The catalog's name of the model a run uses when it names none."""
STATIC_ESTIMATE = 1536
"""Tokens set aside for instructions and schema when the context size is derived."""


def context_for(chunk_tokens: int, max_tokens: int) -> int:
    """The context a run derives when none is given: room for a chunk, a memory as large,
    the output budget, and the instructions and schema."""
    return chunk_tokens * 2 + max_tokens + STATIC_ESTIMATE


def chunk_plan(method: str, asked: int | None) -> tuple[int, str]:
    """The chunk size a run of ``method`` reads in, and why (for the plan line): the size
    asked for, else the one the method was measured to read best at, else
    :data:`DEFAULT_CHUNK_TOKENS`. ``run`` and ``inspect`` both plan by it."""
    measured = METHODS[method].chunk_tokens if method in METHODS else None
    if asked is None and measured:
        return measured, f" (measured best for {method}; --chunk-tokens sets another)"
    return asked or DEFAULT_CHUNK_TOKENS, ""


@dataclass(frozen=True)
class Request:
    """A run as asked: by ``prism-edge run``'s options, or a library call's arguments."""

    inputs: Sequence[str]
    task: Task | None
    """The task (a preset, or a user's schema); None: a schema generated for the query."""
    query: str | None = None
    model: str | None = None
    server: str | None = None
    server_model: str | None = None
    api_key: str | None = None
    grammar_field: str = "auto"
    retries: int = 4
    engine: Engine = field(default_factory=Engine)
    ctx: int | None = None
    chunk_tokens: int | None = None
    """None: the size the method was measured to read best at, else
    :data:`DEFAULT_CHUNK_TOKENS`."""
    max_tokens: int = DEFAULT_MAX_TOKENS
    answer_tokens: int = 512
    method: str = AUTO
    no_model: bool = False
    shortlist: int = 8
    kind: str | None = None
    """A summary's kind of text (``--kind``); None: read from the text."""
    length: str | int | float | None = None
    """A summary's length (``--length``: words, sentences or a share); None: the default."""
    settings: dict[str, Any] = field(default_factory=dict)
    """The config's other settings (memory encoding, add-only, style, sampling...); a
    ``grounded`` of None is decided by the task and the backend."""
    keep_boilerplate: bool = False
    follow_links: bool = False
    filters: Filters = field(default_factory=Filters)
    stdin_text: str | None = None
    """The text a ``-`` input stands for (a library call's text)."""
    default_model: bool = False
    """``model`` is the user's default (their config, ``PRISM_EDGE_MODEL``), not asked for
    on the line: a run that uses no model goes on without it when it is not on this machine."""
    given: tuple[str, ...] = ()
    """The options the caller gave (not defaults): those the chosen method would ignore are
    refused (:func:`ignored_options`)."""
    run_dir: Path | None = None
    """Where a library call saves the run's state (the command passes its own folder)."""
    resume: bool = False


@dataclass
class Planned:
    """A run decided: what it reads, with which model, task, config, method and chunks."""

    request: Request
    collected: Collected
    backend: Backend
    task: Task
    config: PrismConfig
    method: Method
    choice: Choice
    chunk_tokens: int
    chunk_reason: str = ""

    def fresh_method(self) -> Method:
        """Another method as this run's (``--parallel``: one a document)."""
        return self.task.method_of(
            self.choice,
            self.config,
            shortlist=self.request.shortlist,
            **_summary_options(self.request),
        )

    @property
    def indexed(self) -> bool:
        """A code search by definitions over files: read into the repository's index, never
        chunked (:mod:`prism_edge.engine.search`); text given on stdin is chunked."""
        return isinstance(self.method, ScoredDefinitions) and all(
            d.name != "<stdin>" for d in self.collected.documents
        )

    def indexed_session(self, cache: Path | None = None) -> IndexedSession:
        """The run's code search over the index of its inputs (kept in ``cache``, else the
        user's cache folder)."""
        assert isinstance(self.method, ScoredDefinitions)
        return IndexedSession(
            self.backend,
            self.task.schema,
            self.config,
            self.method,
            self.collected.documents,
            self.request.inputs,
            cache,
        )

    @property
    def reads_tables(self) -> bool:
        """A table question by the table method: records read straight into its database,
        never chunked (:mod:`prism_edge.engine.tables`)."""
        return isinstance(self.method, TableFacts)

    def table_session(self) -> TableSession:
        assert isinstance(self.method, TableFacts)
        return TableSession(
            self.backend, self.task.schema, self.config, self.method, self.collected.documents
        )

    @property
    def reads_whole_text(self) -> bool:
        """A summary by outline: its text read whole, never chunked
        (:mod:`prism_edge.engine.reading`)."""
        return isinstance(self.method, Outlined)

    def text_session(self) -> TextSession:
        assert isinstance(self.method, Outlined)
        return TextSession(
            self.backend, self.task.schema, self.config, self.method, self.collected.documents
        )

    def session(self, run_dir: Path | None = None) -> Session:
        """The run's session over its documents (saved in ``run_dir`` when there is one)."""
        return Session.of_documents(
            self.backend,
            self.task.schema,
            self.config,
            self.collected.documents,
            self.chunk_tokens,
            run_dir,
            self.method,
            run_label(self.task.name, self.request.inputs),
        )


def runs_without_model(request: Request, task: Task | None) -> bool:
    """Whether a run of ``request`` would choose a method that uses no model whatever local
    model it is given, by what the catalog says of the requested one (its size): the
    model-free ranking asked for (``--no-model``), or ``auto`` on a model under 1B where the
    task's scored method ranks alone there (summaries, table questions)."""
    if task is None or request.server is not None or task.scored_method is None:
        return False
    if request.no_model:
        return (task.scored_method if request.method == AUTO else request.method) in MODEL_FREE
    if request.method != AUTO or task.scored_method not in MODEL_FREE_BELOW:
        return False
    size = catalog_size(request.model)
    return size is not None and size < SCORED_BELOW


def loads_when_needed(request: Request, task: Task) -> bool:
    """Whether a run of ``request`` opens its local model only when a call needs it: a table
    question by the table method (``auto`` or asked for), whose model is asked only where the
    ranker is not sure (:data:`~prism_edge.methods.tables.method.MODEL_GATE`)."""
    return (
        task.reads_tables
        and request.server is None
        and not request.no_model
        and request.method in (AUTO, TableFacts.name)
    )


def catalog_size(spec: str | None) -> int | None:
    """The parameters the catalog gives a model of this name (``270M``, ``1.5B``; None: the
    embedded default's), if any."""
    from prism_edge.backends.catalog import catalog

    entry = catalog().get(spec or EMBEDDED)
    match = re.fullmatch(r"([0-9.]+)([MB])", entry.params) if entry is not None else None
    if match is None:
        return None
    return int(float(match.group(1)) * (1e6 if match.group(2) == "M" else 1e9))


def unloaded(spec: str | None, ctx: int | None) -> Unloaded:
    """The model a run that uses none names, not loaded nor looked for (a catalog model: its
    file's name and its size)."""
    from prism_edge.backends.catalog import catalog

    name = spec or EMBEDDED
    entry = catalog().get(name)
    return Unloaded(entry.file if entry else name, catalog_size(spec), ctx or 8192)


def run_label(task: str, inputs: Sequence[str]) -> str:
    """What a run is, in a saved state's words: its task and its inputs as given (the first
    two, and how many more)."""
    names = [shown("<stdin>" if i == "-" else i) for i in inputs]
    more = f" +{len(names) - 2}" if len(names) > 2 else ""
    return f"{task}: {', '.join(names[:2])}{more}"


REVISION_OPTIONS = (
    "memory",
    "add_only",
    "grounded",
    "max_revisions",
    "max_tokens",
    "style",
    "temperature",
    "seed",
)
"""Options only the model-written revisions read (a scored method never generates)."""
METHOD_OPTIONS = ("shortlist", "kind", "length")
"""Options of ``run`` that are a method's own (:attr:`methods.Method.option_names`)."""


def ignored_options(given: Iterable[str], choice: Choice) -> list[str]:
    """Of the options ``given`` (by their names), those the chosen method would ignore: a
    flag that does nothing is an error, not a silent no-op (the command and the library
    both refuse them)."""
    method = METHODS[choice.name]
    given = list(given)
    ignored = [n for n in METHOD_OPTIONS if n in given and n not in method.option_names]
    if "generate" not in method.needs:  # a scored method never generates
        ignored += [name for name in REVISION_OPTIONS if name in given]
    if choice.name == TableFacts.name and "chunk_tokens" in given:  # records, never chunks
        ignored.append("chunk_tokens")
    return ignored


def grounded_default(asked: bool | None, task: Task, backend: Backend) -> bool:
    """``--grounded``/``--free`` as asked; by default grounded for a summary on a backend that
    takes grammars (free PRISM invents names on small models: benchmarks/results/)."""
    if asked is not None:
        return asked
    return task.grounding == "extractive" and backend.supports_grammar


def _summary_options(request: Request) -> dict[str, Any]:
    """``--kind`` and ``--length`` when given (the summary by outline's own options)."""
    given = {"kind": request.kind, "length": request.length}
    return {k: v for k, v in given.items() if v is not None}


class NothingToRead(InputError):
    """Inputs the task's own method cannot read at all (a code search over no code)."""

    hint = "name the code (or table) to read; --method revisions reads any text"


def check_readable(method: str, documents: list[Document]) -> None:
    """Refuse, before any input is read into a memory, inputs that hold nothing ``method``
    reads: a code search by definitions over files none of which is code, a table question
    by the table method over inputs that hold no table (``--method revisions`` reads any
    text)."""
    names = ", ".join(d.name for d in documents[:3]) + (", ..." if len(documents) > 3 else "")
    if method == ScoredDefinitions.name:
        files = [d for d in documents if d.name != "<stdin>"]
        if files and len(files) == len(documents) and not any(is_code(d.name) for d in files):
            raise NothingToRead(
                f"a code search reads code files, and none of these is one ({names})"
            )
    if method == TableFacts.name and not any(d.kind == "table" for d in documents):
        raise NothingToRead(f"a table question reads tables, and these hold none ({names})")


def open_run(
    request: Request,
    *,
    schema_for: Callable[[Backend], Schema] | None = None,
    opened: Callable[[Backend], None] | None = None,
    warned: Callable[[list[str]], None] | None = None,
) -> Planned:
    """Read the inputs, open the model, configure the task, choose the method and the chunk
    size: everything a run decides before its first step. ``schema_for`` makes the schema of
    a task-less request once the model is open (``--task auto``); ``opened`` sees the model
    as soon as it is (the command warns there of another process on the cores); ``warned``
    the inputs' warnings as soon as they are read, before any model loads."""
    task = request.task
    if task is not None:
        task.question(request.query)  # a task that needs a query says so before any model
    collected = collect(
        list(request.inputs),
        request.stdin_text,
        keep_boilerplate=request.keep_boilerplate,
        follow_links=request.follow_links,
        filters=request.filters,
        hold_code=task is None or task.scored_method != ScoredDefinitions.name,
    )
    if task is not None and task.reads_tables:
        collected.documents = with_text_tables(collected.documents)
    if warned is not None:
        warned(collected.warnings)
    asked_chunk = request.chunk_tokens or DEFAULT_CHUNK_TOKENS

    def opened_backend(model: str | None) -> Backend:
        return factory.open_backend(
            model,
            server=request.server,
            n_ctx=request.ctx
            if request.server
            else request.ctx or context_for(asked_chunk, request.max_tokens),
            server_model=request.server_model,
            api_key=request.api_key,
            grammar_field=request.grammar_field,
            retries=request.retries,
            engine=request.engine,
        )

    backend: Backend
    try:
        if task is not None and task.reads_tables and runs_without_model(request, task):
            backend = unloaded(request.model, request.ctx)  # a table question ranked alone
        elif task is not None and loads_when_needed(request, task):
            backend = factory.open_later(
                request.model,
                n_ctx=request.ctx or context_for(asked_chunk, request.max_tokens),
                engine=request.engine,
            )
        else:
            backend = opened_backend(request.model)
    except ModelNotFound as exc:
        if not (request.default_model and runs_without_model(request, task)):
            raise
        if warned is not None:
            warned(
                [
                    f"the default model {request.model} is not on this machine ({exc}); this "
                    "run uses no model (--method auto ranks alone on a model under 1B), so it "
                    "reads with the built-in one"
                ]
            )
        backend = opened_backend(None)
    if opened is not None:
        opened(backend)
    if task is None:
        if schema_for is None:
            raise ValueError("a run without a task needs a schema (--task auto makes one)")
        task = Task.for_schema(schema_for(backend))
    settings = dict(request.settings)
    settings["grounded"] = grounded_default(settings.get("grounded"), task, backend)
    config = task.configure(
        request.query,
        max_tokens=request.max_tokens,
        answer_max_tokens=request.answer_tokens,
        min_chunk_tokens=min(128, asked_chunk),
        **settings,
    )
    method, choice = task.method_for(
        backend,
        config,
        request.method,
        request.no_model,
        shortlist=request.shortlist,
        **_summary_options(request),
    )
    if isinstance(backend, Deferred) and choice.name != TableFacts.name:
        backend = backend.model()  # another method calls it from its first step
    try:
        check_readable(choice.name, collected.documents)
    except NothingToRead:
        backend.close()
        raise
    chunk_tokens, reason = chunk_plan(choice.name, request.chunk_tokens)
    if chunk_tokens != asked_chunk and request.ctx is None:
        backend.fit(context_for(chunk_tokens, request.max_tokens))  # its KV cache: no larger
    return Planned(request, collected, backend, task, config, method, choice, chunk_tokens, reason)
