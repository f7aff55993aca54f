"""What a summary may quote, and which quotes say most: rules over the text alone, no model.

A summary made of the text's own sentences is only as good as what it leaves out and what it
picks. This module holds the program's side of both, each a pure function a method calls:

* :func:`plausible_name`: a capitalised run that is no name (a contraction such as "I'm", a
  pronoun, "Thy" at the head of a verse line, a heading word such as "Chapter", a month);
* :func:`is_prose`: a sentence a reader would keep (not a footnote, a heading, a table of
  contents line, a licence clause or a title-case line);
* :func:`title_of`: the title line at the head of a text, when it has one;
* :func:`description_score`: how much a sentence says who or what a name is (an apposition
  "Bagheera, the Black Panther", a copula "Akela was a great gray Lone Wolf", a relative "Kaa,
  who ...", "named X", an introduction early in the text), against a sentence that merely
  mentions it;
* :func:`event_score`: how much a sentence carries what happens in its part of the text
  (narration that shares the part's most used content words and names its people).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping

from prism_edge.text.grounding import FUNCTION_WORDS, WORD, whole_word

_ARCHAIC = "thou thee thy thine ye yon hath doth art shalt wilt hast dost ere o oh ah alas"
_INTERJECTIONS = "yes well nay ay aye hark lo hush pray sir madam lord lady good"
_HEADINGS = (
    "chapter book part act scene section contents appendix volume canto footnote note page "
    "figure table index preface introduction prologue epilogue illustration stanza verse"
)
_COMPANY = "corp corporation co inc ltd llc plc ab ag sa nv gmbh company bank group"
_CALENDAR = (
    "jan feb mar apr jun jul aug sep sept oct nov dec "
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday"
)
_PRONOUNS = (
    "i me my mine myself you your yours he him his she her hers it its we us our ours they "
    "them their theirs this that these those who whom whose what which everybody everyone "
    "nobody somebody someone anyone anything nothing everything something"
)
NOT_NAMES = (
    frozenset(
        " ".join((_ARCHAIC, _INTERJECTIONS, _HEADINGS, _COMPANY, _CALENDAR, _PRONOUNS)).split()
    )
    | FUNCTION_WORDS
)
"""Words that are no name on their own, however they are written."""
_CONTRACTION = re.compile(r"\w['’](?:m|s|re|ve|ll|d|t)$", re.IGNORECASE)


def plausible_name(name: str) -> bool:
    """Whether ``name`` (a capitalised run of words) can name someone or something: not a
    contraction ("I'm", "Don't"), not one word of :data:`NOT_NAMES` ("Thy", "Chapter",
    "July", "Everybody", "Corp"), not written in lower case, and not only digits."""
    words = name.split()
    if not words or not name[:1].isupper() or _CONTRACTION.search(name):
        return False
    if len(words) == 1 and words[0].rstrip(".").casefold() in NOT_NAMES:
        return False
    return any(c.isalpha() for c in name)


_FOOTNOTE = re.compile(r"^\[?\s*(?:footnote|note|illustration)\b|^\[\d+\]|^\*\s", re.IGNORECASE)
_HEADING = re.compile(
    r"^(?:chapter|book|part|act|scene|section|canto|stanza|appendix|volume)\s+"
    r"(?:[\dIVXLC]+|one|two|three|four|five|six|seven|eight|nine|ten)\b",
    re.IGNORECASE,
)
_NUMBERED = re.compile(r"^(?:\d+\.)+\d*\s|^[A-Z]\.\d+\.?\s")
_CONTENTS = re.compile(r"\.{4,}\s*\d+\s*$|\s{3,}\d+\s*$")
_LICENCE = re.compile(
    r"\b(?:copyright|licen[cs]ed?|redistribut\w*|warrant\w*|all rights reserved|"
    r"permission is (?:hereby )?granted|project gutenberg|e-?mail|https?://|www\.)",
    re.IGNORECASE,
)
_CODE = frozenset("()[]{}=<>#*_`|@$%^~/\\;")
_ENDS = re.compile(r"[.!?][\"'’”)\]]*$")
MIN_PROSE_WORDS = 5


def is_prose(sentence: str) -> bool:
    """Whether a summary may quote ``sentence``: at least :data:`MIN_PROSE_WORDS` words,
    ending as a sentence does, and not a footnote, a heading ("CHAPTER IV.", "1.2.
    Pronouncing Debian"), a table-of-contents line, a licence or address line, a line in
    capitals or a line of title-case words (a title, a list of names), nor code (a ``>>>``
    session, or more than 4% of brackets, operators and markup)."""
    text = sentence.strip()
    words = WORD.findall(text)
    if len(words) < MIN_PROSE_WORDS or not _ENDS.search(text):
        return False
    if _FOOTNOTE.search(text) or _HEADING.search(text) or _NUMBERED.search(text):
        return False
    if _CONTENTS.search(text) or _LICENCE.search(text) or ("<" in text and "@" in text):
        return False
    if ">>>" in text or sum(c in _CODE for c in text) > 0.04 * len(text):
        return False  # code, a prompt session, markup
    letters = [c for c in text if c.isalpha()]
    if letters and sum(c.isupper() for c in letters) > 0.6 * len(letters):
        return False
    content = [w for w in words if w.casefold() not in FUNCTION_WORDS]
    capitalised = [w for w in content if w[:1].isupper()]
    return not (len(content) >= 3 and len(capitalised) > 0.75 * len(content))


_TITLE_SKIP = re.compile(
    r"^(?:chapter|book|part|act|scene|section|canto|appendix|volume)\s+[\dIVXLC]+\b|"
    r"^(?:produced by|by\b|copyright|version|contents|transcribed|edited|translated|"
    r"release date|language|author)",
    re.IGNORECASE,
)
TITLE_LINES = 12
"""Non-empty lines at the head of a text searched for its title."""


def title_of(text: str) -> str | None:
    """The title line at the head of ``text``: among its first :data:`TITLE_LINES` non-empty
    lines, the first written in capitals ("THE JUNGLE BOOK"), else the first in title case
    ("A Brief History of Debian"), of at most 12 words, not ending as a sentence does, and not
    a credit, a copyright or a contents line; None when there is none."""
    lines = [line.strip() for line in text.splitlines() if line.strip()][:TITLE_LINES]
    candidates = []
    for line in lines:
        words = WORD.findall(line)
        if not words or len(words) > 12 or _TITLE_SKIP.search(line) or line[-1] in ".,;:?":
            continue
        if _NUMBERED.search(line):  # "1.1. What Is Debian?": a section's heading
            continue
        if not any(c.isalpha() for c in line) or re.fullmatch(r"[\W_]+", line):
            continue
        content = [w for w in words if w.casefold() not in FUNCTION_WORDS]
        if line.isupper() and len(content) >= 1:
            return line
        if content and all(w[:1].isupper() or w[:1].isdigit() for w in content):
            candidates.append(line)
    return candidates[0] if candidates else None


_NOUN_AFTER = r"(?:the|a|an|his|her|their|its|our|my)\s+\w+"


def _cues(name: str) -> list[tuple[re.Pattern[str], float]]:
    n = re.escape(name)
    return [
        # "Bagheera, the Black Panther", "Mr. Bingley, a young man"
        (re.compile(rf"(?<!\w){n}['’]?s?,\s+{_NOUN_AFTER}"), 3.0),
        # "Akela, who ...", "Kaa, whose ..."
        (re.compile(rf"(?<!\w){n},\s+(?:who|whose|whom|which)\b"), 2.0),
        # "Akela was a great gray Lone Wolf", "Debian is an operating system"
        (
            re.compile(rf"(?<!\w){n}\s+(?:was|is|were|are|had been|became)\s+(?:a|an|the|one)\b"),
            3.0,
        ),
        # "Mr. Bennet was so odd a mixture of ...", "Lady Russell was a steady woman"
        (
            re.compile(
                rf"(?<!\w){n}\s+(?:was|is|had been|became|seemed)\s+(?:\w+\s+){{1,3}}(?:a|an)\b"
            ),
            2.0,
        ),
        (re.compile(rf"(?<!\w){n}\s+(?:was|is)\s+(?:\w+\s+){{0,2}}(?:of|from)\b"), 1.0),
        # "the Black Panther, Bagheera", "a wary old python, Kaa"
        (re.compile(rf"\b(?:the|a|an)\s+(?:[\w-]+\s+){{0,2}}[\w-]+,\s+{n}(?!\w)"), 1.5),
        # "named Mowgli", "called the Monkey-People", "son of Duncan", "wife to Caesar"
        (re.compile(rf"\b(?:named|called|known as)\s+(?:the\s+)?{n}(?!\w)"), 2.0),
        (
            re.compile(
                rf"(?<!\w){n}['’]?s?,?\s+(?:son|daughter|wife|husband|brother|sister|"
                rf"father|mother|friend|servant|king|queen|leader|founder)\b"
            ),
            2.5,
        ),
        (
            re.compile(
                rf"\b(?:son|daughter|wife|husband|brother|sister|father|mother|friend|"
                rf"servant)\s+(?:of|to)\s+{n}(?!\w)"
            ),
            1.0,
        ),
    ]


def description_score(sentence: str, name: str) -> float:
    """How much ``sentence`` says who or what ``name`` is: the cues it holds (apposition,
    copula, relative clause, "named X", a kinship or office word beside the name), a bonus
    when the name opens the sentence as its subject, a penalty for dialogue, questions and
    exclamations, and for length beyond 30 words. 0 when it does not name ``name``."""
    if not whole_word(name).search(sentence):
        return 0.0
    score = 0.0
    for pattern, weight in _cues(name):
        if pattern.search(sentence):
            score += weight
    stripped = sentence.lstrip("\"'“‘(")
    if stripped.startswith(name):
        score += 0.5
    if re.search(r"[\"“”]", sentence):
        score -= 1.0
    if sentence.rstrip("\"'’”)").endswith(("?", "!")):
        score -= 1.0
    words = len(sentence.split())
    if words > 30:
        score -= (words - 30) / 10
    return score


def content_counts(text: str) -> Counter[str]:
    """How often ``text`` uses each content word (lower case, not a function word, three
    letters or more)."""
    return Counter(
        w.casefold()
        for w in WORD.findall(text)
        if len(w) >= 3 and w.casefold() not in FUNCTION_WORDS
    )


def event_score(sentence: str, counts: Mapping[str, int], names: Iterable[str] = ()) -> float:
    """How much ``sentence`` carries what happens where it was read: the mean of log(1 +
    uses) over its content words in its part of the text (``counts``: a central sentence
    uses the part's own words), plus one for each of ``names`` it names (at most three);
    dialogue and questions count less; 0 for what :func:`is_prose` refuses."""
    if not is_prose(sentence):
        return 0.0
    words = [w.casefold() for w in WORD.findall(sentence)]
    content = [w for w in words if len(w) >= 3 and w not in FUNCTION_WORDS]
    if not content:
        return 0.0
    central = sum(math.log1p(counts.get(w, 0)) for w in content) / math.sqrt(len(content))
    named = min(3, sum(1 for n in names if whole_word(n).search(sentence)))
    score = central + named
    if re.search(r"[\"“”]", sentence):
        score *= 0.5
    if sentence.rstrip("\"'’”)").endswith("?"):
        score *= 0.5
    if len(words) > 45:
        score *= 45 / len(words)
    return score
