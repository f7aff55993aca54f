"""The summary by outline as a method of a run: the text read whole (never a chunk in a
prompt: :mod:`prism_edge.engine.reading`), composed by the program, kept in the memory (each
person or term with its clause, each part with its sentences) so a later question is
answered from it.

With ``choose="model"`` the model decides one thing the program decides otherwise: which of
a part's three best sentences carries it (the sentence most likely after the part's opening,
over its likelihood with no passage). Measured against the program's choice on held-out
texts (benchmarks/summaries/model_choice.py); ``auto`` leaves it out where it did not win.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from prism_edge.backends import Backend
from prism_edge.core.config import PrismConfig
from prism_edge.core.errors import NoAnswer
from prism_edge.core.events import Answered, Event, StepDone
from prism_edge.core.revisions import Revision
from prism_edge.core.schema import Schema, format_path
from prism_edge.methods.base import Capability, Context, Method, MethodError, best_by_gain
from prism_edge.methods.names import answer_question
from prism_edge.methods.outline.compose import Read, outline, read
from prism_edge.methods.outline.length import Length, parse_length
from prism_edge.prompts import Part as PromptPart
from prism_edge.prompts import Prompt
from prism_edge.text.kinds import KINDS, Kind
from prism_edge.text.passages import Sentence
from prism_edge.text.structure import Part

FIELD = "attributes"
Chooser = Literal["program", "model"]
OPENING_CHARS = 800
"""Characters of a part's opening the model reads before the candidates."""


class NothingToSummarize(NoAnswer):
    hint = "a summary quotes the text's sentences: give it prose, verse or a play"


class OutlineState(BaseModel):
    """What a summary by outline keeps beside the memory while chunks are read (``bench``'s
    chunked path): the text read so far."""

    model_config = ConfigDict(extra="forbid")
    text: list[str] = []


class Outlined(Method):
    """The text read whole: what it is, who or what it is about, its parts in order."""

    name: ClassVar[str] = "outline"
    task_field: ClassVar[str | None] = FIELD
    task_name: ClassVar[str] = "summarize"
    needs: ClassVar[frozenset[Capability]] = frozenset()
    state_model: ClassVar[type[BaseModel]] = OutlineState
    option_names: ClassVar[tuple[str, ...]] = ("kind", "length", "choose")

    def __init__(
        self,
        config: PrismConfig,
        kind: str | None = None,
        length: str | int | float | Length | None = None,
        choose: Chooser = "model",
    ) -> None:
        if kind is not None and kind not in KINDS:
            raise MethodError(f"--kind {kind!r}: choose from {', '.join(KINDS)}")
        if choose not in ("program", "model"):
            raise MethodError(f"choose={choose!r}: program or model")
        self.config = config
        self.kind: Kind | None = next((k for k in KINDS if k == kind), None)
        self.length = parse_length(length)
        self.choose = choose
        self.read: Read | None = None
        self.chunks: list[str] = []
        self.answer_text: str | None = None

    def check(self, backend: Backend, schema: Schema) -> None:
        self.check_schema(schema)
        if self.choose == "model" and not backend.can_score:
            raise MethodError(
                f"the model's choice of sentences needs a backend that scores ({backend.name} "
                "cannot); the program's choice needs none"
            )

    def settings(self) -> dict[str, Any]:
        return {"kind": self.kind, "length": str(self.length), "choose": self.choose}

    def state(self) -> dict[str, Any]:
        return {"text": list(self.chunks)}

    def restore(self, state: dict[str, Any]) -> None:
        self.chunks = [str(t) for t in state.get("text", [])]

    def room(self, run: Context) -> int:
        """A chunked run's chunks never enter a prompt: any size the context holds."""
        return run.backend.n_ctx

    def take(self, text: str) -> Read:
        """``text`` read whole (its kind decided, unless ``kind`` set it)."""
        self.read = read(text, self.kind)
        return self.read

    def compose(self, run: Context, index: int = 0) -> StepDone:
        """The outline of the text taken, kept in the memory and as the answer."""
        if self.read is None:
            self.take("\n\n".join(self.chunks))
        assert self.read is not None
        chooser = self._chooser(run) if self.choose == "model" else None
        o = outline(self.read, self.length, choose=chooser)
        if not o.people and not o.parts:
            raise NothingToSummarize(
                "nothing to summarize: the text has no sentence a summary could quote"
            )
        revisions = [_revision(d.name, [d.clause]) for d in o.people]
        revisions += [
            _revision(label or f"part {k + 1}", said) for k, (label, said) in enumerate(o.parts)
        ]
        report = run.memory.revise(revisions)
        self.answer_text = o.render()
        return StepDone(
            index, 0, list(report.applied), list(report.rejected), (), run.memory_tokens()
        )

    def step(self, run: Context, index: int, chunk: str, chunk_tokens: int) -> StepDone:
        """A chunk of the text (a chunked run, ``bench``): kept until the answer reads them
        all."""
        self.chunks.append(chunk)
        self.read = None
        return StepDone(index, chunk_tokens, [], [], (), run.memory_tokens(), chunk=chunk)

    def answer(self, run: Context) -> Iterator[Event]:
        if self.answer_text is None:
            self.compose(run, len(self.chunks))
        answer = self.answer_text or ""
        run.result.answer = answer
        yield Answered(answer, None)

    def ask(self, run: Context) -> Iterator[Event]:
        entries = run.memory.data.get(FIELD) or {}
        budget = self.config.answer_max_tokens
        answer = answer_question(run.backend, entries, self.config.question, budget, run.metrics)
        run.result.answer = answer
        yield Answered(answer, None)

    def _chooser(self, run: Context) -> Any:
        """The model's choice of a part's sentence: of the candidates, the one whose
        likelihood after the part's opening gains most over its likelihood alone."""
        r = self.read
        assert r is not None

        def choose(part: Part, candidates: Sequence[Sentence]) -> Sentence:
            opening = r.text[part.start : part.start + OPENING_CHARS]
            given = Prompt(
                (
                    PromptPart("Passage:\n"),
                    PromptPart(opening, "document"),
                    PromptPart(_ASK),
                )
            )
            alone = Prompt((PromptPart("Passage:\n"), PromptPart("", "document"), PromptPart(_ASK)))
            texts = [f" {s.text}" for s in candidates]
            return candidates[best_by_gain(run.backend, given, alone, texts, run.metrics)]

        return choose


_ASK = "\n\nThe sentence of this part that says most of what happens in it or what it is about:"


def _revision(key: str, value: list[str]) -> Revision:
    segments = (FIELD, key)
    return Revision(format_path(segments), segments, "add", value)
