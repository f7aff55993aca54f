"""The prism-edge command line: translates arguments into library calls, errors into one line.

Library code never prints; the runner yields events and this module renders them. The answer
goes to stdout; the plan, progress, warnings and errors go to stderr.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from prism_edge import defaults, methods
from prism_edge.backends import Backend, factory
from prism_edge.backends.factory import Engine
from prism_edge.bench import (
    ALL_METHODS,
    SWEPT,
    BenchTask,
    default_methods,
    markdown_table,
    needle_methods,
    needle_report,
    needle_table,
    plot_sweep,
    run_methods,
    run_needles,
    sweep,
    sweep_table,
)
from prism_edge.chunking import chunk_documents
from prism_edge.config import PrismConfig
from prism_edge.each import EachSettings, run_each
from prism_edge.errors import PrismError
from prism_edge.events import (
    Answered,
    BudgetExceeded,
    ChunkCut,
    Event,
    MemoryFolded,
    RunResult,
    StepDone,
)
from prism_edge.grammar import revision_grammar
from prism_edge.history import LOGS_ENV, Entry, History, HistoryError, describe_inputs, now
from prism_edge.inputs import Collected, Document, collect, with_text_tables
from prism_edge.memory import dumps
from prism_edge.metrics import RunMetrics
from prism_edge.quality import load_entities, load_needles
from prism_edge.schema import (
    Schema,
    from_json_schema,
    from_source,
    json_schema,
    path_templates,
    prompt_text,
    type_label,
)
from prism_edge.schemagen import DEFAULT_DOMAIN, generate_schema
from prism_edge.session import Session, counter
from prism_edge.tasks import TASKS, Task, preset_grammars

app = typer.Typer(
    name="prism-edge",
    help="Answer questions about inputs far longer than a small local model's context (PRISM).",
    epilog=defaults.help_text(),
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
)


class TaskName(str, Enum):
    summarize = "summarize"
    code_search = "code-search"
    table_qa = "table-qa"
    auto = "auto"


class MemoryChoice(str, Enum):
    in_place = "in-place"
    amendments = "amendments"


class GrammarFieldChoice(str, Enum):
    auto = "auto"
    grammar = "grammar"
    structured_outputs = "structured_outputs"
    guided_grammar = "guided_grammar"
    ebnf = "ebnf"
    none = "none"


MethodChoice = Enum(  # type: ignore[misc]
    "MethodChoice", [(name, name) for name in (methods.AUTO, *methods.METHODS)], type=str
)
"""``--method``: auto or a method of the registry."""
AUTO_METHOD = MethodChoice(methods.AUTO)


class KvChoice(str, Enum):
    f16 = "f16"
    q8_0 = "q8_0"


class StyleChoice(str, Enum):
    compact = "compact"
    paper = "paper"


# llama.cpp's engine settings, the same options on `run` and `bench`
ThreadsOption = Annotated[
    int | None,
    typer.Option(
        min=1, help="CPU threads (default: the physical cores).", rich_help_panel="Engine"
    ),
]
BatchOption = Annotated[
    int, typer.Option(min=8, help="Prompt tokens evaluated per batch.", rich_help_panel="Engine")
]
FlashAttnOption = Annotated[
    bool,
    typer.Option(
        "--flash-attn/--no-flash-attn",
        help="llama.cpp's flash attention (on: faster prefill and decoding at depth on both "
        "shipped models, benchmarks/results/depth_settings.txt).",
        rich_help_panel="Engine",
    ),
]
KvTypeOption = Annotated[
    KvChoice,
    typer.Option(help="KV cache type (q8_0 needs --flash-attn).", rich_help_panel="Engine"),
]
JumpForwardOption = Annotated[
    bool,
    typer.Option(
        "--jump-forward/--no-jump-forward",
        help="Evaluate what the grammar forces (JSON syntax, the rest of a key) as one batch "
        "instead of token by token (off: llama.cpp's batched logits differ from one-token ones, "
        "so outputs may differ; benchmarks/results/jump_forward.txt).",
        rich_help_panel="Engine",
    ),
]

FollowLinksOption = Annotated[
    bool,
    typer.Option(
        "--follow-links",
        help="In a folder, read links that lead out of it too (skipped by default, so a "
        "repository's link to ~/.ssh never reaches a prompt, the history or a server).",
    ),
]
KeepBoilerplateOption = Annotated[
    bool,
    typer.Option(
        "--keep-boilerplate",
        help="Read a Project Gutenberg book's header and licence too (dropped by default).",
    ),
]


def version_report() -> str:
    """Versions, the CPU features llama.cpp was built for and sees, and the AMX guard."""
    from importlib.metadata import PackageNotFoundError, version

    from prism_edge.backends import native

    try:
        ours = version("prism-edge")
    except PackageNotFoundError:
        ours = "unknown (not installed)"
    info = native.build_info()
    flags = native.cpu_flags()
    amx_cpu = sorted(f for f in flags if f.startswith("amx"))
    lines = [
        f"prism-edge {ours}",
        f"llama-cpp-python {info.package_version}",
        f"llama.cpp {info.library_version}",
        f"llama.cpp system info: {info.system_info}",
        "CPU AMX (/proc/cpuinfo): " + (" ".join(amx_cpu) if amx_cpu else "none"),
    ]
    setting = os.environ.get(native.REPACK_ENV)
    if setting:
        lines.append(f"AMX guard: overridden ({native.REPACK_ENV}={setting})")
    elif not info.has_amx_kernels:
        lines.append("AMX guard: inactive (this llama.cpp build has no AMX kernels)")
    else:
        lines.append(
            "AMX guard: active (AMX kernels in this build: each model is probed once in a "
            "child process; repacking stays on only where the probe runs cleanly)"
        )
        for model, decision in native.cached_decisions(info):
            state = "on" if decision.extra_buffers else "off"
            lines.append(f"  {model}: repacking {state} ({decision.reason})")
    return "\n".join(lines)


def _print_version(value: bool) -> None:
    if value:
        echo(version_report())
        raise typer.Exit()


@app.callback()
def _main_options(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="Versions, llama.cpp's CPU features and the AMX guard; then exit.",
        ),
    ] = False,
) -> None:
    """Answer questions about inputs far longer than a small local model's context (PRISM)."""
    if ctx.invoked_subcommand not in defaults.COMMANDS:
        return  # the defaults apply to these only: `models default` repairs a broken file
    try:
        values = defaults.load()
    except defaults.ConfigError as exc:
        err_console().print(f"error: {exc} (hint: {exc.hint})", markup=False)
        raise typer.Exit(1) from None
    ctx.default_map = {**defaults.default_map(values), **(ctx.default_map or {})}


