"""One input's PRISM run, from its chunks to the answer, in one place.

A :class:`Session` owns what a run needs around Algorithm 1: the chunk plan (chunks and their
token counts, the static prompt), the context check before any compute, the runner, the
checkpoint after every step and at the end, resuming, and the events. ``prism-edge run``,
``--parallel`` (one session per document) and ``bench`` all drive it; the command line only
parses arguments and renders events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from prism_edge.backends import Backend
from prism_edge.checkpoint import RunFolder, digest
from prism_edge.chunking import chunk_documents
from prism_edge.errors import ContextOverflow
from prism_edge.inputs import Document
from prism_edge.runner import Event, Finished, PrismConfig, PrismRunner, RunResult, StepDone
from prism_edge.schema import Schema


@dataclass(frozen=True)
class Plan:
    """The chunks a run reads, their sizes in tokens, and the static prompt's size."""

    chunks: tuple[str, ...]
    sizes: tuple[int, ...]
    static_tokens: int

    @property
    def total(self) -> int:
        return sum(self.sizes)


def counter(backend: Backend) -> Callable[[str], int]:
    """Tokens of a text with the backend's tokenizer."""
    return lambda text: len(backend.tokenize(text))


class Session:
    """A resumable PRISM run over given chunks; saved to ``folder`` when there is one."""

    def __init__(
        self,
        backend: Backend,
        schema: Schema,
        config: PrismConfig,
        chunks: Sequence[str],
        folder: RunFolder | None = None,
    ) -> None:
        self.backend = backend
        self.runner = PrismRunner(backend, schema, config)
        count = counter(backend)
        static = backend.count_tokens(self.runner.prompts.revise([], ""))
        self.plan = Plan(tuple(chunks), tuple(count(c) for c in chunks), static)
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
        settings_hash: str = "",
    ) -> Session:
        """A session over documents cut into chunks of ``chunk_tokens``, saved in ``run_dir``."""
        chunks = chunk_documents(documents, chunk_tokens, counter(backend))
        folder = None if run_dir is None else RunFolder(run_dir, settings_hash, digest(chunks))
        return cls(backend, schema, config, chunks, folder)

    @property
    def result(self) -> RunResult:
        return self.runner.result

    @property
    def answered(self) -> bool:
        return self.runner.result.answer is not None

    def check_context(self) -> None:
        """Fail before any compute when the smallest step cannot fit the context."""
        config = self.runner.config
        floor = min(max(self.plan.sizes, default=0), config.min_chunk_tokens)
        needed = self.plan.static_tokens + floor + config.max_tokens
        if needed > self.backend.n_ctx:
            raise ContextOverflow(
                needed,
                self.backend.n_ctx,
                f"the static prompt ({self.plan.static_tokens}), a chunk of {floor} and the "
                f"output budget ({config.max_tokens})",
            )

    def resume(self) -> None:
        """Continue the run saved in the folder after its last completed step."""
        if self.folder is None:
            raise ValueError("a session without a run folder cannot resume")
        self.folder.restore(self.runner, self.runner.schema, self.folder.load())
        self.resumed = True

    def start_afresh(self) -> Path | None:
        """Before a new run: the previous run's state is set aside (returned), never deleted."""
        return None if self.folder is None else self.folder.set_aside()

    def events(self) -> Iterator[Event]:
        """The run's events; the state is saved after every step and when it ends. A resumed
        run that had answered already yields only :class:`Finished`."""
        if self.answered:
            yield Finished(self.runner.result)
            return
        for event in self.runner.run(self.plan.chunks):
            if isinstance(event, StepDone) and self.folder is not None:
                self.folder.save(self.runner)
            yield event
        if self.folder is not None:
            self.folder.save(self.runner, finished=True)

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
