"""Many documents, each its own PRISM run, N at once on one (thread-safe) backend.

Each document's chunks stay sequential (its memory is revised in order); documents run side
by side, so a server with several slots batches their calls and caches each one's prefix.
Every document has its own run folder under the run directory (``NNN-name``), saved after
every step, so ``--resume`` finishes what an interruption left: finished documents are
reported again from their state, the others continue after their last completed step.

One JSON line per document goes out as each finishes: ``{"document", "answer", "memory",
"metrics", "revisions", "steps"}``, or ``{"document", "error"}`` when it failed (the others
go on).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prism_edge.backends import Backend
from prism_edge.core.config import PrismConfig
from prism_edge.core.errors import PrismError
from prism_edge.core.events import RunResult
from prism_edge.core.schema import Schema
from prism_edge.engine.session import Session
from prism_edge.methods.base import Method
from prism_edge.text.inputs import Document


@dataclass(frozen=True)
class EachSettings:
    chunk_tokens: int
    parallel: int
    run_dir: Path
    resume: bool = False
    method: Callable[[], Method] | None = None
    """Makes each document's method (each run keeps its own state); None: the paper's."""


def folder_name(index: int, name: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", Path(name).name).strip("-.") or "input"
    return f"{index:03d}-{slug[:60]}"


def run_each(
    backend: Backend,
    schema: Schema,
    config: PrismConfig,
    documents: Sequence[Document],
    settings: EachSettings,
    *,
    emit: Callable[[str], Any],
    note: Callable[[str], Any] | None = None,
    record: Callable[[Document, RunResult | None, str | None], Any] | None = None,
) -> int:
    """Run every document; emit a JSON line as each finishes (and ``record`` it: the document,
    its result or None, the error or None). Returns how many failed."""
    lock = threading.Lock()
    failed = 0

    def one(index: int, document: Document) -> None:
        nonlocal failed
        result: RunResult | None = None
        try:
            # each document keeps its own cache slot (index - 1 modulo the server's slots)
            with backend.pinned(index - 1 if backend.slots > 1 else None):
                result = _run_document(backend, schema, config, index, document, settings)
            line = {"document": document.name, **result.to_dict()}
        except (PrismError, ValueError, OSError) as exc:
            line = {"document": document.name, "error": str(exc)}
        if record is not None:
            record(document, result, line.get("error"))
        with lock:
            if "error" in line:
                failed += 1
            emit(json.dumps(line, ensure_ascii=False))
            if note is not None:
                status = line.get("error") or f"{line['steps']} steps"
                note(f"{document.name}: {status}")

    with ThreadPoolExecutor(max_workers=settings.parallel) as pool:
        for future in [pool.submit(one, i, d) for i, d in enumerate(documents, start=1)]:
            future.result()
    return failed


def _run_document(
    backend: Backend,
    schema: Schema,
    config: PrismConfig,
    index: int,
    document: Document,
    settings: EachSettings,
) -> RunResult:
    session = Session.of_documents(
        backend,
        schema,
        config,
        [document],
        settings.chunk_tokens,
        settings.run_dir / folder_name(index, document.name),
        None if settings.method is None else settings.method(),
    )
    assert session.folder is not None
    if settings.resume and session.folder.state_file.is_file():
        session.resume()
    else:
        session.start_afresh()
    return session.run()
