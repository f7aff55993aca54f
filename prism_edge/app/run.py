"""``prism-edge run``: parse the arguments, choose the method, drive one session (or
``--parallel``), render.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from prism_edge import methods
from prism_edge.app.common import (
    AUTO_METHOD,
    ERROR,
    INTERRUPTED,
    ApiKeyOption,
    BatchOption,
    ChunkTokensOption,
    CtxOption,
    ExcludeOption,
    FlashAttnOption,
    FollowLinksOption,
    GpuLayersOption,
    GrammarFieldChoice,
    IncludeOption,
    JumpForwardOption,
    KeepBoilerplateOption,
    KvChoice,
    KvTypeOption,
    MemoryChoice,
    MethodChoice,
    ModelOption,
    QuietOption,
    ServerModelOption,
    ServerOption,
    StyleChoice,
    TaskName,
    ThreadsOption,
    err_console,
    filters_of,
    given,
    gpu_layers_of,
    no_answer,
    piped_stdin,
    reporting_errors,
    sharing_cores,
    task_for,
    warn,
    writable_file,
    writable_folder,
)
from prism_edge.app.history import RunLog
from prism_edge.app.outline import outline_settings, run_outlined
from prism_edge.app.outline import reading_of as outline_reading
from prism_edge.app.output import JsonlOption, JsonOption, Output
from prism_edge.app.plan import chunked, details_line, language_notes, plan_line
from prism_edge.app.planning import Request, ignored_options, open_run
from prism_edge.app.render import _drive, _print_result, model_work, payload_of, write_memory
from prism_edge.app.runs import state_folder
from prism_edge.app.search import read_queries, run_indexed
from prism_edge.app.tableqa import reading_of, run_tables
from prism_edge.backends import Backend
from prism_edge.backends.factory import Engine
from prism_edge.core.errors import NoAnswer, PrismError
from prism_edge.core.events import BudgetExceeded, RunResult
from prism_edge.core.schema import (
    Schema,
    from_source,
)
from prism_edge.engine.checkpoint import digest
from prism_edge.engine.parallel import EachSettings, run_each
from prism_edge.engine.session import Session
from prism_edge.methods.schemagen import DEFAULT_DOMAIN, generate_schema
from prism_edge.text.code import is_code
from prism_edge.text.inputs import Document


def run(
    context: typer.Context,
    inputs: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="INPUTS",
            help="Files, folders, or - for stdin (read when piped and none named).",
            show_default=False,
        ),
    ] = None,
    task: Annotated[
        TaskName | None,
        typer.Option(envvar="PRISM_EDGE_TASK", help="A preset (paper appendix A schemas)."),
    ] = None,
    schema_file: Annotated[
        Path | None,
        typer.Option(
            "--schema",
            metavar="FILE",
            exists=True,
            dir_okay=False,
            readable=True,
            help="A schema: dataclass source (.py) or JSON Schema (.json).",
        ),
    ] = None,
    query: Annotated[
        str | None, typer.Option(metavar="TEXT", help="The question to answer.")
    ] = None,
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
            "takes grammars (measured best), free otherwise.",
        ),
    ] = None,
    chunk_tokens: ChunkTokensOption = None,
    model: ModelOption = None,
    ctx: CtxOption = None,
    temperature: Annotated[
        float, typer.Option(min=0.0, metavar="T", help="Sampling temperature (0: greedy).")
    ] = 0.0,
    seed: Annotated[int | None, typer.Option(metavar="N", help="Sampling seed.")] = None,
    max_revisions: Annotated[
        int | None, typer.Option(min=1, metavar="N", help="Revisions per step.")
    ] = None,
    max_tokens: Annotated[
        int, typer.Option(min=16, metavar="TOKENS", help="Output tokens per revision step.")
    ] = 512,
    answer_tokens: Annotated[
        int, typer.Option(min=1, metavar="TOKENS", help="Output tokens of the answer.")
    ] = 512,
    style: Annotated[StyleChoice, typer.Option(help="Prompt style.")] = StyleChoice.compact,
    as_json: JsonOption = False,
    as_jsonl: JsonlOption = False,
    memory_out: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Write the final memory here (--queries: each question's, one JSON array).",
        ),
    ] = None,
    queries: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="code-search: more questions, one a line, each answered after --query with "
            "the index read and the model loaded once (each logged as a run).",
        ),
    ] = None,
    domain: Annotated[
        str | None,
        typer.Option(
            metavar="TEXT", help="--task auto: what the documents and questions are about."
        ),
    ] = None,
    run_dir: Annotated[
        Path | None,
        typer.Option(
            metavar="FOLDER",
            help="Where the state is saved after every chunk (each run in files of its own; "
            "default: the user's state folder, PRISM_EDGE_STATE; prism-edge runs lists them).",
            show_default=False,
        ),
    ] = None,
    resume: Annotated[
        bool,
        typer.Option(
            help="Continue this command's run saved in --run-dir after its last completed chunk."
        ),
    ] = False,
    server: ServerOption = None,
    api_key: ApiKeyOption = None,
    server_model: ServerModelOption = None,
    grammar_field: Annotated[
        GrammarFieldChoice,
        typer.Option(
            help="How the server takes the revision grammar (auto: detected).",
            rich_help_panel="Server",
        ),
    ] = GrammarFieldChoice.auto,
    retries: Annotated[
        int,
        typer.Option(
            min=0, metavar="N", help="Retries of a failed server call.", rich_help_panel="Server"
        ),
    ] = 4,
    method: Annotated[
        MethodChoice,
        typer.Option(
            help="How each step revises the memory: the model scores each chunk's own "
            "definitions (definitions, code-search) or names (names, summarize), or writes "
            "revisions (revisions, any task); auto: the scored one on a model under 1B "
            "parameters that can score (measured best), revisions on larger ones; the plan "
            "line says which and why (run --verbose: the measurement)."
        ),
    ] = AUTO_METHOD,
    no_model: Annotated[
        bool,
        typer.Option(
            "--no-model",
            help="The scored method's ranking without the model (names by frequency, "
            "definitions by BM25, table answers by the learned ranker alone): the model only "
            "counts tokens. The plan line says so.",
        ),
    ] = False,
    kind: Annotated[
        str | None,
        typer.Option(
            help="summarize: the kind of text (play, poem, story, paper, manual, report, "
            "treatise) the summary is shaped by; default: read from the text (the plan line "
            "says which).",
        ),
    ] = None,
    length: Annotated[
        str | None,
        typer.Option(
            help="summarize: how long the summary is: 350w (words), 12 or 12s (sentences), "
            "5% (a share of the text's sentences); default 350w.",
        ),
    ] = None,
    shortlist: Annotated[
        int,
        typer.Option(
            min=0,
            metavar="N",
            help="code-search by definitions: score only BM25's best N definitions "
            "(0: all of them).",
        ),
    ] = 8,
    parallel: Annotated[
        int | None,
        typer.Option(
            min=1,
            metavar="N",
            help="Each input document on its own, N at once (N > 1 needs --server); each "
            "document's answer as it finishes (--jsonl: one JSON line each).",
            rich_help_panel="Server",
        ),
    ] = None,
    threads: ThreadsOption = None,
    gpu_layers: GpuLayersOption = None,
    batch: BatchOption = 512,
    flash_attn: FlashAttnOption = None,
    kv_type: KvTypeOption = KvChoice.f16,
    jump_forward: JumpForwardOption = False,
    keep_boilerplate: KeepBoilerplateOption = False,
    follow_links: FollowLinksOption = False,
    include: IncludeOption = None,
    exclude: ExcludeOption = None,
    no_log: Annotated[
        bool, typer.Option("--no-log", help="Keep this run out of the run history.")
    ] = False,
    quiet: QuietOption = False,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose",
            "-v",
            help="Also the plan's details: context, settings, and what the method's choice "
            "rests on.",
        ),
    ] = False,
    debug: Annotated[bool, typer.Option(help="Show tracebacks.")] = False,
) -> None:
    """Read INPUTS chunk by chunk, revise a structured memory, answer from it.

    Exit status: 0 an answer, 1 no answer (nothing found, not in the table, nothing to
    summarize), 2 a usage or input error (or a model or server that failed), 130 interrupted.
    """
    console = err_console()
    with reporting_errors(debug):
        output = Output(as_json, as_jsonl)
        if schema_file is not None and not given(context, "task"):
            task = None  # a default task (env, config) gives way to a schema on the line
        if server is not None and not given(context, "model"):
            model = None  # likewise a default model to a server on the line
        run_dir = run_dir or state_folder()  # never the folder the command runs from
        chosen = task_for(task, schema_file, query)
        check_outputs(parallel, server, memory_out, run_dir)
        if chosen is not None and method.value != AUTO_METHOD.value:  # before any model loads
            methods.METHODS[method.value].check_schema(chosen.schema)
            refuse_ignored(context, methods.Choice(method.value, f"--method {method.value}"))
        more = None if queries is None else read_queries(queries)
        if more is not None and (chosen is None or chosen.name != "code-search"):
            raise ValueError("--queries asks more code-search questions: use --task code-search")
        request = Request(
            inputs or piped_stdin(),
            chosen,
            query,
            model=model,
            default_model=model is not None and not given(context, "model"),
            server=server,
            server_model=server_model,
            api_key=api_key,
            grammar_field=grammar_field.value,
            retries=retries,
            engine=Engine(
                threads, batch, flash_attn, kv_type.value, jump_forward, gpu_layers_of(gpu_layers)
            ),
            ctx=ctx,
            chunk_tokens=chunk_tokens,
            max_tokens=max_tokens,
            answer_tokens=answer_tokens,
            method=method.value,
            no_model=no_model,
            shortlist=shortlist,
            kind=kind,
            length=length,
            settings={
                "encoding": memory.value,
                "add_only": add_only,
                "grounded": grounded,
                "style": style.value,
                "max_revisions": max_revisions,
                "temperature": temperature,
                "seed": seed,
            },
            keep_boilerplate=keep_boilerplate,
            follow_links=follow_links,
            filters=filters_of(include, exclude),
        )

        def schema_for(backend: Backend) -> Schema:
            return _auto_schema(backend, run_dir, domain, query or "", resume, quiet, console)

        def opened(backend: Backend) -> None:
            warn(console, sharing_cores(backend))

        planned = open_run(
            request,
            schema_for=schema_for,
            opened=opened,
            warned=lambda warnings: warn(console, warnings),
        )
        collected, backend, chosen, config = (
            planned.collected, planned.backend, planned.task, planned.config,
        )  # fmt: skip
        if parallel is not None and len(collected.documents) < 2:
            raise ValueError("--parallel runs each input document on its own: give two or more")
        choice, chunk_tokens = planned.choice, planned.chunk_tokens
        refuse_ignored(context, choice)
        log = RunLog.of_run(no_log, chosen, config, backend, choice, collected, console)
        log.entry.settings.update(
            chunk_tokens=chunk_tokens,
            model=model,
            server=None if server is None else _bare(server),  # no credential
            server_model=server_model,
            method_options=planned.method.settings(),  # what ask's answer step reads again
        )
        if parallel is not None:
            each = EachSettings(chunk_tokens, parallel, run_dir, resume, planned.fresh_method)
            if not quiet:
                console.print(
                    plan_line(backend, choice, f"{len(collected.documents)} documents, "
                              f"{parallel} at once", []),
                    markup=False,
                )  # fmt: skip
            shown = EachShown(output, log, quiet)
            failed = run_each(
                backend, chosen.schema, config, collected.documents, each, done=shown.done
            )
            output.close()
            if failed:
                raise typer.Exit(ERROR)
            no_answer(shown.found)
            return
        notes = language_notes(choice, collected.documents, config.question)
        if planned.indexed:
            indexed = planned.indexed_session()
            code = sum(1 for d in collected.documents if is_code(d.name))
            reading = (
                f"{code:,} code file{'s' if code != 1 else ''} read into an index (only "
                "changed files parsed)"
            )
            plan = [plan_line(backend, choice, reading, notes)]
            if verbose:
                plan.append(details_line(backend, choice, []))
            found = run_indexed(
                indexed, log, plan, quiet=quiet, output=output, memory_out=memory_out,
                queries=more, filters=request.filters, follow_links=follow_links,
            )  # fmt: skip
            no_answer(found)
            return
        if more is not None:
            raise ValueError("--queries needs code files read into an index, not text on stdin")
        if planned.reads_whole_text and parallel is None:
            text = planned.text_session()
            plan = [plan_line(backend, choice, outline_reading(text), notes)]
            if verbose:
                plan.append(details_line(backend, choice, outline_settings()))
            found = run_outlined(text, log, plan, quiet=quiet, output=output, memory_out=memory_out)
            no_answer(found)
            return
        if planned.reads_tables and parallel is None:
            tables = planned.table_session()
            plan = [plan_line(backend, choice, reading_of(tables), notes)]
            if verbose:
                plan.append(details_line(backend, choice, []))
            found = run_tables(tables, log, plan, quiet=quiet, output=output, memory_out=memory_out)
            no_answer(found)
            return
        session = planned.session(run_dir)
        if resume:
            session.resume()
        session.check_context()
        plan = session_plan(
            session, choice, memory.value, add_only, chunk_tokens, planned.chunk_reason, notes,
            verbose,
        )  # fmt: skip
        _run_session(session, log, plan, resume, quiet, output, memory_out)
        no_answer(session.result.found)


def _bare(server: str) -> str:
    """The server's address without its credentials."""
    from prism_edge.backends.server import split_credentials  # httpx: servers only

    return split_credentials(server)[0]


