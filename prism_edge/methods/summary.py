"""The summary a reader keeps, composed from a summary's memory: every sentence the text's own.

    A Brief History of Debian                          (the title line, when the text has one)

    Who and what:
    - Debian: The Debian Project is a worldwide group of volunteers who ...
    - Ian Murdock: The Debian Project was officially founded by Ian Murdock on ...
    Also named: Bruce Perens, Toy Story, DebConf.

    What happens:
    The Debian Project was officially founded by Ian Murdock on August 16th, 1993.
    ...                                                (one sentence for each part, in order)

The main names are the stored names the input mentioned most (a name said mostly inside a
longer stored name is not one of its own); each is shown with the stored sentence that says
most of who or what it is (:func:`prism_edge.text.prose.description_score`, or a chooser the
method passes: the model's), each sentence once. The names that do not fit a line of their
own are listed after. What happens is one sentence for each part of the input, parts being
runs of consecutive steps, as many as the budget holds; in each part the sentence that best
carries it (:func:`prism_edge.text.prose.event_score`, scored when it was read).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence

from prism_edge.text.grounding import whole_word
from prism_edge.text.prose import description_score, is_prose, plausible_name

MAIN_DESCRIBED = 8
"""Names given a line with their sentence at most."""
ALSO_NAMED = 40
"""Further names listed at most."""
NAMES_SHARE = 0.4
"""Of the answer's budget, what the described names may take at most."""
ALSO_SHARE = 0.3
ALSO_MENTIONS = 2
"""Mentions a further name needs to be listed (one seen once is no main name)."""
COVER = 1.0
"""What each name not yet in the answer adds to an event sentence's score (its weight
relative to the most mentioned name's): what happens is told with the people it happens
to."""
"""And the list of further names."""
LONGEST_DESCRIPTION = 45
"""Words of a describing sentence, beyond which it is used only when the name has no
shorter one."""
MAX_PARTS = 12
MAX_WEIGHED = 60
"""Main names an event sentence is credited for naming, at most (the most mentioned)."""
"""Parts of the input told in "What happens" at most."""

Describer = Callable[[str, Sequence[str]], str]
"""Chooses, of a name's candidate sentences, the one that says who or what it is."""


def by_cues(name: str, sentences: Sequence[str]) -> str:
    """The program's choice: the highest :func:`description_score`, the first read on a
    tie."""
    return max(sentences, key=lambda s: (description_score(s, name), -sentences.index(s)))


def main_names(
    entries: Mapping[str, Sequence[str]],
    mentions: Mapping[str, int],
    common: Collection[str] = (),
) -> list[str]:
    """The stored names, the most mentioned first, without those said mostly inside longer
    names the input offered ("Wolf" beside "Father Wolf" and "Mother Wolf"), what is no name
    (:func:`plausible_name`) and common nouns (``common``: words the input writes in lower
    case more often than capitalised). Words in lower case (a manual's subjects) are kept
    only when they are most of what is stored: in a story they are a name-less chunk's
    stopgap."""
    stored = [n for n in entries if mentions.get(n)]
    lower = [n for n in stored if not n[:1].isupper()]
    subjects = 2 * len(lower) > len(stored)
    allowed = [
        n for n in stored if (plausible_name(n) and n not in common) or (subjects and n in lower)
    ]
    ranked = sorted(allowed, key=lambda n: (-mentions[n], n))
    inside = _said_inside(mentions)
    return [n for n in ranked if inside.get(n, 0) * 2 <= mentions[n]]


def _said_inside(mentions: Mapping[str, int]) -> dict[str, int]:
    """For each run of words, the mentions of the longer names that hold it as words
    ("Wolf": those of "Father Wolf" and "Mother Wolf"), in one pass over the names."""
    inside: dict[str, int] = {}
    for name, said in mentions.items():
        words = name.split()
        parts = {
            " ".join(words[i:j])
            for i in range(len(words))
            for j in range(i + 1, len(words) + 1)
            if j - i < len(words)
        }
        for part in parts:
            inside[part] = inside.get(part, 0) + said
    return inside


