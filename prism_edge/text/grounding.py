"""What a grounded step may write: words, spans, names and sentences of the text it reads.

Small models copy keys from the prompt's example, make up names, or fall into loops of braces
(measured on SmolLM2-135M: keys like ``aattribu-tibu-tib-tib``, values like ``}}}}``). A grounded
grammar lets new dict keys be only spans of one to three consecutive words of the chunk and
strings be only its words, joined by spaces and punctuation; an extractive one (summaries) lets
new keys be only the chunk's names and strings only its sentences, whole, that name the key.
Whatever is stored then comes from the text (issue 7's faithfulness), and the final answer may
be grounded in the memory the same way, so it cannot introduce a name the memory does not hold.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from prism_edge.core.config import GroundingKind

WORD = re.compile(r"\w+(?:['’]\w+)*")
SPAN_WORDS = 3
"""Words a new key spans at most."""
MAX_SPANS = 6000
"""Spans kept at most (the first ones in the text), so a grammar stays small."""

MIN_SENTENCE_WORDS = 3
"""Shorter sentences ("Aaarh!", "Good luck.") say too little to store."""

_NAME_TOKEN = re.compile(r"\w+(?:[-'’]\w+)*")
_POSSESSIVE = re.compile(r"['’]s$")
_SENTENCE_END = re.compile(r"[.!?]|\n\s*\n")
_PARAGRAPH = re.compile(r"\n\s*\n")
_SENTENCE_BREAK = re.compile(r"[.!?][\"'’”)]*\s+(?=[\"'‘“(]*[A-Z0-9])")
_LOWER_BREAK = re.compile(r"[.!?][\"'’”)]*\s+(?=[\"'‘“(]*[a-z])")
"""Where sentences of a text written in lower case end (used only where the capital rule finds
no end in a paragraph too long to be one sentence)."""

_FUNCTION_WORDS = """
    a an the of in on at to by as is it be do if or so no not nor we i me my he us up am
    about above after again against all also and any are because been before being below
    between both but can could did does doing down during each few for from further had has
    have having her here hers herself him himself his how into its itself just more most
    now off once only other our ours out over own same she should some such than that their
    theirs them themselves then there these they this those through too under until very was
    were what when where which while who whom why will with would you your yours yourself
    yourselves one two may might must shall upon unto thus yet