def given(ctx: typer.Context, name: str) -> bool:
    """Whether option ``name`` was typed on the command line (not a default of any kind)."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name == "COMMANDLINE"


STATIC_ESTIMATE = 1536
"""Tokens set aside for instructions and schema when the context size is derived."""


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` with its control characters (an input's ``\\x1b]0;...``: a terminal title, a
    clipboard write) shown as ``\\u001b`` escapes instead of acted on; newlines and tabs stay.
    In JSON text only DEL and C1 controls can occur raw, and the escape is JSON's own."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def echo(text: str = "", nl: bool = True) -> None:
    """Print to stdout what a run, the history or a model file says, made printable."""
    typer.echo(printable(text), nl=nl)


class SafeConsole(Console):
    """stderr, where every string printed is made :func:`printable` first."""

    def print(self, *objects: Any, **kwargs: Any) -> None:
        super().print(*(printable(o) if isinstance(o, str) else o for o in objects), **kwargs)


def err_console() -> Console:
    return SafeConsole(stderr=True, highlight=False, soft_wrap=True)


@contextlib.contextmanager
def reporting_errors(debug: bool) -> Iterator[None]:
    """Known errors become one line on stderr and exit 1; ``--debug`` shows the traceback."""
    try:
        yield
    except BrokenPipeError:  # `prism-edge logs | head -1`: the reader has all it wanted
        quiet_broken_pipe()
    except (PrismError, ValueError, OSError) as exc:
        if debug:
            raise
        hint = getattr(exc, "hint", "")
        message = f"error: {exc}" + (f" (hint: {hint})" if hint else "")
        err_console().print(message, markup=False)
        raise typer.Exit(1) from None


def read_schema(schema_file: Path) -> Schema:
    """A user's schema file: dataclass source (.py) or JSON Schema (.json)."""
    text = schema_file.read_text(encoding="utf-8")
    if schema_file.suffix.lower() == ".json":
        try:
            document = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(
                f"{schema_file}: not valid JSON ({exc.msg}, line {exc.lineno})"
            ) from None
        return from_json_schema(document)
    try:
        return from_source(text)
    except PrismError as exc:
        raise type(exc)(f"{schema_file}: {exc}") from None


def task_for(task: TaskName | None, schema_file: Path | None, query: str | None) -> Task | None:
    """The task of a command: a preset, a user's schema, or None for ``--task auto`` (its
    schema is generated later); argument combinations that cannot work are refused here."""
    if task is not None and schema_file is not None:
        raise ValueError("use either --task or --schema, not both")
    if schema_file is not None:
        if not query:
            raise ValueError("--schema needs --query")
        return Task.for_schema(read_schema(schema_file))
    if task == TaskName.auto:
        if not query:
            raise ValueError("--task auto needs --query (the schema is generated for it)")
        return None
    return TASKS[(task or TaskName.summarize).value]


def piped_stdin() -> list[str]:
    """No input named: standard input when something is piped in (as llm reads it)."""
    if sys.stdin is None or sys.stdin.isatty():
        raise ValueError("no input: name files or folders, use -, or pipe text in")
    return ["-"]


def warn(console: Console, warnings: list[str]) -> None:
    for warning in warnings:
        console.print(f"warning: {warning}", markup=False)


