"""How a run is shown: the progress line with rates and ETA, the answer, where a scored answer came
from, the closing line.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from rich.console import Console

from prism_edge import methods
from prism_edge.app.output import Output
from prism_edge.core.events import (
    Answered,
    ChunkCut,
    Event,
    MemoryFolded,
    RunResult,
    StepDone,
)
from prism_edge.core.memory import dumps
from prism_edge.core.metrics import RunMetrics
from prism_edge.engine.session import Session


def payload_of(result: RunResult, question: str, **extra: Any) -> dict[str, Any]:
    """A result as ``--json`` and ``--jsonl`` print it: the question first, then the result,
    then what the command adds (its log id, chunks, rows...)."""
    return {"question": question, **result.to_dict(), **extra}


def _print_result(
    session: Session, output: Output, quiet: bool, console: Console, log_id: int | None = None
) -> None:
    result = session.result
    extra: dict[str, Any] = {"chunks": session.plan.count}
    if log_id is not None:
        extra["log_id"] = log_id
    output.one(payload_of(result, session.runner.config.question, **extra), result.answer or None)
    if not output.text:
        return
    say_no_answer(result, console)
    if quiet:
        return
    _print_ranking(result, console)
    _print_done(result, console, log_id)


def say_no_answer(result: RunResult, console: Console) -> None:
    """On stderr, why a run found no answer when its answer (printed or not) does not say."""
    if not result.found and not result.answer:
        console.print(f"no answer: {result.no_answer or 'the run found none'}", markup=False)


def _print_ranking(result: RunResult, console: Console) -> None:
    """Where a scored answer came from, and the runners-up (code search: the stored
    definitions; table questions: the computed facts)."""
    if not result.ranking:
        return
    name, best = result.ranking[0]
    meaning = result.score_meaning or methods.METHODS[result.method].score_meaning
    following = "; ".join(f"{n} {v:.2f}" for n, v in result.ranking[1:4])
    console.print(
        f"from: {name}, score {best:.2f} ({meaning})"
        + (f"; next: {following}" if following else ""),
        markup=False,
    )


def model_work(metrics: RunMetrics) -> str:
    """What the model did, for a closing line: its tokens, cache hit, cost and time; or, when
    the run made no model call, that and the time alone (never a line of zeros)."""
    m = metrics
    if not m.calls:
        return f"no model call, {m.wall_s:.1f} s"
    reused = (
        f"{m.reused_tokens:,} reused ({m.cache_hit:.0%} cache hit), "
        if m.reuse_known
        else "reused unknown (not reported by the server), "
    )
    return (
        f"{m.prompt_tokens:,} prompt tokens, {reused}{m.net_tokens:,} net, "
        f"{m.decoded_tokens:,} decoded, cost index {m.cost_index:.4f}, {m.wall_s:.1f} s"
    )


def logged(log_id: int | None) -> str:
    return f"; logged as run {log_id}" if log_id is not None else ""


def _print_done(
    result: RunResult, console: Console, log_id: int | None, memory_of: int | None = None
) -> None:
    """The closing line: what the run did (or, for ``ask``, whose memory answered) and what
    the model did."""
    if memory_of is not None:
        did = f"answered from run {memory_of}'s memory"
    else:
        did = f"{result.steps:,} steps, {result.applied:,} revisions applied"
        rejected = "rejected" + (f" ({result.reasked} re-asked)" if result.reasked else "")
        for count, what in (
            (result.rejected, rejected),
            (result.duplicates, "repeats dropped"),
            (result.cut, "cut lines dropped"),
        ):
            if count:
                did += f", {count:,} {what}"
    console.print(f"done: {did}; {model_work(result.metrics)}{logged(log_id)}", markup=False)


if TYPE_CHECKING:
    from rich.progress import Progress, TaskID


class Still:
    """The progress of a reading that shows none (quiet, or no terminal): rich's progress
    display is not even imported."""

    def __enter__(self) -> Still:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def add_task(self, description: str, **fields: Any) -> TaskID:
        return cast("TaskID", 0)

    def update(self, task: TaskID, **fields: Any) -> None:
        return None


def _drive(session: Session, console: Console, quiet: bool) -> None:
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    plan = session.plan
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[stats]}"),
        TimeElapsedColumn(),
        console=console,
        disable=quiet,
        transient=False,
        refresh_per_second=2,  # its figures change once a step, the clock once a second
    )
    start = time.perf_counter()
    first = session.tokens_read()  # a resumed run has read some already
    plain = not quiet and not console.is_terminal  # a log file, a script, CI, nohup
    said = start
    with progress:
        bar = progress.add_task(f"chunk 0/{plan.count}", total=plan.total or 1, stats="")
        for event in session.events():
            _render(event, progress, bar, console, quiet)
            if isinstance(event, StepDone):
                read, now = session.tokens_read(), time.perf_counter()
                elapsed = now - start
                where = f"chunk {session.runner.position.consumed}/{plan.count}"
                stats = progress_stats(
                    session.runner.metrics,
                    event.memory_tokens,
                    eta(elapsed, read - first, plan.total - read),
                    (read - first) / elapsed if elapsed > 0 else None,
                )
                progress.update(bar, completed=read, description=where, stats=stats)
                if plain and now - said >= PLAIN_EVERY_S:
                    share = read / plan.total if plan.total else 1.0
                    console.print(f"progress: {where} ({share:.0%}), {stats}", markup=False)
                    said = now


def reading_progress(console: Console, quiet: bool) -> tuple[Progress | Still, bool]:
    """The progress of a reading that puts nothing in a prompt (a repository's index, a
    table's records): a transient bar on a terminal; where stderr is none, no bar and
    ``plain`` true (the caller prints a line every :data:`PLAIN_EVERY_S` seconds)."""
    plain = not quiet and not console.is_terminal
    if quiet or plain:
        return Still(), plain
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )
    return progress, plain


PLAIN_EVERY_S = 10.0
"""Where stderr is no terminal (the bar cannot redraw), a plain progress line this often."""


def eta(elapsed_s: float, read_now: int, left: int) -> float | None:
    """Seconds left: the input still to read at the rate this run has read it (prefill,
    decoding and memory growth included), or None before the first step."""
    if read_now <= 0 or elapsed_s <= 0:
        return None
    return left * elapsed_s / read_now


def progress_stats(
    metrics: RunMetrics,
    memory_tokens: int,
    seconds_left: float | None,
    input_rate: float | None = None,
) -> str:
    """The progress line's figures: input read per second (this run), prefill and decode
    rates, cache hit, memory size, time left."""
    prefill, decode = metrics.rates()
    parts = [] if input_rate is None else [f"input {input_rate:.0f} tok/s"]
    if prefill is not None:
        parts.append(f"prefill {prefill:.0f} tok/s")
    if decode is not None:
        parts.append(f"decode {decode:.0f} tok/s")
    if metrics.reuse_known:
        parts.append(f"cache {metrics.cache_hit:.0%}")
    parts.append(f"memory {memory_tokens} tok")
    if seconds_left is not None:
        minutes, seconds = divmod(round(seconds_left), 60)
        parts.append(f"ETA {minutes}:{seconds:02d}")
    return ", ".join(parts)


def _render(event: Event, progress: Progress, bar: Any, console: Console, quiet: bool) -> None:
    if quiet:
        return
    if isinstance(event, ChunkCut):
        console.print(
            f"note: chunk of {event.chunk_tokens} tokens cut to the "
            f"{event.room_tokens} left beside the memory",
            markup=False,
        )
    elif isinstance(event, MemoryFolded):
        console.print(
            f"note: amendments folded into the memory ({event.tokens_before} -> "
            f"{event.tokens_after} tokens)",
            markup=False,
        )
    elif isinstance(event, Answered):
        progress.update(bar, description="answered")


def write_memory(path: Path | None, data: dict[str, Any]) -> None:
    """``--memory-out``: the final memory as JSON, when a path is given."""
    if path is not None:
        path.write_text(dumps(data) + "\n", encoding="utf-8")


def write_json(path: Path | None, value: Any) -> None:
    """``--memory-out`` of several answers (``--queries``): each question with its memory,
    one JSON array."""
    if path is not None:
        path.write_text(json.dumps(value, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
