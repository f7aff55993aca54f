"""A long text's own structure, read by the program: its blocks, headings, contents list,
front matter (title, author) and parts.

A reader who opens a book looks at its title page and its contents before anything else; a
summary must say what they say. Everything here is a pure function of the text:

* :func:`blocks`: the text cut at blank lines, each block typed (a heading, a speech in a
  play with its speaker, a stage direction, verse, prose, code, a list, a contents list);
* :func:`front_matter`: the title, subtitle and author the head of the text gives, and where
  its body begins;
* :func:`parts`: the body cut at its own headings of one level (acts, chapters, books,
  numbered sections, underlined or ``#`` headings), the level chosen as the highest that
  repeats; equal spans when the text has no headings.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

BlockKind = Literal[
    "heading", "speech", "direction", "verse", "prose", "code", "list", "contents", "rule"
]

_NUMBER_WORDS = (
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty"
)
_ORDINALS = (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
    "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth last"
)
KEYWORD_RANK = {
    "volume": 0,
    "part": 1,
    "book": 1,
    "act": 2,
    "chapter": 2,
    "canto": 2,
    "letter": 2,
    "lecture": 2,
    "stave": 2,
    "appendix": 2,
    "scene": 3,
    "section": 3,
    "proposition": 3,
}
"""The words that head a part, by how large a part they head (a volume holds books, an act
scenes)."""
_NUMERAL = rf"(?:[\dIVXLC]+|{_NUMBER_WORDS.replace(' ', '|')})"
_KEYWORD_HEAD = re.compile(
    rf"^(?P<key>{'|'.join(KEYWORD_RANK)})\b\.?[\s\u00a0]*(?P<num>{_NUMERAL})?\b[.:]?"
    r"(?P<rest>.{0,80})$",
    re.IGNORECASE,
)
_APPENDIX_HEAD = re.compile(
    r"^(?P<key>appendix)\.?[\s\u00a0]+(?P<num>[A-Z])(?:[.:]|(?=[\s\u00a0]|$))(?P<rest>.{0,80})$",
    re.IGNORECASE,
)
"""An appendix numbered by a letter: "Appendix A. Packaging", "APPENDIX B"."""
_ORDINAL = _ORDINALS.replace(" ", "|")
_KEYWORDS = "|".join(KEYWORD_RANK)
_ORDINAL_HEAD = re.compile(
    rf"^(?:the[\s\u00a0]+)?(?:{_ORDINAL})[\s\u00a0]+(?P<key>{_KEYWORDS})\.?$|"
    rf"^(?P<key2>{_KEYWORDS})[\s\u00a0]+the[\s\u00a0]+(?:{_ORDINAL})\.?$",
    re.IGNORECASE,
)
_NUMBERED_HEAD = re.compile(r"^(?P<num>\d{1,3}(?:\.\d{1,3})*)\.?[\s\u00a0]+(?P<title>\S.{1,90})$")
_ROMAN_HEAD = re.compile(r"^(?P<num>[IVXLC]{1,7})\.?$")
_MARKDOWN_HEAD = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<title>\S.*)$")
_UNDERLINE = re.compile(r"^([=\-~*^#\"'`+_])\1{2,}\s*$")
_SPEAKER = re.compile(r"^(?P<who>[A-Z][A-Za-z'’]*(?:[ \u00a0][A-Z][A-Za-z'’]*){0,3})\.\s*$")
_SPEAKER_INLINE = re.compile(
    r"^(?P<who>[A-Z][A-Z'’]+(?: [A-Z][A-Z'’]+){0,3})\.[ \u00a0]+(?P<said>\S.*)$"
)
_DIRECTION = re.compile(
    r"^\s*(?:\[.*\]\s*|_?(?:enter|re-enter|exit|exeunt|exeunt omnes|flourish|alarum|"
    r"manent|manet|sennet)\b.*)$",
    re.IGNORECASE | re.DOTALL,
)
_CONTENTS_LABEL = re.compile(r"^\s*(?:table of )?contents\.?\s*$", re.IGNORECASE)
_PAGE_NUMBER = re.compile(r"(?:\.{3,}|\s{2,}|,\s*)[\dxivlc]+\s*$", re.IGNORECASE)
_CODE_LINE = re.compile(
    r"^(?:\s{4,}|\t|>>> |\.\.\. |\$ |# |\s*[{}]\s*$|\s*(?:def|class|import|from|return|if|for)"
    r"\b.*[:;(]\s*$)"
)
_LIST_LINE = re.compile(r"^\s*(?:[*•\-+]|\d+[.)]|[a-z][.)])\s+\S")
_BLANK = re.compile(r"\n[ \t\u00a0]*\n+")


@dataclass(frozen=True)
class Heading:
    """A heading line: its kind (``act``, ``chapter``, ``numbered``, ``underline =``...),
    its rank (smaller: larger parts), and what it says."""

    family: str
    rank: int
    text: str
    number: str = ""


@dataclass(frozen=True)
class Block:
    """A block of the text between blank lines: where it starts, its lines as written, what
    kind of block it is, and (a heading) its heading or (a speech) its speaker."""

    start: int
    text: str
    kind: BlockKind
    heading: Heading | None = None
    speaker: str = ""

    @property
    def end(self) -> int:
        return self.start + len(self.text)

    @property
    def flat(self) -> str:
        """The block's words on one line."""
        return " ".join(self.text.split())


