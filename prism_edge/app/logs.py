"""``prism-edge logs``: the run history, newest first, and one run in full (text, JSON, an HTML
page).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from prism_edge.app.common import MAX_ID, echo, err_console, reporting_errors, writable_file
from prism_edge.app.history import LOGS_ENV, History
from prism_edge.core.memory import dumps

logs_app = typer.Typer(
    help="The run history: every run and ask, with its answer, memory and metrics "
    f"(SQLite in the user data folder; {LOGS_ENV} moves it, run --no-log keeps a run out)."
)


@logs_app.callback(invoke_without_command=True)
def logs_list(
    ctx: typer.Context,
    count: Annotated[int, typer.Option("-n", "--count", min=1, max=MAX_ID, help="How many.")] = 20,
    search: Annotated[
        str | None,
        typer.Option(
            "--search",
            "-s",
            help="Only runs whose question, answer, inputs, model or error hold TEXT.",
            metavar="TEXT",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON array.")] = False,
    debug: Annotated[bool, typer.Option()] = False,
) -> None:
    """The latest runs, newest first (the default when no sub-command is given)."""
    if ctx.invoked_subcommand is not None:
        return
    with reporting_errors(debug):
        entries = History().recent(count, search)
        if as_json:
            echo(json.dumps([e.to_dict() for e in entries], ensure_ascii=False, indent=2))
            return
        if not entries:
            what = f"no run holds {search!r}" if search else "no runs recorded yet"
            err_console().print(f"{what} ({History().path})", markup=False)
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
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            "--html",
            dir_okay=False,
            help="Write the run to this file: a .html name one self-contained page (the memory "
            "as a tree, tokens per call), any other the entry as JSON.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="The whole entry as JSON.")] = False,
    debug: Annotated[bool, typer.Option()] = False,
) -> None:
    """One run: its answer, memory and metrics."""
    with reporting_errors(debug):
        writable_file("--output", output)
        entry = History().get(run_id)
        if output is not None:
            if output.suffix.lower() in (".html", ".htm"):
                from prism_edge.app.report import entry_html

                output.write_text(entry_html(entry), encoding="utf-8")
            else:
                output.write_text(
                    json.dumps(entry.to_dict(), ensure_ascii=False, indent=2) + "\n",
                    encoding="utf-8",
                )
            err_console().print(f"wrote {output}", markup=False)
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


@logs_app.command("rm")
def logs_rm(
    run_ids: Annotated[
        list[int],
        typer.Argument(
            min=1, max=MAX_ID, help="The runs' ids (from prism-edge logs).", show_default=False
        ),
    ],
    debug: Annotated[bool, typer.Option()] = False,
) -> None:
    """Remove runs from the history (all of them, or none when an id is not there)."""
    with reporting_errors(debug):
        History().remove(run_ids)
        err_console().print(
            f"removed run{'s' if len(set(run_ids)) > 1 else ''} "
            + ", ".join(map(str, sorted(set(run_ids)))),
            markup=False,
        )
