"""What the sessions that read their inputs whole share (a code search's index, a table
question's database): the events of reading and answering, timed, then :class:`Finished`."""

from __future__ import annotations

import abc
import time
from collections.abc import Iterator

from prism_edge.core.events import Event, Finished, RunResult
from prism_edge.engine.runner import PrismRunner


class WholeSession(abc.ABC):
    """A session whose reading is parsing, never token-counted chunks: :meth:`steps` reads
    and answers; :meth:`events` times it and ends with :class:`Finished`."""

    runner: PrismRunner

    @property
    def result(self) -> RunResult:
        return self.runner.result

    @abc.abstractmethod
    def steps(self) -> Iterator[Event]:
        """The reading's events, then the answer's."""

    def events(self) -> Iterator[Event]:
        """:meth:`steps` with the engine set up for a run that only prefills and scores, the
        wall time in the metrics, then :class:`Finished`."""
        self.runner.suit()
        start = time.perf_counter()
        try:
            yield from self.steps()
        finally:
            self.runner.metrics.wall_s = time.perf_counter() - start
        yield Finished(self.result)

    def run(self) -> RunResult:
        for _ in self.events():
            pass
        return self.result
