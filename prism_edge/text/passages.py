"""The sentences of a long text as a summary may quote them: each with where it was read,
the block it came from and who says it, cleaned of markup and marks a reader would not keep.

* :func:`sentences`: the prose, verse and speeches of :func:`prism_edge.text.structure.blocks`
  cut into sentences (wrapped lines joined, a verse line's number dropped, footnote marks and
  inline markup taken out);
* :func:`quotable`: whether a summary may quote a sentence (long enough, ending as a sentence
  does, not starting mid-thought, not a fragment of dialogue, not a heading or a licence
  line, not code).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from prism_edge.text.grounding import FUNCTION_WORDS, WORD, _abbreviated
from prism_edge.text.prose import is_prose
from prism_edge.text.structure import Block

_BREAK = re.compile(r"[.!?][\"'’”)\]]*[ \u00a0]+(?=[\"'‘“(\[]*[A-Z0-9])|[.!?;:]--(?=[A-Z])")
_LINE_NUMBER = re.compile(r"[ \t]{2,}\d{1,5}[ \t]*$", re.M)
_FOOTNOTE_MARK = re.compile(
    r"\[(?:\d{1,3}|[a-z]|\*|footnote[^\]]*)\]|\{\d{1,3}\}|(?<=[a-z][.,;])\d{1,2}(?=\s)"
)
_RST_ROLE = re.compile(r":[\w:-]+:`(?:[^`<]*?<)?~?([^`<>]*?)>?`")
_RST_LINK = re.compile(r"`([^`<]+?)\s*<[^>]+>`__?")
_LITERAL = re.compile(r"``([^`]+)``")
_EMPHASIS = re.compile(r"(?<![\w*])\*{1,2}([^*\n]+?)\*{1,2}(?![\w*])")
_MD_LINK = re.compile(r"\[([^\]]+)\]\([^)]+\)")
_INLINE_DIRECTION = re.compile(
    r"\[(?:to|aside|within|exit|exeunt|enter|re-enter)\b[^\]]{0,80}\]", re.I
)
_UNDERSCORES = re.compile(r"(?<!\w)_([^_\n]+?)_(?!\w)")
_MOJIBAKE = re.compile(r"[ÂÃ][\u0080-\u00bf]|â[\u0080-\u009f€™œ]|\ufffd")
_OCR_APOSTROPHE = re.compile(r"(?<=[a-z])â(?=(?:s|t|ll|re|ve|d|m)\b)")
"""An apostrophe a wrong decoding left as "â" ("Shakespeareâs"): shown as the apostrophe."""


@dataclass(frozen=True)
class Sentence:
    """A sentence as read: its words, where its block starts, the block's index and kind,
    who says it (a play's speaker), and whether it opens its block."""

    text: str
    start: int
    block: int
    kind: str
    speaker: str = ""
    first: bool = False

    @property
    def words(self) -> int:
        return len(self.text.split())


def clean(text: str) -> str:
    """``text`` with inline markup (reStructuredText roles, links and literals, Markdown
    links, emphasis marks) shown as the words it marks, and footnote marks taken out."""
    text = _OCR_APOSTROPHE.sub("’", text)
    text = _RST_ROLE.sub(r"\1", text)
    text = _RST_LINK.sub(r"\1", text)
    text = _LITERAL.sub(r"\1", text)
    text = _MD_LINK.sub(r"\1", text)
    text = _EMPHASIS.sub(r"\1", text)
    text = _UNDERSCORES.sub(r"\1", text)
    return _FOOTNOTE_MARK.sub("", text)


def split(flat: str) -> list[str]:
    """One paragraph on one line cut into its sentences: at a full stop, question or
    exclamation mark before a capital or a digit, not after an abbreviated title or an
    initial ("Mr. Bennet", "J. Smith")."""
    out = []
    start = 0
    for m in _BREAK.finditer(flat):
        if flat[m.start()] == "." and _abbreviated(flat, m.start()):
            continue
        piece = flat[start : m.end()].strip()
        if piece.endswith("--"):
            piece = piece[:-2]
        if piece:
            out.append(piece)
        start = m.end()
    tail = flat[start:].strip()
    if tail:
        out.append(tail)
    return out


READ_KINDS = frozenset({"prose", "verse", "speech", "direction", "list"})


def sentences(found: Sequence[Block]) -> list[Sentence]:
    """Every sentence of the text's prose, verse, speeches, stage directions and list items,
    in reading order."""
    out: list[Sentence] = []
    for index, block in enumerate(found):
        if block.kind not in READ_KINDS:
            continue
        text = _LINE_NUMBER.sub("", block.text) if block.kind in {"verse", "speech"} else block.text
        flat = clean(" ".join(text.replace("\u00a0", " ").split()))
        if block.kind != "direction":  # "[Aside.]", "[To Emilia.]": a direction is no speech
            flat = " ".join(_INLINE_DIRECTION.sub(" ", flat).split())
        if block.kind == "direction":
            out.append(Sentence(flat.strip("[]_ "), block.start, index, "direction", first=True))
            continue
        for k, piece in enumerate(split(flat)):
            out.append(Sentence(piece, block.start, index, block.kind, block.speaker, k == 0))
    return out


_MID_THOUGHT = re.compile(
    r"^(?:and|but|or|nor|for|so|yet|which|whereas|whereof|wherein|whereby|also|then|thus|"
    r"hence|therefore|however|moreover|besides|this|that|these|those|it|its|they|them|he|she|"
    r"his|her|him|their|such|both|either|neither|here|there|now|again|still|otherwise|"
    r"instead|similarly|likewise|furthermore|additionally|nevertheless|nonetheless|"
    r"consequently|accordingly|conversely|meanwhile|finally|lastly|secondly|thirdly|another|"
    r"(?:in|by)\s+(?:addition|contrast|comparison|turn|particular|this\s+way)|"
    r"on\s+the\s+(?:other|one)\s+hand|as\s+a\s+result|for\s+(?:example|instance)|"
    r"in\s+(?:this|that|such|either|both)\s+cases?|the\s+(?:former|latter|same)|"
    r"at\s+the\s+same\s+time)\b",
    re.IGNORECASE,
)
_QUOTED = re.compile(r"[\"“][^\"“”]*[\"”]")
_CITATION_LINE = re.compile(
    r"doi:|https?://|\bR>\s|\bjournal of\b.*\d|\b(?:vol|pp)\.\s*\d|\d+\s*[–-]\s*\d+\.\s",
    re.IGNORECASE,
)
"""A reference list's entry, a URL or a line of an R session: no sentence to quote."""
MIN_WORDS = 8
MAX_WORDS = 60


_STRAY = re.compile(r"^[>»«*^~|]+(?=\w|$)|(?<=\w)[»«*^~|]+$")
_LETTERS_AS_DIGITS = re.compile(r"[A-Z][01][A-Z]")
_COMMA_LETTERS = re.compile(r"[^\W\d_],[^\W\d_]")


def garbled(sentence: str) -> bool:
    """Whether ``sentence`` is damaged text a reader would not keep: text decoded with the
    wrong encoding ("Ã©", "â€"), or two marks of a scan's OCR noise: digits for letters in a
    word in capitals ("P0RTRA1Ts"), a stray mark before or after a word (">PEARE", "*"), a
    full stop or a comma standing alone between words, letters run together with commas
    (",A,I")."""
    if _MOJIBAKE.search(sentence):
        return True
    marks = 0
    for token in sentence.replace("--", " ").replace("—", " ").split():
        if (
            _LETTERS_AS_DIGITS.search(token)
            or _STRAY.search(token)
            or _COMMA_LETTERS.search(token)
            or token in {".", ",", ";", ":", "!", "?"}
        ):
            marks += 1
    return marks >= 2


def dialogue(sentence: str) -> bool:
    """Whether ``sentence`` is a line of dialogue: it holds a quotation mark's speech."""
    return bool(re.search(r"[\"“”]", sentence))


def mid_thought(sentence: str) -> bool:
    """Whether ``sentence`` starts mid-thought: in lower case, or with a word that leans on
    the sentence before ("And", "But", "This", "It", "However"...)."""
    head = sentence.lstrip("\"'‘“([_ ")
    return (not head[:1].isupper() and not head[:1].isdigit()) or bool(_MID_THOUGHT.match(head))


def quotable(sentence: Sentence, max_words: int = MAX_WORDS) -> bool:
    """Whether a summary may quote ``sentence``: :func:`is_prose` (a sentence's ending, not a
    heading, a contents or licence line, code or a title-case line), between :data:`MIN_WORDS`
    and ``max_words`` words, not a question, and not a stage direction."""
    text = sentence.text
    words = len(WORD.findall(text))
    if sentence.kind == "direction" or not MIN_WORDS <= words <= max_words:
        return False
    if text.rstrip("\"'’”)").endswith("?") or _CITATION_LINE.search(text):
        return False
    digits = sum(c.isdigit() for c in text)
    return digits <= 0.12 * len(text) and is_prose(text) and not garbled(text)


def content_words(text: str) -> list[str]:
    """The content words of ``text`` in lower case (three letters or more, no function
    words)."""
    return [
        w.casefold()
        for w in WORD.findall(text)
        if len(w) >= 3 and w.casefold() not in FUNCTION_WORDS and not w.isdigit()
    ]


def quoted_share(sentence: str) -> float:
    """The share of ``sentence``'s characters inside quotation marks."""
    inside = sum(len(m.group()) for m in _QUOTED.finditer(sentence))
    return inside / max(1, len(sentence))