def heading_of(line: str) -> Heading | None:
    """``line`` as a heading, when it is one: "ACT II.", "CHAPTER 3", "Chapter 1.
    Definitions", "THE FIRST BOOK", "2.1. Debian package building workflow", "XII", "##
    Usage"; None for a sentence, a speaker's name or anything longer than a heading."""
    text = " ".join(line.split())
    if not text or len(text) > 100:
        return None
    m = _APPENDIX_HEAD.match(text) or _KEYWORD_HEAD.match(text)
    if m and (m.group("num") or not m.group("rest").strip()) and text[:1].isupper():
        key = m.group("key").lower()
        if m.group("num") or key in {"preface", "introduction"}:
            rest = m.group("rest").strip(" .:-—")
            if len(rest.split()) <= 12 and not rest.endswith((",", ";")):
                return Heading(key, KEYWORD_RANK[key], text, m.group("num") or "")
    m = _ORDINAL_HEAD.match(text)
    if m:
        key = (m.group("key") or m.group("key2")).lower()
        return Heading(key, KEYWORD_RANK[key], text)
    m = _MARKDOWN_HEAD.match(text)
    if m and m.group("title")[:1].isupper() and not re.search(r"[=$|<>/\\]", m.group("title")):
        return Heading(f"markdown {len(m.group('hashes'))}", len(m.group("hashes")), text)
    m = _NUMBERED_HEAD.match(text)
    if m:
        title = m.group("title")
        words = title.split()
        if (
            title[:1].isupper()
            and len(words) <= 14
            and not title.endswith((".", ",", ";", ":"))
            and not _PAGE_NUMBER.search(title)
        ):
            depth = m.group("num").count(".") + 1
            return Heading("numbered", 4 + depth, text, m.group("num"))
    m = _ROMAN_HEAD.match(text)
    if (m and m.group("num") not in {"I", "C", "L"}) or (m and len(m.group("num")) == 1):
        return Heading("roman", 6, text, m.group("num")) if m else None
    return None


def _is_verse(lines: Sequence[str]) -> bool:
    heads = [line.lstrip(" \t\"'‘“(")[:1] for line in lines if line.strip()]
    if len(heads) < 2:
        return False
    capital = sum(c.isupper() for c in heads if c.isalpha())
    short = sum(len(line.strip()) <= 70 for line in lines)
    ends = sum(bool(re.search(r"[a-z,;:]$", line.rstrip())) for line in lines[:-1])
    return (
        capital >= 0.8 * len(heads)
        and short >= 0.9 * len(lines)
        and ends >= 0.5 * max(1, len(lines) - 1)
    )


_CODE_CHARS = frozenset("[]{}()=<>;#$|\\/_`@*~^%&")
_PROMPT = re.compile(r"^\s*(?:>>> |\.\.\. |\$ |# |% )")


