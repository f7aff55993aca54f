"""Prompt templates (package data) rendered strictly into cache-friendly prompts.

A revision prompt is laid out (T, q, S, m_i, d_i): the task instructions, the query and the
schema first (static for the whole run), then the memory, then the chunk, so consecutive calls
share the longest possible prefix. The final-answer prompt keeps that same prefix
(T, q, S, m_{n+1}) and puts the answering instruction T_final *after* the memory -- a deliberate
change from the paper's (T_final, q, S, m) so that the final call reuses the cached prefix.

Templates are Jinja2 with ``StrictUndefined``: a missing variable is an error, never an empty
string. Styles: ``compact`` (short instructions, room for the chunk on small models) and
``paper`` (appendix E verbatim, with its four few-shot examples, about 4k tokens).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from typing import TYPE_CHECKING, Literal

from prism_edge.core.config import Style
from prism_edge.core.errors import TemplateError

STYLES: tuple[Style, ...] = ("compact", "paper")
PartKind = Literal["static", "memory", "document", "feedback"]

_MEMORY = "\x00PRISM-MEMORY\x00"
_TEXT = "\x00PRISM-TEXT\x00"
_LABELS = {"compact": "[MEMORY]", "paper": "[PARTIAL_SUMMARY]"}

if TYPE_CHECKING:
    import jinja2


@cache
def _env() -> jinja2.Environment:
    """The templates' environment, made when a prompt is first rendered (Jinja2 is imported
    then: a question no template serves, a table's, never imports it)."""
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("prism_edge", "prompts"),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
    )


def render(name: str, **variables: object) -> str:
    """Render a template strictly; a missing variable raises :class:`TemplateError`."""
    import jinja2

    try:
        return _env().get_template(name).render(**variables)
    except jinja2.UndefinedError as exc:
        raise TemplateError(f"template {name}: {exc.message}") from None
    except jinja2.TemplateNotFound:
        raise TemplateError(f"no prompt template {name!r}") from None


@dataclass(frozen=True)
class Part:
    """A piece of a prompt; backends tokenize parts one by one (never merging across them)."""

    text: str
    kind: PartKind = "static"


@dataclass(frozen=True)
class Prompt:
    parts: tuple[Part, ...]

    @property
    def text(self) -> str:
        return "".join(p.text for p in self.parts)

    def of_kind(self, kind: PartKind) -> str:
        return "".join(p.text for p in self.parts if p.kind == kind)


@dataclass(frozen=True)
class PromptBuilder:
    """Builds the revision and final prompts of one run."""

    question: str
    schema_text: str
    style: Style = "compact"
    answer_instruction: str = ""
    example: str = ""
    """A short worked example for the compact style (the paper style has its own four)."""

    @cached_property
    def _revise_pieces(self) -> tuple[str, str, str]:
        if self.style not in STYLES:
            raise TemplateError(f"unknown prompt style {self.style!r}; use compact or paper")
        text = render(
            f"revise_{self.style}.j2",
            question=self.question,
            schema=self.schema_text,
            memory=_MEMORY,
            text=_TEXT,
            example=self.example,
        )
        if (
            text.count(_MEMORY) != 1
            or text.count(_TEXT) != 1
            or text.index(_MEMORY) > text.index(_TEXT)
        ):
            raise TemplateError(
                f"template revise_{self.style}.j2 must show the memory once, before the text"
            )
        head, rest = text.split(_MEMORY)
        middle, tail = rest.split(_TEXT)
        return head, middle, tail

    @property
    def static_prefix(self) -> str:
        """The part of every prompt before the memory (T, q, S)."""
        return self._revise_pieces[0]

    def revise(self, memory_parts: list[str], chunk: str) -> Prompt:
        head, middle, tail = self._revise_pieces
        parts = [
            Part(head),
            *(Part(m, "memory") for m in memory_parts),
            Part(middle),
            Part(chunk, "document"),
        ]
        if tail:
            parts.append(Part(tail))
        return Prompt(tuple(parts))

    def final(self, memory_parts: list[str]) -> Prompt:
        head, middle, _ = self._revise_pieces
        tail = render(
            "final.j2",
            memory_label=_LABELS[self.style],
            question=self.question,
            answer_instruction=self.answer_instruction,
        )
        sep = middle.split("[")[0]  # the blank line(s) between the memory and the next header
        return Prompt((Part(head), *(Part(m, "memory") for m in memory_parts), Part(sep + tail)))


def reask_prompt(prompt: Prompt, output: str, errors: list[str]) -> Prompt:
    """``prompt`` followed by the model's output and why revisions in it were rejected.

    It extends the prompt just answered, so the whole of that prompt is reused from the cache.
    """
    feedback = render("reask.j2", output=output.strip(), errors=errors)
    return Prompt((*prompt.parts, Part(feedback, "feedback")))


def render_prompt(name: str, parts: dict[str, tuple[str, PartKind]], **variables: object) -> Prompt:
    """Render a template into a :class:`Prompt` whose ``parts`` variables stay separate parts.

    ``parts`` maps a variable to (text, kind), e.g. ``{"text": (chunk, "document")}``; the
    rest of the template becomes static parts between them.
    """
    marks = {key: f"\x00PRISM-{key.upper()}\x00" for key in parts}
    text = render(name, **variables, **marks)
    pieces: list[Part] = []
    rest = text
    while rest:
        found = [(rest.find(mark), key) for key, mark in marks.items() if mark in rest]
        if not found:
            pieces.append(Part(rest))
            break
        at, key = min(found)
        if at:
            pieces.append(Part(rest[:at]))
        value, kind = parts[key]
        pieces.append(Part(value, kind))
        rest = rest[at + len(marks[key]) :]
    return Prompt(tuple(p for p in pieces if p.text))
