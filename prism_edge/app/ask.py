"""``prism-edge ask``: a new question to a recorded run's memory, without reading its input
again."""

from __future__ import annotations

import dataclasses
import json
from typing import Annotated

import typer

from prism_edge.app.common import (
    MAX_ID,
    echo,
    err_console,
    reporting_errors,
    sharing_cores,
    warn,
)
from prism_edge.app.history import History, RunLog, now
from prism_edge.app.recall import prepare
from prism_edge.app.render import _print_done, _print_ranking
from prism_edge.backends import factory


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
    api_key: Annotated[
        str | None,
        typer.Option(
            envvar=["PRISM_EDGE_API_KEY", "PRISM_API_KEY"],
            help="The API key of the run's server (never stored with the run).",
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q")] = False,
    debug: Annotated[bool, typer.Option()] = False,
) -> None:
    """Answer a new question from a recorded run's memory, without reading its input again."""

    console = err_console()
    with reporting_errors(debug):
        history = History()
        entry = history.get(run_id)
        recalled = prepare(entry, question, answer_tokens)  # refused here, before a model loads
        recorded = entry.settings
        backend = factory.open_backend(
            model or recorded.get("model"),
            server=None if model else recorded.get("server"),
            n_ctx=int(recorded.get("n_ctx") or 4096),
            server_model=None if model else recorded.get("server_model"),
            api_key=api_key if recorded.get("server") and not model else None,
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
        if as_json:
            payload = {**result.to_dict(), "log_id": log.entry.id, "memory_of": entry.id}
            echo(json.dumps(payload, ensure_ascii=False, indent=2))
            return
        echo(result.answer or "")
        if not quiet:
            _print_ranking(result, console)
            _print_done(result, console, log.entry.id, memory_of=entry.id)
