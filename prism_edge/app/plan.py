"""The plan line: what a run will do, in one sentence on stderr before it starts (the model and
where it runs, the method and why in a few words, how much it reads); with ``--verbose``, the
settings and the evidence behind the choice on a line of their own.
"""

from __future__ import annotations

from prism_edge import methods
from prism_edge.backends import Backend
from prism_edge.text.inputs import Document
from prism_edge.text.language import SAMPLE_CHARS, looks_english


def plan_line(backend: Backend, choice: methods.Choice, reading: str, notes: list[str]) -> str:
    """``plan: model MODEL on DEVICE, method NAME (why), READING[; NOTE...]``."""
    where = f" on {backend.device}" if backend.device else ""
    return (
        f"plan: model {backend.name}{where}, method {choice.name} ({choice.reason}), {reading}"
        + "".join(f"; {note}" for note in notes)
    )


def details_line(backend: Backend, choice: methods.Choice, settings: list[str]) -> str:
    """``--verbose``: the context, the settings a plan line leaves out and the evidence behind
    its method."""
    parts = [f"context {backend.n_ctx:,} tokens", *settings]
    if not backend.prefix_reuse:
        parts.append("no prefix reuse (a recurrent or hybrid model)")
    if choice.evidence:
        parts.append(f"why {choice.name}: {choice.evidence}")
    return "plan details: " + "; ".join(parts)


def chunked(total: int, count: int, chunk_tokens: int) -> str:
    """What a run that reads chunks reads: ``15 chunks of up to 512 tokens (6,594 in all)``."""
    return (
        f"{count:,} chunk{'s' if count != 1 else ''} of up to {chunk_tokens:,} tokens "
        f"({total:,} in all)"
    )


def size_label(size: int) -> str:
    """Bytes as a reader says them (``1.5 KB``, ``12 MB``)."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if size >= scale:
            return f"{size / scale:.3g} {unit}"
    return f"{size} bytes"


def language_notes(choice: methods.Choice, documents: list[Document], question: str) -> list[str]:
    """A note when the rules the method reads by are English and the text is not: a summary's
    names and sentences (the text), a table question's words (the question)."""
    if choice.name in (methods.ScoredNames.name, methods.Outlined.name):
        sample = _head(documents)
        if looks_english(sample) is False:
            return ["the text does not look English: the rules that find names and sentences "
                    "read English"]  # fmt: skip
    if choice.name == methods.TableFacts.name and looks_english(question) is False:
        return ["the question does not look English: the table rules read English words"]
    return []


def _head(documents: list[Document]) -> str:
    """The first :data:`SAMPLE_CHARS` characters of the documents' text."""
    taken: list[str] = []
    left = SAMPLE_CHARS
    for document in documents:
        if left <= 0:
            break
        piece = document.text[:left]
        taken.append(piece)
        left -= len(piece)
    return "\n".join(taken)
