"""Who and what a long text is about, and the words of the text that say what each is.

* :func:`speakers_named`: a play's people, from its speakers' names as the text writes them
  ("OTHELLO.", "Ham." for Hamlet), the most speeches first;
* :func:`names_ranked`: a story's or a poem's people and places, from the names it writes
  mid-sentence, without what is no name (an interjection or an imperative at the head of
  speech, a number word, a language, a heading word, a common noun, a word said mostly inside
  a longer name);
* :func:`terms_ranked`: a report's, manual's or paper's subjects: the names and terms its
  sentences define ("X is a ...", "X, a ...", "called X");
* :func:`describe`: for one of them, the clause of the text that says what it is (an
  apposition, a definition, a role word beside the name, an introduction), not a sentence that
  merely mentions it.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from prism_edge.text.grounding import FUNCTION_WORDS, names_of, whole_word
from prism_edge.text.passages import Sentence, dialogue, mid_thought
from prism_edge.text.prose import NOT_NAMES, description_score, plausible_name

ROLE_WORDS = frozenset(
    [
        "king",
        "queen",
        "prince",
        "princess",
        "duke",
        "duchess",
        "lord",
        "lady",
        "earl",
        "count",
        "countess",
        "baron",
        "knight",
        "sir",
        "emperor",
        "empress",
        "pope",
        "cardinal",
        "bishop",
        "priest",
        "friar",
        "monk",
        "nun",
        "abbot",
        "parson",
        "vicar",
        "clergyman",
        "general",
        "captain",
        "lieutenant",
        "ancient",
        "colonel",
        "major",
        "sergeant",
        "soldier",
        "officer",
        "admiral",
        "commander",
        "senator",
        "governor",
        "judge",
        "magistrate",
        "mayor",
        "sheriff",
        "constable",
        "ambassador",
        "minister",
        "chancellor",
        "counsellor",
        "councillor",
        "courtier",
        "steward",
        "butler",
        "servant",
        "slave",
        "page",
        "maid",
        "nurse",
        "governess",
        "clown",
        "fool",
        "jester",
        "shepherd",
        "shepherdess",
        "sailor",
        "mariner",
        "boatswain",
        "master",
        "mistress",
        "merchant",
        "jew",
        "moor",
        "lawyer",
        "doctor",
        "physician",
        "surgeon",
        "apothecary",
        "tutor",
        "teacher",
        "scholar",
        "student",
        "poet",
        "writer",
        "author",
        "founder",
        "leader",
        "president",
        "chairman",
        "secretary",
        "chief",
        "head",
        "editor",
        "maintainer",
        "developer",
        "father",
        "mother",
        "son",
        "daughter",
        "brother",
        "sister",
        "wife",
        "husband",
        "widow",
        "widower",
        "uncle",
        "aunt",
        "nephew",
        "niece",
        "cousin",
        "grandfather",
        "grandmother",
        "heir",
        "child",
        "children",
        "friend",
        "lover",
        "suitor",
        "bride",
        "bridegroom",
        "companion",
        "neighbour",
        "neighbor",
        "guardian",
        "ward",
        "spirit",
        "ghost",
        "witch",
        "fairy",
        "god",
        "goddess",
        "monster",
        "savage",
        "villain",
        "hero",
        "heroine",
        "usurper",
        "rival",
        "enemy",
        "ally",
        "tenant",
        "farmer",
        "hunter",
        "gentleman",
        "gentlewoman",
        "man",
        "woman",
        "boy",
        "girl",
        "youth",
        "usurer",
        "bastard",
        "whale",
        "ship",
        "island",
        "city",
        "town",
        "village",
        "country",
        "kingdom",
        "river",
        "mountain",
        "house",
        "hall",
        "park",
        "estate",
        "abbey",
        "castle",
        "palace",
        "project",
        "company",
        "organisation",
        "organization",
        "society",
        "team",
        "language",
        "library",
        "package",
        "module",
        "function",
        "class",
        "program",
        "tool",
        "system",
        "distribution",
        "operating",
        "version",
    ]
)
"""Words that say who or what someone or something is (an office, a kinship, a trade, a
kind of place or thing): a clause that puts one beside a name states its role."""

_NUMBERS = frozenset(
    [
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "twenty",
        "thirty",
        "forty",
        "fifty",
        "hundred",
        "thousand",
        "million",
        "first",
        "second",
        "third",
        "fourth",
        "fifth",
        "sixth",
        "seventh",
        "eighth",
        "ninth",
        "tenth",
        "half",
        "once",
        "twice",
    ]
)
_SPEECH_WORDS = frozenset(
    [
        "come",
        "look",
        "sure",
        "yes",
        "no",
        "nay",
        "well",
        "oh",
        "ah",
        "alas",
        "hark",
        "lo",
        "hush",
        "pray",
        "why",
        "what",
        "how",
        "fie",
        "tut",
        "pish",
        "pooh",
        "indeed",
        "aye",
        "ay",
        "o",
        "farewell",
        "adieu",
        "welcome",
        "hail",
        "peace",
        "silence",
        "away",
        "go",
        "stay",
        "stand",
        "hold",
        "help",
        "enough",
        "quick",
        "quickly",
        "good",
        "great",
        "dear",
        "poor",
        "heaven",
        "heavens",
        "god",
        "lord",
        "thank",
        "thanks",
        "please",
        "sorry",
        "hello",
        "hi",
        "hey",
        "bravo",
        "amen",
        "marry",
        "faith",
        "troth",
        "zounds",
        "hence",
        "fly",
        "run",
        "see",
        "hear",
        "say",
        "tell",
        "speak",
        "nothing",
        "nobody",
        "never",
        "always",
        "ever",
        "perhaps",
        "certainly",
        "surely",
        "very",
    ]
)
"""Words a text capitalises at the head of quoted speech or an exclamation, which are no
names however often they stand there."""
_HEADING_WORDS = frozenset(
    [
        "overview",
        "introduction",
        "summary",
        "contents",
        "preface",
        "appendix",
        "index",
        "glossary",
        "chapter",
        "section",
        "part",
        "book",
        "act",
        "scene",
        "note",
        "notes",
        "example",
        "examples",
        "figure",
        "table",
        "abstract",
        "conclusion",
        "conclusions",
        "references",
        "bibliography",
        "acknowledgements",
        "acknowledgments",
        "foreword",
        "afterword",
        "epilogue",
        "prologue",
        "see",
        "also",
        "warning",
        "tip",
        "important",
        "caution",
    ]
)


def not_a_name(word: str) -> bool:
    """A single word that is no name wherever it is capitalised: a function word, a pronoun
    or heading word of :data:`NOT_NAMES`, a number word, a word of speech ("Come", "Look"), a
    heading word ("Overview")."""
    w = word.casefold().rstrip(".")
    return (
        w in NOT_NAMES
        or w in _NUMBERS
        or w in _SPEECH_WORDS
        or w in _HEADING_WORDS
        or w in FUNCTION_WORDS
    )


@dataclass(frozen=True)
class Named:
    """One of the text's main people, places or subjects: its name as the text writes it,
    how often it is named, and in how many of the text's parts."""

    name: str
    mentions: int
    spread: int = 1


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