def _is_code(lines: Sequence[str]) -> bool:
    """Code, a shell session or markup, not prose that is merely indented: prompts on most
    lines, or many brackets and operators and no sentence ending."""
    if sum(bool(_PROMPT.match(line)) for line in lines) >= 0.5 * len(lines):
        return True
    text = " ".join(lines)
    chars = [c for c in text if not c.isspace()]
    if not chars:
        return False
    share = sum(c in _CODE_CHARS for c in chars) / len(chars)
    sentences = len(re.findall(r"[a-z][.!?](?:\s|$)", text))
    return (share > 0.08 and sentences <= len(lines) // 3) or share > 0.15


def _kind_of(lines: list[str]) -> tuple[BlockKind, Heading | None, str, int]:
    """A block's kind, heading, speaker, and how many of its first lines the speaker's name
    takes (a speech's words begin after them)."""
    first = lines[0].strip()
    if len(lines) <= 2:
        underlined = len(lines) == 2 and _UNDERLINE.match(lines[1]) and len(lines[1].strip()) >= 3
        if underlined and first and not _UNDERLINE.match(lines[0]):
            mark = lines[1].strip()[0]
            numbered = heading_of(first)
            if numbered is not None and numbered.family == "numbered":
                return "heading", numbered, "", 0
            return "heading", Heading(f"underline {mark}", 10, first), "", 0
        heading = heading_of(first) if len(lines) == 1 else None
        if heading is None and len(lines) == 2:
            joined = heading_of(f"{first} {lines[1].strip()}")
            one = heading_of(first)
            heading = one if one and one.family not in {"numbered", "roman"} else joined
        if heading is not None and heading.family.startswith("markdown") and lines[0][:1].isspace():
            heading = None  # "    # Create a sample collection": a comment in indented code
        if heading is not None:
            return "heading", heading, "", 0
    if len(lines) == 3 and _UNDERLINE.match(lines[0]) and _UNDERLINE.match(lines[2]):
        mark = lines[0].strip()[0]
        return "heading", Heading(f"overline {mark}", 9, lines[1].strip()), "", 0
    if _DIRECTION.match(" ".join(lines)) and len(lines) <= 4:
        return "direction", None, "", 0
    speaker = _SPEAKER.match(first)
    if speaker and len(lines) >= 2 and len(first) <= 32:
        return "speech", None, speaker.group("who"), 1
    inline = _SPEAKER_INLINE.match(first)
    if inline:
        return "speech", None, inline.group("who"), 0
    if _is_code(lines):
        return "code", None, "", 0
    if sum(bool(_LIST_LINE.match(line)) for line in lines) >= 0.5 * len(lines) and len(lines) > 1:
        return "list", None, "", 0
    if len(lines) >= 2 and _is_verse(lines):
        return "verse", None, "", 0
    return "prose", None, "", 0


def blocks(text: str) -> list[Block]:
    """``text`` cut at blank lines into typed blocks, in order (offsets into ``text``); a
    block with a heading on its first line and text after it is two blocks, and so is a
    speech's name and its words (the speaker kept on the speech)."""
    out: list[Block] = []
    at = 0
    pieces: list[tuple[int, str]] = []
    for m in _BLANK.finditer(text):
        pieces.append((at, text[at : m.start()]))
        at = m.end()
    pieces.append((at, text[at:]))
    for start, piece in pieces:
        lines = piece.split("\n")
        while lines and not lines[0].strip():
            start += len(lines.pop(0)) + 1
        while lines and not lines[-1].strip():
            lines.pop()
        if not lines:
            continue
        if all(_UNDERLINE.match(line) for line in lines):
            out.append(Block(start, "\n".join(lines), "rule"))
            continue
        head = heading_of(lines[0]) if len(lines) > 2 else None
        if (
            head is not None
            and head.family == "numbered"
            and (len(lines[0].split()) > 9 or re.search(r"[.!?]$", lines[0].strip()))
        ):
            head = None
        if (
            head is not None
            and (head.family in KEYWORD_RANK or head.family == "numbered")
            and not _SPEAKER.match(lines[0])
        ):
            out.append(Block(start, lines[0], "heading", head))
            start += len(lines[0]) + 1
            lines = lines[1:]
        kind, heading, speaker, skip = _kind_of(lines)
        if kind == "speech" and skip:
            start += sum(len(line) + 1 for line in lines[:skip])
            lines = lines[skip:]
        out.append(Block(start, "\n".join(lines), kind, heading, speaker))
    return _contents_marked(out)


def _contents_marked(found: list[Block]) -> list[Block]:
    """The blocks with a contents list marked ``contents``: the blocks after a "Contents"
    label, or a run of three or more heading-like blocks or lines, in the first quarter of
    the text, whose entries head parts again later."""
    if not found:
        return found
    limit = found[-1].end // 4 + 1
    out = list(found)
    for i, block in enumerate(found):
        if block.start > limit:
            break
        labelled = _CONTENTS_LABEL.match(block.text.split("\n")[0])
        entries = _entry_lines(block)
        if labelled or entries >= 3:
            j = i + (1 if labelled and block.text.count("\n") == 0 else 0)
            if labelled and j == i:
                out[i] = Block(block.start, block.text, "contents")
                j += 1
            while j < len(found) and (
                _entry_lines(found[j])
                or found[j].kind == "heading"
                or (labelled and _short_lines(found[j]))
            ):
                if found[j].kind == "heading" and not _entry_lines(found[j]):
                    # a lone heading followed by text is a part, not an entry
                    nxt = found[j + 1] if j + 1 < len(found) else None
                    if nxt is None or (nxt.kind not in {"heading"} and not _entry_lines(nxt)):
                        break
                out[j] = Block(found[j].start, found[j].text, "contents")
                j += 1
            if labelled and i < j:
                out[i] = Block(block.start, block.text, "contents")
            if j > i + 1 or labelled or entries >= 3:
                if entries >= 3:
                    out[i] = Block(block.start, block.text, "contents")
                return out
    return out


def _short_lines(block: Block) -> bool:
    """A block of two or more short lines that end no sentence (a list of titles)."""
    lines = [line.strip() for line in block.text.split("\n") if line.strip()]
    return len(lines) >= 2 and all(
        len(line.split()) <= 12 and not re.search(r"[.;,]$", line) for line in lines
    )


def _entry_lines(block: Block) -> int:
    """How many of a block's lines read as contents entries (a heading, or a line ending
    in a page number); 0 when most of its lines do not."""
    lines = [line for line in block.text.split("\n") if line.strip()]
    if len(lines) < 2 and block.kind != "heading":
        return 0
    entries = sum(
        bool(heading_of(line.strip().lstrip("*• ")) or _PAGE_NUMBER.search(line)) for line in lines
    )
    return entries if entries >= 0.7 * len(lines) else 0


# --------------------------------------------------------------------------------------------
# Front matter: title, author
# --------------------------------------------------------------------------------------------

_CREDIT = re.compile(
    r"^(?:produced by|transcribed|prepared by|edited by|translated by|release date|"
    r"language|character set|e-?text|ebook|copyright|©|version|posting date|last updated|"
    r"\[|\(|https?://|www\.|isbn|all rights|first published|printed|london|new york|published)",
    re.IGNORECASE,
)
_FIELD = re.compile(r"^:?(?P<key>title|author|authors|by)\s*:\s*(?P<value>\S.*)$", re.IGNORECASE)
_BY = re.compile(r"^by\s+(?P<who>\S.*)$", re.IGNORECASE)
_PERSON = re.compile(
    r"^(?:[A-Z][a-zà-ÿ'’-]+\.?|[A-Z]\.)(?:[ \u00a0](?:[A-Z][a-zà-ÿ'’-]+\.?|[A-Z]\.|de|van|von|"
    r"da|di|le|la)){1,4}$"
)
_NOT_PERSON = re.compile(
    r"\b(?:university|universit\S*|inc|ltd|press|society|company|institute|college|team|"
    r"project|foundation|department|school|edition|version|abstract|introduction|contents|"
    r"preface|chapter|the|of|and|for)\b",
    re.IGNORECASE,
)
_AFFILIATION = re.compile(
    r"(?:universit|institut|laborator|hochschule|akademie|école|escuela)|"
    r"\b(?:college|school|department|centre|center|inc|ltd|gmbh|corporation|foundation|associates|"
    r"consulting|group|labs?|research|"
    r"international)\b|@",
    re.IGNORECASE,
)
"""A line of a byline that is no author: an affiliation, an address."""


def _joined(people: Sequence[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    if len(people) <= 2:
        return " and ".join(people)
    return f"{', '.join(people[:-1])} and {people[-1]}"


HEAD_LINES = 40
"""Non-empty lines at the head of the text read for its title page."""


@dataclass(frozen=True)
class FrontMatter:
    """What the head of a text says it is."""

    title: str | None = None
    subtitle: str | None = None
    author: str | None = None
    date: str | None = None


def _title_like(line: str) -> bool:
    words = re.findall(r"[^\W\d_][\w'’-]*", line)
    if not words or len(words) > 16 or _CREDIT.match(line) or _BY.match(line):
        return False
    if re.match(r"^:\w+:", line) or "@" in line or re.search(r"\b(?:19|20)\d\d\b.*\d", line):
        return False
    if line.endswith((",", ";")) or (re.search(r"[.!?]$", line) and not line.isupper()):
        return False
    if _CONTENTS_LABEL.match(line):
        return False
    content = [w for w in words if len(w) > 3 or w[:1].isupper()]
    caps = sum(w[:1].isupper() for w in content)
    return bool(content) and (line.isupper() or caps >= 0.6 * len(content))


def front_matter(found: Sequence[Block], stop: int | None = None) -> FrontMatter:
    """The title (the first title-like line at the head, a title wrapped over two lines of
    one block joined), a subtitle (a title-like line in capitals right after it), the author
    (``by X``, an ``Author:`` field, or a person's name among the lines right after the
    title) and a year, read from the first :data:`HEAD_LINES` non-empty lines of the blocks
    before ``stop`` (the first part) and before the first long block of text."""
    lines: list[tuple[str, int]] = []  # (line, its block's index)
    for index, block in enumerate(found):
        if stop is not None and block.start >= stop and lines:
            break
        if block.kind == "contents":
            if lines:
                break
            continue
        if (
            block.kind in {"prose", "verse", "speech", "code", "list"}
            and block.text.count("\n") >= 4
        ):
            if lines:
                break
            continue
        if block.kind == "heading" and block.heading and block.heading.family in KEYWORD_RANK:
            if lines:
                break
            continue
        for raw in block.text.split("\n"):
            line = " ".join(raw.replace("\u00a0", " ").split()).strip("#*=_ ")
            if line and not _UNDERLINE.match(line):
                lines.append((line, index))
        if len(lines) >= HEAD_LINES:
            break
    title = subtitle = author = None
    fields: dict[str, str] = {}
    for line, _ in lines:
        m = _FIELD.match(line)
        if m:
            fields.setdefault(m.group("key").lower().rstrip("s"), m.group("value").strip())
    title = fields.get("title")
    author = fields.get("author")
    at = None
    if title is None:
        for i, (line, _) in enumerate(lines):
            if _title_like(line):
                title, at = line, i
                break
    if title is not None and at is not None:
        nxt, nxt_block = lines[at + 1] if at + 1 < len(lines) else ("", -1)
        same = nxt_block == lines[at][1]
        if same and nxt and _title_like(nxt) and not _BY.match(nxt):
            wrapped = len(title.split()) >= 6 or nxt[:1].islower() or title.endswith(":")
            if title.isupper() and nxt.isupper() and not wrapped:
                subtitle = nxt
            elif wrapped or not _PERSON.match(nxt):
                title = f"{title} {nxt}"
            at += 1
        elif nxt and nxt.isupper() and _title_like(nxt) and len(nxt.split()) >= 4:
            subtitle = nxt
            if at + 2 < len(lines) and lines[at + 2][1] == nxt_block and lines[at + 2][0].isupper():
                subtitle = f"{nxt} {lines[at + 2][0]}"
        people: list[str] = []
        for k in range(at + 1, min(len(lines), at + 9)):
            line = lines[k][0]
            by = _BY.match(line)
            if author is not None:
                break
            if by:
                author = by.group("who")
            elif line.lower() == "by" and k + 1 < len(lines):
                author = lines[k + 1][0]
            elif (
                _PERSON.match(line)
                and not _NOT_PERSON.search(line)
                and not _AFFILIATION.search(line)
            ):
                people.append(line)  # a byline: every author, each on a line of its own
            elif people and not _AFFILIATION.search(line):
                break
        if author is None and people:
            author = _joined(people)
    if author is not None:
        author = re.sub(r"\s*(?:\(\d{4}\)|<[^>]*>)\s*$", "", author).strip() or None
    if title is not None and title.isupper():
        title = _titled(title)
    if subtitle is not None and subtitle.isupper():
        subtitle = _titled(subtitle)
    year = re.search(r"\b(1[5-9]\d\d|20\d\d)\b", "\n".join(line for line, _ in lines[:12]))
    return FrontMatter(title, subtitle, author, year.group(1) if year else None)


_SMALL = frozenset(
    [
        "a",
        "an",
        "and",
        "as",
        "at",
        "but",
        "by",
        "for",
        "from",
        "in",
        "into",
        "nor",
        "of",
        "on",
        "or",
        "the",
        "to",
        "with",
    ]
)


def _titled(line: str) -> str:
    """A title written in capitals, in title case ("THE JUNGLE BOOK" -> "The Jungle Book",
    "HAMLET, PRINCE OF DENMARK" -> "Hamlet, Prince of Denmark")."""
    words = line.split()
    out = []
    for i, word in enumerate(words):
        low = word.lower()
        if i and low in _SMALL:
            out.append(low)
        elif re.fullmatch(r"[IVXLC]+\.?", word):
            out.append(word)
        else:
            low = word.lower()  # "WINTER'S" -> "Winter's", "(DIA)" -> "(Dia)"
            out.append(re.sub(r"[^\W\d_]", lambda m: m.group().upper(), low, count=1))
    return " ".join(out)


# --------------------------------------------------------------------------------------------
# Parts
# --------------------------------------------------------------------------------------------


@dataclass
class Part:
    """A part of the text: its heading (None: an equal span), where it starts and ends, the
    headings of the smaller parts inside it."""

    title: str | None
    start: int
    end: int
    label: str = ""
    """How the summary names it ("Act 2", "Chapter 12", "2. First steps")."""
    inner: list[str] = field(default_factory=list)
    """The headings of the part's own parts (an act's scenes)."""


def _family_key(heading: Heading) -> tuple[int, str]:
    return heading.rank, heading.family


def _sequential(heads: list[tuple[int, Heading]]) -> list[tuple[int, Heading]]:
    """Of numbered headings of one depth, those that count on from the one before (1, 2, 3;
    2.1, 2.2), so a numbered list in the text is no part."""
    out: list[tuple[int, Heading]] = []
    previous: list[int] | None = None
    for at, heading in heads:
        parts = [int(p) for p in heading.number.split(".") if p.isdigit()]
        if not parts:
            continue
        if previous is None:
            ok = parts[-1] in (0, 1) or (len(out) == 0 and parts[-1] <= 2)
        else:
            ok = (parts[:-1] != previous[:-1] and parts[-1] in (0, 1)) or (
                parts[:-1] == previous[:-1] and parts[-1] == previous[-1] + 1
            )
        if ok:
            out.append((at, heading))
            previous = parts
    return out


MIN_PART_CHARS = 200
"""A heading followed by less text than this before the next of its level heads no part (a
list of headings, a running title)."""


def parts(found: Sequence[Block], length: int, body_start: int = 0, wanted: int = 8) -> list[Part]:
    """The text's parts: its headings of the highest level that repeats (at least twice,
    after ``body_start``), each part to the next heading of that level, the headings below
    it kept as its inner ones, and the appendices after them parts as well; text before the
    first heading is a part of its own when it is long (a preface); with no headings,
    ``wanted`` equal spans of the body."""
    heads = [
        (b.start, b.heading)
        for b in found
        if b.kind == "heading" and b.heading is not None and b.start >= body_start
    ]
    listed = _listed_heads(found, body_start)
    if len(listed) >= 2:
        heads = sorted([*heads, *listed], key=lambda p: p[0])
    by_family: dict[tuple[int, str], list[tuple[int, Heading]]] = {}
    marks: dict[str, int] = {}  # reStructuredText's levels: in the order they first appear
    for at, heading in heads:
        key = _family_key(heading)
        if heading.family.startswith(("underline", "overline")):
            key = (9 + marks.setdefault(heading.family, len(marks)), heading.family)
        by_family.setdefault(key, []).append((at, heading))
    for key, found_heads in list(by_family.items()):
        if key[1] == "numbered":
            depth = {h.number.count(".") for _, h in found_heads}
            for d in depth:
                one = [(a, h) for a, h in found_heads if h.number.count(".") == d]
                by_family[(key[0], f"numbered {d}")] = _sequential(one)
            del by_family[key]
        elif key[1] == "roman":
            by_family[key] = found_heads
    chosen: list[tuple[int, Heading]] = []
    for key in sorted(by_family, key=lambda k: (k[0], -len(by_family[k]))):
        candidates = by_family[key]
        spaced = [
            (at, h)
            for i, (at, h) in enumerate(candidates)
            if (candidates[i + 1][0] if i + 1 < len(candidates) else length) - at >= MIN_PART_CHARS
        ]
        if len(spaced) >= 2:
            chosen = spaced
            break
    if not chosen:
        return equal_spans(found, length, body_start, wanted)
    if chosen[0][1].family != "appendix":  # the appendices after the chapters: parts as well
        chosen = sorted(
            [*chosen, *((a, h) for a, h in heads if h.family == "appendix" and a > chosen[0][0])],
            key=lambda p: p[0],
        )
    out: list[Part] = []
    first = chosen[0][0]
    if first - body_start > max(2000, 0.05 * length):
        out.append(Part(None, body_start, first, "Opening"))
    inner_of = {at: h for at, h in heads}
    for i, (at, heading) in enumerate(chosen):
        end = chosen[i + 1][0] if i + 1 < len(chosen) else length
        inner = [
            inner_of[a].text
            for a in inner_of
            if at < a < end and _family_key(inner_of[a])[0] > heading.rank
        ]
        joined = _INNER_HEAD.search(heading.text) if heading.family in KEYWORD_RANK else None
        if joined:  # "ACT III. SCENE I. Olivia's garden": the act's first scene too
            inner.insert(0, joined.group().strip())
        out.append(Part(heading.text, at, end, _label(heading), inner))
    return out


_ENTRY_TAIL = re.compile(r"(?:\.{2,}|\s{2,}|,)\s*[\dxivlc]+\s*$", re.IGNORECASE)


def _entry(line: str) -> str:
    return " ".join(_ENTRY_TAIL.sub("", line).strip(" *•.").split()).casefold()


def _listed_heads(found: Sequence[Block], start: int) -> list[tuple[int, Heading]]:
    """The body's lines that a contents list names, in the list's order ("Mowgli's
    Brothers" listed, then standing alone as a heading later): the parts the text's own
    contents announce."""
    entries = []
    for block in found:
        if block.kind == "contents":
            entries += [_entry(line) for line in block.text.split("\n") if _entry(line)]
    entries = [e for e in entries if e not in {"contents", "table of contents"}]
    if len(entries) < 2:
        return []
    wanted = set(entries)
    out: list[tuple[int, Heading]] = []
    for block in found:
        if block.start < start or block.kind == "contents" or "\n" in block.text.strip():
            continue
        line = block.text.strip()
        if _entry(line) in wanted and len(line) <= 100:
            out.append((block.start, Heading("contents entry", -1, line)))
            wanted.discard(_entry(line))
    return out


_INNER_HEAD = re.compile(rf"(?<=\S)\s+\b(?:scene|section)\b\.?\s*{_NUMERAL}\b.*$", re.IGNORECASE)
"""A smaller part's heading on the line of a larger one's ("ACT III. SCENE I. ...")."""


def _label(heading: Heading) -> str:
    text = heading.text.strip()
    if heading.family in KEYWORD_RANK:
        text = _INNER_HEAD.sub("", text)
    text = text.rstrip(".:")
    if heading.family in KEYWORD_RANK and heading.number:
        title = _titled(text) if text.isupper() else text
        return title
    return _titled(text) if text.isupper() else text


def equal_spans(found: Sequence[Block], length: int, body_start: int, wanted: int) -> list[Part]:
    """``wanted`` spans of the body of about equal length, each cut at a block's start."""
    starts = [b.start for b in found if b.start >= body_start]
    if not starts:
        return [Part(None, body_start, length)]
    size = (length - body_start) / max(1, wanted)
    cuts = [body_start]
    for k in range(1, wanted):
        target = body_start + k * size
        nearest = min(starts, key=lambda s: abs(s - target))
        if nearest > cuts[-1]:
            cuts.append(nearest)
    return [
        Part(None, cut, cuts[i + 1] if i + 1 < len(cuts) else length) for i, cut in enumerate(cuts)
    ]


def body_start(found: Sequence[Block]) -> int:
    """Where the body begins: after the title page and the contents list (the first block
    after the last contents block in the first quarter, else the first heading or prose
    block after the title lines)."""
    contents = [b for b in found if b.kind == "contents"]
    if contents:
        return contents[-1].end
    return 0


def speakers(found: Sequence[Block]) -> Counter[str]:
    """How many speeches each speaker makes (a play's prefixes, as written)."""
    return Counter(b.speaker for b in found if b.kind == "speech")