def compose(
    entries: Mapping[str, Sequence[str]],
    mentions: Mapping[str, int],
    events: Sequence[tuple[int, str, float]],
    budget: int,
    count: Callable[[str], int],
    title: str | None = None,
    describe: Describer = by_cues,
    common: Collection[str] = (),
) -> str:
    """The summary within ``budget`` (in ``count``'s units): the title, the main names with
    their describing sentences, the further names, then what happens part by part. Empty
    when the memory holds nothing to say."""
    used_sentences: set[str] = set()
    head = [title] if title else []
    used = sum(count(line + "\n") for line in head)
    names = main_names(entries, mentions, common)
    described: list[str] = []
    lines: list[str] = []
    room = int(budget * NAMES_SHARE)
    spent = count("Who and what:\n")
    for name in names[:MAIN_DESCRIBED]:
        candidates = [s for s in entries[name] if is_prose(s) and s not in used_sentences]
        short = [s for s in candidates if len(s.split()) <= LONGEST_DESCRIPTION]
        candidates = short or candidates
        told = [s for s in candidates if not s.rstrip("\"'’”)").endswith(("?", "!"))]
        candidates = told or candidates  # a question or an exclamation says who no one is
        if not candidates:
            continue
        sentence = describe(name, candidates)
        line = f"- {name}: {sentence}"
        cost = count(line + "\n")
        if spent + cost > room:
            continue
        spent += cost
        lines.append(line)
        described.append(name)
        used_sentences.add(sentence)
    if lines:
        used += spent
    # further names: every name the input offered, not only those stored
    others = main_names({n: () for n in mentions}, mentions, common)
    rest = [n for n in others if n not in described and mentions[n] >= ALSO_MENTIONS]
    rest = rest[:ALSO_NAMED]
    also = ""
    for n in range(len(rest), 0, -1):
        candidate = "Also named: " + ", ".join(rest[:n]) + "."
        if count(candidate + "\n") <= min(int(budget * ALSO_SHARE), budget - used):
            also = candidate
            break
    used += count(also + "\n") if also else 0
    room_left = budget - used - count("\nWhat happens:\n")
    shown = set(described) | set(rest if also else ())
    top = max((mentions[n] for n in names), default=1)
    weights = {n: math.log1p(mentions[n]) / math.log1p(top) for n in names[:MAX_WEIGHED]}
    unseen = {n: w for n, w in weights.items() if n not in shown}
    happens = _what_happens(events, used_sentences, room_left, count, unseen)
    blocks = []
    if head:
        blocks.append(head[0])
    if lines or also:
        listed = (["Who and what:", *lines] if lines else []) + ([also] if also else [])
        blocks.append("\n".join(listed))
    if happens:
        blocks.append("\n".join(["What happens:", *happens]))
    if not lines and not happens:
        return ""
    return "\n\n".join(blocks)


def _what_happens(
    events: Sequence[tuple[int, str, float]],
    taken: set[str],
    room: int,
    count: Callable[[str], int],
    unseen: Mapping[str, float] | None = None,
) -> list[str]:
    """One sentence for each part of the input, in reading order, as many parts as ``room``
    holds (:data:`MAX_PARTS` at most): the steps cut into that many runs of consecutive
    steps, each run told by its best-scored prose sentence not shown already, a sentence
    gaining :data:`COVER` times the weight of each ``unseen`` name it names."""
    patterns = {n: whole_word(n) for n in unseen or {}}
    usable = [
        (i, s, x + COVER * sum(w for n, w in (unseen or {}).items() if patterns[n].search(s)))
        for i, s, x in events
        if s not in taken and is_prose(s)
    ]
    if not usable or room <= 0:
        return []
    steps = sorted({i for i, _, _ in usable})
    last = steps[-1] + 1
    words = [len(s.split()) for _, s, _ in usable]
    # a first guess from the mean sentence (about 1.4 tokens a word), then fewer parts
    guess = max(1, int(room / (1.4 * (sum(words) / len(words)) + 2)))
    for parts in range(min(MAX_PARTS, len(steps), guess + 2), 0, -1):
        chosen = []
        for p in range(parts):
            lo, hi = math.floor(p * last / parts), math.floor((p + 1) * last / parts)
            inside = [(x, -i, s) for i, s, x in usable if lo <= i < hi]
            if inside:
                chosen.append(max(inside)[2])
        if chosen and sum(count(s + "\n") for s in chosen) <= room:
            return chosen
    return []