@app.command()
def run(
    context: typer.Context,
    inputs: Annotated[
        list[str] | None,
        typer.Argument(help="Files, folders, or - for stdin (read when piped and none named)."),
    ] = None,
    task: Annotated[
        TaskName | None,
        typer.Option(envvar="PRISM_EDGE_TASK", help="A preset (paper appendix A schemas)."),
    ] = None,
    schema_file: Annotated[
        Path | None,
        typer.Option(
            "--schema",
            exists=True,
            dir_okay=False,
            readable=True,
            help="A schema: dataclass source (.py) or JSON Schema (.json).",
        ),
    ] = None,
    query: Annotated[str | None, typer.Option(help="The question to answer.")] = None,
    memory: Annotated[
        MemoryChoice, typer.Option(help="Memory encoding.")
    ] = MemoryChoice.amendments,
    add_only: Annotated[
        bool, typer.Option(help="Only add, never update (paper ablation).")
    ] = False,
    grounded: Annotated[
        bool | None,
        typer.Option(
            "--grounded/--free",
            help="Store only what the text says: new keys are word spans of the chunk, strings "
            "its words (a summary: its names and sentences); a prose answer uses only the "
            "memory's words (small models). Default: grounded for summaries where the backend "
            "takes grammars (the measured best: benchmarks/results/jungle-quality-*), free "
            "otherwise.",
        ),
    ] = None,
    chunk_tokens: Annotated[
        int, typer.Option(min=32, envvar="PRISM_EDGE_CHUNK_TOKENS", help="Tokens per chunk.")
    ] = 2048,
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            "-m",
            envvar="PRISM_EDGE_MODEL",
            help="A .gguf path, a catalog name, hf:OWNER/REPO/FILE.gguf, ollama:NAME[:TAG] or "
            "lmstudio:NAME (default: the embedded SmolLM2-135M; see prism-edge models).",
        ),
    ] = None,
    ctx: Annotated[
        int | None,
        typer.Option(
            "--ctx",
            "-c",
            min=256,
            envvar="PRISM_EDGE_CTX",
            help="Context size (default: derived from the budgets).",
        ),
    ] = None,
    temperature: Annotated[float, typer.Option(min=0.0)] = 0.0,
    seed: Annotated[int | None, typer.Option()] = None,
    max_revisions: Annotated[int | None, typer.Option(min=1, help="Revisions per step.")] = None,
    max_tokens: Annotated[int, typer.Option(min=16, help="Output tokens per revision step.")] = 512,
    answer_tokens: Annotated[int, typer.Option(min=1, help="Output tokens of the answer.")] = 512,
    style: Annotated[StyleChoice, typer.Option(help="Prompt style.")] = StyleChoice.compact,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    memory_out: Annotated[Path | None, typer.Option(help="Write the final memory here.")] = None,
    domain: Annotated[
        str | None, typer.Option(help="--task auto: what the documents and questions are about.")
    ] = None,
    run_dir: Annotated[
        Path, typer.Option(help="Where the state is saved after every chunk.")
    ] = Path(".prism-run"),
    resume: Annotated[
        bool,
        typer.Option(help="Continue the run saved in --run-dir after its last completed chunk."),
    ] = False,
    server: Annotated[
        str | None,
        typer.Option(
            help="URL of an OpenAI-compatible server (llama.cpp server, vLLM, SGLang) to use "
            "instead of a local model.",
            rich_help_panel="Server",
        ),
    ] = None,
    api_key: Annotated[
        str | None,
        typer.Option(
            envvar="PRISM_API_KEY", help="The server's API key.", rich_help_panel="Server"
        ),
    ] = None,
    server_model: Annotated[
        str | None,
        typer.Option(
            help="Model name on the server (default: its first).", rich_help_panel="Server"
        ),
    ] = None,
    grammar_field: Annotated[
        GrammarFieldChoice,
        typer.Option(
            help="How the server takes the revision grammar (auto: detected).",
            rich_help_panel="Server",
        ),
    ] = GrammarFieldChoice.auto,
    retries: Annotated[
        int,
        typer.Option(min=0, help="Retries of a failed server call.", rich_help_panel="Server"),
    ] = 4,
    method: Annotated[
        MethodChoice,
        typer.Option(
            help="How each step revises the memory: the model scores each chunk's own "
            "definitions (definitions, code-search) or names (names, summarize), or writes "
            "revisions (revisions, any task); auto: the scored one on a model under 1B "
            "parameters that can score (measured best: benchmarks/results/jungle-names-*, "
            "definition-search-*), revisions on larger ones; the plan line says which and why."
        ),
    ] = AUTO_METHOD,
    shortlist: Annotated[
        int,
        typer.Option(
            min=0,
            help="code-search by definitions: score only BM25's best N definitions "
            "(0: all of them).",
        ),
    ] = 8,
    parallel: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Each input document on its own, N at once (N > 1 needs --server); one JSON "
            "line per document as it finishes.",
            rich_help_panel="Server",
        ),
    ] = None,
    threads: ThreadsOption = None,
    batch: BatchOption = 512,
    flash_attn: FlashAttnOption = True,
    kv_type: KvTypeOption = KvChoice.f16,
    jump_forward: JumpForwardOption = False,
    keep_boilerplate: KeepBoilerplateOption = False,
    follow_links: FollowLinksOption = False,
    no_log: Annotated[
        bool, typer.Option("--no-log", help="Keep this run out of the run history.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No plan, no progress.")] = False,
    debug: Annotated[bool, typer.Option(help="Show tracebacks.")] = False,
) -> None:
    """Read INPUTS chunk by chunk, revise a structured memory, answer from it."""
    console = err_console()
    with reporting_errors(debug):
        if schema_file is not None and not given(context, "task"):
            task = None  # a default task (env, config) gives way to a schema on the line
        if server is not None and not given(context, "model"):
            model = None  # likewise a default model to a server on the line
        chosen = task_for(task, schema_file, query)
        check_outputs(parallel, server, model, memory_out, run_dir)
        collected = collect(
            inputs or piped_stdin(), keep_boilerplate=keep_boilerplate, follow_links=follow_links
        )
        if chosen is not None and chosen.reads_tables:
            collected.documents = with_text_tables(collected.documents)
        warn(console, collected.warnings)
        if parallel is not None and len(collected.documents) < 2:
            raise ValueError("--parallel runs each input document on its own: give two or more")
        backend = factory.open_backend(
            model,
            server=server,
            n_ctx=ctx if server else ctx or chunk_tokens * 2 + max_tokens + STATIC_ESTIMATE,
            server_model=server_model,
            api_key=api_key,
            grammar_field=grammar_field.value,
            retries=retries,
            engine=Engine(threads, batch, flash_attn, kv_type.value, jump_forward),
        )
        if chosen is None:
            schema = _auto_schema(backend, run_dir, domain, query or "", resume, quiet, console)
            chosen = Task.for_schema(schema)
        config = chosen.configure(
            query,
            encoding=memory.value,
            add_only=add_only,
            grounded=grounded_default(grounded, chosen, backend),
            style=style.value,
            max_tokens=max_tokens,
            answer_max_tokens=answer_tokens,
            max_revisions=max_revisions,
            temperature=temperature,
            seed=seed,
            min_chunk_tokens=min(128, chunk_tokens),
        )
        first, choice = chosen.method_for(backend, config, method.value, shortlist=shortlist)
        refuse_ignored(context, choice)

        def make_method() -> methods.Method:
            return chosen.method_for(backend, config, choice.name, shortlist=shortlist)[0]

        log = RunLog.of_run(no_log, chosen, config, backend, choice, collected, console)
        log.entry.settings.update(
            chunk_tokens=chunk_tokens, model=model, server=server, server_model=server_model
        )
        if parallel is not None:
            each = EachSettings(chunk_tokens, parallel, run_dir, resume, make_method)
            note = None if quiet else lambda line: console.print(line, markup=False)
            failed = run_each(
                backend, chosen.schema, config, collected.documents, each, emit=typer.echo,
                note=note, record=log.each_document,
            )  # fmt: skip
            if failed:
                raise typer.Exit(1)
            return
        session = Session.of_documents(
            backend, chosen.schema, config, collected.documents, chunk_tokens, run_dir, first
        )
        if resume:
            session.resume()
        session.check_context()
        plan = plan_line(session, choice, memory.value, add_only)
        _run_session(session, log, plan, resume, quiet, as_json, memory_out)


def _run_session(
    session: Session,
    log: RunLog,
    plan: str,
    resume: bool,
    quiet: bool,
    as_json: bool,
    memory_out: Path | None,
) -> None:
    """Drive a checked session with progress, record it, print its answer, then write the
    memory file (the answer is out before any side file)."""
    console = log.console
    if not quiet:
        console.print(plan, markup=False)
    kept = None if resume else session.start_afresh()
    if kept is not None and not quiet:
        console.print(f"note: the previous run's state was kept as {kept}", markup=False)
    try:
        with log.recording(lambda: session.result) as done:
            _drive(session, console, quiet)
            done(session.result)
    except BudgetExceeded as exc:
        _write_memory(memory_out, exc.result.memory.data)
        raise
    _print_result(session, as_json, quiet, console, log.entry.id)
    _write_memory(memory_out, session.result.memory.data)


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
METHOD_OPTIONS = ("shortlist",)
"""Options of ``run`` that are a method's own (:attr:`methods.Method.option_names`)."""