def _spread(hits: Sequence[int], starts: Sequence[int]) -> int:
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
        spread[name] = _spread(hits, starts)
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
        if term[:1].isupper() and term not in defined and len(words) == 1:
            lower = len(index.hits(term.lower()))
            if lower >= len(hits) or _adjective(term, text, hits):
                continue
        counts[term] = len(hits)
        spread[term] = _spread(hits, starts)
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


_CLAUSE_CUT = re.compile(r"\s*(?:;|:|--|—|\(|\))\s*")
MAX_CLAUSE_WORDS = 20


_APPOSITION = re.compile(
    r"['’]?s?,\s+(?:(?:my|the|a|an|his|her|our|your|thy|their|this|that)\s+)?"
    r"((?:[\w'’-]+\s+){0,3}[\w'’-]+)"
)
_NOUN_APPOSITION = re.compile(
    r"(?:,\s+|\s+)(?:the|a|an)\s+(?:[\w'’-]+\s+){0,2}[\w'’-]+(?:\s+of\s+[\w'’-]+)?\s*[,.;]"
)
_TITLE_BEFORE = re.compile(r"(\w+),?\s+(?:of\s+\w+,?\s+)?$")
_POSSESSIVE = re.compile(r"['’]s\s+(?:\w+\s+)?(\w+)")


