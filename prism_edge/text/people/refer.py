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


_POSSESSIVE = re.compile(r"^(his|her)\s+(?=\S)", re.IGNORECASE)
"""A who-is-who phrase that says whose someone is with a pronoun ("his banished son")."""


def owner(
    said: Sequence[Sentence],
    i: int,
    before: int,
    pronoun: str,
    names: Sequence[str],
    name: str,
    genders: dict[str, str | None],
) -> str | None:
    """Whom "his" or "her" (``pronoun``) at offset ``before`` of sentence ``i`` stands for:
    the subject of the paragraph, that is the last of ``names`` (not ``name``, the person the
    phrase describes) to open a sentence, its own or one of the :data:`LOOK_BACK` before it
    within its paragraph (or the paragraph before, when it opens one), when of the pronoun's
    gender ("Mr. Bingley was good-looking ... His brother-in-law, Mr. Hurst, merely looked the
    gentleman; but his friend Mr. Darcy": Mr. Bingley's friend, not Mr. Hurst's). None when
    that person is of the other gender or of none the text says, or no sentence opens on a
    name."""
    wanted = "he" if pronoun.casefold() == "his" else "she"
    s = said[i]
    texts = [s.text[:before]]
    for j in range(i - 1, max(-1, i - 1 - LOOK_BACK), -1):
        prior = said[j]
        if prior.block != s.block and not (s.first and prior.block == s.block - 1):
            break
        texts.append(prior.text)
    for text in texts:
        opening = [n for n in names if n != name and _opens(text, n)]
        if not opening:
            continue
        first = max(opening, key=len)  # "Miss Bingley", not "Bingley"
        if first not in genders:
            genders[first] = gender_of(first, said)
        return first if genders[first] == wanted else None
    return None


def _opens(text: str, name: str) -> bool:
    """Whether ``text`` opens on ``name`` (after quotation marks or a bracket)."""
    m = whole_word(name).search(text)
    return m is not None and not re.search(r"\w", text[: m.start()])


def possessive(phrase: str) -> str | None:
    """The pronoun ("his", "her") ``phrase`` opens with, saying whose someone is, or None."""
    m = _POSSESSIVE.match(phrase)
    return None if m is None else m.group(1)


def owned(phrase: str, person: str) -> str:
    """``phrase`` ("his banished son") with its pronoun said as ``person``'s."""
    m = _POSSESSIVE.match(phrase)
    return phrase if m is None else f"{person}’s {phrase[m.end() :]}"


def as_named(sentence: str, name: str) -> str:
    """``sentence`` (opening with "He" or "She") with the pronoun replaced by ``name``."""
    m = OPENS.match(sentence)
    return sentence if m is None else f"{name}{sentence[m.end(1) :]}"


__all__ = ["as_named", "gender_of", "owned", "owner", "possessive", "referents"]
