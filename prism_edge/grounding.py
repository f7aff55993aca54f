"""What a grounded step may write: the words and word spans of the text it reads.

Small models copy keys from the prompt's example, make up names, or fall into loops of braces
(measured on SmolLM2-135M: keys like ``aattribu-tibu-tib-tib``, values like ``}}}}``). A grounded
grammar lets new dict keys be only spans of one to three consecutive words of the chunk and
strings be only its words, joined by spaces and punctuation. Whatever is stored then comes from
the text (issue 7's faithfulness), and the final answer may be grounded in the memory the same
way, so it cannot introduce a name the memory does not hold.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

WORD = re.compile(r"\w+(?:['’]\w+)*")
SPAN_WORDS = 3
"""Words a new key spans at most."""
MAX_SPANS = 6000
"""Spans kept at most (the first ones in the text), so a grammar stays small."""

_FUNCTION_WORDS = """
    a an the of in on at to by as is it be do if or so no not nor we i me my he us up am
    about above after again against all also and any are because been before being below
    between both but can could did does doing down during each few for from further had has
    have having her here hers herself him himself his how into its itself just more most
    now off once only other our ours out over own same she should some such than that their
    theirs them themselves then there these they this those through too under until very was
    were what when where which while who whom why will with would you your yours yourself
    yourselves one two may might must shall upon unto thus yet
"""
FUNCTION_WORDS = frozenset(_FUNCTION_WORDS.split())
"""English function words: an answer grounded in the memory may use them too; the
faithfulness proxy does not count them as content."""


def _function_word(word: str) -> bool:
    return word.casefold() in FUNCTION_WORDS


def words_of(text: str) -> list[str]:
    return WORD.findall(text)


def case_variants(words: Iterable[str]) -> set[str]:
    """Each word as written, in lower case and capitalised (a sentence may start with it)."""
    out: set[str] = set()
    for w in words:
        out |= {w, w.lower(), w[:1].upper() + w[1:]}
    return out


@dataclass(frozen=True)
class Grounding:
    words: frozenset[str]
    """What a stored string may be made of."""
    spans: frozenset[str]
    """What a new dict key may be: 1 to SPAN_WORDS consecutive words, as written, neither
    starting nor ending with a function word ("Father Wolf", "man cub", not "and the")."""

    @classmethod
    def of(cls, text: str, *, extra_words: Iterable[str] = ()) -> Grounding:
        """The grounding of a chunk; ``extra_words`` are allowed in strings too."""
        matches = list(WORD.finditer(text))
        spans: dict[str, None] = {}
        for i, first in enumerate(matches):
            if _function_word(first.group()):
                continue
            parts = [first.group()]
            spans[parts[0]] = None
            for j in range(i + 1, min(i + SPAN_WORDS, len(matches))):
                gap = text[matches[j - 1].end() : matches[j].start()]
                if gap.strip() or gap.count("\n") > 1:  # not across punctuation or paragraphs
                    break
                parts.append(matches[j].group())
                if not _function_word(parts[-1]):  # "Shere Khan", not "Shere Khan and"
                    spans[" ".join(parts)] = None
            if len(spans) >= MAX_SPANS:
                break
        words = case_variants(m.group() for m in matches) | set(extra_words)
        return cls(frozenset(words), frozenset(list(spans)[:MAX_SPANS]))
