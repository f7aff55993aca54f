"""A code search over a repository: its index brought up to date, then any number of questions.

The session of a method whose chunks never enter a prompt (code search by definitions): the
inputs' files are read into their index (:mod:`prism_edge.engine.index`: parsed only where they
changed), BM25 over the index is built once, and each question costs BM25's shortlist and the
model's scores of it (:meth:`ScoredDefinitions.search`). The index is the run's checkpoint: a
reading cut short continues, on the next run over the same inputs, with the files it had not
parsed.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from prism_edge.backends import Backend
from prism_edge.core.config import PrismConfig
from prism_edge.core.events import Event, FileIndexed, RunResult
from prism_edge.core.schema import Schema
from prism_edge.engine.index import CodeIndex, cache_folder, index_key
from prism_edge.engine.runner import PrismRunner
from prism_edge.engine.whole import WholeSession
from prism_edge.methods.definitions import DefinitionSearch, ScoredDefinitions
from prism_edge.text.inputs import Document


class IndexedSession(WholeSession):
    """A code search by definitions over files: read into the index, then asked."""

    def __init__(
        self,
        backend: Backend,
        schema: Schema,
        config: PrismConfig,
        method: ScoredDefinitions,
        documents: Sequence[Document],
        inputs: Sequence[str],
        folder: Path | None = None,
    ) -> None:
        self.backend = backend
        self.schema = schema
        self.config = config
        self.method = method
        self.documents = list(documents)
        self.inputs = [str(Path(i).expanduser().resolve()) for i in inputs]
        """The inputs as absolute paths (what a later ``ask`` reads again)."""
        self.index = CodeIndex(folder or cache_folder(), index_key(inputs), self.inputs)
        self.runner = PrismRunner(backend, schema, config, method=method)
        self.search: DefinitionSearch | None = None
        self.read_s = 0.0
        """Seconds the reading took (the index brought up to date, BM25 built)."""

    def read(self) -> Iterator[FileIndexed]:
        """Bring the index up to date with the inputs (one event per code file) and build
        BM25 over it."""
        start = time.perf_counter()
        yield from self.index.update(self.documents)
        self.search = DefinitionSearch(self.index.located())
        self.read_s = time.perf_counter() - start
        self.result.steps = self.index.change.changed + self.index.change.new

    def steps(self) -> Iterator[Event]:
        """The reading's events, then the answer to the config's question."""
        yield from self.read()
        yield from self._answer(self.runner, self.method)

    def _answer(self, runner: PrismRunner, method: ScoredDefinitions) -> Iterator[Event]:
        if self.search is None:
            for _ in self.read():
                pass
        assert self.search is not None
        yield from method.search(runner, self.search)

    def ask(self, question: str) -> RunResult:
        """Another question to the same index, the model already loaded: BM25's shortlist and
        the model's scores of it (the reading is done once, by the first)."""
        config = self.config.model_copy(update={"question": question})
        method = ScoredDefinitions(config, self.method.options)
        runner = PrismRunner(self.backend, self.schema, config, method=method)
        runner.suit()
        start = time.perf_counter()
        for _ in self._answer(runner, method):
            pass
        runner.metrics.wall_s = time.perf_counter() - start
        return runner.result
