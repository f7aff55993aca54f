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
from collections.abc import Callable, Mapping, Sequence

from prism_edge.text.grounding import whole_word
from prism_edge.text.prose import description_score, is_prose, plausible_name

MAIN_DESCRIBED = 8
"""Names given a line with their sentence at most."""
ALSO_NAMED = 20
"""Further names listed at most."""
NAMES_SHARE = 0.45
"""Of the answer's budget, what the described names may take at most."""
ALSO_SHARE = 0.15
"""And the list of further names."""
MAX_PARTS = 12
"""Parts of the input told in "What happens" at most."""

Describer = Callable[[str, Sequence[str]], str]
"""Chooses, of a name's candidate sentences, the one that says who or what it is."""


def by_cues(name: str, sentences: Sequence[str]) -> str:
    """The program's choice: the highest :func:`description_score`, the first read on a
    tie."""
    return max(sentences, key=lambda s: (description_score(s, name), -sentences.index(s)))


def main_names(entries: Mapping[str, Sequence[str]], mentions: Mapping[str, int]) -> list[str]:
    """The stored names, the most mentioned first, without those said mostly inside longer
    names the input offered ("Wolf" beside "Father Wolf" and "Mother Wolf") and without what is no name
    (:func:`plausible_name`). Words in lower case (a manual's subjects) are kept only when
    they are most of what is stored: in a story they are a name-less chunk's stopgap."""
    stored = [n for n in entries if mentions.get(n)]
    lower = [n for n in stored if not n[:1].isupper()]
    subjects = 2 * len(lower) > len(stored)
    allowed = [n for n in stored if plausible_name(n) or (subjects and n in lower)]
    ranked = sorted(allowed, key=lambda n: (-mentions[n], n))
    every = [n for n in mentions if mentions[n]]
    return [n for n in ranked if not _mostly_inside(n, every, mentions)]


def _mostly_inside(name: str, names: Sequence[str], mentions: Mapping[str, int]) -> bool:
    part = whole_word(name)
    inside = sum(mentions[n] for n in names if n != name and part.search(n))
    return inside * 2 > mentions[name]


def compose(
    entries: Mapping[str, Sequence[str]],
    mentions: Mapping[str, int],
    events: Sequence[tuple[int, str, float]],
    budget: int,
    count: Callable[[str], int],
    title: str | None = None,
    describe: Describer = by_cues,
) -> str:
    """The summary within ``budget`` (in ``count``'s units): the title, the main names with
    their describing sentences, the further names, then what happens part by part. Empty
    when the memory holds nothing to say."""
    used_sentences: set[str] = set()
    head = [title] if title else []
    used = sum(count(line + "\n") for line in head)
    names = main_names(entries, mentions)
    described: list[str] = []
    lines: list[str] = []
    room = int(budget * NAMES_SHARE)
    spent = count("Who and what:\n")
    for name in names[:MAIN_DESCRIBED]:
        candidates = [s for s in entries[name] if is_prose(s) and s not in used_sentences]
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
    rest = [n for n in names if n not in described][:ALSO_NAMED]
    also = ""
    for n in range(len(rest), 0, -1):
        candidate = "Also named: " + ", ".join(rest[:n]) + "."
        if count(candidate + "\n") <= min(int(budget * ALSO_SHARE), budget - used):
            also = candidate
            break
    used += count(also + "\n") if also else 0
    room_left = budget - used - count("\nWhat happens:\n")
    happens = _what_happens(events, used_sentences, room_left, count)
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
) -> list[str]:
    """One sentence for each part of the input, in reading order, as many parts as ``room``
    holds (:data:`MAX_PARTS` at most): the steps cut into that many runs of consecutive
    steps, each run told by its best-scored prose sentence not shown already."""
    usable = [(i, s, x) for i, s, x in events if s not in taken and is_prose(s)]
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
