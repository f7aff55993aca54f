"""``prism-edge logs``: the run history, newest first, and one run in full (text, JSON, an HTML
page).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from prism_edge.app.common import (
    command_app,
    echo,
    err_console,
    no_answer,
    reporting_errors,
    run_id_of,
    run_ref,
    writable_file,
)
from prism_edge.app.history import LOGS_ENV, Entry, History
from prism_edge.app.output import JsonlOption, Output
from prism_edge.core.memory import dumps

logs_app = command_app(
    help="The run history: every run and ask, with its answer, memory and metrics "
    f"(SQLite in the user data folder; {LOGS_ENV} moves it, run --no-log keeps a run out)."
)


@logs_app.callback(invoke_without_command=True)
def logs_list(
    ctx: typer.Context,
    count: Annotated[int, typer.Option("-n", "--count", min=1, help="How many.")] = 20,
    search: Annotated[
        str | None,
        typer.Option(
            "--search",
            "-s",
            help="Only runs whose question, answer, inputs, model or error hold every word "
            "of TEXT (full-text search; word* matches a prefix).",
            metavar="TEXT",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON array.")] = False,
    as_jsonl: JsonlOption = False,
    debug: Annotated[bool, typer.Option()] = False,
) -> None:
    """The latest runs, newest first (the default when no sub-command is given).

    Exit status: 0, or 1 when --search matches no run.
    """
    if ctx.invoked_subcommand is not None:
        return
    with reporting_errors(debug):
        output = Output(as_json, as_jsonl)
        history = History()
        output.several()
        entries = history.recent(count, search)
        for e in entries:
            output.add(e.to_dict(), listing_line(e))
        output.close()
        if not entries and output.text:
            what = f"no run holds {search!r}" if search else "no runs recorded yet"
            err_console().print(f"{what} ({history.path})", markup=False)
        if search:
            no_answer(bool(entries))


LISTING_WIDTH = 100
"""Characters a run's lines in ``logs`` take at most (a README's code block, most terminals)."""


def listing_line(e: Entry) -> str:
    """One run as ``logs`` lists it, in two lines: its id, time, task and inputs (or status
    and error, when it did not end done); then its question and answer."""
    index = e.settings.get("index")
    given = index.get("inputs") if isinstance(index, dict) else None
    inputs = [str(i) for i in given] if isinstance(given, list) else None  # as named
    inputs = inputs or [str(i.get("name", "?")) for i in e.inputs]  # else as read
    names = ", ".join(Path(i).name for i in inputs[:2]) + (
        f" +{len(inputs) - 2}" if len(inputs) > 2 else ""
    )
    where = f"ask {e.parent}" if e.command == "ask" else names
    head = f"{e.id:>5}  {e.started[:16].replace('T', ' ')}  {e.task:<11} "
    if e.status != "done":
        where = f"[{e.status}] {' '.join((e.error or '').split())}"
    said = " ".join((e.answer or "").split()) if e.status == "done" else ""
    room = LISTING_WIDTH - 7  # the second line's indent
    question = " ".join(e.question.split())
    if said:  # the question first, the answer at least its first 30 characters
        question = _cut(question, max(room - 4 - min(len(said), 30), 20))
    tail = f"       {question}" + (f" -> {said}" if said else "")
    first = _cut(head + where, LISTING_WIDTH)
    return first + "\n" + _cut(tail, LISTING_WIDTH) if tail.strip() else first


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


@logs_app.command("path", short_help="The run history's file.")
def logs_path() -> None:
    """The run history's file (PRISM_EDGE_LOGS moves it)."""
    echo(str(History().path))


@logs_app.command("show", short_help="One run in full: text, JSON or a page.")
def logs_show(
    run: Annotated[
        str,
        typer.Argument(
            metavar="RUN",
            help="The run's id (from prism-edge logs), or last for the latest.",
            show_default=False,
        ),
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
        history = History()
        entry = history.get(history.resolve(run_ref(run)))
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


@logs_app.command("rm", short_help="Remove runs from the history.")
def logs_rm(
    run_ids: Annotated[
        list[int],
        typer.Argument(
            parser=run_id_of,
            metavar="ID",
            help="The runs' ids (from prism-edge logs).",
            show_default=False,
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
