"""A long text's main people, places or subjects, ranked: a play's speakers
(:func:`speakers_named`), a story's or a poem's names (:func:`names_ranked`)."""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from prism_edge.text.grounding import FUNCTION_WORDS, names_of, whole_word
from prism_edge.text.people.words import not_a_name
from prism_edge.text.prose import plausible_name


@dataclass(frozen=True)
class Named:
    """One of the text's main people, places or subjects: its name as the text writes it,
    how often it is named, and in how many of the text's parts."""

    name: str
    mentions: int
    spread: int = 1
    place: bool = False
    """Named mostly after "at", "in", "from" ... (:func:`places_apart`): a place, not a
    person."""


_WORD_RE = re.compile(r"[A-Z][a-z'’]+(?:-[A-Z]?[a-z]+)*")
_TOKEN = re.compile(r"\w+")


def _WORDY(c: str) -> bool:
    return c.isalnum() or c == "_"


class Index:
    """Where each word of a text is, read once: how often and where a name is written,
    without a pass over the text for each name."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at: dict[str, list[int]] = {}
        for m in _TOKEN.finditer(text):
            self.at.setdefault(m.group(), []).append(m.start())

    def hits(self, name: str) -> list[int]:
        """Where ``name`` is written as whole words (:func:`whole_word`'s matches)."""
        if _TOKEN.fullmatch(name):
            return self.at.get(name, [])
        first = _TOKEN.match(name)
        if first is None or first.start() != 0:
            return [m.start() for m in whole_word(name).finditer(self.text)]
        text, end = self.text, len(name)
        return [
            at
            for at in self.at.get(first.group(), [])
            if text.startswith(name, at) and not (at + end < len(text) and _WORDY(text[at + end]))
        ]


def spread_of(hits: Sequence[int], starts: Sequence[int]) -> int:
    """In how many parts (``starts``: where each begins, in order) ``hits`` fall."""
    return len({bisect.bisect_right(starts, h) for h in hits}) or 1


def speakers_named(speakers: Mapping[str, int], text: str, top: int = 10) -> list[Named]:
    """A play's main people from its speakers (``speakers``: speeches by the prefix as
    written): a prefix in capitals in title case ("LADY MACBETH" -> "Lady Macbeth"), an
    abbreviated one as the longer name the text writes most that begins with it ("Ham." ->
    "Hamlet"); the most speeches first, prefixes of one person added up."""
    words = Counter(_WORD_RE.findall(text))
    merged: Counter[str] = Counter()
    for prefix, n in speakers.items():
        name = " ".join(w.capitalize() if w.isupper() else w for w in prefix.split())
        if " " not in name and len(name) <= 5:
            longer = [(c, w) for w, c in words.items() if w.startswith(name) and len(w) > len(name)]
            if longer and max(longer)[0] >= 3:
                name = max(longer)[1]
        merged[name] += n
    total = sum(merged.values())
    kept = [
        Named(n, c)
        for n, c in merged.most_common()
        if c >= max(2, 0.01 * total) and not not_a_name(n) and n.casefold() not in {"all", "both"}
    ]
    return kept[:top]


_FOLLOWING = re.compile(r"\s+([a-z]\w*)")


def _adjective(name: str, text: str, hits: Sequence[int]) -> bool:
    """Whether the text writes ``name`` (one word, at ``hits``) mostly as an adjective,
    right before a word in lower case ("English language", "French army")."""
    before = 0
    for at in hits:
        m = _FOLLOWING.match(text, at + len(name))
        if m and m.group(1) not in FUNCTION_WORDS and not m.group(1).endswith("ly"):
            before += 1
    return bool(hits) and before > 0.5 * len(hits)


def _titled_noun(text: str, hits: Sequence[int]) -> bool:
    """Whether a capitalised word is mostly written after "the" ("the Pack", "the Law"): a
    common noun the text honours with a capital, not someone's name."""
    after_the = sum(text[max(0, at - 4) : at].casefold() == "the " for at in hits)
    return after_the > 0.6 * len(hits)


def names_ranked(text: str, part_spans: Sequence[tuple[int, int]], top: int = 12) -> list[Named]:
    """A story's or poem's main names: runs of capitalised words written mid-sentence at
    least twice (:func:`names_of`), without what is no name (:func:`not_a_name`, a word the
    text writes in lower case at least as often, a word mostly used as an adjective, a name
    said mostly inside a longer one), ranked by mentions times the log of the parts naming
    them."""
    index = Index(text)
    starts = [a for a, _ in part_spans]
    candidates = [n for n in names_of(text, min_mentions=2) if plausible_name(n)]
    counts: dict[str, int] = {}
    spread: dict[str, int] = {}
    for name in candidates[:400]:
        words = name.split()
        if all(not_a_name(w) for w in words) or (len(words) == 1 and not_a_name(name)):
            continue
        hits = index.hits(name)
        if len(hits) < 2:
            continue
        if len(words) == 1:
            lower = len(index.hits(name.lower()))
            if lower >= len(hits) or _adjective(name, text, hits) or _titled_noun(text, hits):
                continue
        counts[name] = len(hits)
        spread[name] = spread_of(hits, starts)
    inside: Counter[str] = Counter()
    for name, n in counts.items():
        words = name.split()
        for i in range(len(words)):
            for j in range(i + 1, len(words) + 1):
                if j - i < len(words):
                    inside[" ".join(words[i:j])] += n
    kept = [n for n in counts if inside[n] * 2 <= counts[n]]
    ranked = sorted(kept, key=lambda n: -counts[n] * (1 + math.log(spread[n])))
    return [Named(n, counts[n], spread[n]) for n in ranked[:top]]


_PLACE_BEFORE = re.compile(
    r"\b(?:at|in|from|into|near|towards|toward|through|reach|reached|leave|left|quit|"
    r"quitting|visit|visited)\s+(?:the\s+)?$",
    re.IGNORECASE,
)
_ACTS_AFTER = re.compile(
    r"^(?:['’]s\b|(?:,[^,.;:!?]{1,60},)?\s+(?:[a-z]+ed\b|said|cried|replied|answered|asked|thought|felt|was|had|would|could|"
    r"did|looked|saw|went|came|began|made|knew|told|took|gave|found|heard)\b)"
)
_SAID_BEFORE = re.compile(r"\b(?:said|cried|replied|answered|asked)\s+$")
_PERSONAL_TITLE = re.compile(r"^(?:Mr|Mrs|Miss|Ms|Dr|Sir|Lady|Lord|Madame|Mme|Captain|Colonel)\b")
"""A name that opens with a person's title is no place, wherever it is written."""
PLACE_SHARE = 0.2
"""A name written after "at", "in", "from" ... this often is a place (measured on the rule
texts: places 0.25-0.67 of their mentions, people at most 0.12)."""
ACTING_SHARE = 0.05
"""A name that acts or speaks in fewer of its mentions is no one in the story (a word the
story honours with a capital: "Leviathan", "Little Brother")."""


def places_apart(text: str, named: Sequence[Named], story: bool = True) -> list[Named]:
    """``named`` with the places marked (:attr:`Named.place`: named after "at", "in", "from",
    "reached" ... in at least :data:`PLACE_SHARE` of its mentions), and, in a story (prose:
    ``story``), without the names that never act or speak (named before "said", "was",
    "went", a possessive, or after "said", in under :data:`ACTING_SHARE` of its
    mentions)."""
    index = Index(text)
    out = []
    for n in named:
        hits = index.hits(n.name)
        if not hits:
            continue
        end = len(n.name)
        at = sum(
            bool(_PLACE_BEFORE.search(text[max(0, h - 25) : h]))
            and not text.startswith(("'s", "’s"), h + end)  # "at Mrs. Goddard's": her house
            for h in hits
        )
        acts = sum(
            bool(_ACTS_AFTER.match(text[h + end : h + end + 80]))
            or bool(_SAID_BEFORE.search(text[max(0, h - 15) : h]))
            for h in hits
        )
        place = at >= PLACE_SHARE * len(hits) and not _PERSONAL_TITLE.match(n.name)
        if story and not place and acts < ACTING_SHARE * len(hits):
            continue
        out.append(Named(n.name, n.mentions, n.spread, place))
    return out