class EachShown:
    """``--parallel``: each document's answer as it finishes (text under a ``==> NAME <==``
    heading, as ``head`` shows several files; a JSON line; or held for ``--json``'s array),
    and its record in the history."""

    def __init__(self, output: Output, log: RunLog, quiet: bool) -> None:
        self.output = output
        self.log = log
        self.quiet = quiet
        self.found = False

    def done(
        self,
        document: Document,
        result: RunResult | None,
        error: PrismError | ValueError | OSError | None,
    ) -> None:
        said = None if error is None else str(error) or type(error).__name__
        self.log.each_document(document, result, said)
        question = self.log.entry.question
        if result is None:
            missing = isinstance(error, NoAnswer)
            payload: dict[str, object] = {"document": document.name, "question": question}
            payload.update({"found": False, "no_answer": said} if missing else {"error": said})
            if not self.output.text:
                self.output.add(payload, None)
            kind = "no answer" if missing else "error"
            self.log.console.print(f"{kind}: {document.name}: {said}", markup=False)
            return
        self.found = self.found or result.found
        payload = {"document": document.name, **payload_of(result, question)}
        self.output.add(payload, f"==> {document.name} <==\n{result.answer or ''}\n")
        if self.output.text and not self.quiet:
            self.log.console.print(
                f"{document.name}: {result.steps} steps; {model_work(result.metrics)}",
                markup=False,
            )


