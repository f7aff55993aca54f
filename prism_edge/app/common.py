"""What every command shares: option types, printing that escapes control characters, one-line
errors, output paths checked before compute.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
from collections.abc import Iterator
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from prism_edge import methods
from prism_edge.backends import Backend
from prism_edge.core.errors import NoAnswer, PrismError
from prism_edge.core.schema import (
    Schema,
    from_json_schema,
    from_source,
)
from prism_edge.methods.presets import TASKS, Task
from prism_edge.text.inputs import Filters


def command_app(**settings: Any) -> typer.Typer:
    """A command or group of commands whose ``--help`` is plain text, as grep's, ripgrep's
    and llm's are: wrapped at the terminal's width (nothing cut short), a flag with no type
    beside it, one clear line for a usage error."""
    return typer.Typer(rich_markup_mode=None, pretty_exceptions_enable=False, **settings)


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
        min=1,
        metavar="N",
        help="CPU threads (default: the physical cores).",
        rich_help_panel="Engine",
    ),
]
GpuLayersOption = Annotated[
    str | None,
    typer.Option(
        "--gpu-layers",
        envvar="PRISM_EDGE_GPU_LAYERS",
        metavar="auto|all|N",
        help="Model layers offloaded to the GPU: auto (every layer where llama.cpp was built "
        "with a GPU backend: Metal, CUDA, Vulkan; none on a CPU build), a number, or all.",
        show_default="auto",
        rich_help_panel="Engine",
    ),
]


def gpu_layers_of(value: str | None) -> int | None:
    """``--gpu-layers`` as llama.cpp takes it: None for auto, -1 for all, else the number."""
    if value is None or value.strip().lower() == "auto":
        return None
    if value.strip().lower() == "all":
        return -1
    try:
        layers = int(value)
    except ValueError:
        raise ValueError(f"--gpu-layers takes auto, all or a number, not {value!r}") from None
    if layers < -1:
        raise ValueError(f"--gpu-layers takes auto, all or a number, not {value!r}")
    return layers


BatchOption = Annotated[
    int,
    typer.Option(
        min=8, metavar="TOKENS", help="Prompt tokens evaluated per batch.", rich_help_panel="Engine"
    ),
]
FlashAttnOption = Annotated[
    bool | None,
    typer.Option(
        "--flash-attn/--no-flash-attn",
        help="llama.cpp's flash attention (default: on for methods that only score; for a "
        "method that writes, whichever this machine measured faster for the model, once).",
        show_default=False,
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
        "instead of token by token (off by default: llama.cpp's batched logits differ from "
        "one-token ones, so outputs may differ).",
        rich_help_panel="Engine",
    ),
]

IncludeOption = Annotated[
    list[str] | None,
    typer.Option(
        "--include",
        metavar="GLOB",
        help="In a folder, read only the files matching this glob (as a .gitignore line; "
        "repeatable).",
    ),
]
ExcludeOption = Annotated[
    list[str] | None,
    typer.Option(
        "--exclude",
        metavar="GLOB",
        help="In a folder, leave out the files matching this glob (as a .gitignore line; "
        "repeatable; a .prismignore file in the folder does the same).",
    ),
]


def filters_of(include: list[str] | None, exclude: list[str] | None) -> Filters:
    return Filters(tuple(include or ()), tuple(exclude or ()))


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


# the model and where it runs, the same options on every command that opens one
ModelOption = Annotated[
    str | None,
    typer.Option(
        "--model",
        "-m",
        envvar="PRISM_EDGE_MODEL",
        metavar="MODEL",
        help="A .gguf path, a catalog name, hf:OWNER/REPO/FILE.gguf, ollama:NAME[:TAG] or "
        "lmstudio:NAME (default: the embedded SmolLM2-135M; see prism-edge models).",
    ),
]
ServerOption = Annotated[
    str | None,
    typer.Option(
        metavar="URL",
        help="URL of an inference server to use instead of a local model: ollama (its own "
        "API) or an OpenAI-compatible one (llama.cpp server, vLLM, SGLang).",
        rich_help_panel="Server",
    ),
]
ApiKeyOption = Annotated[
    str | None,
    typer.Option(
        envvar=["PRISM_EDGE_API_KEY", "PRISM_API_KEY"],
        metavar="KEY",
        help="The server's API key (never stored).",
        rich_help_panel="Server",
    ),
]
ServerModelOption = Annotated[
    str | None,
    typer.Option(
        metavar="NAME",
        help="Model name on the server (default: its first; on ollama its only one).",
        rich_help_panel="Server",
    ),
]
CtxOption = Annotated[
    int | None,
    typer.Option(
        "--ctx",
        "-c",
        min=256,
        metavar="TOKENS",
        envvar="PRISM_EDGE_CTX",
        help="Context size (default: what the command needs: a run's from its budgets; on a "
        "server, the server's).",
        show_default=False,
    ),
]
ChunkTokensOption = Annotated[
    int | None,
    typer.Option(
        min=32,
        metavar="TOKENS",
        envvar="PRISM_EDGE_CHUNK_TOKENS",
        help="Tokens per chunk (default: the size the method was measured to read best at, "
        "512 for a summary by names; else 2048).",
        show_default=False,
    ),
]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="No plan, no progress.")]
OutputOption = Annotated[
    Path | None,
    typer.Option(
        "--output", "-o", dir_okay=False, metavar="FILE", help="Write the result to this file too."
    ),
]


def quiet_console(quiet: bool) -> Console:
    """stderr's console, or one that prints nothing for ``--quiet``."""
    return Console(quiet=True) if quiet else err_console()


