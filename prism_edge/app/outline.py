"""``prism-edge run --task summarize`` by outline: the text read whole, the plan line with
its kind, the summary, the run recorded."""

from __future__ import annotations

import json
from pathlib import Path

from prism_edge.app.common import echo
from prism_edge.app.history import RunLog
from prism_edge.app.render import write_memory
from prism_edge.engine.reading import TextSession


def plan_of(session: TextSession, backend_name: str, device: str | None, reason: str) -> str:
    """The plan line: the model, the method and why, the kind of text and how it was
    decided, its parts, its size and the summary's length."""
    r = session.read
    documents = session.documents
    size = len(r.text)
    titled = [p for p in r.parts if p.title]
    parts = f"{len(titled)} parts by its headings" if len(titled) >= 2 else "equal spans"
    texts = f"{len(documents)} text" + ("" if len(documents) == 1 else "s")
    return (
        f"plan: model {backend_name}" + (f" on {device}" if device else "")
        + f", method {session.method.name} ({reason}), kind {r.kind} ({r.kind_reason}; "
        f"--kind sets it), {texts} ({size:,} characters) read whole, {parts}, length "
        f"{session.method.length} (--length sets it)"
    )  # fmt: skip


def run_outlined(
    session: TextSession,
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
    with log.recording(lambda: session.result) as done:
        for _ in session.events():
            pass
        done(session.result)
    result = session.result
    if as_json:
        payload = {
            **result.to_dict(),
            "kind": session.read.kind,
            "log_id": log.entry.id,
        }
        echo(json.dumps(payload, ensure_ascii=False, indent=2))
    else:
        echo(result.answer or "")
        if not quiet:
            m = result.metrics
            scored = sum(1 for call in m.calls if call.kind == "score")
            console.print(
                f"done: {len(session.read.text):,} characters read whole, {scored} scores by "
                f"the model, {m.wall_s:.2f} s"
                + (f"; logged as run {log.entry.id}" if log.entry.id else ""),
                markup=False,
            )
    write_memory(memory_out, result.memory.data)