def _run_session(
    session: Session,
    log: RunLog,
    plan: list[str],
    resume: bool,
    quiet: bool,
    output: Output,
    memory_out: Path | None,
) -> None:
    """Drive a checked session with progress, record it, print its answer, then write the
    memory file (the answer is out before any side file)."""
    console = log.console
    if not quiet:
        for line in plan:
            console.print(line, markup=False)
    engine = session.suit()  # the first time on this machine a writing method measures here
    if engine and not quiet:
        console.print(f"engine: {engine}", markup=False)
    over = None if resume else session.start_afresh()
    if over is not None and not quiet:
        console.print(f"note: {over}", markup=False)
    try:
        with log.recording(lambda: session.result) as done:
            _drive(session, console, quiet)
            done(session.result)
    except BudgetExceeded as exc:
        write_memory(memory_out, exc.result.memory.data)
        raise
    except KeyboardInterrupt:
        steps = session.result.steps
        if session.folder is not None:
            again = " ".join(shlex.quote(a) for a in sys.argv[1:] if a != "--resume")
            console.print(
                f"interrupted after step {steps}; its state is saved: "
                f"prism-edge {again} --resume continues from there",
                markup=False,
            )
        else:
            console.print(f"interrupted after step {steps}", markup=False)
        raise typer.Exit(INTERRUPTED) from None
    _print_result(session, output, quiet, console, log.entry.id)
    write_memory(memory_out, session.result.memory.data)


