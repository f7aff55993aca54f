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
from prism_edge.checkpoint import RunFolder, digest
from prism_edge.chunking import chunk_document
from prism_edge.errors import PrismError
from prism_edge.inputs import Document
from prism_edge.runner import PrismConfig, PrismRunner, StepDone
from prism_edge.schema import Schema


@dataclass(frozen=True)
class EachSettings:
    chunk_tokens: int
    parallel: int
    run_dir: Path
    settings_hash: str
    resume: bool = False


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
) -> int:
    """Run every document; emit a JSON line as each finishes. Returns how many failed."""
    lock = threading.Lock()
    failed = 0

    def count(text: str) -> int:
        return len(backend.tokenize(text))

    def one(index: int, document: Document) -> None:
        nonlocal failed
        try:
            line = _run_document(backend, schema, config, index, document, settings, count)
        except (PrismError, ValueError, OSError) as exc:
            line = {"document": document.name, "error": str(exc)}
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
    count: Callable[[str], int],
) -> dict[str, Any]:
    chunks = list(
        chunk_document(document.name, document.text, document.kind, settings.chunk_tokens, count)
    )
    runner = PrismRunner(backend, schema, config)
    folder = RunFolder(
        settings.run_dir / folder_name(index, document.name), settings.settings_hash, digest(chunks)
    )
    if settings.resume and folder.state_file.is_file():
        folder.restore(runner, schema, folder.load())
    else:
        folder.set_aside()
    if runner.result.answer is None:
        for event in runner.run(chunks):
            if isinstance(event, StepDone):
                folder.save(runner)
        folder.save(runner, finished=True)
    return {"document": document.name, **runner.result.to_dict()}