def writable_file(option: str, path: Path | None) -> None:
    """A file ``option`` will write: refused now, before any compute, when it cannot be."""
    if path is None:
        return
    if path.is_dir():
        raise ValueError(f"{option} {path}: a folder; name a file to write")
    if path.exists() and not path.is_file():
        raise ValueError(f"{option} {path}: not a regular file")
    parent = path.parent
    if not parent.is_dir():
        raise ValueError(f"{option} {path}: the folder {parent} does not exist")
    if not os.access(path if path.exists() else parent, os.W_OK):
        raise ValueError(f"{option} {path}: not writable")


def writable_folder(option: str, path: Path) -> None:
    """A folder ``option`` will create and write: refused now when it cannot be (a file in
    its place, a link loop, an unwritable parent)."""
    try:
        path.resolve()
    except (RuntimeError, OSError) as exc:
        raise ValueError(f"{option} {path}: cannot be resolved ({exc})") from None
    if path.exists() and not path.is_dir():
        raise ValueError(f"{option} {path}: not a folder")
    existing = path
    while not existing.exists():
        if existing.is_symlink():
            raise ValueError(f"{option} {path}: a broken link")
        existing = existing.parent
    if not existing.is_dir():
        raise ValueError(f"{option} {path}: {existing} is not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ValueError(f"{option} {path}: {existing} is not writable")


def check_outputs(
    parallel: int | None,
    server: str | None,
    model: str | None,
    memory_out: Path | None,
    run_dir: Path,
) -> None:
    """Refuse, before any input is read or a model loads, combinations that cannot work and
    outputs that cannot be written."""
    writable_file("--memory-out", memory_out)
    writable_folder("--run-dir", run_dir)
    if server is not None and model is not None:
        raise ValueError("use either --model or --server, not both")
    if parallel is not None and parallel > 1 and server is None:
        raise ValueError(
            "--parallel above 1 needs --server: a local model runs one document at a time"
        )
    if parallel is not None and memory_out is not None:
        raise ValueError(
            "--memory-out writes one run's memory; with --parallel each document's memory is "
            "in its JSON line"
        )


def refuse_ignored(context: typer.Context, choice: methods.Choice) -> None:
    """A flag the chosen method would ignore is an error, not a silent no-op."""
    method = methods.METHODS[choice.name]
    ignored = [n for n in METHOD_OPTIONS if given(context, n) and n not in method.option_names]
    if "generate" not in method.needs:  # a scored method never generates
        ignored += [name for name in REVISION_OPTIONS if given(context, name)]
    if ignored:
        flags = ", ".join("--" + name.replace("_", "-") for name in ignored)
        verb = "does" if len(ignored) == 1 else "do"
        raise ValueError(
            f"{flags} {verb} not apply to --method {choice.name} ({choice.reason}); "
            "drop it or choose another --method"
        )


class RunLog:
    """Records a command in the run history when it ends: answered, failed (with the memory it
    had) or interrupted. A history that cannot be written costs a warning, never the run."""

    def __init__(self, history: History | None, entry: Entry, console: Console) -> None:
        self.history = history
        self.entry = entry
        self.console = console

    @classmethod
    def of_run(
        cls,
        no_log: bool,
        task: Task,
        config: PrismConfig,
        backend: Backend,
        choice: methods.Choice,
        collected: Collected,
        console: Console,
    ) -> RunLog:
        """The log of a ``run`` (its settings completed by the caller)."""
        entry = Entry(
            "run",
            task.name,
            config.question,
            backend.name,
            method=choice.name,
            inputs=describe_inputs(collected.documents),
            schema=json_schema(task.schema),
            settings={"config": config.model_dump(), "n_ctx": backend.n_ctx},
        )
        return cls(None if no_log else History(), entry, console)

    def save(self, entry: Entry) -> None:
        if self.history is None:
            return
        try:
            self.history.record(entry)
        except HistoryError as exc:
            self.console.print(f"warning: not logged: {exc}", markup=False)

    @contextlib.contextmanager
    def recording(self, partial: Callable[[], Any]) -> Iterator[Callable[[Any], None]]:
        """Yields ``done(result)``; an exception records ``partial()`` as failed or
        interrupted and goes on up."""
        finished: list[Any] = []
        try:
            yield finished.append
        except KeyboardInterrupt:
            self.entry.finish(partial(), "interrupted", "interrupted by the user")
            self.save(self.entry)
            raise
        except Exception as exc:
            self.entry.finish(partial(), "failed", str(exc) or type(exc).__name__)
            self.save(self.entry)
            raise
        self.entry.finish(finished[-1] if finished else partial())
        self.save(self.entry)

    def each_document(self, document: Document, result: Any, error: str | None) -> None:
        """``--parallel``: every document its own entry."""
        entry = dataclasses.replace(
            self.entry, inputs=describe_inputs([document]), id=None, started=self.entry.started
        )
        entry.finish(result, "failed" if error else "done", error)
        self.save(entry)


def grounded_default(asked: bool | None, task: Task, backend: Backend) -> bool:
    """``--grounded``/``--free`` as asked; by default grounded for a summary on a backend that
    takes grammars (free PRISM invents names on small models: benchmarks/results/)."""
    if asked is not None:
        return asked
    return task.name == "summarize" and backend.supports_grammar


def plan_line(session: Session, choice: methods.Choice, memory: str, add_only: bool) -> str:
    backend, plan = session.backend, session.plan
    written = choice.name == methods.WRITTEN
    return (
        f"plan: model {backend.name}, n_ctx {backend.n_ctx}, method {choice.name} "
        f"({choice.reason}), {len(plan.chunks)} chunks, {plan.total} input tokens, "
        f"{plan.fixed_tokens} tokens beside each chunk"
        + (f", memory {memory}" if written else "")
        + (", add-only" if add_only and written else "")
        + ("" if backend.prefix_reuse else ", no prefix reuse (recurrent or hybrid model)")
        + (f", resuming after step {session.result.steps}" if session.resumed else "")
    )


def _print_result(
    session: Session, as_json: bool, quiet: bool, console: Console, log_id: int | None = None
) -> None:
    result = session.result
    if as_json:
        payload: dict[str, Any] = {**result.to_dict(), "chunks": len(session.plan.chunks)}
        if log_id is not None:
            payload["log_id"] = log_id
        echo(json.dumps(payload, ensure_ascii=False, indent=2))
        return
    echo(result.answer or "")
    if quiet:
        return
    _print_ranking(result, console)
    _print_done(result, console, log_id)


def _print_ranking(result: RunResult, console: Console) -> None:
    """Where a scored answer came from, and the runners-up (code search: the stored
    definitions; table questions: the computed facts)."""
    if not result.ranking:
        return
    name, best = result.ranking[0]
    meaning = methods.METHODS[result.method].score_meaning
    console.print(
        f"from: {name}, score {best:.2f} ({meaning}); next: "
        + "; ".join(f"{n} {v:.2f}" for n, v in result.ranking[1:4]),
        markup=False,
    )


def _print_done(
    result: RunResult, console: Console, log_id: int | None, memory_of: int | None = None
) -> None:
    """The closing line: what the run did (or, for ``ask``, whose memory answered) and its
    tokens, cost and time."""
    m = result.metrics
    reused = (
        f"{m.reused_tokens} reused ({m.cache_hit:.0%} cache hit), "
        if m.reuse_known
        else "reused unknown (not reported by the server), "
    )
    did = (
        f"done: answered from run {memory_of}'s memory; "
        if memory_of is not None
        else f"done: {result.steps} steps, {result.applied} revisions applied, "
        f"{result.rejected} rejected"
        + (f" ({result.reasked} re-asked)" if result.reasked else "")
        + f", {result.duplicates} repeats and {result.cut} cut lines dropped; "
    )
    console.print(
        did + f"{m.prompt_tokens} prompt tokens, {reused}{m.net_tokens} net, "
        f"{m.decoded_tokens} decoded, cost index {m.cost_index:.4f}, {m.wall_s:.1f} s"
        + (f"; logged as run {log_id}" if log_id is not None else ""),
        markup=False,
    )


def _auto_schema(
    backend: Backend,
    run_dir: Path,
    domain: str | None,
    question: str,
    resume: bool,
    quiet: bool,
    console: Console,
) -> Schema:
    """--task auto: generate a schema for the query (or reuse the run's own when resuming)."""
    saved = run_dir / "schema.py"
    if resume and saved.is_file():
        return from_source(saved.read_text(encoding="utf-8"))
    generated = generate_schema(backend, domain or DEFAULT_DOMAIN, question)
    run_dir.mkdir(parents=True, exist_ok=True)
    saved.write_text(generated.source, encoding="utf-8")
    if not quiet:
        console.print(f"generated schema (saved to {saved}):", markup=False)
        console.print(generated.source.rstrip(), markup=False)
    return generated.schema


def _write_memory(path: Path | None, data: dict[str, Any]) -> None:
    if path is not None:
        path.write_text(dumps(data) + "\n", encoding="utf-8")


def _drive(session: Session, console: Console, quiet: bool) -> None:
    plan = session.plan
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[stats]}"),
        TimeElapsedColumn(),
        console=console,
        disable=quiet,
        transient=False,
    )
    start = time.perf_counter()
    first = session.tokens_read()  # a resumed run has read some already
    with progress:
        bar = progress.add_task(f"chunk 0/{len(plan.chunks)}", total=plan.total or 1, stats="")
        for event in session.events():
            _render(event, progress, bar, console, quiet)
            if isinstance(event, StepDone):
                read, elapsed = session.tokens_read(), time.perf_counter() - start
                progress.update(
                    bar,
                    completed=read,
                    description=f"chunk {session.runner.position.consumed}/{len(plan.chunks)}",
                    stats=progress_stats(
                        session.runner.metrics,
                        event.memory_tokens,
                        eta(elapsed, read - first, plan.total - read),
                        (read - first) / elapsed if elapsed > 0 else None,
                    ),
                )


