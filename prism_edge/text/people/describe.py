"""For one of a text's main names, the clause of the text that says who or what it is."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from prism_edge.text.grounding import whole_word
from prism_edge.text.passages import Sentence, dialogue, mid_thought
from prism_edge.text.people.words import role_weight
from prism_edge.text.prose import description_score

_CLAUSE_CUT = re.compile(r"\s*(?:;|:|--|—|\(|\))\s*")
MAX_CLAUSE_WORDS = 20


_APPOSITION = re.compile(
    r"['’]?s?,\s+(?:(?:my|the|a|an|his|her|our|your|thy|their|this|that)\s+)?"
    r"((?:[\w'’-]+\s+){0,3}[\w'’-]+)"
)
_NOUN_APPOSITION = re.compile(
    r"(?:,\s+|\s+)(?:the|a|an)\s+(?:[\w'’-]+\s+){0,2}[\w'’-]+(?:\s+of\s+[\w'’-]+)?\s*[,.;]"
)
_TITLE_BEFORE = re.compile(r"(\w+),?\s+(?:of\s+\w+,?\s+)?$")
_POSSESSIVE = re.compile(r"['’]s\s+(?:\w+\s+)?(\w+)")


@lru_cache(maxsize=1024)
def _named(name: str) -> re.Pattern[str]:
    return whole_word(name)


def _role_near(sentence: str, name: str) -> float:
    """How much ``sentence`` sets a role word (:data:`ROLE_WORDS`) beside ``name``: an
    apposition ("Cassio, his lieutenant"; "Mr. Knightley, a sensible man"), a title before
    it ("Lieutenant Cassio", "the Duke of Milan, Prospero"), a possessive ("Othello's
    ancient"), or one within four words."""
    best = 0.0
    for m in _named(name).finditer(sentence):
        score = 0.0
        after = sentence[m.end() : m.end() + 90]
        before = sentence[max(0, m.start() - 60) : m.start()]
        a = _APPOSITION.match(after)
        if a:
            score += 3.0 * max((role_weight(w) for w in a.group(1).split()), default=0.0)
        if _NOUN_APPOSITION.match(after):  # "Bagheera, the Black Panther", "Kaa the python"
            score += 1.5
        b = _TITLE_BEFORE.search(before)
        if b:
            score += 2.0 * role_weight(b.group(1))
        p = _POSSESSIVE.match(after)
        if p:
            score += 1.0 * role_weight(p.group(1))
        near = re.findall(r"\w+", before)[-4:] + re.findall(r"\w+", after)[:4]
        score += max((role_weight(w) for w in near), default=0.0)
        best = max(best, score)
    return best


_SUBJECT = re.compile(r"^\W*(?:the\s+|a\s+|an\s+)?\w")


def _defines(sentence: str, name: str) -> bool:
    """Whether ``sentence`` opens with ``name`` (after an article) and says what it is
    within a few words ("Debian GNU/Linux is a ...", "A package is ...")."""
    m = re.match(
        rf"^\W*(?:the\s+|a\s+|an\s+)?{re.escape(name)}(?!\w)(?:\s+[\w/.+-]+){{0,3}}?\s+"
        r"(?:is|are|was|were|means|refers to|stands for|denotes)\b",
        sentence,
        re.IGNORECASE,
    )
    return m is not None


@dataclass(frozen=True)
class Described:
    """A main name and the words of the text that say what it is."""

    name: str
    clause: str
    score: float


def describe(
    name: str,
    said: Sequence[Sentence],
    story: bool = True,
    speaker_of: Mapping[str, str] | None = None,
) -> Described | None:
    """The clause of the text that best says who or what ``name`` is: of the sentences naming
    it, the one with the most of :func:`description_score`'s cues and a role word beside it
    (:func:`_role_near`), the first naming it gaining as an introduction; a line of dialogue
    counts less in a story, a question or an exclamation less anywhere; then only the clause
    holding the name (cut at a semicolon, a colon or a dash; at commas to
    :data:`MAX_CLAUSE_WORDS` words). None when no sentence names it."""
    best: tuple[float, int, str] | None = None
    first = True
    for index, s in enumerate(said):
        if s.kind == "direction" or name not in s.text or not _named(name).search(s.text):
            continue
        text = s.text
        words = len(text.split())
        if words < 4:
            continue
        score = 0.5 * description_score(text, name) + 4.0 * _role_near(text, name)
        if not story and _SUBJECT.match(text) and _defines(text, name):
            score += 3.0  # "Debian GNU/Linux is a particular distribution of ..."
        if first:
            score += 0.8
            first = False
        if story and dialogue(text) and s.kind == "prose":
            score -= 2.0
        if speaker_of is not None and speaker_of.get(s.speaker) == name:
            score -= 0.5
        if text.rstrip("\"'’”)").endswith(("?", "!")):
            score -= 1.0
        if mid_thought(text):
            score -= 1.5
        if words > 40:
            score -= (words - 40) / 10
        if best is None or score > best[0]:
            best = (score, index, text)
    if best is None:
        return None
    return Described(name, clause_of(best[2], name), best[0])


def clause_of(sentence: str, name: str) -> str:
    """The part of ``sentence`` that holds ``name``: the clause between semicolons, colons,
    dashes and brackets that names it, cut at commas around the name to
    :data:`MAX_CLAUSE_WORDS` words when longer."""
    pieces = [p for p in _CLAUSE_CUT.split(sentence) if p.strip()]
    holding = [p for p in pieces if whole_word(name).search(p)] or [sentence]
    clause = max(holding, key=lambda p: _role_near(p, name) + 0.01 * len(p.split()))
    if len(clause.split()) - len(name.split()) < 4:  # the name alone says nothing
        clause = sentence
    words = clause.split()
    if len(words) <= MAX_CLAUSE_WORDS:
        return clause.strip(" ,")
    commas = [p for p in re.split(r"(?<=,)\s+", clause)]
    at = next((i for i, p in enumerate(commas) if whole_word(name).search(p)), 0)
    lo = hi = at
    while True:
        grown = False
        if hi + 1 < len(commas) and _count(commas[lo : hi + 2]) <= MAX_CLAUSE_WORDS:
            hi += 1
            grown = True
        if lo > 0 and _count(commas[lo - 1 : hi + 1]) <= MAX_CLAUSE_WORDS:
            lo -= 1
            grown = True
        if not grown:
            break
    out = " ".join(commas[lo : hi + 1])
    if len(out.split()) > MAX_CLAUSE_WORDS:
        out = " ".join(out.split()[:MAX_CLAUSE_WORDS]) + " ..."
    return out.strip(" ,")


def _count(pieces: Iterable[str]) -> int:
    return sum(len(p.split()) for p in pieces)