def check_outputs(
    parallel: int | None, server: str | None, memory_out: Path | None, run_dir: Path
) -> None:
    """Refuse, before any input is read or a model loads, combinations that cannot work and
    outputs that cannot be written."""
    writable_file("--memory-out", memory_out)
    writable_folder("--run-dir", run_dir)
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
    names = [p.name for p in context.command.params if p.name and given(context, p.name)]
    ignored = ignored_options(names, choice)
    if ignored:
        flags = ", ".join("--" + name.replace("_", "-") for name in ignored)
        verb = "does" if len(ignored) == 1 else "do"
        raise ValueError(
            f"{flags} {verb} not apply to --method {choice.name} ({choice.reason}); "
            "drop it or choose another --method"
        )


def session_plan(
    session: Session,
    choice: methods.Choice,
    memory: str,
    add_only: bool,
    chunk_tokens: int,
    chunk_reason: str = "",
    notes: list[str] | None = None,
    verbose: bool = False,
) -> list[str]:
    """The plan of a run that reads chunks: its line, and with ``verbose`` its details."""
    backend, plan = session.backend, session.plan
    reading = chunked(plan.total, plan.count, chunk_tokens)
    if session.resumed:
        reading += f", resuming after step {session.result.steps}"
    lines = [plan_line(backend, choice, reading, notes or [])]
    if verbose:
        settings = [
            f"{plan.fixed_tokens:,} tokens of prompt beside each chunk",
            f"chunks of {chunk_tokens:,} tokens"
            + (f" ({chunk_reason.strip(' ()')})" if chunk_reason else " (as asked)"),
        ]
        if choice.name == methods.WRITTEN:
            settings.append(f"memory {memory}" + (", add-only" if add_only else ""))
        lines.append(details_line(backend, choice, settings))
    return lines


def _auto_schema(
    backend: Backend,
    run_dir: Path,
    domain: str | None,
    question: str,
    resume: bool,
    quiet: bool,
    console: Console,
) -> Schema:
    """--task auto: generate a schema for the query (or reuse the run's own when resuming),
    saved in the run folder under a name of its model, domain and query (``schema-<key>.py``),
    so that other runs in the folder keep theirs; a folder of an earlier version has one
    ``schema.py``, reused when the run has none of its own."""
    domain = domain or DEFAULT_DOMAIN
    saved = run_dir / f"schema-{digest([backend.name, domain, question])[:16]}.py"
    if resume:
        for found in (saved, run_dir / "schema.py"):
            if found.is_file():
                return from_source(found.read_text(encoding="utf-8"))
    generated = generate_schema(backend, domain, question)
    run_dir.mkdir(parents=True, exist_ok=True)
    saved.write_text(generated.source, encoding="utf-8")
    if not quiet:
        console.print(f"generated schema (saved to {saved}):", markup=False)
        console.print(generated.source.rstrip(), markup=False)
    return generated.schema
