"""Reference-free quality measures that work on any text: one table for every method.

* **entity recall**: the share of user-listed key entities (characters, places, ...) that the
  final answer names. An entity may have aliases (``Shere Khan|Lungri``); it counts as recalled
  when any alias occurs as whole words, case-insensitive.
* **role accuracy**: of the listed entities that come with role words (``Bagheera = panther,
  black``: words the text uses to say who or what it is), the share the answer states the role
  of: one sentence of the answer (a labelled line's label going with its first) holds a
  spelling of the entity and one of its words.
* **junk**: what no summary a reader keeps should hold: a "name" in its header that is a
  contraction, a pronoun or a common noun, and a footnote, heading or table-of-contents line
  among its sentences (:func:`junk_of`).
* **needle accuracy** (code search): the share of (description, expected name) pairs whose
  answer names the expected function.
* **faithfulness proxy** (PRISM): the share of stored values whose content words occur in the
  chunk they were written from. A value is every string a revision stored (leaf strings of its
  value and the new dict key its path names); it is *supported* when at least
  :data:`SUPPORT_SHARE` of its content words occur in that chunk. Placeholders (``???``) and
  values without content words are not counted.

Content words are lowercased alphanumeric words of three or more characters that are not
English function words; a word matches a chunk word when they are equal or share their first
four characters (``hunting``/``hunted`` do, ``wolves``/``wolf`` do not), a crude stem that needs
no model and no data files.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prism_edge.core.errors import PrismError
from prism_edge.core.revisions import Revision
from prism_edge.text.grounding import FUNCTION_WORDS, _abbreviated, whole_word
from prism_edge.text.prose import plausible_name

SUPPORT_SHARE = 0.8
STEM = 4
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
STOPWORDS = FUNCTION_WORDS


def content_words(text: str) -> list[str]:
    return [
        w
        for w in (m.group(0).casefold() for m in _WORD.finditer(text))
        if len(w) >= 3 and w not in STOPWORDS
    ]


# --------------------------------------------------------------------------------------------
# Entity recall
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entity:
    name: str
    aliases: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    """Words the text uses to say who or what it is (role accuracy; none: not measured)."""

    @property
    def spellings(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


@dataclass(frozen=True)
class Recall:
    found: tuple[str, ...]
    missed: tuple[str, ...]

    @property
    def value(self) -> float:
        total = len(self.found) + len(self.missed)
        return len(self.found) / total if total else 0.0


def entity_recall(answer: str | None, entities: Sequence[Entity]) -> Recall:
    """The entities ``answer`` names (any spelling, any case, as whole words). Spellings are
    matched longest first and each match is used up, so "Kala Nag" (the elephant) does not
    also count as "Nag" (the cobra)."""
    text = answer or ""
    spellings = sorted(
        ((s, e.name) for e in entities for s in e.spellings), key=lambda p: -len(p[0])
    )
    named: set[str] = set()
    for spelling, name in spellings:
        pattern = whole_word(spelling, ignore_case=True)
        text, hits = pattern.subn(lambda m: " " * len(m.group()), text)
        if hits:
            named.add(name)
    found = tuple(e.name for e in entities if e.name in named)
    missed = tuple(e.name for e in entities if e.name not in named)
    return Recall(found, missed)


_UNIT_END = re.compile(r"(?<=[.!?])[\"'’”)]*\s+")


def _units(answer: str) -> list[str]:
    """The answer's sentences, line by line: a labelled line's label (``Bagheera: ...``,
    ``Mr. Bennet: ...``, ``Act II (A room in ...): ...``) belongs to its first sentence, and
    the sentences after it stand alone (a part line of several sentences states nothing by a
    name in one and a role word in another); a full stop after an abbreviated title or an
    initial ("Mr. Darcy") ends no sentence."""
    units: list[str] = []
    for line in answer.splitlines():
        line = line.strip(" -*")
        if not line:
            continue
        label = re.match(r"^([^!?:]{1,60}): ", line)
        start = 0
        if label and all(_abbreviated(line, m.start()) for m in re.finditer(r"\.", label[1])):
            start = label.end()  # no sentence ends inside the label
        first = 0
        for m in _UNIT_END.finditer(line, start):
            if line[m.start() - 1] == "." and _abbreviated(line, m.start() - 1):
                continue
            units.append(line[first : m.start()])
            first = m.end()
        units.append(line[first:])
    return [u for u in units if u.strip()]


def role_accuracy(answer: str | None, entities: Sequence[Entity]) -> Recall:
    """Of ``entities`` with role words, those whose role the answer states: one of its units
    (:func:`_units`) holds a spelling of the entity and one of its role words (whole words,
    case ignored; a plural ``s`` allowed)."""
    units = _units(answer or "")
    with_roles = [e for e in entities if e.roles]
    found: list[str] = []
    missed: list[str] = []
    for entity in with_roles:
        spelled = [whole_word(s, ignore_case=True) for s in entity.spellings]
        roles = [re.compile(rf"(?<!\w){re.escape(r)}s?(?!\w)", re.IGNORECASE) for r in entity.roles]
        stated = any(
            any(p.search(u) for p in spelled) and any(r.search(u) for r in roles) for u in units
        )
        (found if stated else missed).append(entity.name)
    return Recall(tuple(found), tuple(missed))


def junk_of(answer: str | None) -> list[str]:
    """What in ``answer`` no kept summary holds: listed names (a ``Main names: A (3), B (2).``
    header, ``- Name: ...`` lines, an ``Also named: A, B.`` line) that are no names
    (:func:`plausible_name`: contractions, pronouns, heading words, words in lower case, the
    last allowed only where most listed names are: a manual's subjects), and lines that are
    footnotes (``[Footnote``, ``[1]``), headings (numbered chapter headings) or
    table-of-contents lines."""
    junk: list[str] = []
    text = answer or ""
    header = re.search(r"^Main names: (.*)$", text, re.M)
    names = re.findall(r"([^,()]+?) \(\d+\)", header.group(1)) if header else []
    names += re.findall(r"^[-*] ([^:]{1,60}):", text, re.M)
    also = re.search(r"^Also named: (.*?)\.?$", text, re.M)
    names += also.group(1).split(", ") if also else []
    names = [n.strip() for n in names if n.strip()]
    subjects = 2 * sum(1 for n in names if n[:1].islower()) > len(names)
    for name in names:
        if not plausible_name(name) and not (subjects and name[:1].islower()):
            junk.append(f"name {name!r}")
    for line in text.splitlines():
        body = re.sub(r"^[-*] [^:]{1,60}: ", "", line.strip())
        if re.match(r"^\[?(footnote|note)\b|^\[\d+\]", body, re.IGNORECASE):
            junk.append(f"footnote {body[:60]!r}")
        elif re.match(r"^(chapter|book|part|act|scene|section)\s+[\dIVXLC]+\b", body, re.I):
            if len(body.split()) <= 8:
                junk.append(f"heading {body[:60]!r}")
        elif re.search(r"\.{4,}\s*\d+$|\s{2,}\d+$", body):
            junk.append(f"contents {body[:60]!r}")
    return junk


def _lines(path: Path, what: str) -> list[str]:
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise PrismError(f"cannot read {what} {path}: {exc.strerror}") from None


def load_entities(path: Path) -> list[Entity]:
    """One entity a line, aliases after ``|``, role words after ``=`` (comma-separated);
    blank lines and ``#`` comments are skipped."""
    entities = []
    for line in _lines(path, "the entity list"):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        spelled, _, roles = line.partition("=")
        names = [n.strip() for n in spelled.split("|") if n.strip()]
        if not names:
            raise PrismError(f"{path}: a line names no entity: {line[:60]!r}")
        words = tuple(r.strip() for r in roles.split(",") if r.strip())
        entities.append(Entity(names[0], tuple(names[1:]), words))
    if not entities:
        raise PrismError(f"the entity list {path} names no entity")
    return entities


# --------------------------------------------------------------------------------------------
# Needles (code search)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Needle:
    query: str
    expected: str


def load_needles(path: Path) -> list[Needle]:
    """JSON lines ``{"query": ..., "expected": ...}``; a bad line is a one-line error."""
    needles = []
    for number, line in enumerate(_lines(path, "the needles"), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            needles.append(Needle(str(obj["query"]), str(obj["expected"])))
        except (json.JSONDecodeError, KeyError, TypeError):
            raise PrismError(
                f'{path}:{number}: expected {{"query": ..., "expected": ...}}'
            ) from None
    if not needles:
        raise PrismError(f"{path} holds no needle")
    return needles


_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def holds_answer(answer: str | None, expected: str) -> bool:
    """The answer states ``expected``: a number as a number (``4,451`` and ``4451.0`` hold
    ``4451``), anything else as a whole phrase, case ignored."""
    if not answer:
        return False
    if _NUMBER.fullmatch(expected.strip()):
        wanted = float(expected.replace(",", ""))
        return any(float(n.replace(",", "")) == wanted for n in _NUMBER.findall(answer))
    return bool(whole_word(expected.strip(), ignore_case=True).search(answer))


def names_function(answer: str | None, expected: str) -> bool:
    """The answer names ``expected`` as a whole identifier (``Class.method`` or ``method``)."""
    if not answer:
        return False
    names = set(re.findall(r"[A-Za-z_][\w.]*", answer))
    short = expected.rsplit(".", 1)[-1]
    return expected in names or any(n == short or n.endswith("." + short) for n in names)


# --------------------------------------------------------------------------------------------
# Faithfulness proxy
# --------------------------------------------------------------------------------------------


def stored_strings(revision: Revision) -> list[str]:
    """The strings a revision stores: leaf strings of its value and a new dict key it names."""
    out: list[str] = []
    last = revision.segments[-1]
    if revision.op == "add" and isinstance(last, str) and len(revision.segments) > 1:
        out.append(last)

    def walk(value: Any) -> None:
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, dict):
            for v in value.values():  # keys of a nested value are mostly field names
                walk(v)

    walk(revision.value)
    return [s for s in out if s.strip() and s.strip() != "???"]


def stems_of(words: set[str]) -> set[str]:
    return {w[:STEM] for w in words if len(w) >= STEM}


def supported(value: str, chunk_words: set[str], stems: set[str] | None = None) -> bool | None:
    """Whether ``value`` is supported by a chunk; None when it has no content words.
    ``stems`` are the chunk's word stems when the caller has them already."""
    words = content_words(value)
    if not words:
        return None
    if stems is None:
        stems = stems_of(chunk_words)
    hits = sum(1 for w in words if w in chunk_words or (len(w) >= STEM and w[:STEM] in stems))
    return hits >= SUPPORT_SHARE * len(words)


@dataclass
class Faithfulness:
    supported: int = 0
    total: int = 0
    unsupported: list[str] = field(default_factory=list)

    @property
    def value(self) -> float | None:
        return self.supported / self.total if self.total else None

    def add_step(self, chunk: str, revisions: Iterable[Revision]) -> None:
        chunk_words = set(content_words(chunk))
        stems = stems_of(chunk_words)
        for revision in revisions:
            for value in stored_strings(revision):
                verdict = supported(value, chunk_words, stems)
                if verdict is None:
                    continue
                self.total += 1
                if verdict:
                    self.supported += 1
                else:
                    self.unsupported.append(value)


# --------------------------------------------------------------------------------------------
# Repetition
# --------------------------------------------------------------------------------------------

LOOP_NGRAM = 3


def repeated_ngrams(texts: Iterable[str], n: int = LOOP_NGRAM) -> tuple[int, int]:
    """(repeated, total) word n-grams over ``texts``: an n-gram is repeated when the same text
    already had it. A model caught in a loop ("the man's cub is the man's cub is ...") scores
    high; varied prose near 0."""
    repeated = total = 0
    for text in texts:
        words = [w.casefold() for w in _WORD.findall(text)]
        seen: set[tuple[str, ...]] = set()
        for i in range(len(words) - n + 1):
            gram = tuple(words[i : i + n])
            total += 1
            if gram in seen:
                repeated += 1
            seen.add(gram)
    return repeated, total