def given(ctx: typer.Context, name: str) -> bool:
    """Whether option ``name`` was typed on the command line (not a default of any kind)."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name == "COMMANDLINE"


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


ANSWERED = 0
"""Exit status: an answer (a result) was printed."""
NO_ANSWER = 1
"""Exit status: the command ran and found no answer (nothing found, not in the table,
nothing to summarize, a search of the history that matches no run), as grep's "no match"."""
ERROR = 2
"""Exit status: a usage or input error, or a model or server that failed (click's own
usage errors exit 2 too)."""
INTERRUPTED = 130
"""Exit status: interrupted (Ctrl-C), as a shell reports a process ended by SIGINT."""


@contextlib.contextmanager
def reporting_errors(debug: bool) -> Iterator[None]:
    """Known errors become one line on stderr and exit :data:`ERROR`; no answer (a
    :class:`~prism_edge.core.errors.NoAnswer`) one line and :data:`NO_ANSWER`; Ctrl-C
    :data:`INTERRUPTED`. ``--debug`` shows the traceback."""
    try:
        yield
    except BrokenPipeError:  # `prism-edge logs | head -1`: the reader has all it wanted
        quiet_broken_pipe()
    except NoAnswer as exc:
        if debug:
            raise
        hint = exc.hint
        err_console().print(f"no answer: {exc}" + (f" (hint: {hint})" if hint else ""),
                            markup=False)  # fmt: skip
        raise typer.Exit(NO_ANSWER) from None
    except (PrismError, ValueError, OSError) as exc:
        if debug:
            raise
        hint = getattr(exc, "hint", "")
        message = f"error: {exc}" + (f" (hint: {hint})" if hint else "")
        err_console().print(message, markup=False)
        raise typer.Exit(ERROR) from None
    except KeyboardInterrupt:
        if debug:
            raise
        err_console().print("interrupted", markup=False)
        raise typer.Exit(INTERRUPTED) from None


def no_answer(found: bool) -> None:
    """End a command whose result was printed: exit :data:`NO_ANSWER` when it found none."""
    if not found:
        raise typer.Exit(NO_ANSWER)


def read_schema(schema_file: Path) -> Schema:
    """A user's schema file: dataclass source (.py) or JSON Schema (.json); one nested past
    what Python's parsers take is refused in one line."""
    try:
        return _read_schema(schema_file)
    except RecursionError:
        raise ValueError(f"{schema_file}: nested too deeply to read as a schema") from None


def _read_schema(schema_file: Path) -> Schema:
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
    chosen = TASKS[(task or TaskName.summarize).value]
    chosen.question(query)  # "--task code-search needs --query": before any model loads
    return chosen


def piped_stdin() -> list[str]:
    """No input named: standard input when something is piped in (as llm reads it)."""
    if sys.stdin is None or sys.stdin.isatty():
        raise ValueError("no input: name files or folders, use -, or pipe text in")
    return ["-"]


def warn(console: Console, warnings: list[str]) -> None:
    for warning in warnings:
        console.print(f"warning: {warning}", markup=False)


def sharing_cores(backend: Backend) -> list[str]:
    """The warning for a model loaded while another prism-edge process runs one here."""
    other = backend.shares_cores_with
    if other is None:
        return []
    who = f"another prism-edge process (pid {other})" if other else "another prism-edge process"
    return [
        f"{who} has a local model open on this machine: while both run, each runs several "
        "times slower (they share its cores)"
    ]


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


MAX_ID = 2**63 - 1
"""The largest id SQLite stores (a larger one is a usage error, not an OverflowError)."""
LAST_RUN = 0
"""``last`` as a run reference: the latest run in the history (ids start at 1)."""


def run_ref(value: str) -> int:
    """A run as the command line names it: its id in the history, or ``last``
    (:data:`LAST_RUN`)."""
    if isinstance(value, int):  # a default, or a value already parsed
        return value
    if value.strip().lower() == "last":
        return LAST_RUN
    try:
        number = int(value)
    except ValueError:
        raise typer.BadParameter(f"{value!r} is not a run id (a number) nor last") from None
    if not 1 <= number <= MAX_ID:
        raise typer.BadParameter(f"{value} is not a run id: ids count from 1")
    return number


def run_id_of(value: str) -> int:
    """A run id (a number from 1), for commands that take several (``logs rm``)."""
    number = run_ref(value)
    if number == LAST_RUN:
        raise typer.BadParameter("name the runs by their ids here")
    return number


def quiet_broken_pipe() -> None:
    """stdout's reader went away: end quietly, as ``head`` expects (no traceback, no error)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    raise typer.Exit(0)