def eta(elapsed_s: float, read_now: int, left: int) -> float | None:
    """Seconds left: the input still to read at the rate this run has read it (prefill,
    decoding and memory growth included), or None before the first step."""
    if read_now <= 0 or elapsed_s <= 0:
        return None
    return left * elapsed_s / read_now


def progress_stats(
    metrics: RunMetrics,
    memory_tokens: int,
    seconds_left: float | None,
    input_rate: float | None = None,
) -> str:
    """The progress line's figures: input read per second (this run), prefill and decode
    rates, cache hit, memory size, time left."""
    prefill, decode = metrics.rates()
    parts = [] if input_rate is None else [f"input {input_rate:.0f} tok/s"]
    if prefill is not None:
        parts.append(f"prefill {prefill:.0f} tok/s")
    if decode is not None:
        parts.append(f"decode {decode:.0f} tok/s")
    if metrics.reuse_known:
        parts.append(f"cache {metrics.cache_hit:.0%}")
    parts.append(f"memory {memory_tokens} tok")
    if seconds_left is not None:
        minutes, seconds = divmod(round(seconds_left), 60)
        parts.append(f"ETA {minutes}:{seconds:02d}")
    return ", ".join(parts)


def _render(event: Event, progress: Progress, bar: Any, console: Console, quiet: bool) -> None:
    if quiet:
        return
    if isinstance(event, ChunkCut):
        console.print(
            f"note: chunk of {event.chunk_tokens} tokens cut to the "
            f"{event.room_tokens} left beside the memory",
            markup=False,
        )
    elif isinstance(event, MemoryFolded):
        console.print(
            f"note: amendments folded into the memory ({event.tokens_before} -> "
            f"{event.tokens_after} tokens)",
            markup=False,
        )
    elif isinstance(event, Answered):
        progress.update(bar, description="answered")


