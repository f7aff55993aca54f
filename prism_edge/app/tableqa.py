"""``prism-edge run --task table-qa`` by the table method: every table's records read straight
into its database with a progress line (a plain one every few seconds in a log), then the
answer, the query it came from, and the run recorded."""

from __future__ import annotations

import json
import time
from pathlib import Path

import typer
from rich.console import Console

from prism_edge.app.common import echo
from prism_edge.app.history import RunLog
from prism_edge.app.render import (
    PLAIN_EVERY_S,
    _print_ranking,
    reading_progress,
    write_memory,
)
from prism_edge.core.events import StepDone
from prism_edge.engine.tables import TableSession


def plan_of(session: TableSession, backend_name: str, device: str | None, reason: str) -> str:
    documents = session.documents
    size = sum(d.source.stat().st_size if d.source else len(d.held) for d in documents)
    tables = f"{len(documents)} table" + ("" if len(documents) == 1 else "s")
    return (
        f"plan: model {backend_name}" + (f" on {device}" if device else "")
        + f", method tables ({reason}), {tables} ({size / 1e6:.1f} MB) read straight into a "
        "database (no chunks, no tokens counted)"
    )  # fmt: skip


def run_tables(
    session: TableSession,
    log: RunLog,
    plan: str,
    *,
    quiet: bool,
    as_json: bool,
    memory_out: Path | None,
) -> None:
    console = log.console
    if not quiet:
        console.print(plan, markup=False)
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
        raise typer.Exit(130) from None
    result = session.result
    if as_json:
        payload = {
            **result.to_dict(),
            "query": session.method.query,
            "queries": session.method.queries,  # the ranking's, in its order
            "rows": session.rows,
            "log_id": log.entry.id,
        }
        echo(json.dumps(payload, ensure_ascii=False, indent=2))
    else:
        echo(result.answer or "")
        if not quiet:
            _print_ranking(result, console)
            if session.method.query:
                console.print(f"query: {session.method.query}", markup=False)
            m = result.metrics
            scored = sum(1 for call in m.calls if call.kind == "score")
            console.print(
                f"done: {session.rows:,} records of {len(session.documents)} table(s) read, "
                f"{scored} scores by the model, {m.prompt_tokens} prompt tokens, "
                f"{m.wall_s:.1f} s" + (f"; logged as run {log.entry.id}" if log.entry.id else ""),
                markup=False,
            )
    write_memory(memory_out, result.memory.data)


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
