"""``prism-edge ask``: a new question to a recorded run's memory, without reading its input
again."""

from __future__ import annotations

import dataclasses
from typing import Annotated

import typer

from prism_edge.app.common import (
    ApiKeyOption,
    QuietOption,
    ServerModelOption,
    err_console,
    no_answer,
    reporting_errors,
    run_ref,
    sharing_cores,
    warn,
)
from prism_edge.app.history import History, RunLog, now
from prism_edge.app.output import JsonlOption, JsonOption, Output
from prism_edge.app.recall import prepare
from prism_edge.app.render import _print_done, _print_ranking, payload_of, say_no_answer
from prism_edge.backends import factory


def ask(
    run: Annotated[
        str,
        typer.Argument(
            metavar="RUN",
            help="A recorded run: its id (prism-edge logs), or last for the latest.",
            show_default=False,
        ),
    ],
    question: Annotated[str, typer.Argument(help="The new question.")],
    model: Annotated[
        str | None,
        typer.Option("--model", "-m", help="Another model (default: the run's own)."),
    ] = None,
    answer_tokens: Annotated[
        int | None, typer.Option(min=1, help="Output tokens of the answer (default: the run's).")
    ] = None,
    as_json: JsonOption = False,
    as_jsonl: JsonlOption = False,
    no_log: Annotated[
        bool, typer.Option("--no-log", help="Keep this answer out of the run history.")
    ] = False,
    server: Annotated[
        str | None,
        typer.Option(
            help="Another inference server (default: the run's own model or server).",
            rich_help_panel="Server",
        ),
    ] = None,
    server_model: ServerModelOption = None,
    api_key: ApiKeyOption = None,
    quiet: QuietOption = False,
    debug: Annotated[bool, typer.Option()] = False,
) -> None:
    """Answer a new question from a recorded run's memory, without reading its input again.

    Exit status: 0 an answer, 1 no answer (the memory holds nothing the question asks about),
    2 an error, 130 interrupted.
    """

    console = err_console()
    with reporting_errors(debug):
        output = Output(as_json, as_jsonl)
        history = History()
        entry = history.get(history.resolve(run_ref(run)))
        recalled = prepare(entry, question, answer_tokens)  # refused here, before a model loads
        recorded = entry.settings
        if model and server:
            raise ValueError("use either --model or --server, not both")
        own = not (model or server)  # the run's own model or server
        backend = factory.open_backend(
            model or (recorded.get("model") if own else None),
            server=server or (recorded.get("server") if own else None),
            n_ctx=int(recorded.get("n_ctx") or 4096),
            server_model=server_model or (recorded.get("server_model") if own else None),
            api_key=api_key if server or (own and recorded.get("server")) else None,
        )
        warn(console, sharing_cores(backend))
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
            result = recalled.answer(backend)
            done(result)
        payload = payload_of(result, question, log_id=log.entry.id, memory_of=entry.id)
        output.one(payload, result.answer or None)
        if output.text:
            say_no_answer(result, console)
        if output.text and not quiet:
            _print_ranking(result, console)
            _print_done(result, console, log.entry.id, memory_of=entry.id)
        no_answer(result.found)
