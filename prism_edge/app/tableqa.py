"""``prism-edge run --task table-qa`` by the table method: every table's records read straight
into its database with a progress line (a plain one every few seconds in a log), then the
answer, the query it came from, and the run recorded."""

from __future__ import annotations

import time
from pathlib import Path

import typer
from rich.console import Console

from prism_edge.app.common import INTERRUPTED
from prism_edge.app.history import RunLog
from prism_edge.app.output import Output
from prism_edge.app.plan import size_label
from prism_edge.app.render import (
    PLAIN_EVERY_S,
    logged,
    model_work,
    payload_of,
    reading_progress,
    say_no_answer,
    write_memory,
)
from prism_edge.core.events import StepDone, TableAnswer
from prism_edge.engine.tables import TableSession
from prism_edge.methods.tables.answer import said


def reading_of(session: TableSession) -> str:
    """What a table run reads, for its plan line."""
    documents = session.documents
    size = sum(d.source.stat().st_size if d.source else len(d.held) for d in documents)
    tables = f"{len(documents)} table" + ("" if len(documents) == 1 else "s")
    return f"{tables} of {size_label(size)} read into a database"


def run_tables(
    session: TableSession,
    log: RunLog,
    plan: list[str],
    *,
    quiet: bool,
    output: Output,
    memory_out: Path | None,
) -> bool:
    """A table question from its plan line to its answer and record; whether it found one."""
    console = log.console
    if not quiet:
        for line in plan:
            console.print(line, markup=False)
    try:
        with log.recording(lambda: session.result) as done:
            _drive(session, console, quiet)
            done(session.result)
    except KeyboardInterrupt:
        console.print(
            f"interrupted after {session.rows:,} records; nothing of them is kept (the "
            "database is private): the same command reads them again",
            markup=False,
        )
        raise typer.Exit(INTERRUPTED) from None
    result = session.result
    payload = payload_of(
        result,
        session.runner.config.question,
        query=session.method.query,
        queries=session.method.queries,  # the ranking's, in its order
        rows=session.rows,
        log_id=log.entry.id,
    )
    output.one(payload, result.answer or None)
    if output.text:
        say_no_answer(result, console)
    if output.text and not quiet:
        for line in explain(result.table):
            console.print(line, markup=False)
        tables = len(session.documents)
        console.print(
            f"done: {session.rows:,} records of {tables} table{'s' if tables != 1 else ''} read; "
            f"{model_work(result.metrics)}{logged(log.entry.id)}",
            markup=False,
        )
    write_memory(memory_out, result.memory.data)
    return result.found


def explain(table: TableAnswer | None) -> list[str]:
    """What the answer was computed by and how sure the ranker is, with the runner-up (its
    values and query) when it is not."""
    if table is None or table.best is None:
        return []
    best = table.best
    sure = "sure" if table.sure else "NOT SURE"
    unheld = ", ".join(table.unheld) if not table.sure else ""
    unheld = f"; nothing in the input for {unheld}" if unheld else ""
    if table.tied:
        unheld += f"; tied with {', '.join(said(v) for v in table.tied)}"
    lines = [f"computed: {best.said} ({sure}: probability {best.probability:.2f}{unheld})",
             f"query: {best.sql}"]  # fmt: skip
    other = table.runner_up
    if other is not None and (not table.sure or other.probability >= 0.1):
        values = ", ".join(said(v) for v in other.values)
        lines += [f"runner-up: {values} ({other.probability:.2f}): {other.said}",
                  f"runner-up query: {other.sql}"]  # fmt: skip
    return lines


def _drive(session: TableSession, console: Console, quiet: bool) -> None:
    progress, plain = reading_progress(console, quiet)
    start = said = time.perf_counter()
    with progress:
        bar = progress.add_task("reading", total=None)
        for event in session.events():
            if not isinstance(event, StepDone):
                continue
            now = time.perf_counter()
            rate = session.rows / max(now - start, 1e-9)
            line = f"{session.rows:,} records ({rate:,.0f} a second)"
            progress.update(bar, description=line)
            if plain and now - said >= PLAIN_EVERY_S:
                console.print(f"progress: {line}", markup=False)
                said = now
