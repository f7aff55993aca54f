"""How long a summary is, as people ask for it: a count of words or sentences, or a share of
the text (sumy's convention: a plain number is sentences, ``20%`` a share of the text's
sentences); ``350w``/``350 words`` is words."""

from __future__ import annotations

import re
from dataclasses import dataclass

from prism_edge.core.errors import PrismError

DEFAULT_WORDS = 350


class LengthError(PrismError, ValueError):
    """A length that says neither words, sentences nor a share."""

    hint = "--length takes 350w (words), 12 or 12s (sentences) or 5% (a share of the text)"

    def __init__(self, given: object) -> None:
        super().__init__(f"--length {given!r}: not a count of words or sentences, nor a share")
        self.given = given


@dataclass(frozen=True)
class Length:
    """At most ``words`` words, or ``sentences`` sentences, or ``share`` of the text's
    sentences (one of the three)."""

    words: int | None = DEFAULT_WORDS
    sentences: int | None = None
    share: float | None = None

    def sentences_of(self, total: int) -> int | None:
        """The sentence count asked for, a share turned into sentences of a text of
        ``total``; None when the length is in words."""
        if self.sentences is not None:
            return self.sentences
        if self.share is not None:
            return max(1, round(self.share * total))
        return None

    def __str__(self) -> str:
        if self.words is not None:
            return f"{self.words} words"
        if self.sentences is not None:
            return f"{self.sentences} sentences"
        return f"{self.share:.0%} of the sentences"


_FORM = re.compile(
    r"^\s*(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>%|w|words?|s|sentences?)?\s*$", re.IGNORECASE
)


def parse_length(given: str | int | float | Length | None) -> Length:
    """``given`` as a :class:`Length`: None for the default (:data:`DEFAULT_WORDS` words); an
    int or a plain number a count of sentences (sumy's ``ItemsCount``); ``N%`` a share of the
    text's sentences; ``Nw``/``N words`` words; ``Ns``/``N sentences`` sentences."""
    if given is None:
        return Length()
    if isinstance(given, Length):
        return given
    if isinstance(given, bool):
        raise LengthError(given)
    if isinstance(given, int):
        if given < 1:
            raise LengthError(given)
        return Length(words=None, sentences=given)
    if isinstance(given, float):
        if not 0 < given < 1:
            raise LengthError(given)
        return Length(words=None, share=given)
    m = _FORM.match(str(given))
    if m is None:
        raise LengthError(given)
    value = float(m.group("n"))
    unit = (m.group("unit") or "s").lower()
    if unit == "%":
        if not 0 < value <= 100:
            raise LengthError(given)
        return Length(words=None, share=value / 100)
    if value < 1 or value != int(value):
        raise LengthError(given)
    if unit.startswith("w"):
        return Length(words=int(value))
    return Length(words=None, sentences=int(value))
