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
from prism_edge.app.render import PLAIN_EVERY_S, reading_progress, write_memory
from prism_edge.core.events import StepDone, TableAnswer
from prism_edge.engine.tables import TableSession
from prism_edge.methods.tables.answer import said


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
            for line in explain(result.table):
                console.print(line, markup=False)
            m = result.metrics
            scored = sum(1 for call in m.calls if call.kind == "score")
            console.print(
                f"done: {session.rows:,} records of {len(session.documents)} table(s) read, "
                f"{scored} scores by the model, {m.prompt_tokens} prompt tokens, "
                f"{m.wall_s:.1f} s" + (f"; logged as run {log.entry.id}" if log.entry.id else ""),
                markup=False,
            )
    write_memory(memory_out, result.memory.data)


def explain(table: TableAnswer | None) -> list[str]:
    """What the answer was computed by and how sure the ranker is, with the runner-up (its
    values and query) when it is not."""
    if table is None or table.best is None:
        return []
    best = table.best
    sure = "sure" if table.sure else "NOT SURE"
    lines = [f"computed: {best.said} ({sure}: probability {best.probability:.2f})",
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
