"""Words a question says for a column whose name does not say them ("how tall": ``height``;
"won": ``win``), learned from the questions people wrote about WikiTableQuestions' training
tables (``benchmarks/tables/learn_lexicon.py`` writes ``lexicon.json`` beside this file, and
reproduces it; ``benchmarks/results/table-lexicon.txt`` says how).

The lexicon pairs the stem of a question's word with the stem of a word of a column's name:
the pairs whose columns the questions' right queries use far more often where the question
says the word than where it does not (a smoothed log-odds ratio over the training questions'
tables). A pair of the same stem is never in it: the words themselves already match.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from importlib import resources

from prism_edge.methods.tables.words import FAMILY_WORDS, STOP, stem
from prism_edge.text.values import read_number

LEXICON = "lexicon.json"

Pairs = Mapping[str, Mapping[str, float]]
"""Question stem -> column-name stem -> the pair's score (its log-odds ratio)."""

_given: list[Pairs] = []


@functools.cache
def _shipped() -> Pairs:
    try:
        text = resources.files(__package__).joinpath(LEXICON).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    data = json.loads(text)
    return {str(q): {str(c): float(s) for c, s in names.items()}
            for q, names in data["pairs"].items()}  # fmt: skip


def pairs() -> Pairs:
    """The lexicon in use: the shipped one, or the one :func:`use` gave."""
    return _given[-1] if _given else _shipped()


def use(given: Pairs | None) -> None:
    """Use ``given`` in place of the shipped lexicon (``{}``: none, as its learning collects
    the candidates a question has without it); None: the shipped one again."""
    _given.clear()
    if given is not None:
        _given.append(given)


def content(words: Iterable[str]) -> set[str]:
    """The stems of the words of a question the lexicon reads: words that may name a
    column, not those that say how to compute ("most", "after", "average": the ranker's
    families), function words or numbers ("two", "third")."""
    return {
        stem(w)
        for w in words
        if w.isalpha() and len(w) > 1 and w not in STOP and w not in FAMILY_WORDS
        and read_number(w) is None
    }  # fmt: skip


def names(said: str, name: str) -> bool:
    """Whether the question's word of stem ``said`` names a column's word of stem ``name``
    by the lexicon (not by being the same word)."""
    return name in pairs().get(said, {})


def named_by(said: set[str], name: str) -> bool:
    """Whether some stem of ``said`` names the column's word of stem ``name`` by the
    lexicon."""
    given = pairs()
    return any(name in given.get(s, ()) for s in said)


def names_any(said: str, names: set[str]) -> bool:
    """Whether the question's word of stem ``said`` names one of the stems ``names`` (a
    table's columns' words) by the lexicon."""
    return not names.isdisjoint(pairs().get(said, ()))
