"""The words that say who or what someone is, and the words that are no name however they are
capitalised."""

from __future__ import annotations

from prism_edge.text.grounding import FUNCTION_WORDS
from prism_edge.text.prose import NOT_NAMES


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


ROLE_WORDS = _words(
    """
    king queen prince princess duke duchess lord lady earl count countess baron knight
    sir emperor empress pope cardinal bishop priest friar monk nun abbot parson vicar
    clergyman general captain lieutenant ancient colonel major sergeant soldier officer
    admiral commander senator governor judge magistrate mayor sheriff constable
    ambassador minister chancellor counsellor councillor courtier steward butler servant
    slave page maid nurse governess clown fool jester shepherd shepherdess sailor
    mariner boatswain master mistress merchant jew moor lawyer doctor physician surgeon
    apothecary tutor teacher scholar student poet writer author founder leader president
    chairman secretary chief head editor maintainer developer father mother son daughter
    brother sister wife husband widow widower uncle aunt nephew niece cousin grandfather
    grandmother heir child children friend lover suitor bride bridegroom companion
    neighbour neighbor guardian ward spirit ghost witch fairy god goddess monster savage
    villain hero heroine usurper rival enemy ally tenant farmer hunter gentleman
    gentlewoman man woman boy girl youth usurer bastard whale ship island city town
    village country kingdom river mountain house hall park estate abbey castle palace
    project company organisation organization society team language library package
    module function class program tool system distribution operating version
    """
)
"""Words that say who or what someone or something is (an office, a kinship, a trade, a
kind of place or thing): a clause that puts one beside a name states its role."""
THING_ROLES = _words(
    """
    whale ship island city town village country kingdom river mountain house hall park
    estate abbey castle palace project company organisation organization society team
    language library package module function class program tool system distribution
    operating version head
    """
)
"""The words of :data:`ROLE_WORDS` that say what a place or a thing is, not a person."""
PLACE_ROLES = _words(
    """
    island city town village country kingdom river mountain house hall park estate abbey
    castle palace county parish port forest valley lake
    """
)
"""Words that say what kind of place a name is ("the village of Longbourn")."""


TITLES_OF_PLACE = _words(
    """
    king queen prince princess duke duchess earl count countess thane lord lady bishop
    archbishop emperor empress baron marquis marquess governor
    """
)
"""Titles that name a person by a place ("the Duke of Cornwall", "the Earl of Kent")."""

_NUMBERS = _words(
    """
    one two three four five six seven eight nine ten eleven twelve twenty thirty forty
    fifty hundred thousand million first second third fourth fifth sixth seventh eighth
    ninth tenth half once twice
    """
)
_SPEECH_WORDS = _words(
    """
    come look sure yes no nay well oh ah alas hark lo hush pray why what how fie tut
    pish pooh indeed aye ay o farewell adieu welcome hail peace silence away go stay
    stand hold help enough quick quickly good great dear poor heaven heavens god lord
    thank thanks please sorry hello hi hey bravo amen marry faith troth zounds hence fly
    run see hear say tell speak nothing nobody never always ever perhaps certainly
    surely very
    """
)
"""Words a text capitalises at the head of quoted speech or an exclamation, which are no
names however often they stand there."""
_HEADING_WORDS = _words(
    """
    overview introduction summary contents preface appendix index glossary chapter
    section part book act scene note notes example examples figure table abstract
    conclusion conclusions references bibliography acknowledgements acknowledgments
    foreword afterword epilogue prologue see also warning tip important caution
    """
)


_LANGUAGES = _words(
    """
    english french latin greek german italian spanish hebrew dutch portuguese russian
    arabic chinese japanese scottish irish welsh danish swedish norwegian polish turkish
    saxon roman egyptian persian indian british european american african asian
    """
)
"""Language and people words ("English", "Latin"): capitalised adjectives, no names."""


def not_a_name(word: str) -> bool:
    """A single word that is no name wherever it is capitalised: a function word, a pronoun
    or heading word of :data:`NOT_NAMES`, a number word, a word of speech ("Come", "Look"), a
    heading word ("Overview"), a language's or a people's word ("English", "Latin")."""
    w = word.casefold().rstrip(".")
    return (
        w in NOT_NAMES
        or w in _LANGUAGES
        or w in _NUMBERS
        or w in _SPEECH_WORDS
        or w in _HEADING_WORDS
        or w in FUNCTION_WORDS
    )


WEAK_ROLES = _words(
    """
    lord lady sir master mistress man woman boy girl gentleman gentlewoman friend
    """
)
"""Role words a speaker also says to anyone ("my lord", "sir", "good friend"): weaker
evidence of who someone is than an office or a kinship."""


def role_weight(word: str) -> float:
    w = word.casefold()
    if w not in ROLE_WORDS and not (w.endswith("s") and w[:-1] in ROLE_WORDS):
        return 0.0
    return 0.3 if w in WEAK_ROLES or w[:-1] in WEAK_ROLES else 1.0