"""
FUNCTION_WORDS = frozenset(_FUNCTION_WORDS.split())
"""English function words: an answer grounded in the memory may use them too; the
faithfulness proxy does not count them as content."""


def _function_word(word: str) -> bool:
    return word.casefold() in FUNCTION_WORDS


def words_of(text: str) -> list[str]:
    return WORD.findall(text)


def case_variants(words: Iterable[str]) -> set[str]:
    """Each word as written, in lower case and capitalised (a sentence may start with it)."""
    out: set[str] = set()
    for w in words:
        out |= {w, w.lower(), w[:1].upper() + w[1:]}
    return out


def whole_word(phrase: str, *, ignore_case: bool = False) -> re.Pattern[str]:
    """``phrase`` as a whole word (or words): not inside a longer word."""
    return re.compile(rf"(?<!\w){re.escape(phrase)}(?!\w)", re.IGNORECASE if ignore_case else 0)


TITLES = frozenset(
    [
        "mr",
        "mrs",
        "ms",
        "dr",
        "st",
        "mt",
        "jr",
        "sr",
        "prof",
        "capt",
        "col",
        "gen",
        "lt",
        "rev",
        "hon",
        "messrs",
        "mme",
        "mlle",
        "sgt",
        "gov",
    ]
)
"""Abbreviated titles: a full stop after one ends no sentence ("Mr. Bennet")."""
_LAST_WORD = re.compile(r"(?<![\w.])([A-Za-z]+)$")


def _abbreviated(text: str, dot: int) -> bool:
    """The full stop at ``dot`` ends an abbreviated title or an initial ("Mr.", "J.")."""
    m = _LAST_WORD.search(text, max(0, dot - 12), dot)
    if m is None:
        return False
    word = m.group(1)
    return word.casefold() in TITLES or (len(word) == 1 and word.isupper())


_SPEECH_OPENS = re.compile(r"(?:^|[\s:,;(\-—])[\"“‘]$")
"""An opening quotation mark right before a word: quoted speech, which starts a sentence of
its own (`the call: "Look well!"`, `he said, "Come"`)."""


def _sentence_start(text: str, start: int, previous_end: int) -> bool:
    if previous_end < 0:
        return True
    if _SPEECH_OPENS.search(text[previous_end:start]):
        return True
    for m in _SENTENCE_END.finditer(text, previous_end, start):
        if not (m.group() == "." and _abbreviated(text, m.start())):
            return True
    return False


_LINE_HEAD = re.compile(r"(?:^|\n)[ \t\"'‘“(]*\Z")
VERSE_SHARE = 0.8


def is_verse(text: str) -> bool:
    """Whether ``text`` is set as verse (a poem, a play): at least eight lines, and at least
    :data:`VERSE_SHARE` of those that begin with a letter begin with a capital, as verse lines
    do and lines of wrapped prose do not. In verse a capital at a line's head says nothing of
    a name ("Thy", "Whose")."""
    heads = [line.lstrip(" \t\"'‘“(")[:1] for line in text.splitlines()]
    letters = [c for c in heads if c.isalpha()]
    return len(letters) >= 8 and sum(c.isupper() for c in letters) >= VERSE_SHARE * len(letters)


def names_of(text: str, min_mentions: int = 1) -> list[str]:
    """The names in ``text``, first seen first: runs of up to SPAN_WORDS capitalised words
    ("Shere Khan", "Rikki-tikki-tavi", "Council Rock"; the shorter runs of a longer one), made
    of words that some occurrence writes capitalised other than at a sentence's or a
    paragraph's start, so "Then" or "The" opening sentences are no names, and "Mowgli's"
    names "Mowgli". Single letters ("O Chief") and words in capitals longer than four letters
    (shouting) are no names. With ``min_mentions`` above 1, a word must be written capitalised
    mid-sentence that often (an interjection, a header word seen once is no name); in verse
    (:func:`is_verse`) a word at a line's head is not mid-sentence. A heuristic for any
    language that capitalises names, with no model or word list."""
    capitalised: list[tuple[re.Match[str], str]] = []
    seen_mid: dict[str, int] = {}
    previous_end = -1
    verse = is_verse(text)
    for m in _NAME_TOKEN.finditer(text):
        word = _POSSESSIVE.sub("", m.group())
        shouted = len(word) > 4 and word.isupper()  # "LIMITED WARRANTY", not "IBM"
        if word[:1].isupper() and len(word) > 1 and not shouted and not _function_word(word):
            capitalised.append((m, word))
            head = max(0, text.rfind("\n", 0, m.start()))  # the line it is on, not the whole text
            line_head = verse and _LINE_HEAD.search(text, head, m.start()) is not None
            if not line_head and not _sentence_start(text, m.start(), previous_end):
                seen_mid[word] = seen_mid.get(word, 0) + 1
        previous_end = m.end()
    mid_sentence = {word for word, n in seen_mid.items() if n >= min_mentions}
    names: dict[str, None] = {}
    run: list[str] = []

    def flush() -> None:
        if not run:
            return
        if len(run) == 1 and run[0].rstrip(".").casefold() in {*TITLES, "miss"}:
            run.clear()  # "Mr" alone names no one
            return
        if len(run) <= SPAN_WORDS:  # "Shere Khan", not "Shere" and "Khan"
            names[" ".join(run)] = None
        else:  # a title-cased line: its shorter runs
            for i in range(len(run)):
                for j in range(i + 1, min(i + SPAN_WORDS, len(run)) + 1):
                    names[" ".join(run[i:j])] = None
        run.clear()

    last_end = -1
    for m, word in capitalised:
        gap = text[last_end : m.start()] if last_end >= 0 else "."
        joined = not gap.strip() and gap.count("\n") <= 1  # a wrapped line goes on
        after_title = run and run[-1].casefold() in TITLES  # "Mr. Bennet" is one name
        if after_title and gap.startswith(".") and not gap[1:].strip() and gap.count("\n") <= 1:
            run[-1] += "."
            joined = True
        if not joined or word not in mid_sentence:
            flush()
        if word in mid_sentence:
            run.append(word)
        last_end = m.end() if word == m.group() else -1  # a possessive ends a name
    flush()
    return list(names)


_TERM = re.compile(r"(?<![\w'-])[a-z][a-z-]*[a-z](?![\w'-])")
MIN_TERM_CHARS = 4


def terms_of(text: str, min_mentions: int = 2) -> list[str]:
    """The words a text without names keeps returning to: lower-case words of at least
    MIN_TERM_CHARS letters that are no function words, written at least ``min_mentions``
    times; the most written first (ties: first seen first). What :func:`names_of` is for a
    story, these are for a manual or a text in lower case."""
    counts: dict[str, int] = {}
    for m in _TERM.finditer(text):
        word = m.group()
        if len(word) >= MIN_TERM_CHARS and word not in FUNCTION_WORDS:
            counts[word] = counts.get(word, 0) + 1
    order = {word: i for i, word in enumerate(counts)}
    kept = [word for word, n in counts.items() if n >= min_mentions]
    return sorted(kept, key=lambda word: (-counts[word], order[word]))


def sentences_of(text: str, max_chars: int) -> list[str]:
    """The sentences of ``text``, first seen first, each on one line (wrapped lines joined),
    of at least MIN_SENTENCE_WORDS words; one longer than ``max_chars`` is cut at a word
    boundary (its head is still what the text says). A sentence ends at a full stop before a
    capital or a digit (not one after an abbreviated title or an initial: "Mr. Bennet"), or,
    in a paragraph too long for one sentence with no such end (text written in lower case),
    before any word."""
    out: dict[str, None] = {}
    for paragraph in _PARAGRAPH.split(text):
        flat = " ".join(paragraph.split())
        breaks = [
            m.end()
            for m in _SENTENCE_BREAK.finditer(flat)
            if not (flat[m.start()] == "." and _abbreviated(flat, m.start()))
        ]
        if not breaks and len(flat) > max_chars:  # lower-case text: any full stop ends one
            breaks = [m.end() for m in _LOWER_BREAK.finditer(flat)]
        ends = [*breaks, len(flat)]
        start = 0
        for end in ends:
            sentence, start = flat[start:end].strip(), end
            if sentence.count('"') % 2:  # a quote opened or closed in another sentence
                sentence = sentence.strip('"').strip()
            if len(WORD.findall(sentence)) < MIN_SENTENCE_WORDS:
                continue
            if len(sentence) > max_chars:
                cut = sentence.rfind(" ", 0, max_chars + 1)
                sentence = sentence[: cut if cut > 0 else max_chars].rstrip(" ,;:")
            out[sentence] = None
    return list(out)


@dataclass(frozen=True)
class Grounding:
    words: frozenset[str]
    """What a stored string may be made of."""
    spans: frozenset[str]
    """What a new dict key may be: 1 to SPAN_WORDS consecutive words, as written, neither
    starting nor ending with a function word ("Father Wolf", "man cub", not "and the"), or in
    an extractive grounding the chunk's names."""
    sentences: tuple[str, ...] = ()
    """In an extractive grounding, what a stored string is: one of these, whole."""

    def about(self, name: str) -> tuple[str, ...]:
        """The sentences that name ``name`` (as written, as a whole word)."""
        named = whole_word(name)
        return tuple(s for s in self.sentences if named.search(s))

    @classmethod
    def of(
        cls,
        text: str,
        *,
        extra_words: Iterable[str] = (),
        kind: GroundingKind = "words",
        max_chars: int = 400,
    ) -> Grounding:
        """The grounding of a chunk; ``extra_words`` are allowed in strings too. An
        ``extractive`` one falls back to spans for keys when the chunk has no names, and to
        words for strings when it has no sentences."""
        words = case_variants(WORD.findall(text)) | set(extra_words)
        if kind == "extractive":
            # names written twice mid-sentence (not an interjection or a header word seen
            # once); in a chunk that has none, those seen once
            names = (names_of(text, min_mentions=2) or names_of(text))[:MAX_SPANS]
            sentences = tuple(sentences_of(text, max_chars))
            if names:
                return cls(frozenset(words), frozenset(names), sentences)
            return replace(cls._of_words(text, words), sentences=sentences)
        return cls._of_words(text, words)

    @classmethod
    def _of_words(cls, text: str, words: set[str]) -> Grounding:
        matches = list(WORD.finditer(text))
        spans: dict[str, None] = {}
        for i, first in enumerate(matches):
            if _function_word(first.group()):
                continue
            parts = [first.group()]
            spans[parts[0]] = None
            for j in range(i + 1, min(i + SPAN_WORDS, len(matches))):
                gap = text[matches[j - 1].end() : matches[j].start()]
                if gap.strip() or gap.count("\n") > 1:  # not across punctuation or paragraphs
                    break
                parts.append(matches[j].group())
                if not _function_word(parts[-1]):  # "Shere Khan", not "Shere Khan and"
                    spans[" ".join(parts)] = None
            if len(spans) >= MAX_SPANS:
                break
        return cls(frozenset(words), frozenset(list(spans)[:MAX_SPANS]))
