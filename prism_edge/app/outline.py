"""``prism-edge run --task summarize`` by outline: the text read whole, the plan line with
its kind, the summary, the run recorded."""

from __future__ import annotations

from pathlib import Path

from prism_edge.app.history import RunLog
from prism_edge.app.output import Output
from prism_edge.app.render import logged, model_work, payload_of, write_memory
from prism_edge.engine.reading import TextSession


def reading_of(session: TextSession) -> str:
    """What the plan line says a summary by outline reads: the kind of text and how it was
    decided, its size, its parts and the summary's length."""
    r = session.read
    documents = session.documents
    titled = [p for p in r.parts if p.title]
    parts = f"{len(titled)} parts by its headings" if len(titled) >= 2 else "equal spans"
    texts = f" of {len(documents)} texts" if len(documents) > 1 else ""
    return (
        f"a {r.kind} ({r.kind_reason}), {len(r.text):,} characters{texts} in {parts}, "
        f"{session.method.length}"
    )


def outline_settings() -> list[str]:
    """``--verbose``: the options a summary by outline takes."""
    return ["--kind sets the kind of text, --length the summary's length"]


def run_outlined(
    session: TextSession,
    log: RunLog,
    plan: list[str],
    *,
    quiet: bool,
    output: Output,
    memory_out: Path | None,
) -> bool:
    """A summary by outline from its plan line to its answer and record; whether it found
    one."""
    console = log.console
    if not quiet:
        for line in plan:
            console.print(line, markup=False)
    with log.recording(lambda: session.result) as done:
        for _ in session.events():
            pass
        done(session.result)
    result = session.result
    payload = payload_of(
        result, session.runner.config.question, kind=session.read.kind, log_id=log.entry.id
    )
    output.one(payload, result.answer or None)
    if output.text and not quiet:
        console.print(
            f"done: {len(session.read.text):,} characters read whole; "
            f"{model_work(result.metrics)}{logged(log.entry.id)}",
            markup=False,
        )
    write_memory(memory_out, result.memory.data)
    return result.found
