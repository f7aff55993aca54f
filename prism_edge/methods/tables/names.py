"""Names as people say them: a capitalised phrase of the question that names a cell shorter or
differently than it is written ("Delta" for ``Delta Air Lines Inc.``, "Kennedy International"
for ``John F Kennedy Intl``, "LaGuardia" for ``La Guardia``, "Saint Louis" for ``St. Louis``,
"the Cubs" for ``Chicago Cubs``), a place by its adjective ("Cuban" for ``Cuba``: :func:`places`).

A phrase names a cell when its words, normalised (the usual short forms one form, words that
say only what kind of thing it is dropped), are all found in the cell's in order, a word of the
phrase also matching two or three of the cell's written together ("laguardia": "la guardia");
kept where it names few of the column's values (uniquely or nearly so), the cells it names
whole before those it names in part. Only phrases that name no cell as written are read so:
the cell mentions of :mod:`prism_edge.methods.tables.mentions` come first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from prism_edge.methods.tables.codes import cased
from prism_edge.methods.tables.words import STOP, tokens

SAME: dict[str, str] = {
    "international": "intl", "intern'l": "intl", "saint": "st", "mount": "mt", "fort": "ft",
    "mountain": "mtn", "avenue": "ave", "road": "rd", "company": "co",
    "corporation": "corp", "incorporated": "inc", "limited": "ltd", "university": "univ",
    "national": "natl", "regional": "rgnl", "municipal": "muni", "county": "co",
    "brothers": "bros", "junior": "jr", "senior": "sr", "doctor": "dr", "north": "n",
    "south": "s", "east": "e", "west": "w", "center": "ctr", "centre": "ctr",
}  # fmt: skip
"""Words and the short forms they are written by: both read as the short one."""
KIND_WORDS = frozenset({
    "airport", "airports", "airline", "airlines", "air", "lines", "inc", "corp", "co", "ltd",
    "llc", "the", "of", "and", "&", "club", "fc", "team", "field", "stadium", "park",
})  # fmt: skip
"""Words that say what kind of thing a name is, often left out when it is said."""
NEARLY = 3
"""Values of a column one phrase may name at most (beyond, it names none in particular)."""
CONNECT = frozenset({"of", "de", "la", "le", "del", "da", "van", "von", "and", "&", "."})
"""Words inside a name written in lower case ("Bank of America") or a mark ("St. Louis")."""


class Phrase(NamedTuple):
    start: int
    end: int
    words: tuple[str, ...]
    """Its words normalised (:func:`normal`), those of a kind dropped."""


def normal(words: Sequence[str]) -> tuple[str, ...]:
    """Words normalised: folded, marks and dots out, short forms one form, kind words
    dropped (unless nothing else is left)."""
    plain = [SAME.get(w, w) for w in (w.replace(".", "").replace("'", "") for w in words)]
    plain = [w for w in plain if w and (w[0].isalnum())]
    kept = [w for w in plain if w not in KIND_WORDS]
    return tuple(kept or plain)


def phrases(question: str, words: Sequence[str]) -> list[Phrase]:
    """The question's capitalised phrases: runs of words written with a capital (the first
    word of the question only where it is no function word), lower-case joining words
    between two of them; each run and every shorter run within it that starts or ends with
    it (longest first)."""
    said = cased(question, words)
    if said is None:
        return []
    caps = [
        bool(w[:1].isupper()) and (i > 0 or words[i] not in STOP) and words[i] not in STOP
        for i, w in enumerate(said)
    ]
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(said):
        if not caps[i]:
            i += 1
            continue
        j = i + 1
        while j < len(said) and (
            caps[j] or (words[j] in CONNECT and j + 1 < len(said) and caps[j + 1])
        ):
            j += 1
        runs.append((i, j))
        i = j
    found = []
    for start, end in runs:
        for size in range(end - start, 0, -1):
            for s in range(start, end - size + 1):
                if words[s] in CONNECT or words[s + size - 1] in CONNECT:
                    continue
                cut = normal(words[s : s + size])
                if cut:
                    found.append(Phrase(s, s + size, cut))
    return found


def within(phrase: Sequence[str], cell: Sequence[str]) -> int | None:
    """How many of the cell's words the phrase's words match, in order (a phrase's word also
    matching two or three of the cell's written together), or None if some word is not
    found."""
    at, used = 0, 0
    for word in phrase:
        for j in range(at, len(cell)):
            hit = next((n for n in (1, 2, 3) if "".join(cell[j : j + n]) == word), None)
            if hit is not None:
                at, used = j + hit, used + hit
                break
        else:
            return None
    return used


Cells = list[tuple[str, tuple[str, ...], str]]


def named(phrase: Phrase, cells: Cells) -> tuple[list[str], bool]:
    """The values ``phrase`` names of a column's ``cells`` (each value, its folded text, with
    its words normalised: :func:`column_cells`), and whether it names them whole: those it
    names whole where any, else those it names in part; none where it names more than
    :data:`NEARLY` of them."""
    whole: list[str] = []
    part: list[str] = []
    first = phrase.words[0]
    for value, cell, joined in cells:
        if first not in joined:
            continue  # cheap: its first word is nowhere in the cell
        used = within(phrase.words, cell)
        if used is None:
            continue
        (whole if used == len(cell) else part).append(value)
        if len(whole) > NEARLY:
            break
    chosen = whole or part
    if not chosen or len(chosen) > NEARLY:
        return [], False
    return chosen, bool(whole)


def column_cells(values: Sequence[str]) -> Cells:
    """A column's values (folded texts) with their words normalised and those written
    together, those with a letter."""
    out = []
    for value in values:
        if any(c.isalpha() for c in value):
            cell = normal(tokens(value))
            if cell:
                out.append((value, cell, "".join(cell)))
    return out


_ADJECTIVES = (("ian", ("", "a", "y", "ia")), ("ese", ("", "a")), ("an", ("", "a", "o", "e")),
               ("i", ("",)))  # fmt: skip
"""The endings of English adjectives of places and what the place's name ends with instead
("Canadian": Canad-a, "Italian": Ital-y, "Japanese": Japan, "Chinese": Chin-a, "Cuban":
Cub-a, "Mexican": Mexic-o, "Israeli": Israel)."""
MIN_PLACE = 4
"""Letters of a place's name at least, read from its adjective."""


def places(word: str) -> list[str]:
    """The names of places whose adjective ``word`` may be, by the endings English makes
    them with (:data:`_ADJECTIVES`): "cuban": cuba, cubo, ...; "canadian": canada, ...; the
    cells say which is a place (a column's cell must be one of them whole)."""
    found: list[str] = []
    for ending, instead in _ADJECTIVES:
        if word.endswith(ending) and word.isalpha():
            root = word[: -len(ending)]
            found += [root + e for e in instead if len(root + e) >= MIN_PLACE]
    return list(dict.fromkeys(w for w in found if w != word))