@app.command()
def bench(
    inputs: Annotated[list[str], typer.Argument(help="Files, folders, or - for stdin.")],
    task: Annotated[
        TaskName, typer.Option(envvar="PRISM_EDGE_TASK", help="A preset.")
    ] = TaskName.summarize,
    query: Annotated[str | None, typer.Option(help="The question (retrieval tasks).")] = None,
    chunk_tokens: Annotated[int, typer.Option(min=32, envvar="PRISM_EDGE_CHUNK_TOKENS")] = 2048,
    model: Annotated[str | None, typer.Option("--model", "-m", envvar="PRISM_EDGE_MODEL")] = None,
    ctx: Annotated[
        int | None, typer.Option("--ctx", "-c", min=256, envvar="PRISM_EDGE_CTX")
    ] = None,
    max_tokens: Annotated[int, typer.Option(min=16)] = 512,
    answer_tokens: Annotated[int, typer.Option(min=1)] = 256,
    methods: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated, from: "
            + ", ".join(ALL_METHODS)
            + " (default: the paper's seven, what a user would pick instead and the best "
            "PRISM variants for the task: summarize adds lead sentences and PRISM amendments "
            "grounded, code-search BM25 and PRISM definitions)."
        ),
    ] = None,
    sweep_chunks: Annotated[
        str | None,
        typer.Option(help="Chunk sizes for the chunk-size figure, e.g. 512,1024,2048,4096."),
    ] = None,
    plot: Annotated[Path, typer.Option(help="Where the sweep figure goes.")] = Path(
        "prism-sweep.png"
    ),
    entities: Annotated[
        Path | None,
        typer.Option(
            help="Key entities, one a line (aliases after |): adds each answer's entity recall."
        ),
    ] = None,
    needles: Annotated[
        Path | None,
        typer.Option(
            help='JSON lines {"query", "expected"}: each query asked in turn; prints accuracy '
            "per method (default methods: incremental, PRISM amendments)."
        ),
    ] = None,
    threads: ThreadsOption = None,
    batch: BatchOption = 512,
    flash_attn: FlashAttnOption = True,
    kv_type: KvTypeOption = KvChoice.f16,
    jump_forward: JumpForwardOption = False,
    keep_boilerplate: KeepBoilerplateOption = False,
    follow_links: FollowLinksOption = False,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    json_out: Annotated[
        Path | None, typer.Option(help="Also write the JSON results to this file.")
    ] = None,
    debug: Annotated[bool, typer.Option()] = False,
) -> None:
    """Run PRISM variants and the baselines side by side; print the paper's Table 2 and the
    quality measures (entity recall, needle accuracy, PRISM's faithfulness proxy)."""
    console = err_console()
    with reporting_errors(debug):
        writable_file("--json-out", json_out)
        if sweep_chunks:
            writable_file("--plot", plot)
        needle_list = load_needles(needles) if needles else []
        # with needles, each one's description is the question (no --query needed)
        asked = query or (needle_list[0].query if needle_list else None)
        preset = TASKS[task.value]
        bench_task = BenchTask(
            preset, preset.question(asked), tuple(load_entities(entities)) if entities else ()
        )
        sizes = [int(s) for s in sweep_chunks.split(",") if s.strip()] if sweep_chunks else []
        collected = collect(inputs, keep_boilerplate=keep_boilerplate, follow_links=follow_links)
        if preset.reads_tables:
            collected.documents = with_text_tables(collected.documents)
        warn(console, collected.warnings)
        largest = max([chunk_tokens, *sizes])
        backend = factory.open_backend(
            model,
            n_ctx=ctx or largest * 2 + max_tokens + STATIC_ESTIMATE,
            engine=Engine(threads, batch, flash_attn, kv_type.value, jump_forward),
        )
        default = needle_methods(preset.name) if needle_list else default_methods(preset.name)
        chosen = tuple(m.strip() for m in methods.split(",")) if methods else default
        full = "\n\n".join(d.text for d in collected.documents)
        chunks = chunk_documents(collected.documents, chunk_tokens, counter(backend))
        console.print(
            f"bench: {len(chunks)} chunks of up to {chunk_tokens} tokens, "
            f"{len(chosen)} methods, model {backend.name}, n_ctx {backend.n_ctx}",
            markup=False,
        )
        budgets = {"max_tokens": max_tokens, "answer_tokens": answer_tokens}
        if needle_list:
            rows = run_needles(
                backend, bench_task, chunks, full, needle_list, methods=chosen, **budgets
            )
            payload = needle_report(rows, needle_list)
            _emit(payload, json_out, as_json, needle_table(rows, needle_list))
            return
        # speed by KV depth, up to the context the methods may fill (the bound's rates)
        calibration = backend.calibrate()
        if calibration is not None:
            console.print(f"calibration: {calibration.describe()}", markup=False)
        table = run_methods(backend, bench_task, chunks, full, methods=chosen, **budgets)
        footprint = backend.footprint()
        payload = {
            "methods": [r.to_dict(calibration) for r in table],
            "calibration": None if calibration is None else calibration.to_dict(),
            "chunks": len(chunks),
            "chunk_tokens": chunk_tokens,
            "footprint": None if footprint is None else dataclasses.asdict(footprint),
        }
        text = markdown_table(table, calibration, footprint)
        if sizes:
            # the table is saved (and shown) before the sweep, which can take as long again
            _emit(payload, json_out, False, None)
            console.print(text, markup=False)
            swept = next((row for row in table if row.name == SWEPT), None)
            done = {} if swept is None else {chunk_tokens: swept}
            points = sweep(
                backend, bench_task, collected.documents, sizes, done,
                calibration=calibration, **budgets,
            )  # fmt: skip
            plot_sweep(points, plot)
            payload.update(sweep=points, plot=str(plot))
            text += f"\n\n{sweep_table(points)}\nfigure: {plot}"
        _emit(payload, json_out, as_json, text)


def _emit(payload: dict[str, Any], json_out: Path | None, as_json: bool, text: str | None) -> None:
    """Print the JSON report, or ``text``; then write the JSON to ``json_out`` (if given)."""
    rendered = json.dumps(payload, ensure_ascii=False, indent=2)
    if as_json:
        echo(rendered)
    elif text is not None:
        echo(text)
    if json_out is not None:
        json_out.write_text(rendered + "\n", encoding="utf-8")


def load_tokenizer(model: str | None) -> Any:
    """A tokenizer for planning without loading weights (tests replace this)."""
    from prism_edge.backends.llama_cpp import LlamaTokenizer
    from prism_edge.models import resolve_model

    return LlamaTokenizer(resolve_model(model))


