"""Whom a sentence that opens with "He" or "She" speaks of: a light coreference, within a
paragraph, for the sentences that say what someone is ("She was the youngest of the two
daughters ..."), so that a person's role said one sentence after the name is still theirs."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from prism_edge.text.grounding import whole_word
from prism_edge.text.passages import Sentence, dialogue

OPENS = re.compile(r"^\W*(He|She)\s+(?=(?:is|was|had\s+been|has\s+been|became)\s)", re.IGNORECASE)
"""A sentence opening with a pronoun and "is", "was", "became" ...: it says what someone is."""
_HE = re.compile(r"\b(?:he|him|his|himself)\b", re.IGNORECASE)
_SHE = re.compile(r"\b(?:she|her|hers|herself)\b", re.IGNORECASE)
_HIS_TITLE = re.compile(r"^(?:Mr|Sir|Lord|King|Prince|Duke|Earl|Count|Father|Uncle|Brother)\b")
_HER_TITLE = re.compile(
    r"^(?:Mrs|Miss|Ms|Lady|Queen|Princess|Duchess|Countess|Mother|Aunt|Sister|Madame)\b"
)
_SUBJECT_BEFORE = re.compile(r"(?:^|[,;:]\s+|--\s*|—\s*|\b(?:and|but|when|while)\s+)\W*$")
"""Before a name that is the subject of its clause (the sentence's start, punctuation, a
conjunction), not an object ("looks upon Emma")."""
LOOK_BACK = 3
"""Sentences before the pronoun's, in its paragraph, where the name it stands for is looked
for."""


def gender_of(name: str, said: Sequence[Sentence]) -> str | None:
    """ "he" or "she" for ``name``: by its title ("Mr.", "Lady"), else by the pronouns that
    follow it in the sentences that name no other capitalised person before them (at least
    twice as many of one kind as of the other); None when the text does not say."""
    if _HIS_TITLE.match(name):
        return "he"
    if _HER_TITLE.match(name):
        return "she"
    named = whole_word(name)
    counts: Counter[str] = Counter()
    for s in said:
        if name not in s.text:
            continue
        m = named.search(s.text)
        if m is None:
            continue
        rest = s.text[m.end() : m.end() + 120]
        counts["he"] += len(_HE.findall(rest))
        counts["she"] += len(_SHE.findall(rest))
    he, she = counts["he"], counts["she"]
    if he >= 3 and he >= 2 * she:
        return "he"
    if she >= 3 and she >= 2 * he:
        return "she"
    return None


def referents(said: Sequence[Sentence], names: Sequence[str]) -> dict[int, str]:
    """For each narrated sentence of ``said`` that opens with "He" or "She" and says what
    someone is (:data:`OPENS`), the one of ``names`` it speaks of: the last named, of the
    pronoun's gender and the subject of its clause, in the :data:`LOOK_BACK` sentences before
    it within its paragraph (its block; or the paragraph before, when it opens one).
    Sentences of dialogue are left out: "he" there is anyone's."""
    genders: dict[str, str | None] = {}
    out: dict[int, str] = {}
    for i, s in enumerate(said):
        m = OPENS.match(s.text)
        if m is None or s.kind not in {"prose", "verse"} or dialogue(s.text):
            continue
        pronoun = m.group(1).casefold()
        for j in range(i - 1, max(-1, i - 1 - LOOK_BACK), -1):
            before = said[j]
            if before.block != s.block and not (s.first and before.block == s.block - 1):
                break  # within the paragraph, or the one before when it opens a paragraph
            hits = sorted(
                (h.start(), n)
                for n in names
                if n in before.text
                for h in whole_word(n).finditer(before.text)
                if _SUBJECT_BEFORE.search(before.text[max(0, h.start() - 30) : h.start()])
            )
            fitting = []
            for _, n in hits:
                if n not in genders:
                    genders[n] = gender_of(n, said)
                if genders[n] == pronoun:
                    fitting.append(n)
            if fitting:
                out[i] = fitting[-1]
                break
            if hits:
                break  # someone else was named last: the pronoun is not certainly theirs
    return out


def as_named(sentence: str, name: str) -> str:
    """``sentence`` (opening with "He" or "She") with the pronoun replaced by ``name``."""
    m = OPENS.match(sentence)
    return sentence if m is None else f"{name}{sentence[m.end(1) :]}"


__all__ = ["as_named", "gender_of", "referents"]
