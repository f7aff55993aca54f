"""What kind of text a long text is, decided from the text: a play, a poem, a story, a paper,
a manual, a report or a treatise. A summary is shaped by it (who is who and what happens, or
what it is about and its parts), the plan line shows it, and ``--kind`` sets it.

The decision reads the text's own marks, in this order: speeches with their speakers (a
play), lines of verse (a poem), an abstract, references and citations (a paper), code, commands
and the reader addressed as "you" (a manual), dialogue and narration (a story), dates (a
report); what is left is a story when it tells what people did (a subject and its verb in the
past tense, "Peter rowed out", "I took a room"; or "she winds", "he opens" in the present),
else it argues (a treatise).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from prism_edge.text.passages import Sentence
from prism_edge.text.structure import Block

Kind = Literal["play", "poem", "story", "paper", "manual", "report", "treatise"]
KINDS: tuple[Kind, ...] = ("play", "poem", "story", "paper", "manual", "report", "treatise")
NARRATIVE: frozenset[str] = frozenset({"play", "poem", "story"})
"""Kinds told as who is who, then what happens; the others as what they are about, then
their parts."""

_QUOTED = re.compile(r"[\"“][^\"“”]*[\"”]")
_SPEECH_MARK = re.compile(r"[\"“”]|(?:^|(?<=\s))['‘](?=[A-Z])")
"""A mark of quoted speech: a double quotation mark, or a single one opening a capitalised
word (‘Where are you going?’; not an apostrophe: 'tis, o'er)."""
_PAST_VERBS = (
    r"[a-z]+ed|went|came|saw|took|gave|said|told|knew|found|felt|thought|made|left|stood|sat|"
    r"ran|began|heard|got|brought|kept|held|fell|rose|spoke|wrote|drew|lay|laid|met|sent|led|"
    r"lost|struck|threw|woke|won|wore|hung|ate|drank|sang|slept|swam|fought|caught|bought|"
    r"taught|sought|became|grew|flew|broke|chose|rode|hid|shook"
)
_TOLD = re.compile(
    r"\b(?:I|[Hh]e|[Ss]he|[Tt]hey|[Ww]e|[A-Z][a-z]+)\s+"
    r"(?:(?:then|soon|never|at\s+once|only|still|also)\s+)?"
    rf"(?:{_PAST_VERBS})\b|\b(?:[Hh]e|[Ss]he)\s+[a-z]+[^s\W]s\b"
)
"""A deed told: a subject (a pronoun, a capitalised name) and its verb in the past tense
("Peter rowed", "I took", "they went"), or "he"/"she" and a verb in the present ("she
winds")."""
TOLD_RATE = 8.0
"""Deeds told per 1,000 words from which a text with no other mark is a story (measured on
the rule texts: novels 12-22, plays 4-5, the treatise 5, manuals and papers at most 2)."""
_YOU = re.compile(r"\b(?:you|your|yours)\b", re.IGNORECASE)
_NARRATION = re.compile(r"\b(?:he|she|his|her|him|they|said|was|had)\b", re.IGNORECASE)
_DONE = re.compile(
    r"\b(?:was|were|has been|have been|had been|is now|are now)\s+\w+ed\b|"
    r"\b(?:added|removed|changed|introduced|founded|released|announced)\b",
    re.IGNORECASE,
)
_YEAR = re.compile(r"\b(?:1[0-9]\d\d|20\d\d)\b")
_CITATION = re.compile(
    r"\([A-Z][\w'-]+(?: and [A-Z][\w'-]+| et al\.)?,? (?:19|20)\d\d[a-z]?[;,)]|"
    r"[A-Z][\w'-]+(?: and [A-Z][\w'-]+| et al\.)? \((?:19|20)\d\d[a-z]?\)|"
    r"\[\d{1,3}(?:[,-]\d{1,3})*\]"
)
_ABSTRACT = re.compile(r"^\s*(?:abstract|summary)\s*[.:]?\s*$", re.IGNORECASE | re.M)
_REFERENCES = re.compile(r"^\s*(?:\d+\.\s*)?(?:references|bibliography)\s*$", re.IGNORECASE | re.M)
_COMMAND = re.compile(r"^\s*(?:\$|#|>>>|%) \S", re.M)


@dataclass(frozen=True)
class Signs:
    """The marks a text's kind is read from, each a share or a rate per 1,000 words."""

    words: int
    speech_share: float
    """Of the blocks of text, those that are speeches with a speaker."""
    speeches: int
    verse_share: float
    """Of the characters of prose and verse, those set as verse."""
    dialogue_share: float
    """Of the prose sentences, those holding quoted speech."""
    narration: float
    you: float
    told: float
    """Deeds told by a subject in the past tense (:data:`_TOLD`), per 1,000 words."""
    code_share: float
    """Of the characters of text, those in code blocks or command lines."""
    done: float
    """Things reported done ("was added", "were removed", "founded")."""
    citations: float
    years: float
    abstract: bool
    references: bool


def signs(text: str, found: Sequence[Block], said: Sequence[Sentence]) -> Signs:
    words = max(1, len(text.split()))
    per = 1000 / words
    textual = [b for b in found if b.kind in {"prose", "verse", "speech", "list"}]
    speeches = sum(b.kind == "speech" for b in found)
    prose_chars = sum(len(b.text) for b in found if b.kind == "prose")
    verse_chars = sum(len(b.text) for b in found if b.kind in {"verse", "speech"})
    code_chars = sum(len(b.text) for b in found if b.kind == "code")
    prose = [s for s in said if s.kind == "prose"]
    quoted = sum(bool(_SPEECH_MARK.search(s.text)) for s in prose)
    narrated = " ".join(
        b.text for b in found if b.kind in {"prose", "list"} and not _SPEECH_MARK.search(b.text)
    )
    head, tail = text[: len(text) // 10], text[len(text) * 2 // 3 :]
    return Signs(
        words=words,
        speech_share=speeches / max(1, len(textual)),
        speeches=speeches,
        verse_share=verse_chars / max(1, prose_chars + verse_chars),
        dialogue_share=quoted / max(1, len(prose)),
        narration=len(_NARRATION.findall(text)) * per,
        you=len(_YOU.findall(narrated)) * per,
        told=len(_TOLD.findall(text)) * per,
        done=len(_DONE.findall(text)) * per,
        code_share=(code_chars + 40 * len(_COMMAND.findall(text))) / max(1, len(text)),
        citations=len(_CITATION.findall(text)) * per,
        years=len(_YEAR.findall(text)) * per,
        abstract=bool(_ABSTRACT.search(head)),
        references=bool(_REFERENCES.search(tail)),
    )


def kind_of(s: Signs) -> Kind:
    """The kind the signs say, in the module's order."""
    if s.speeches >= 10 and s.speech_share >= 0.3:
        return "play"
    if s.verse_share >= 0.6:
        return "poem"
    if s.abstract and (s.references or s.citations >= 3):
        return "paper"
    if s.dialogue_share >= 0.15 and s.narration >= 30 and s.code_share < 0.015:
        return "story"
    if s.done >= 8 or (s.years >= 3 and s.dialogue_share < 0.1 and s.code_share < 0.015):
        return "report"
    if s.code_share >= 0.015 or s.you >= 5:
        return "manual"
    if s.narration >= 40 or (s.told >= TOLD_RATE and s.told >= 4 * s.years):
        return "story"  # deeds told, not outnumbered by dates (a news report)
    if s.years >= 2:
        return "report"
    return "treatise"
