"""Whether a question is one its tables answer at all, from how much of it they account for:
a logistic model learned from WikiTableQuestions' training questions, each asked of its own
table (answerable) and of another table drawn at random (not), by
``benchmarks/tables/learn_answerable.py``, which writes ``answerable.json`` beside this file
and reproduces it.

The ranker's probability says which candidate is best among those of the tables it was given;
it says little of whether the question is about those tables at all (a question about one
table asked of another is answered "sure" about one time in ten). The share of the question's
words the tables account for (their cells, their columns' names and short forms, the
lexicon's words for them, their own names) says much more; an answer is called sure only
where both do.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources

MODEL = "answerable.json"

AT_LEAST = 0.5
"""The chance of being answerable under which an answer is not called sure."""


@dataclass(frozen=True)
class Accounted:
    """How much of a question its tables account for."""

    content: int
    """The question's content words (no stop word, no word of how to compute)."""
    unheld: tuple[str, ...]
    """Those of them no table accounts for, in the question's order."""
    exact: int
    """Cells the question names whole."""

    @property
    def share(self) -> float:
        return 1.0 - len(self.unheld) / self.content if self.content else 1.0

    def features(self) -> dict[str, float]:
        return {
            "bias": 1.0,
            "share": self.share,
            "all": float(not self.unheld),
            "exact": float(self.exact > 0),
            "unheld": math.log1p(len(self.unheld)),
        }


@functools.cache
def weights() -> Mapping[str, float]:
    """The shipped weights (none when the package has no model: every question answerable)."""
    try:
        text = resources.files(__package__).joinpath(MODEL).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    data: dict[str, float] = json.loads(text)["weights"]
    return data


def chance(features: Mapping[str, float], w: Mapping[str, float] | None = None) -> float:
    """The chance that a question is one its tables answer, from how much of it they
    account for (:meth:`Accounted.features`)."""
    w = weights() if w is None else w
    if not w:
        return 1.0
    z = sum(w.get(k, 0.0) * v for k, v in features.items())
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))
