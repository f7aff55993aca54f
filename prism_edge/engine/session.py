"""One input's PRISM run, from its chunks to the answer, in one place.

A :class:`Session` owns what a run needs around Algorithm 1, whatever its method: the chunk
plan (chunks and their token counts, what the prompt takes beside a chunk), the context check
before any compute, the runner, the checkpoint after every step and at the end, resuming, and
the events. ``prism-edge run``, ``--parallel`` (one session per document), ``bench`` and the
library all drive it; the command line only parses arguments and renders events.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from prism_edge.backends import Backend
from prism_edge.core.config import PrismConfig
from prism_edge.core.events import Event, Finished, RunResult, StepDone
from prism_edge.core.schema import Schema, prompt_text
from prism_edge.engine.checkpoint import RunFolder, digest
from prism_edge.engine.runner import PrismRunner
from prism_edge.methods.base import Method
from prism_edge.methods.written import WrittenRevisions
from prism_edge.text.chunking import ChunkSource, chunk_documents
from prism_edge.text.inputs import Document


@dataclass(frozen=True)
class Plan:
    """The chunks a run reads, their sizes in tokens, and what the prompt and the output
    budget take beside a chunk (at the start of the run). ``chunks`` is iterable more than
    once: a list, or a :class:`ChunkSource` that cuts a streamed table from its file again
    each time, so a run holds one chunk of it at a time."""

    chunks: Iterable[str]
    sizes: tuple[int, ...]
    fixed_tokens: int

    @property
    def count(self) -> int:
        return len(self.sizes)

    @property
    def total(self) -> int:
        return sum(self.sizes)


def counter(backend: Backend) -> Callable[[str], int]:
    """Tokens of a text with the backend's tokenizer."""
    return lambda text: len(backend.tokenize(text))


def settings_digest(
    backend: Backend, schema: Schema, config: PrismConfig, method: Method, chunk_tokens: int
) -> str:
    """What decides a run's memory: the config, the schema, the model and its context, the
    chunk size, the method and its settings (a checkpoint resumes only under the same)."""
    return digest(
        [
            config.model_dump_json(),
            prompt_text(schema),
            backend.name,
            str(backend.n_ctx),
            str(chunk_tokens),
            method.name,
            json.dumps(method.settings(), sort_keys=True),
        ]
    )


class Session:
    """A resumable PRISM run over given chunks with one method; saved to ``folder`` when
    there is one."""

    def __init__(
        self,
        backend: Backend,
        schema: Schema,
        config: PrismConfig,
        chunks: Iterable[str],
        folder: RunFolder | None = None,
        method: Method | None = None,
        sizes: Sequence[int] | None = None,
    ) -> None:
        self.backend = backend
        self.runner = PrismRunner(backend, schema, config, method=method)
        if iter(chunks) is chunks:  # a one-shot iterator: held, since a run reads it twice
            chunks = list(chunks)
        if sizes is None:
            count = counter(backend)
            sizes = [count(c) for c in chunks]
        fixed = backend.n_ctx - self.runner.room_for_chunk()
        self.plan = Plan(chunks, tuple(sizes), fixed)
        self.folder = folder
        self.resumed = False

    @classmethod
    def of_documents(
        cls,
        backend: Backend,
        schema: Schema,
        config: PrismConfig,
        documents: Sequence[Document],
        chunk_tokens: int,
        run_dir: Path | None = None,
        method: Method | None = None,
        label: str = "",
    ) -> Session:
        """A session over documents cut into chunks of ``chunk_tokens``, saved in ``run_dir``
        (the checkpoint is tied to the settings and the chunks; ``label`` says what the run is
        to a reader of the folder)."""
        method = method or WrittenRevisions(schema, config)
        count = counter(backend)
        chunks: Iterable[str]
        if any(d.source is not None for d in documents):
            chunks = ChunkSource(documents, chunk_tokens, count)  # cut again when read
        else:
            chunks = chunk_documents(documents, chunk_tokens, count)
        sizes: list[int] = []

        def measured() -> Iterator[str]:  # one pass: every chunk's size and the digest
            for chunk in chunks:
                sizes.append(count(chunk))
                yield chunk

        chunks_digest = digest(measured())
        folder = None
        if run_dir is not None:
            settings = settings_digest(backend, schema, config, method, chunk_tokens)
            folder = RunFolder(run_dir, settings, chunks_digest, label)
        return cls(backend, schema, config, chunks, folder, method, sizes)

    @property
    def method(self) -> Method:
        return self.runner.method

    @property
    def result(self) -> RunResult:
        return self.runner.result

    @property
    def answered(self) -> bool:
        return self.runner.result.answer is not None

    def floor(self) -> int:
        """The smallest chunk a step may read: ``min_chunk_tokens``, or the largest chunk
        when every chunk is smaller."""
        return min(max(self.plan.sizes, default=0), self.runner.config.min_chunk_tokens)

    def check_context(self) -> None:
        """Fail before any compute when the smallest step or the answer cannot fit the
        context (with the memory so far, when resuming)."""
        self.runner.preflight(self.floor())

    def resume(self) -> None:
        """Continue the run saved in the folder after its last completed step (held by this
        process from here: another process resuming it too is refused)."""
        if self.folder is None:
            raise ValueError("a session without a run folder cannot resume")
        self.folder.lock()
        try:
            self.folder.restore(self.runner, self.runner.schema, self.folder.load())
        except BaseException:
            self.folder.unlock()
            raise
        self.resumed = True

    def suit(self) -> str | None:
        """Set the engine up for the method before the first step (the run does it anyway;
        a caller that shows it calls it first): the setting chosen and why, or None."""
        return self.runner.suit()

    def start_afresh(self) -> str | None:
        """Before a new run (not ``--resume``): a note when it starts over a run of the same
        command that did not finish (its state is replaced at this run's first step), else
        None. A finished one is replaced without a word: its answer was given. The run is this
        process's from here (another process running the same command is refused now, not at
        its first save)."""
        if self.folder is not None:
            self.folder.lock()
        previous = None if self.folder is None else self.folder.previous()
        if previous is None or previous.finished:
            return None
        return (
            f"this run starts over: the same command stopped after step "
            f"{previous.counts.steps} ({self.folder.state_file if self.folder else ''}), and "
            "its state is replaced at this run's first step (Ctrl-C now, then --resume, "
            "continues it)"
        )

    def events(self) -> Iterator[Event]:
        """The run's events; the state is saved after every step and when it ends. A resumed
        run that had answered already yields only :class:`Finished`."""
        if self.answered:
            yield Finished(self.runner.result)
            return
        try:
            for event in self.runner.run(self.plan.chunks, floor=self.floor()):
                if isinstance(event, StepDone) and self.folder is not None:
                    self.folder.save(self.runner)
                yield event
            if self.folder is not None:
                self.folder.save(self.runner, finished=True)
        finally:  # the run is this process's no longer, however it ends
            if self.folder is not None:
                self.folder.unlock()

    def run(self) -> RunResult:
        """Run to the end (events discarded) and return the result."""
        for _ in self.events():
            pass
        return self.runner.result

    def tokens_read(self) -> int:
        """Input tokens read so far (chunks taken, less the part of a cut chunk still to read)."""
        position = self.runner.position
        pending = sum(len(self.backend.tokenize(p)) for p in position.pending)
        return sum(self.plan.sizes[: position.consumed]) - pending