@app.command()
def inspect(
    inputs: Annotated[list[str] | None, typer.Argument(help="Inputs to plan chunks for.")] = None,
    task: Annotated[TaskName | None, typer.Option(envvar="PRISM_EDGE_TASK")] = None,
    schema_file: Annotated[
        Path | None, typer.Option("--schema", exists=True, dir_okay=False, readable=True)
    ] = None,
    grammar: Annotated[bool, typer.Option("--grammar", help="Print the revision grammar.")] = False,
    add_only: Annotated[bool, typer.Option(help="The add-only grammar.")] = False,
    chunk_tokens: Annotated[int, typer.Option(min=32, envvar="PRISM_EDGE_CHUNK_TOKENS")] = 2048,
    model: Annotated[str | None, typer.Option("--model", "-m", envvar="PRISM_EDGE_MODEL")] = None,
    write_grammars: Annotated[
        Path | None, typer.Option(help="Write the built-in presets' grammars into this folder.")
    ] = None,
    keep_boilerplate: KeepBoilerplateOption = False,
    follow_links: FollowLinksOption = False,
    debug: Annotated[bool, typer.Option()] = False,
) -> None:
    """Show the schema as the model sees it, its paths, its grammar and the chunk plan."""
    with reporting_errors(debug):
        if write_grammars is not None:
            write_grammars.mkdir(parents=True, exist_ok=True)
            for name, text in preset_grammars().items():
                (write_grammars / name).write_text(text, encoding="utf-8")
                echo(f"wrote {write_grammars / name}")
            return
        if task == TaskName.auto:
            raise ValueError("--task auto generates its schema in `run`")
        schema = (
            read_schema(schema_file)
            if schema_file is not None
            else TASKS[(task or TaskName.summarize).value].schema
        )
        if grammar:
            echo(revision_grammar(schema, schema.empty_memory(), add_only=add_only), nl=False)
            return
        echo(prompt_text(schema))
        echo("")
        for template in path_templates(schema):
            echo(f"{template.template}  ->  {type_label(template.type)}")
        if inputs:
            collected = collect(
                inputs, keep_boilerplate=keep_boilerplate, follow_links=follow_links
            )
            warn(err_console(), collected.warnings)
            tokenizer = load_tokenizer(model)

            def count(text: str) -> int:
                return len(tokenizer.tokenize(text))

            sizes = [count(c) for c in chunk_documents(collected.documents, chunk_tokens, count)]
            echo("")
            echo(
                f"chunks: {len(sizes)} ({sum(sizes)} tokens, budget {chunk_tokens} "
                f"each, tokenizer {tokenizer.name})"
            )
            for i, size in enumerate(sizes, start=1):
                echo(f"  {i:>4}  {size} tokens")


MAX_ID = 2**63 - 1
"""The largest id SQLite stores (a larger one is a usage error, not an OverflowError)."""

logs_app = typer.Typer(
    help="The run history: every run and ask, with its answer, memory and metrics "
    f"(SQLite in the user data folder; {LOGS_ENV} moves it, run --no-log keeps a run out)."
)
app.add_typer(logs_app, name="logs")


@logs_app.callback(invoke_without_command=True)
def logs_list(
    ctx: typer.Context,
    count: Annotated[int, typer.Option("-n", "--count", min=1, max=MAX_ID, help="How many.")] = 20,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON array.")] = False,
    debug: Annotated[bool, typer.Option()] = False,
) -> None:
    """The latest runs, newest first (the default when no sub-command is given)."""
    if ctx.invoked_subcommand is not None:
        return
    with reporting_errors(debug):
        entries = History().recent(count)
        if as_json:
            echo(json.dumps([e.to_dict() for e in entries], ensure_ascii=False, indent=2))
            return
        if not entries:
            err_console().print(f"no runs recorded yet ({History().path})", markup=False)
            return
        for e in entries:
            answer = " ".join((e.answer or e.error or "").split())
            answer = answer if len(answer) <= 60 else answer[:59] + "…"
            names = ", ".join(Path(i.get("name", "?")).name for i in e.inputs[:2]) + (
                f" +{len(e.inputs) - 2}" if len(e.inputs) > 2 else ""
            )
            where = f"ask {e.parent}" if e.command == "ask" else names
            where = where if len(where) <= 24 else "…" + where[-23:]
            echo(
                f"{e.id:>5}  {e.started[:19].replace('T', ' ')}  {e.status:<11} "
                f"{e.task:<11} {where:<24}  {answer}"
            )


