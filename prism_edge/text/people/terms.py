"""An expository text's subjects: the names and terms its sentences define, and the words
that define each (:func:`define`)."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence

from prism_edge.text.grounding import FUNCTION_WORDS, names_of
from prism_edge.text.passages import Sentence, dialogue, garbled
from prism_edge.text.people.describe import Described, _phrase, relation
from prism_edge.text.people.names import Index, Named, _adjective, spread_of
from prism_edge.text.people.words import not_a_name
from prism_edge.text.prose import plausible_name

_DEFINES = (
    r"({t})\s+(?:is|are|was|were)\s+(?:a|an|the|one|used|called|simply|basically)\b",
    r"({t}),\s+(?:a|an|the)\s+\w+",
    r"\b(?:called|named|known as|termed|stands for)\s+(?:the\s+)?[\"“'‘]?({t})",
    r"({t})\s+(?:means|refers to|denotes|stands for|provides|lets you|allows)\b",
)
_TERM = r"[A-Za-z][\w./+-]*(?:\s[A-Za-z][\w./+-]*){0,2}"
_DEFINITION = re.compile("|".join(f"(?:{p.format(t=_TERM)})" for p in _DEFINES))


def terms_ranked(
    said: Sequence[Sentence],
    text: str,
    part_spans: Sequence[tuple[int, int]],
    top: int = 10,
    exclude: Iterable[str] = (),
) -> list[Named]:
    """An expository text's subjects: the names it writes mid-sentence and the terms its
    sentences define ("A package is ...", "Debian, a free operating system", "called
    zoo"), ranked by how often and in how many parts the text names them; a term no sentence
    defines is kept only when it is a name."""
    defined: Counter[str] = Counter()
    for s in said:
        if s.kind not in {"prose", "list"} or " " not in s.text:
            continue
        for m in _DEFINITION.finditer(s.text):
            term = next(g for g in m.groups() if g)
            term = _trimmed(term)
            if term and not all(not_a_name(w) for w in term.split()):
                defined[term] += 1
    names = [n for n in names_of(text, min_mentions=3) if plausible_name(n)][:300]
    exclude = {w for e in exclude for w in e.split()}  # the author is no subject
    index = Index(text)
    starts = [a for a, _ in part_spans]
    candidates = list(dict.fromkeys([*defined, *names]))
    counts: dict[str, int] = {}
    spread: dict[str, int] = {}
    for term in candidates:
        words = term.split()
        if (len(words) == 1 and not_a_name(term)) or len(term) < 2:
            continue
        hits = index.hits(term)
        if len(hits) < 3:
            continue
        if term[:1].isupper() and len(words) == 1:
            lower = len(index.hits(term.lower()))
            if (lower >= len(hits) and term not in defined) or _adjective(term, text, hits):
                continue
        counts[term] = len(hits)
        spread[term] = spread_of(hits, starts)
    ranked = sorted(
        counts,
        key=lambda t: -(counts[t] * (1 + math.log(spread[t])) * (2 if t in defined else 1)),
    )
    kept: list[str] = []
    for term in ranked:
        low = term.casefold()
        if any(low in k.casefold().split() or k.casefold() in low.split() for k in kept):
            continue
        kept.append(term)
    return [Named(t, counts[t], spread[t]) for t in kept[:top]]


def _trimmed(term: str) -> str:
    words = term.split()
    while words and words[0].casefold() in FUNCTION_WORDS:
        words.pop(0)
    while words and words[-1].casefold() in FUNCTION_WORDS:
        words.pop()
    if not words or any(w.casefold() in {"it", "this", "that", "there", "which"} for w in words):
        return ""
    return " ".join(words)


_COPULA_DEF = r"\s+(?:is|are)\s+(?P<def>(?:a|an|the|one|any|used\s+(?:to|for|by))\b.*)"
_MEANS_DEF = r"\s+(?:means(?!\s+to\b)|refers\s+to|denotes|stands\s+for)\s+(?P<means>\S.*)"
_CLAUSE_START = r"(?:^|[;:]\s+|,\s+(?:and\s+)?)[\"“'‘(]*(?:(?:a|an|the)\s+)?"


MIN_DEFINITION_WORDS = 3
"""Words a definition takes at least ("a mutable type"), but for an abbreviation's long form
("Non-Maintainer Uploads")."""


def define(term: str, said: Sequence[Sentence]) -> Described | None:
    """The words of the text that define ``term``, from the first sentence of its prose that
    does: the term as the subject of "is a/an/the ..." or "means/refers to/stands for ..."
    ("A package is a file that ..."), a name set beside its apposition ("Debian, a free
    operating system"; :func:`relation` in narration), an abbreviation after its long form
    ("ordinary least squares (OLS)"); None when no sentence defines it (a word the text only
    uses is no term to list)."""
    t = re.escape(term)
    flags = re.IGNORECASE if term[:1].islower() else 0
    subject = re.compile(rf"{_CLAUSE_START}{t}(?:{_COPULA_DEF}|{_MEANS_DEF})", flags)
    long_form = (
        re.compile(rf"((?:[A-Za-z][\w-]*\s+){{1,6}})\(\s*{t}\s*\)") if term.isupper() else None
    )
    best: Described | None = None
    for s in said:
        if s.kind not in {"prose", "list"} or (term not in s.text and not flags):
            continue
        if flags and term.casefold() not in s.text.casefold():
            continue
        if garbled(s.text) or dialogue(s.text):
            continue
        found: tuple[str, float] | None = None
        least = MIN_DEFINITION_WORDS  # "the group", "your package" say too little
        m = subject.search(s.text)
        if m:
            found = (_phrase(m.group("def") or m.group("means"), 16), 5.0)
        elif long_form is not None and (lf := long_form.search(s.text)):
            expansion = _initials(lf.group(1), term)
            if expansion:
                found = (expansion, 4.0)
                least = 2  # "Non-Maintainer Uploads"
        elif term[:1].isupper() and not s.text.lstrip("\"'“‘(").startswith(f"{term},"):
            r = relation(s.text, term, narration=True)  # not "However, the ..."
            if r is not None and r.kind in {"apposition", "is", "epithet"} and r.weight >= 3.0:
                found = (r.phrase, r.weight)
        if found is not None and len(found[0].split()) >= least:
            if best is None or found[1] > best.score:
                best = Described(term, found[0], found[1])
            if found[1] >= 5.0:
                break
    return best


def _initials(words: str, abbreviation: str) -> str:
    """The last words of ``words`` whose initials spell ``abbreviation`` ("ordinary least
    squares" for OLS, "heteroskedasticity consistent" for HC); "" when none do."""
    parts = words.split()
    letters = abbreviation.casefold()
    for start in range(len(parts)):
        chosen = parts[start:]
        if chosen[0].casefold() in FUNCTION_WORDS:
            continue
        pieces = [p for w in chosen for p in w.split("-") if p.casefold() not in FUNCTION_WORDS]
        if "".join(p[:1].casefold() for p in pieces) == letters:
            return " ".join(chosen)
    return ""