WEAK_ROLES = frozenset(
    [
        "lord",
        "lady",
        "sir",
        "master",
        "mistress",
        "man",
        "woman",
        "boy",
        "girl",
        "gentleman",
        "gentlewoman",
        "friend",
    ]
)
"""Role words a speaker also says to anyone ("my lord", "sir", "good friend"): weaker
evidence of who someone is than an office or a kinship."""


def _role(word: str) -> float:
    w = word.casefold()
    if w not in ROLE_WORDS and not (w.endswith("s") and w[:-1] in ROLE_WORDS):
        return 0.0
    return 0.3 if w in WEAK_ROLES or w[:-1] in WEAK_ROLES else 1.0


@lru_cache(maxsize=1024)
def _named(name: str) -> re.Pattern[str]:
    return whole_word(name)


def _role_near(sentence: str, name: str) -> float:
    """How much ``sentence`` sets a role word (:data:`ROLE_WORDS`) beside ``name``: an
    apposition ("Cassio, his lieutenant"; "Mr. Knightley, a sensible man"), a title before
    it ("Lieutenant Cassio", "the Duke of Milan, Prospero"), a possessive ("Othello's
    ancient"), or one within four words."""
    best = 0.0
    for m in _named(name).finditer(sentence):
        score = 0.0
        after = sentence[m.end() : m.end() + 90]
        before = sentence[max(0, m.start() - 60) : m.start()]
        a = _APPOSITION.match(after)
        if a:
            score += 3.0 * max((_role(w) for w in a.group(1).split()), default=0.0)
        if _NOUN_APPOSITION.match(after):  # "Bagheera, the Black Panther", "Kaa the python"
            score += 1.5
        b = _TITLE_BEFORE.search(before)
        if b:
            score += 2.0 * _role(b.group(1))
        p = _POSSESSIVE.match(after)
        if p:
            score += 1.0 * _role(p.group(1))
        near = re.findall(r"\w+", before)[-4:] + re.findall(r"\w+", after)[:4]
        score += max((_role(w) for w in near), default=0.0)
        best = max(best, score)
    return best


_SUBJECT = re.compile(r"^\W*(?:the\s+|a\s+|an\s+)?\w")


def _defines(sentence: str, name: str) -> bool:
    """Whether ``sentence`` opens with ``name`` (after an article) and says what it is
    within a few words ("Debian GNU/Linux is a ...", "A package is ...")."""
    m = re.match(
        rf"^\W*(?:the\s+|a\s+|an\s+)?{re.escape(name)}(?!\w)(?:\s+[\w/.+-]+){{0,3}}?\s+"
        r"(?:is|are|was|were|means|refers to|stands for|denotes)\b",
        sentence,
        re.IGNORECASE,
    )
    return m is not None


@dataclass(frozen=True)
class Described:
    """A main name and the words of the text that say what it is."""

    name: str
    clause: str
    score: float


