"""``prism-edge run --task code-search`` over files: the repository's index brought up to date
with a progress line (a plain one every few seconds in a log), then the question, or every
question of ``--queries FILE`` with the model loaded once.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

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
from prism_edge.core.events import FileIndexed, RunResult
from prism_edge.engine.search import IndexedSession
from prism_edge.text.inputs import Filters

MAX_QUERIES = 10_000


def read_queries(path: Path) -> list[str]:
    """The questions of a ``--queries`` file: one a line, blank lines and ``#`` lines skipped."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"--queries {path}: cannot read ({exc})") from None
    questions = [q.strip() for q in text.splitlines() if q.strip() and not q.startswith("#")]
    if not questions:
        raise ValueError(f"--queries {path}: no questions in it (one a line)")
    if len(questions) > MAX_QUERIES:
        raise ValueError(f"--queries {path}: {len(questions)} questions, at most {MAX_QUERIES}")
    return questions


def drive_reading(session: IndexedSession, console: Console, quiet: bool) -> None:
    """Read the inputs into the index, with a bar on a terminal and a plain line every
    :data:`PLAIN_EVERY_S` seconds elsewhere; then say what the reading found."""
    progress, plain = reading_progress(console, quiet)
    start = said = time.perf_counter()
    with progress:
        bar = progress.add_task("indexing", total=None)
        for event in session.read():
            if not isinstance(event, FileIndexed):
                continue
            progress.update(bar, total=event.total, completed=event.done,
                            description=f"file {event.done}/{event.total}")  # fmt: skip
            now = time.perf_counter()
            if plain and now - said >= PLAIN_EVERY_S:
                console.print(f"progress: file {event.done}/{event.total}, {event.path}",
                              markup=False)  # fmt: skip
                said = now
    change = session.index.change
    if change.not_kept:
        console.print(f"warning: {change.not_kept}", markup=False)
    if not quiet:
        console.print(
            f"index: {change.line()}, read in {time.perf_counter() - start:.1f} s",
            markup=False,
        )


def run_indexed(
    session: IndexedSession,
    log: RunLog,
    plan: str,
    *,
    quiet: bool,
    as_json: bool,
    memory_out: Path | None,
    queries: list[str] | None,
    filters: Filters,
    follow_links: bool = False,
) -> None:
    """An indexed code search from its plan line to its answer (or answers) and record."""
    console = log.console
    if not quiet:
        console.print(plan, markup=False)
    engine = session.runner.suit()
    if engine and not quiet:
        console.print(f"engine: {engine}", markup=False)
    log.entry.settings["index"] = index_settings(session, filters, follow_links)
    try:
        with log.recording(lambda: session.result) as done:
            start = time.perf_counter()
            drive_reading(session, console, quiet)
            result = session.ask(session.config.question)
            result.steps = session.result.steps
            result.metrics.wall_s = time.perf_counter() - start
            done(result)
    except KeyboardInterrupt:
        change = session.index.change
        console.print(
            f"interrupted after {change.unchanged + change.changed + change.new} of "
            f"{change.files} code files; the index keeps those read: the same command "
            "continues with the others",
            markup=False,
        )
        raise typer.Exit(130) from None
    _show(result, as_json, quiet, console, log.entry.id)
    if queries:
        for question in queries:
            _show(session.ask(question), as_json, quiet, console, None, question)
    write_memory(memory_out, result.memory.data)


def index_settings(
    session: IndexedSession, filters: Filters, follow_links: bool = False
) -> dict[str, Any]:
    """What ``ask`` needs to bring a run's index up to date again: its inputs (absolute), the
    folder filters, whether links were followed, the index's folder and key."""
    return {
        "inputs": session.inputs,
        "include": list(filters.include),
        "exclude": list(filters.exclude),
        "follow_links": follow_links,
        "folder": str(session.index.folder),
        "key": session.index.key,
    }


def _show(
    result: RunResult,
    as_json: bool,
    quiet: bool,
    console: Console,
    log_id: int | None,
    question: str | None = None,
) -> None:
    if as_json:
        payload: dict[str, Any] = result.to_dict()
        if question is not None:
            payload["question"] = question
        if log_id is not None:
            payload["log_id"] = log_id
        echo(json.dumps(payload, ensure_ascii=False, indent=None if question else 2))
        return
    echo(result.answer or "")
    if quiet:
        return
    _print_ranking(result, console)
    m = result.metrics
    scored = sum(1 for call in m.calls if call.kind == "score")
    console.print(
        ("done: " if question is None else "")
        + f"{scored} definitions scored by the model, {m.prompt_tokens} prompt tokens, "
        f"{m.wall_s:.1f} s" + (f"; logged as run {log_id}" if log_id is not None else ""),
        markup=False,
    )