@logs_app.command("show")
def logs_show(
    run_id: Annotated[
        int, typer.Argument(min=1, max=MAX_ID, help="The run's id (from prism-edge logs).")
    ],
    html: Annotated[
        Path | None,
        typer.Option(
            "--html",
            dir_okay=False,
            help="Write one self-contained page: the memory as a tree, tokens per call.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="The whole entry as JSON.")] = False,
    debug: Annotated[bool, typer.Option()] = False,
) -> None:
    """One run: its answer, memory and metrics."""
    with reporting_errors(debug):
        writable_file("--html", html)
        entry = History().get(run_id)
        if html is not None:
            from prism_edge.report import entry_html

            html.write_text(entry_html(entry), encoding="utf-8")
            err_console().print(f"wrote {html}", markup=False)
            return
        if as_json:
            echo(json.dumps(entry.to_dict(), ensure_ascii=False, indent=2))
            return
        inputs = ", ".join(f"{i['name']} (sha256 {i['sha256'][:12]})" for i in entry.inputs)
        lines = [
            f"run {entry.id}: {entry.command} {entry.task}, {entry.status}"
            + (f" ({entry.error})" if entry.error else ""),
            f"question: {entry.question}",
            f"model: {entry.model}; method: {entry.method}",
            f"inputs: {inputs or '(memory of run ' + str(entry.parent) + ')'}",
            f"started {entry.started}, ended {entry.ended}",
            "",
            "answer:",
            entry.answer or "(none)",
            "",
            "memory:",
            dumps(entry.memory),
            "",
            "metrics: " + json.dumps(entry.metrics),
        ]
        echo("\n".join(lines))


@app.command()
def ask(
    run_id: Annotated[
        int, typer.Argument(min=1, max=MAX_ID, help="A recorded run (prism-edge logs).")
    ],
    question: Annotated[str, typer.Argument(help="The new question.")],
    model: Annotated[
        str | None,
        typer.Option("--model", "-m", help="Another model (default: the run's own)."),
    ] = None,
    answer_tokens: Annotated[
        int | None, typer.Option(min=1, help="Output tokens of the answer (default: the run's).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    no_log: Annotated[
        bool, typer.Option("--no-log", help="Keep this answer out of the run history.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q")] = False,
    debug: Annotated[bool, typer.Option()] = False,
) -> None:
    """Answer a new question from a recorded run's memory, without reading its input again."""
    from prism_edge.recall import ask as ask_memory
    from prism_edge.recall import check

    console = err_console()
    with reporting_errors(debug):
        history = History()
        entry = history.get(run_id)
        check(entry, question)
        recorded = entry.settings
        backend = factory.open_backend(
            model or recorded.get("model"),
            server=None if model else recorded.get("server"),
            n_ctx=int(recorded.get("n_ctx") or 4096),
            server_model=None if model else recorded.get("server_model"),
        )
        log = RunLog(
            None if no_log else history,
            dataclasses.replace(
                entry, command="ask", question=question, model=backend.name, parent=entry.id,
                id=None, inputs=[], started=now(), ended=None, status="running", error=None,
                calls=[], metrics={},
            ),
            console,
        )  # fmt: skip
        with log.recording(lambda: None) as done:
            result = ask_memory(backend, entry, question, answer_tokens)
            done(result)
        if as_json:
            payload = {**result.to_dict(), "log_id": log.entry.id, "memory_of": entry.id}
            echo(json.dumps(payload, ensure_ascii=False, indent=2))
            return
        echo(result.answer or "")
        if not quiet:
            _print_ranking(result, console)
            _print_done(result, console, log.entry.id, memory_of=entry.id)


models_app = typer.Typer(help="The model catalog and downloads.", no_args_is_help=False)
app.add_typer(models_app, name="models")


@models_app.callback(invoke_without_command=True)
def models_list(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
) -> None:
    """The catalog (which models are on disk) and the GGUF models found in ollama's store, LM
    Studio's folder and the Hugging Face cache (the default when no sub-command is given)."""
    if ctx.invoked_subcommand is not None:
        return
    from prism_edge.local_models import LocalModelError, found, read_gguf
    from prism_edge.models import catalog, on_disk

    entries = list(catalog().values())
    present = {e.name: on_disk(e) for e in entries}
    local = []
    for m in found():
        try:
            if m.problem:
                raise LocalModelError(f"{m.path}: {m.problem}")
            info: Any = read_gguf(m.path)
        except LocalModelError as exc:
            info = exc
        local.append((m, info))
    if as_json:
        payload = {
            "catalog": [{**dataclasses.asdict(e), "on_disk": present[e.name]} for e in entries],
            "found": [
                {
                    "spec": m.spec,
                    "store": m.store,
                    "path": str(m.path),
                    "size": m.size,
                    **(
                        {"error": str(info)}
                        if isinstance(info, Exception)
                        else dataclasses.asdict(info)
                    ),
                }
                for m, info in local
            ],
        }
        echo(json.dumps(payload, ensure_ascii=False, indent=2))
        return
    echo(f"{'name':<14} {'params':>6} {'ctx':>7} {'MB':>6}  {'on disk':<7}  license / file")
    for e in entries:
        where = f"pip install {e.package}" if e.source == "pypi" else f"{e.repo}/{e.file}"
        echo(
            f"{e.name:<14} {e.params:>6} {e.context:>7} {e.size_mb:>6}  "
            f"{'yes' if present[e.name] else 'no':<7}  {e.license}; {where}"
        )
    if not local:
        return
    echo("")
    echo("found on this machine (use the name with -m):")
    for m, info in local:
        size = f"{m.size / 1e6:.0f} MB"
        if isinstance(info, Exception):
            echo(f"  {m.spec}  {size}  unreadable: {info}")
            continue
        context = info.context_length or "?"
        echo(
            f"  {m.spec}  {size}, {info.architecture} {info.parameters} {info.quantization}, "
            f"ctx {context}  {m.path}"
        )


@models_app.command("pull")
def models_pull(
    spec: Annotated[str, typer.Argument(help="A catalog name or hf:OWNER/REPO/FILE.gguf.")],
    models_dir: Annotated[Path | None, typer.Option(help="Download folder.")] = None,
    debug: Annotated[bool, typer.Option()] = False,
) -> None:
    """Download a model now (resumable, checksum-verified) and print its path."""
    from prism_edge.models import resolve_model

    with reporting_errors(debug):
        echo(str(resolve_model(spec, models_dir)))


@models_app.command("default")
def models_default(
    name: Annotated[
        str | None,
        typer.Argument(help="The model to use when -m is not given (omit it to show the current)."),
    ] = None,
    unset: Annotated[bool, typer.Option("--unset", help="Back to the built-in default.")] = False,
    debug: Annotated[bool, typer.Option()] = False,
) -> None:
    """Show or set the default model (kept in the config file)."""
    from prism_edge.models import check_spec

    with reporting_errors(debug):
        if unset:
            path, aside = defaults.save("model", None)
            _note_aside(aside)
            err_console().print(f"default model: built-in ({path})", markup=False)
            return
        if name is None:
            env = os.environ.get(defaults.env_name("model"))
            current = env or defaults.load().get("model")
            where = (
                f"from {defaults.env_name('model')}"
                if env
                else f"from {defaults.config_path()}"
                if current
                else "built-in"
            )
            echo(f"{current or 'smollm2-135m'} ({where})")
            return
        spec = check_spec(name)
        path, aside = defaults.save("model", spec)
        _note_aside(aside)
        err_console().print(f"default model: {spec} (saved in {path})", markup=False)


def _note_aside(aside: Path | None) -> None:
    if aside is not None:
        err_console().print(
            f"note: the config file could not be read; it was kept as {aside}", markup=False
        )


schema_app = typer.Typer(help="Memory schemas.", no_args_is_help=True)
app.add_typer(schema_app, name="schema")


@schema_app.command("generate")
def schema_generate(
    example_query: Annotated[str, typer.Option(help="A query of the kind users will ask.")],
    domain: Annotated[
        str, typer.Option(help="What the documents and queries are about.")
    ] = DEFAULT_DOMAIN,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write it here.")] = None,
    model: Annotated[str | None, typer.Option("--model", "-m")] = None,
    seed: Annotated[int | None, typer.Option()] = None,
    debug: Annotated[bool, typer.Option()] = False,
) -> None:
    """Have the model write a memory schema (the paper's few-shot prompt, grammar-constrained)."""
    with reporting_errors(debug):
        backend = factory.open_backend(model, n_ctx=4096)
        generated = generate_schema(backend, domain, example_query, seed=seed)
        if output is not None:
            output.write_text(generated.source, encoding="utf-8")
            err_console().print(f"wrote {output}", markup=False)
        echo(generated.source, nl=False)


def quiet_broken_pipe() -> None:
    """stdout's reader went away: end quietly, as ``head`` expects (no traceback, no error)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    raise typer.Exit(0)


def main() -> None:
    try:
        app(prog_name="prism-edge")
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":  # pragma: no cover
    main()
