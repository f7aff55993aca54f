"""A summary by outline read at the parser's speed: each text document read whole, its
outline composed by the method, never cut into token-counted chunks (the method puts no
chunk in a prompt: :mod:`prism_edge.methods.outline`). Nothing is checkpointed: the reading
takes well under a second for a book, so an interrupted run reads again from the start."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from prism_edge.backends import Backend
from prism_edge.core.config import PrismConfig
from prism_edge.core.events import Event
from prism_edge.core.schema import Schema
from prism_edge.engine.runner import PrismRunner
from prism_edge.engine.whole import WholeSession
from prism_edge.methods.outline.compose import Read
from prism_edge.methods.outline.method import Outlined
from prism_edge.text.inputs import Document


def whole_text(documents: Sequence[Document]) -> str:
    """The documents' text as one: a document after the first is headed by its name when
    there are several (each a part of the whole)."""
    if len(documents) == 1:
        return documents[0].text
    return "\n\n".join(f"{d.name}\n\n{d.text}" for d in documents)


class TextSession(WholeSession):
    """A summary by outline over documents: their text read whole, then the outline."""

    def __init__(
        self,
        backend: Backend,
        schema: Schema,
        config: PrismConfig,
        method: Outlined,
        documents: Sequence[Document],
    ) -> None:
        self.backend = backend
        self.method = method
        self.documents = list(documents)
        self.runner = PrismRunner(backend, schema, config, method=method)
        self.read: Read = method.take(whole_text(self.documents))
        """The text read: its kind, front matter, parts (known before the outline is
        composed, so the plan line can say them)."""

    def steps(self) -> Iterator[Event]:
        step = self.method.compose(self.runner)
        self.result.count(step)
        yield step
        yield from self.runner.answer()
