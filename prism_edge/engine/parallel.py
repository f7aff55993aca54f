"""Many documents, each its own PRISM run, N at once on one (thread-safe) backend.

Each document's chunks stay sequential (its memory is revised in order); documents run side
by side, so a server with several slots batches their calls and caches each one's prefix.
Every document has its own run folder under the run directory (``NNN-name``), saved after
every step, so ``--resume`` finishes what an interruption left: finished documents are
reported again from their state, the others continue after their last completed step.

Each document is handed on as it finishes, with its result or the error it failed with (the
others go on); the caller shows and records it.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prism_edge.backends import Backend
from prism_edge.core.config import PrismConfig
from prism_edge.core.errors import NoAnswer, PrismError
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
    done: Callable[[Document, RunResult | None, PrismError | ValueError | OSError | None], Any],
) -> int:
    """Run every document; as each finishes, ``done(document, result, error)``: its result, or
    None and what it failed with (a :class:`NoAnswer` when it holds none), one at a time.
    Returns how many failed (a document with no answer has not failed)."""
    lock = threading.Lock()
    failed = 0

    def one(index: int, document: Document) -> None:
        nonlocal failed
        result: RunResult | None = None
        error: PrismError | ValueError | OSError | None = None
        try:
            # each document keeps its own cache slot (index - 1 modulo the server's slots)
            with backend.pinned(index - 1 if backend.slots > 1 else None):
                result = _run_document(backend, schema, config, index, document, settings)
        except (PrismError, ValueError, OSError) as exc:
            error = exc
        with lock:
            failed += error is not None and not isinstance(error, NoAnswer)
            done(document, result, error)

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
