"""For one of a text's main names, the words of the text that say who or what it is.

A clause says who someone is when it puts a role or a description in a relation with the name
that reads one way: an apposition after it ("Cassio, Lieutenant to the warlike Moor Othello";
"Bagheera the Black Panther"), the name as the subject of "is" or "was" ("Shere Khan was the
tiger who ..."), a title before it ("Lieutenant Cassio", "the Duke of Cornwall"), the role set
before it with an article or a possessive ("his daughter, Miranda"), the kind of place written
after it as part of its fuller name ("Netherfield Park"), "named" or "called", or a
speaker's introduction of himself ("I am a prince", "my father named me Autolycus"). Relations
that point elsewhere are not read as the name's: "Othello's ancient" is Iago, "daughter to
Polonius" is Ophelia, and a play's line says nothing of its speaker (it is said BY him) unless
he introduces himself. The narrator's own "X was the N who ..." outranks an epithet a
speaker gives X in dialogue ("the Big One"): a noun predicate without a role word weighs more
in narration than in speech. When no sentence holds such a relation, the clause that names it with
the most cues of a description, preferring a line about the person to one addressed to them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from prism_edge.text.grounding import FUNCTION_WORDS, _abbreviated, whole_word
from prism_edge.text.passages import Sentence, dialogue, garbled, mid_thought
from prism_edge.text.people.refer import as_named, owned, owner, possessive
from prism_edge.text.people.words import (
    PLACE_ROLES,
    ROLE_WORDS,
    THING_ROLES,
    TITLES_OF_PLACE,
    WEAK_ROLES,
    role_weight,
)
from prism_edge.text.prose import description_score

ROLE_STATED = 4.5
"""A relation's weight from which it states what someone is, a noun phrase in narration
("was the youngest of the two daughters"), not a state ("was very fond of singing")."""
UNSURE_WHOSE = 1.0
"""What a clause that says whose someone is with a pronoun the text does not resolve ("his
son", in speech) weighs less: a reader cannot tell whose, and takes it for the line above's."""
_CLAUSE_CUT = re.compile(r"\s*(?:;|:|--|—|\(|\))\s*")
MAX_CLAUSE_WORDS = 20
MAX_PHRASE_WORDS = 18
"""Words of a relation's phrase at most (a name's apposition, its predicate)."""

_DET = r"(?:the|a|an|my|his|her|our|your|thy|their|this|that|one)"
_OWN = r"(?:my|his|her|our|your|thy|their|the)"
_WORDS = r"[\w'’-]+"
_NP_END = (
    r"(?=\s*(?:[,;:.!?)\"”’]|--|—|$)|"
    r"\s+(?:of|to|in|at|for|unto|from|who|whose|whom|that|which|where|and)\b)"
)
"""Where a noun phrase set beside a name ends: punctuation, or a preposition or relative
word going on with it ("Lieutenant to the warlike Moor", "the tiger who ...")."""
_APPOSED = re.compile(
    rf"^,\s+(?:({_DET})\s+)?((?:{_WORDS}\s+){{0,3}}?)({_WORDS}){_NP_END}", re.IGNORECASE
)
"""After a name: ", [the] [a word or two] ROLE" ending there (the role word its head)."""
_EPITHET_WORD = r"[A-Z][\w'’]+(?:-[\w'’]+)*"
_APPOSED_NAME = re.compile(
    rf"^,?\s+(the\s+(?:{_EPITHET_WORD}\s+){{0,2}}{_EPITHET_WORD})(?![\w'’-])"
)
"""After a name: "the Black Panther", "the Rock Python" (a name's capitalised epithet)."""
_ADJECTIVES_BEFORE = re.compile(
    r"(?:a|an)\s+(?:(?:very|most|rather|quite|so)\s+)?[a-z][\w'’-]*", re.IGNORECASE
)
"""A phrase's start cut at a comma before its noun: a determiner and an adjective or two ("a
stout", "a very stout", in "a stout, well-grown girl"), when what follows goes on with a
word that is neither a function word nor a participle ("the group, led by ...": no)."""
_COMPARED = re.compile(r"\b(?:like|unlike|than|as)\s+$", re.IGNORECASE)
"""Before a role set before a name: a comparison ("like her brother Miss Morland is"): the
name is compared with someone, it is not him."""
_COORDINATED = re.compile(r"[A-Z][\w'’.]*\s+(?:and|or|&)\s+$")
"""Before a name: another name and "and" ("Mr. and Miss Crawford, the children of ..."): an
apposition after them is both of theirs."""
_SECOND_PERSON = re.compile(r"\b(?:you|your|thou|thee|thy|ye)\b", re.IGNORECASE)
"""A sentence that speaks to someone: a name between commas in it is as often the one spoken
to ("You see, Miss Morland, the injustice of ...") as one described."""
_PERSON_TITLES = frozenset(["mr", "mrs", "miss", "ms", "dr", "messrs", "mme", "mlle"])
"""The head of an apposition that is itself a name ("Mrs. Grant, a Mr. and Miss Crawford")."""
_OWN_ROLE = re.compile(rf"^\s+({_OWN}\s+({_WORDS}))\b", re.IGNORECASE)
"""After a name: "her son" (Caliban her son)."""
_COPULA = re.compile(r"^\s+(?:is|was|had\s+been|has\s+been|became|seemed|seems)\s+", re.IGNORECASE)
_WHO_IS = re.compile(r"^,\s+who\s+(?:is|was|had\s+been|has\s+been|became)\s+", re.IGNORECASE)
"""After a name: a relative clause saying what it is (", who was a senator")."""
_NOUN_PREDICATE = re.compile(
    r"^(?:not\s+)?(?:(?:a|an|the|one|his|her|their|my|our|its)\b|"
    r"(?:so|such|quite|rather|very|too)\s+(?:\w+\s+){0,2}(?:a|an)\b)",
    re.IGNORECASE,
)
"""A predicate that is a noun phrase ("a man of unexceptionable character", "so odd a
mixture of ..."): what someone is, not what state they are in ("ready", "taken")."""
_A_LITTLE = re.compile(r"^a\s+(?:little|bit)\s+\w+(?:ed|en)\b", re.IGNORECASE)
"""A predicate that looks like a noun phrase but says a state ("a little surprised")."""
_STATE = re.compile(
    r"^(?:(?:not|no|now|then|still|soon|just|about|going|gone|come|coming|there|here|to|in|at|"
    r"on|by|with|from|for|out|off|up|down|sure|glad|sorry|afraid|ready|able|unable|obliged|"
    r"far|aware|unaware|conscious|certain|convinced|determined|anxious|eager|willing|"
    r"unwilling|as|more|less|much|all)\b|\w+\s+(?:that|to|from|of)\b|"
    r"\w+(?:ed|en|ing)\b)",
    re.IGNORECASE,
)
"""A predicate that says a state or an act, not what someone is ("was ready", "was taken
by", "was going")."""
_KIND_AFTER = re.compile(r"^\s+([A-Z][a-z]+)\b(?!['’])")
"""After a name: the kind of place it is, as part of its fuller name ("Netherfield Park",
"the Waingunga River")."""
_CLAUSE_HEAD = re.compile(r"(?:^|[,;:]\s+|--\s*|—\s*|\b(?:and|but|that|when|while)\s+)\W*$")
"""Before a name that is the subject of its clause: the sentence's start, punctuation, a
conjunction."""
_TITLE_BEFORE = re.compile(r"(?:\b(the\s+))?\b([A-Z][a-z]+)\s+$")
_PLACE_TITLE = re.compile(r"\b(?:the\s+)?([A-Za-z]+)\s+of\s+$")
_BEFORE_ROLE = re.compile(
    rf"\b({_OWN}|[A-Z][\w-]*['’]s?)\s+((?:{_WORDS}\s+){{0,2}}?)({_WORDS})"
    rf"(?:\s+(?:of|to)\s+(?:the\s+)?{_WORDS})?,\s+$",
    re.IGNORECASE,
)
"""Before a name: "his daughter, ", "the Duke of Milan, ", "Edric's daughter, " (a role set
before it)."""
_OWN_ROLE_BEFORE = re.compile(
    rf"\b({_OWN})\s+(?:(?!(?:{_OWN})\b)[a-z][\w'’-]*\s+)?({_WORDS})\s+$", re.IGNORECASE
)
"""Before a name: "my cousin Hamlet", "her steward Malvolio", "the merchant Antonio"."""
_NAMING = re.compile(r"\b(?:named|called|known as|christened)\s+(?:me\s+)?(?:the\s+)?$", re.I)
_SELF = re.compile(
    r"\bI\s+am\b[\s,]+(?:[\w'’]+[\s,]+){0,5}?(?:(?:a|an|the|your|thy|his|her|their)\s+)?"
    r"(?:[\w'’-]+\s+){0,2}?(\w+)\b",
    re.IGNORECASE,
)
_LIST_AFTER = re.compile(r"^,?\s+(?:(?:[^,;.\s]+\s+){0,3}[^,;.\s]+,\s+)*(?:and|or)\s")
"""After a name: ", Bagheera, Baloo, and ..." (names listed; an item of four words at most;
"and" in lower case: "And" opens a line of verse, not a list's last item)."""
_LISTED_NAMES = re.compile(r"^,\s+[^,;.]{1,60}?\s+(?:and|or)\s+(?:the\s+)?[A-Z]")
"""After a name: ", the United Arab Emirates and Kuwait" (names listed, no apposition)."""
_VOCATIVE = re.compile(r"(?:^|[,;:!?.]\s*|\bO\s+)\W*$")
_VOCATIVE_AFTER = re.compile(r"^\s*[,;:!?.]")
_CLOSED = re.compile(r"^\s*(?:[,;:.!?)\"”’]|--|—|$|\s(?:who|whose|whom)\b)")
_KIN_CALLED = re.compile(
    r"(?:^|[,;:!?.]\s*|\bO\s+)((?:(?:my|our|thy|dear|good|sweet|gentle|noble|kind|fair|"
    r"loving|most)\s+){1,3}([a-z]+))\s*(?=[,;:!?.]|--|—|$)"
)
"""A speaker calling the one spoken to by what they are to him: ", my dear sister", "O my
father!" (a line that also addresses the name: :func:`_addressed`); the address and its
role word."""
_MY_FRIEND = re.compile(r"^(?:my|our)\s+(?:\w+\s+){1,2}friend$", re.IGNORECASE)
"""A friend called the speaker's own, with a word of feeling ("my good friend", "my dear
friend"): a relation, where "good friend" alone is said to anyone."""
_GOES_ON = re.compile(
    r"^\s+(?:((?:of|to|from|in)\s+(?:the\s+)?[A-Z][\w'’-]*)|(?:who|whose|whom|that|which)\b)"
)
"""After a name set after its role ("the merchant Antonio"): words that go on describing
him ("of Venice", "who ..."), not his deeds ("soon drew the attention ...")."""
_ADDRESS = frozenset(["lord", "lady", "sir", "master", "mistress", "madam"])
"""Words said to anyone ("my lord", "good sir"): no role beside a name."""
_POINTS_BACK = frozenset(["latter", "former", "same", "following", "above", "preceding"])
"""After "the", words that point at something else said nearby ("TRUE, the latter leads to
..."): no apposition of the name."""
_NOT_MODIFIERS = FUNCTION_WORDS | frozenset(
    [
        "thou",
        "thee",
        "thy",
        "thine",
        "ye",
        "hast",
        "hath",
        "art",
        "doth",
        "dost",
        "shalt",
        "wilt",
        "didst",
        "wast",
        "wert",
    ]
)
"""Words that are never a modifier inside a noun phrase set beside a name."""


@lru_cache(maxsize=1024)
def _named(name: str) -> re.Pattern[str]:
    return whole_word(name)


@dataclass(frozen=True)
class Relation:
    """What a sentence says ``name`` is: the kind of relation, the text's own words for it
    (``phrase``, read after the name: "Lieutenant to the warlike Moor Othello"), and how much
    it says (a role word says more than an epithet)."""

    kind: str
    phrase: str
    weight: float


def _phrase(text: str, limit: int = MAX_PHRASE_WORDS) -> str:
    """``text`` (what follows a name) to the end of its clause: cut at a semicolon, a colon,
    a dash, a bracket or the sentence's end, and at a comma that does not go on with "of",
    "to", "who", "which", "whose" or "the" ... and a role word; at most ``limit`` words."""
    end = len(text)
    for m in re.finditer(r"[;:!?()\[\]]|--|—|\.(?:\s|$)|\.[\"'’”]", text):
        if m.group().startswith(".") and _abbreviated(text, m.start()):
            continue
        end = m.start()
        break
    piece = text[:end]
    pieces = re.split(r",\s*", piece)
    kept = [pieces[0]]
    for k, p in enumerate(pieces[1:], start=1):
        head = p.split()[:1]
        if (
            k == 1
            and head
            and _ADJECTIVES_BEFORE.fullmatch(pieces[0])
            and len(p.split()) >= 2
            and head[0].casefold() not in FUNCTION_WORDS
            and not re.search(r"(?:ed|ing)$", head[0])
        ):
            kept.append(p)  # "a stout, well-grown girl": the noun the adjectives go with
            continue
        if (
            0 < len(p.split()) <= 3
            and k + 1 < len(pieces)
            and head[0].casefold()
            not in {"and", "but", "or", "as", "if", "when", "though", "although", "while", "that"}
        ):
            if re.search(r"ed$", head[0]) and head[0][:1].islower():
                break  # "a knight of Wessex, bowed to all": the name's deed, not a list
            kept.append(p)  # a list: "by his fine, tall person, handsome features, ..."
            continue
        if head and head[0].casefold() in {"who", "whose", "whom", "which", "where", "of", "to"}:
            kept.append(p)
            continue
        if (
            head
            and head[0].casefold() in {"the", "a", "an"}
            and any(role_weight(w) >= 1.0 for w in p.split()[:4])
        ):
            kept.append(p)
            continue
        break
    out = ", ".join(k.strip() for k in kept if k.strip())
    words = out.split()
    if len(words) > limit:
        out = " ".join(words[:limit]) + " ..."
    return out.strip(" ,")


def _singular_role(word: str, person: bool = False) -> float:
    """:func:`role_weight` of ``word`` as one's role (not "sisters", "lords"; ``person``:
    not a place's or a thing's, "the city Mowgli")."""
    w = word.strip(",.;:'’\"").casefold()
    if person and w in THING_ROLES:
        return 0.0
    return role_weight(w) if w in ROLE_WORDS else 0.0


def relation(
    sentence: str, name: str, speaker_is_name: bool = False, narration: bool = True
) -> Relation | None:
    """The strongest relation ``sentence`` sets between ``name`` and what it is (see the
    module), or None. ``speaker_is_name``: the sentence is the named person's own line (a
    play), which says who he is only by an introduction ("I am ...", "named me ...").
    ``narration``: the sentence is narration, not speech, where a noun phrase after a comma
    is an apposition even without a role word ("Mr. Elton, a young man,"), where in speech
    it is as often what is said to the person ("Sir Toby, an hour agone")."""
    best: Relation | None = None

    def keep(r: Relation) -> None:
        nonlocal best
        if best is None or r.weight > best.weight:
            best = r

    if speaker_is_name:
        for m in _SELF.finditer(sentence):
            if _singular_role(m.group(1)) >= 1.0:
                keep(Relation("introduces himself", sentence[m.start() : m.end()], 5.0))
        for m in _named(name).finditer(sentence):
            if _NAMING.search(sentence[max(0, m.start() - 40) : m.start()]):
                start = max(sentence.rfind(",", 0, m.start()), sentence.rfind(";", 0, m.start()))
                keep(Relation("introduces himself", _upto(sentence, start + 1, m.end()), 4.0))
        return best
    if not narration and _addressed(sentence, name):
        for k in _KIN_CALLED.finditer(sentence):
            said, role = k.group(1), k.group(2)
            if (
                _singular_role(role, person=True) >= 1.0 and role.casefold() not in WEAK_ROLES
            ) or _MY_FRIEND.match(said):
                keep(Relation("called", said, 3.0))  # "Fear it, Ophelia, ... my dear sister"
                break
    for m in _named(name).finditer(sentence):
        after = sentence[m.end() : m.end() + 200]
        before = sentence[max(0, m.start() - 80) : m.start()]
        if re.match(r"^['’]s?\b", after):  # "Othello's ancient": someone else's role
            continue
        listed = bool(_LIST_AFTER.match(after) or _LISTED_NAMES.match(after))
        a = _APPOSED.match(after)
        if (
            a
            and not listed
            and not _COORDINATED.search(before)
            and a.group(3).casefold() not in _PERSON_TITLES
            and not _NOT_MODIFIERS & {w.casefold() for w in a.group(2).split()}
            and not _POINTS_BACK & {w.casefold() for w in f"{a.group(2)} {a.group(3)}".split()[:1]}
        ):
            role = _singular_role(a.group(3))
            if role < 1.0 and not narration:  # "Cassio, my lord, hath ...": said to someone
                role = 0.0
            spoken_to = _SECOND_PERSON.search(sentence) is not None  # "You see, Miss M., the ..."
            if role > 0 or (
                narration
                and not spoken_to
                and a.group(1)
                and a.group(1).casefold() in {"a", "an", "the"}
            ):
                weight = 6.0 if role >= 1.0 else 2.5 if role > 0 else 3.0
                keep(Relation("apposition", _phrase(after.lstrip(", ")), weight))
        e = _APPOSED_NAME.match(after)
        if e and not listed:
            keep(Relation("epithet", e.group(1), 4.0))
        o = _OWN_ROLE.match(after)
        if o and _singular_role(o.group(2)) >= 1.0 and _VOCATIVE_AFTER.match(after[o.end() :]):
            keep(Relation("apposition", o.group(1), 4.0))
        c = _COPULA.match(after)
        if c is None or not _CLAUSE_HEAD.search(before):
            c = _WHO_IS.match(after)  # "Sir Harold, who was the king's brother, ..."
        if c:
            phrase = _phrase(after[c.end() :])
            words = phrase.split()
            if len(words) >= 3 and _NOUN_PREDICATE.match(phrase) and not _A_LITTLE.match(phrase):
                role = max((_singular_role(w) for w in words[:6]), default=0.0)
                said = 4.5 if narration and not phrase.startswith("not ") else 3.5
                keep(
                    Relation("is", phrase, 5.0 if role >= 1.0 else said)
                )  # not: "not a poison snake"
            elif narration and len(words) >= 2 and not _STATE.match(phrase):
                keep(Relation("is", phrase, 2.0))  # "Mr. Bingley was good-looking and ..."
        kind = _KIND_AFTER.match(after)
        if kind and kind.group(1).casefold() in PLACE_ROLES and not listed:
            keep(Relation("kind", _phrase(sentence[m.start() :], 12), 3.0))
        t = _TITLE_BEFORE.search(before)
        if (
            t
            and _singular_role(t.group(2)) >= 1.0
            and t.group(2).casefold() not in WEAK_ROLES | {"god", "goddess"}  # "O God, Bassanio"
        ):
            keep(Relation("title", f"{t.group(1) or ''}{t.group(2)} {name}", 3.0))
        p = _PLACE_TITLE.search(before)
        if p and p.group(1).casefold() in TITLES_OF_PLACE | PLACE_ROLES:
            keep(Relation("title", f"the {p.group(1)} of {name}", 3.5))
        r = _BEFORE_ROLE.search(before)
        second_person = r is not None and r.group(1).casefold() in {"my", "thy", "your", "our"}
        if (
            r
            and _singular_role(r.group(3)) >= 1.0
            and r.group(3).casefold() not in WEAK_ROLES
            and not _NOT_MODIFIERS & {w.casefold() for w in r.group(2).split()}
            and not (second_person and _VOCATIVE_AFTER.match(after))  # "Thy father, Hamlet."
            and _CLOSED.match(after)  # not "to her sister, Elizabeth was far from ..."
            and not _COMPARED.search(before[: r.start()])
        ):
            keep(Relation("apposition", f"{before[r.start() :].strip()} {name}", 4.0))
        w = _OWN_ROLE_BEFORE.search(before)
        if (
            w
            and _singular_role(w.group(2), person=True) >= 0.3
            and w.group(2).casefold() not in _ADDRESS
            and not _COMPARED.search(before[: w.start()])
        ):
            g = _GOES_ON.match(after)
            rest = "" if g is None else g.group(1) if g.group(1) else _phrase(after, 12)
            keep(
                Relation("apposition", f"{before[w.start() :].strip()} {name} {rest}".strip(), 4.0)
            )
        if _NAMING.search(before):
            start = max(before.rfind(","), before.rfind(";")) + 1
            keep(Relation("named", f"{before[start:].strip()} {name}", 2.0))
    return best


def _upto(sentence: str, start: int, end: int) -> str:
    return sentence[start:end].strip(" ,;")


@dataclass(frozen=True)
class Described:
    """A main name and the words of the text that say what it is."""

    name: str
    clause: str
    score: float
    said_by: str = ""
    """Whose words they are, when they speak of "my", "thy", "your" ... (a play's speaker):
    "my cousin Hamlet" is the King's."""


def describe(
    name: str,
    said: Sequence[Sentence],
    story: bool = True,
    speaker_of: Mapping[str, str] | None = None,
    referred: Mapping[int, str] | None = None,
    people: Sequence[str] = (),
) -> Described | None:
    """The words of the text that best say who or what ``name`` is: the strongest
    :func:`relation` of the sentences naming it (the first of them gaining as an
    introduction), its phrase shown after the name ("Cassio: Lieutenant to the warlike Moor
    Othello"); else the clause naming it with the most of :func:`description_score`'s cues,
    a line of dialogue counting less in a story, a question, an exclamation, a sentence that
    starts mid-thought and (a play) a line addressed to the person less anywhere. A play's
    line is never read as saying who its own speaker is, unless he introduces himself.
    ``referred``: the sentences (by index) whose opening "He" or "She" stands for a name
    (:func:`prism_edge.text.people.refer.referents`): what such a sentence says he or she was
    (a noun phrase: :data:`ROLE_STATED`) is said of that name (weighing a little less than a
    sentence naming it). ``people``: the text's main names, for whom "his" or "her" in the
    clause stands in narration (:func:`prism_edge.text.people.refer.owner`): "his cousin
    William" is shown as that person's cousin; a pronoun it does not resolve weighs
    :data:`UNSURE_WHOSE` less, so that another clause may say more. None when no sentence
    names it."""
    best: tuple[float, str, str] | None = None
    fallback: tuple[float, str, str] | None = None
    genders: dict[str, str | None] = {}
    first = True
    a_role = " " not in name and role_weight(name) > 0  # "King", "Clown": a role for a name
    for i, s in enumerate(said):
        if referred is not None and referred.get(i) == name:
            r = relation(as_named(s.text, name), name)  # "She was ...": narration, by refer
            if r is None or r.weight < ROLE_STATED:
                continue
            shown = said_of(r.phrase, name)
            if shown is not None and (best is None or r.weight - 0.5 > best[0]):
                best = (r.weight - 0.5, shown, "")
            continue
        if s.kind == "direction" or name not in s.text or not _named(name).search(s.text):
            continue
        text = s.text
        words = len(text.split())
        if words < 4 or garbled(text) or "[" in text or "]" in text:
            continue
        own = speaker_of is not None and speaker_of.get(s.speaker) == name
        intro = 0.8 if first else 0.0
        first = False
        narration = s.kind in {"prose", "list", "verse"} and not dialogue(text)  # a poem's own
        r = None if a_role else relation(text, name, own, narration)
        shown = None if r is None else said_of(r.phrase, name)
        unsure = 0.0
        if shown is not None and possessive(shown) and people:
            whose = _whose(shown, said, i, name, people, genders) if narration else None
            if whose is None:
                unsure = UNSURE_WHOSE
            shown = whose or shown
        if r is not None and shown is not None:
            score = r.weight + intro - unsure
            if story and dialogue(text) and s.kind == "prose":
                score -= 1.0
            if text.rstrip("\"'’”)").endswith("?") and r.kind != "called":
                score -= 1.5  # not an address: "Sir, my good friend; ... Horatio?" asks else
            if best is None or score > best[0]:
                best = (score, shown, _speaker(s, speaker_of))
        if own:
            continue
        score = 0.5 * description_score(text, name) + intro
        if story and dialogue(text) and s.kind == "prose":
            score -= 2.0
        if text.rstrip("\"'’”)").endswith(("?", "!")):
            score -= 1.0
        if mid_thought(text):
            score -= 1.5
        if speaker_of is not None and _addressed(text, name):
            score -= 1.0
        if words > 40:
            score -= (words - 40) / 10
        if fallback is None or score > fallback[0]:
            fallback = (score, text, _speaker(s, speaker_of))
    if best is not None:
        return _described(name, best[1], best[0], best[2])
    if fallback is None:
        return None
    return _described(name, clause_of(fallback[1], name), fallback[0], fallback[2])


def _whose(
    shown: str,
    said: Sequence[Sentence],
    i: int,
    name: str,
    people: Sequence[str],
    genders: dict[str, str | None],
) -> str | None:
    """``shown`` ("his banished son") as the son of the person "his" stands for, or None when
    the text does not say whose."""
    pronoun = possessive(shown)
    text = said[i].text
    at = text.find(shown)
    if at < 0:
        at = max(0, text.find(name))
    person = None if pronoun is None else owner(said, i, at, pronoun, people, name, genders)
    return None if person is None else owned(shown, person)


_DANGLING = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "and",
        "or",
        "my",
        "his",
        "her",
        "their",
        "that",
        "which",
        "who",
        "whom",
        "whose",
    ]
)