def describe(
    name: str,
    said: Sequence[Sentence],
    story: bool = True,
    speaker_of: Mapping[str, str] | None = None,
) -> Described | None:
    """The clause of the text that best says who or what ``name`` is: of the sentences naming
    it, the one with the most of :func:`description_score`'s cues and a role word beside it
    (:func:`_role_near`), the first naming it gaining as an introduction; a line of dialogue
    counts less in a story, a question or an exclamation less anywhere; then only the clause
    holding the name (cut at a semicolon, a colon or a dash; at commas to
    :data:`MAX_CLAUSE_WORDS` words). None when no sentence names it."""
    best: tuple[float, int, str] | None = None
    first = True
    for index, s in enumerate(said):
        if s.kind == "direction" or name not in s.text or not _named(name).search(s.text):
            continue
        text = s.text
        words = len(text.split())
        if words < 4:
            continue
        score = 0.5 * description_score(text, name) + 4.0 * _role_near(text, name)
        if not story and _SUBJECT.match(text) and _defines(text, name):
            score += 3.0  # "Debian GNU/Linux is a particular distribution of ..."
        if first:
            score += 0.8
            first = False
        if story and dialogue(text) and s.kind == "prose":
            score -= 2.0
        if speaker_of is not None and speaker_of.get(s.speaker) == name:
            score -= 0.5
        if text.rstrip("\"'’”)").endswith(("?", "!")):
            score -= 1.0
        if mid_thought(text):
            score -= 1.5
        if words > 40:
            score -= (words - 40) / 10
        if best is None or score > best[0]:
            best = (score, index, text)
    if best is None:
        return None
    return Described(name, clause_of(best[2], name), best[0])


def clause_of(sentence: str, name: str) -> str:
    """The part of ``sentence`` that holds ``name``: the clause between semicolons, colons,
    dashes and brackets that names it, cut at commas around the name to
    :data:`MAX_CLAUSE_WORDS` words when longer."""
    pieces = [p for p in _CLAUSE_CUT.split(sentence) if p.strip()]
    holding = [p for p in pieces if whole_word(name).search(p)] or [sentence]
    clause = max(holding, key=lambda p: _role_near(p, name) + 0.01 * len(p.split()))
    if len(clause.split()) - len(name.split()) < 4:  # the name alone says nothing
        clause = sentence
    words = clause.split()
    if len(words) <= MAX_CLAUSE_WORDS:
        return clause.strip(" ,")
    commas = [p for p in re.split(r"(?<=,)\s+", clause)]
    at = next((i for i, p in enumerate(commas) if whole_word(name).search(p)), 0)
    lo = hi = at
    while True:
        grown = False
        if hi + 1 < len(commas) and _count(commas[lo : hi + 2]) <= MAX_CLAUSE_WORDS:
            hi += 1
            grown = True
        if lo > 0 and _count(commas[lo - 1 : hi + 1]) <= MAX_CLAUSE_WORDS:
            lo -= 1
            grown = True
        if not grown:
            break
    out = " ".join(commas[lo : hi + 1])
    if len(out.split()) > MAX_CLAUSE_WORDS:
        out = " ".join(out.split()[:MAX_CLAUSE_WORDS]) + " ..."
    return out.strip(" ,")


def _count(pieces: Iterable[str]) -> int:
    return sum(len(p.split()) for p in pieces)


_CAST_HEAD = re.compile(
    r"^\s*(?:dramatis\s+person\w*|persons\s+represented|the\s+persons(?:\s+of\s+the\s+play)?|"
    r"characters(?:\s+in\s+the\s+play)?|cast(?:\s+of\s+characters)?)\s*[.:]?\s*$",
    re.IGNORECASE | re.M,
)
_CAST_LINE = re.compile(
    r"^\s*(?P<name>[A-Z][\w'’.]*(?:\s+[A-Z][\w'’.]*){0,3}),\s+(?P<what>\S.{2,90})$"
)


def cast_list(text: str) -> dict[str, str]:
    """A play's list of characters, when its head has one (under "Dramatis Personae",
    "Persons Represented", "Characters"): each name (as the play writes it in its speeches,
    title case) with its line ("DUNCAN, King of Scotland")."""
    head = _CAST_HEAD.search(text[: len(text) // 5 + 2000])
    if head is None:
        return {}
    out: dict[str, str] = {}
    blank = 0
    for line in text[head.end() :].split("\n")[1:80]:
        if not line.strip():
            blank += 1
            if blank >= 3 and out:
                break
            continue
        blank = 0
        m = _CAST_LINE.match(line)
        if m:
            name = " ".join(w.capitalize() if w.isupper() else w for w in m.group("name").split())
            out.setdefault(name, " ".join(line.split()))
        elif re.match(r"^\s*(?:act|scene)\b", line, re.IGNORECASE):
            break
    return out