def said_of(phrase: str, name: str) -> str | None:
    """``phrase`` as a who-is-who clause for ``name``: without the name it restates at its end
    ("her steward Malvolio" -> "her steward"; "the village of Longbourn" keeps it), None when
    it says nothing besides the name (no word but function words: "the one") or ends on a
    word that needs one after it."""
    words = phrase.split()
    named = name.split()
    if (
        len(words) > len(named)
        and words[-len(named) :] == named
        and words[-len(named) - 1].casefold() not in FUNCTION_WORDS
    ):
        words = words[: -len(named)]
    said = [w.strip(".,;:!?'’\"“”()").casefold() for w in words]
    content = [
        w for w in said if w and w not in FUNCTION_WORDS and w not in {n.casefold() for n in named}
    ]
    if not content or said[-1] in _DANGLING:
        return None
    return " ".join(words).strip(" ,")


_PERSONAL = re.compile(r"\b(?:I|me|my|mine|thy|thou|thee|thine|your|you|our|we|us)\b")


def _described(name: str, clause: str, score: float, speaker: str) -> Described:
    """``clause`` for ``name``, with its speaker when it speaks of "my", "your" ..."""
    return Described(name, clause, score, speaker if _PERSONAL.search(clause) else "")


def _speaker(s: Sentence, speaker_of: Mapping[str, str] | None) -> str:
    if not s.speaker:
        return ""
    if speaker_of and s.speaker in speaker_of:
        return speaker_of[s.speaker]
    return " ".join(w.capitalize() if w.isupper() else w for w in s.speaker.split())


def _addressed(sentence: str, name: str) -> bool:
    """Whether every mention of ``name`` in ``sentence`` is a vocative (the person spoken to:
    "Farewell, Horatio.", "Sebastian, the truth you speak ...")."""
    hits = list(_named(name).finditer(sentence))
    return bool(hits) and all(
        _VOCATIVE.search(sentence[max(0, m.start() - 30) : m.start()])
        and _VOCATIVE_AFTER.match(sentence[m.end() :])
        for m in hits
    )


def clause_of(sentence: str, name: str) -> str:
    """The part of ``sentence`` that holds ``name``: the clause between semicolons, colons,
    dashes and brackets that names it, cut at commas around the name to
    :data:`MAX_CLAUSE_WORDS` words when longer."""
    pieces = [p for p in _CLAUSE_CUT.split(sentence) if p.strip()]
    holding = [p for p in pieces if whole_word(name).search(p)] or [sentence]
    clause = max(holding, key=lambda p: description_score(p, name) + 0.01 * len(p.split()))
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


__all__ = ["ROLE_WORDS", "Described", "Relation", "clause_of", "describe", "relation", "said_of"]
