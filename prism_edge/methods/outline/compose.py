"""The summary of a long text by its outline, composed by the program from the text alone.

    Othello, the Moor of Venice, by William Shakespeare: a play in 5 acts (about 26,000 words).

    Who is who:
    - Iago: ...the clause of the text that says who he is...

    What happens:
    Act I (Venice. A street; ...): Iago, Roderigo, Brabantio. IAGO: "..."
    ...

A story, a play or a poem is told as who is who, then what happens part by part; a report,
a manual, a treatise or a paper as what it is about, its parts with their key point, then the
terms it defines. Every sentence is the text's own; each part's sentence is the one that
carries it (its centrality among the part's own words and names, narration or a claim rather
than a fragment of dialogue, never a sentence that starts mid-thought when another will do).
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from prism_edge.methods.outline.length import Length
from prism_edge.text.grounding import whole_word
from prism_edge.text.kinds import KINDS, NARRATIVE, Kind, kind_of, signs
from prism_edge.text.passages import (
    Sentence,
    content_words,
    dialogue,
    garbled,
    mid_thought,
    quotable,
    quoted_share,
    sentences,
)
from prism_edge.text.people import (
    Described,
    Named,
    cast_list,
    define,
    describe,
    names_ranked,
    places_apart,
    referents,
    speakers_named,
    terms_ranked,
)
from prism_edge.text.structure import (
    Block,
    FrontMatter,
    Part,
    blocks,
    body_start,
    front_matter,
    parts,
    speakers,
)

PART_NOUNS = {
    "act": "act",
    "chapter": "chapter",
    "book": "book",
    "part": "part",
    "canto": "canto",
    "letter": "letter",
    "lecture": "lecture",
    "scene": "scene",
    "section": "section",
    "volume": "volume",
    "proposition": "proposition",
    "stave": "stave",
    "appendix": "appendix",
}
KIND_NOUNS = {
    "play": "a play",
    "poem": "a poem",
    "story": "a story",
    "paper": "a paper",
    "manual": "a manual",
    "report": "a report",
    "treatise": "a treatise",
}
WORDS_PER_LINE = 24
"""Words a part's line takes, about (a label and one sentence): how many parts fit."""
PEOPLE_SHARE = {"narrative": 0.36, "expository": 0.24}
MAX_PEOPLE = 10
MAX_PLACES = 3
ALWAYS_SHOWN = 0
"""The main people shown whatever the text says of them (none: a line that only mentions
someone says nothing of who they are); after them, only those a clause of the text
describes (:data:`DESCRIBED`)."""
DESCRIBED = 2.5
CANDIDATES = 18
"""The main names read for who is who (the most named or speaking first)."""
TERM_CANDIDATES = 40
"""The terms read for an expository text's key terms: more than names, as only those a
sentence defines are shown and many a frequent word is defined nowhere ("use", "value")."""

Chooser = Callable[[Part, Sequence[Sentence]], Sentence]
"""Chooses, of a part's best candidate sentences (best first), the one that carries it."""


@dataclass
class Outline:
    """What the summary says, before it is written out."""

    kind: Kind
    kind_reason: str
    front: FrontMatter
    extent: str
    about: str | None
    people: list[Described]
    parts: list[tuple[str, list[str]]]
    """Each part's label and its sentences, in order."""
    words: int
    part_spans: list[tuple[int, int]] = field(default_factory=list)
    ending: str = ""
    """What the text given lacks at its end, when it shows ("the text given stops where
    Chapter 13 begins")."""
    places: list[Described] = field(default_factory=list)
    """A story's places, each with what the text calls it ("Longbourn: the village where
    they lived")."""

    def render(self) -> str:
        head = _headline(self)
        blocks_ = [head]
        if self.about:
            blocks_[0] += "\n" + self.about
        narrative = self.kind in NARRATIVE
        if self.people:
            title = "Who is who:" if narrative else "Key terms:"
            lines = [_person_line(d) for d in self.people]
            people_block = "\n".join([title, *lines])
        else:
            people_block = ""
        if self.places:
            lines = [_person_line(d) for d in self.places]
            people_block = "\n\n".join(
                b for b in (people_block, "\n".join(["Where:", *lines])) if b
            )
        part_lines = []
        for label, said in self.parts:
            body = " ".join(_ended(s) for s in said)
            part_lines.append(f"{label}: {body}" if label else body)
        parts_title = "What happens:" if narrative else "Its parts:"
        parts_block = "\n".join([parts_title, *part_lines]) if part_lines else ""
        order = [people_block, parts_block] if narrative else [parts_block, people_block]
        blocks_ += [b for b in order if b]
        return "\n\n".join(blocks_)


def _person_line(d: Described) -> str:
    """ "- Iago: ancient to the general", "- Hamlet: my cousin Hamlet (King)"."""
    by = f" ({d.said_by})" if d.said_by else ""
    return f"- {d.name}: {_balanced(d.clause)}{by}"


def _balanced(text: str) -> str:
    """``text`` without a quotation mark left open or closed by a cut (the quote began in
    a sentence before)."""
    if text.count('"') % 2:
        text = text.strip('"').strip()
    if text.count("“") != text.count("”"):
        text = text.strip("“”").strip()
    return text


def _ended(sentence: str) -> str:
    sentence = _balanced(sentence)
    return sentence if re.search(r"[.!?…][\"'’”)\]]*$", sentence) else sentence + "."


def _headline(o: Outline) -> str:
    front = o.front
    title = front.title or "Untitled text"
    if front.subtitle and front.subtitle.casefold() not in title.casefold():
        title += f": {front.subtitle}"
    by = f", by {front.author}" if front.author and front.author not in title else ""
    what = f"{KIND_NOUNS[o.kind]}{o.extent}"
    poems = re.fullmatch(r" in (\d+) poems", o.extent)
    if poems:  # a sequence of sonnets: "152 poems", not "a poem in 152 poems"
        what = f"{poems.group(1)} poems"
    ending = f"; {o.ending}" if o.ending else ""
    return f"{title}{by}: {what} (about {o.words:,} words){ending}."


@dataclass(frozen=True)
class Read:
    """A text read for its outline: blocks, sentences, parts, kind (computed once)."""

    text: str
    blocks: list[Block]
    sentences: list[Sentence]
    parts: list[Part]
    kind: Kind
    kind_reason: str
    front: FrontMatter


def read(text: str, kind: Kind | None = None) -> Read:
    """``text`` read: its blocks, sentences, kind (``kind`` when given), parts and front
    matter."""
    text = text.replace("\r\n", "\n")
    found = blocks(text)
    said = sentences(found)
    start = body_start(found)
    cut = parts(found, len(text), start)
    if kind is None:
        s = signs(text, found, said)
        kind = kind_of(s)
        reason = "read from the text"
    else:
        if kind not in KINDS:
            raise ValueError(f"unknown kind {kind!r}; choose from {', '.join(KINDS)}")
        reason = "as asked"
    first = cut[0].start if cut and cut[0].title else None
    return Read(text, found, said, cut, kind, reason, front_matter(found, first))


def outline(
    text: str | Read,
    length: Length | None = None,
    kind: Kind | None = None,
    choose: Chooser | None = None,
) -> Outline:
    """The outline of ``text`` within ``length`` (default :class:`Length`'s): what it is,
    who or what it is about, its parts in order with the sentences that carry them."""
    r = text if isinstance(text, Read) else read(text, kind)
    length = length or Length()
    narrative = r.kind in NARRATIVE
    total_words = len(r.text.split())
    said = r.sentences
    ask_sentences = length.sentences_of(sum(quotable(s) for s in said))
    budget = length.words if length.words is not None else None

    spans = [(p.start, p.end) for p in r.parts]
    extent = _extent(r.parts, r.kind)
    o = Outline(r.kind, r.kind_reason, r.front, extent, None, [], [], total_words, spans)
    o.ending = _ending(r)
    about = None if narrative else _about(r)
    o.about = about
    head_words = len(o.render().split())

    # who or what: the main names, each with the clause that says what it is
    share = PEOPLE_SHARE["narrative" if narrative else "expository"]
    if budget is not None:
        people_room = int(max(0, budget - head_words) * share)
        most_people = MAX_PEOPLE
    else:
        people_room = 10**6
        most_people = max(1, round((ask_sentences or 1) * share))
    everyone = _main(r, spans)
    main = [n for n in everyone if not n.place]
    speaker_of = _speaker_names(r) if r.kind == "play" else None
    people: list[Described] = []
    used = 3  # "Who is who:" or "Key terms:", and the blank line
    taken: set[str] = set()
    cast = cast_list(r.text) if r.kind == "play" else {}
    main_names = [n.name for n in main]
    referred = referents(said, main_names) if r.kind in {"story", "poem"} else None
    for named in main:
        if len(people) >= most_people:
            break
        listed = cast.get(named.name)
        if listed is not None:  # the play's own list of characters says who each is
            d: Described | None = Described(named.name, listed, 10.0)
        elif not narrative:  # a term only with the words that define it
            d = define(named.name, said)
        else:
            d = describe(
                named.name,
                said,
                story=narrative,
                speaker_of=speaker_of,
                referred=referred,
                people=main_names,
            )
        if d is None or d.clause in taken:
            continue
        if len(people) >= ALWAYS_SHOWN and d.score < DESCRIBED:
            continue  # a line that only mentions someone says nothing of who they are
        cost = len(_person_line(d).split())
        if used + cost > people_room:
            continue
        people.append(d)
        taken.add(d.clause)
        used += cost
    o.people = people
    for named in [n for n in everyone if n.place]:  # a place only with what the text calls it
        if len(o.places) >= MAX_PLACES:
            break
        d = describe(named.name, said, story=narrative)
        if d is None or d.clause in taken or d.score < DESCRIBED:
            continue
        cost = len(_person_line(d).split()) + (2 if not o.places else 0)
        if used + cost > people_room:
            continue
        o.places.append(d)
        taken.add(d.clause)
        used += cost

    # what happens / its parts: as many parts as the room holds, each told by its sentence
    if budget is not None:
        room = budget - head_words - (used if people else 0) - 2
        wanted = max(1, room // WORDS_PER_LINE)
    else:
        room = 10**6
        wanted = max(1, (ask_sentences or 1) - len(people))
    groups = _grouped(r.parts, wanted)
    shown = {d.name for d in people}
    unseen = [n for n in main_names if n not in shown]
    told = _tell(r, groups, main_names, room, ask_sentences and wanted, choose, unseen)
    o.parts = told
    if budget is not None:
        _trim(o, budget)
    return o


def _trim(o: Outline, budget: int) -> None:
    """Within ``budget`` words, whatever the estimates: a part's second sentence goes
    first, then the last person or term, then the longest part line."""
    while len(o.render().split()) > budget:
        seconds = [k for k, (_, said) in enumerate(o.parts) if len(said) > 1]
        if seconds:
            k = max(seconds, key=lambda i: len(o.parts[i][1][-1].split()))
            o.parts[k] = (o.parts[k][0], o.parts[k][1][:-1])
        elif o.people and len(o.people) >= len(o.parts) // 2:
            o.people.pop()
        elif o.parts:
            k = max(range(len(o.parts)), key=lambda i: len(" ".join(o.parts[i][1]).split()))
            del o.parts[k]
        else:
            break


def _extent(cut: Sequence[Part], kind: Kind) -> str:
    """ " in 5 acts", " in 16 chapters", "" for equal spans."""
    titled = [p for p in cut if p.title]
    if len(titled) < 2:
        return ""
    first = (titled[0].title or "").split()[0].casefold().rstrip(".")
    noun = PART_NOUNS.get(first)
    if noun is None:
        if re.fullmatch(r"[ivxlc]+", first):
            noun = "poem" if kind == "poem" else "part"
        elif re.fullmatch(r"\d+(?:\.\d+)*", first):
            noun = "section"
        elif first == "the" and len((titled[0].title or "").split()) == 3:
            noun = (titled[0].title or "").split()[-1].casefold().rstrip(".")
        else:
            noun = "section"
    plural = noun + ("es" if noun.endswith(("ch", "s", "x")) else "s")
    extent = f" in {len(titled)} {plural}"
    inner = sum(len(p.inner) for p in titled)
    if kind == "play" and inner:
        extent += f" and {inner} scenes"
    return extent


_END_MARK = re.compile(r"\b(?:the\s+end|finis|end\s+of\s+(?:the|this)\b)", re.IGNORECASE)
SHORT_LAST_PART = 0.5
"""A story's or a play's last part shorter than this share of its median part, with no
closing words, is read as cut short."""


def _ending(r: Read) -> str:
    """What the text given lacks at its end, when it shows: a heading of its parts with no
    text after it ("the text given stops where Chapter 13 begins"), or (a story or a play)
    a last part much shorter than the others with no closing words such as "THE END" ("the
    text given seems to stop partway through Chapter 20"); "" otherwise."""
    titled = [p for p in r.parts if p.title]
    if len(titled) < 2:
        return ""
    last = r.blocks[-1] if r.blocks else None
    family = _family_of(titled[0].title or "")
    if (
        last is not None
        and last.kind == "heading"
        and last.start > titled[-1].start
        and family
        and _family_of(last.text) == family
    ):
        return f"the text given stops where {_uncapped(last.text.strip().rstrip('.'))} begins"
    if r.kind not in {"story", "play"} or _END_MARK.search(r.text[-400:]):
        return ""
    lengths = sorted(p.end - p.start for p in titled)
    median = lengths[len(lengths) // 2]
    final = titled[-1]
    if final.end - final.start < SHORT_LAST_PART * median:
        where = _uncapped(final.label or final.title or "")
        return f"the text given seems to stop partway through {where}"
    return ""


def _family_of(heading: str) -> str:
    """The word that heads a part's heading ("chapter", "act"), lower case; "" for none."""
    m = re.match(r"^\W*([A-Za-z]+)", heading)
    word = m.group(1).casefold() if m else ""
    return word if word in PART_NOUNS else ""


_ABOUT = re.compile(
    r"^(?:this|the present|our)\s+(?:document|paper|manual|guide|book|tutorial|howto|article|"
    r"report|reference|handbook|faq|text|chapter|work|essay|treatise|introduction|note|"
    r"memo|vignette)\b|\b(?:describes|introduces|explains|presents|gives|answers|covers|"
    r"shows|is about|is intended)\b",
    re.IGNORECASE,
)


def _about(r: Read) -> str | None:
    """What an expository text is about, in its own words: the first sentence of its
    abstract, else the first sentence near its head that says what the text does ("This
    document answers ...", "This paper describes ..."), else the first quotable sentence of
    its body."""
    limit = (r.parts[0].end if r.parts else len(r.text)) if len(r.parts) > 1 else len(r.text) // 5
    head = [s for s in r.sentences if s.start < max(limit, 4000) and quotable(s, 55)]
    abstract = re.search(r"^\s*abstract\s*[.:]?\s*$", r.text[: len(r.text) // 5], re.I | re.M)
    if abstract:
        after = [s for s in head if s.start >= abstract.end()]
        if after:
            return after[0].text
    for s in head[:60]:
        if _ABOUT.search(s.text) and not mid_thought(s.text):
            return s.text
    return head[0].text if head else None


def _main(r: Read, spans: Sequence[tuple[int, int]]) -> list[Named]:
    if r.kind == "play":
        return speakers_named(speakers(r.blocks), r.text, top=CANDIDATES)
    if r.kind in NARRATIVE:
        return places_apart(
            r.text, names_ranked(r.text, spans, top=CANDIDATES), story=r.kind == "story"
        )
    return terms_ranked(
        r.sentences, r.text, spans, top=TERM_CANDIDATES, exclude=[r.front.author or ""]
    )


def _speaker_names(r: Read) -> dict[str, str]:
    """Each speaker prefix as written -> the name :func:`speakers_named` gives it."""
    out = {}
    for prefix in speakers(r.blocks):
        named = speakers_named({prefix: 10}, r.text)
        if named:
            out[prefix] = named[0].name
    return out


@dataclass
class Group:
    """Consecutive parts told together (when there are more parts than lines)."""

    parts: list[Part]

    @property
    def start(self) -> int:
        return self.parts[0].start

    @property
    def end(self) -> int:
        return self.parts[-1].end

    def label(self) -> str:
        first, last = self.parts[0], self.parts[-1]
        if not first.title:
            return ""
        if len(self.parts) == 1:
            return first.label or first.title
        a, b = (first.label or first.title), (last.label or last.title or "")
        head = a.split()
        tail = b.split()
        if len(head) >= 2 and len(tail) >= 2 and head[0] == tail[0]:
            word = head[0].capitalize() if head[0].isupper() else head[0]
            noun = word + ("s" if not word.endswith("s") else "")
            return f"{noun} {head[1].rstrip('.')}-{tail[1].rstrip('.')}"
        number_a = re.match(r"^(\d+(?:\.\d+)*)\.?\s", a)
        number_b = re.match(r"^(\d+(?:\.\d+)*)\.?\s", b)
        if number_a and number_b:
            return f"{number_a.group(1)}-{number_b.group(1)}"
        return f"{a} to {b}"


def _grouped(cut: Sequence[Part], wanted: int) -> list[Group]:
    """``cut`` as at most ``wanted`` groups of consecutive parts of about equal length."""
    if len(cut) <= wanted:
        return [Group([p]) for p in cut]
    total = sum(p.end - p.start for p in cut)
    groups: list[Group] = []
    current: list[Part] = []
    done = 0
    for part in cut:
        current.append(part)
        done += part.end - part.start
        if done >= total * (len(groups) + 1) / wanted and len(groups) < wanted - 1:
            groups.append(Group(current))
            current = []
    if current:
        groups.append(Group(current))
    return groups


def _tell(
    r: Read,
    groups: Sequence[Group],
    names: Sequence[str],
    room: int,
    sentences_wanted: int | None,
    choose: Chooser | None,
    unseen: Sequence[str] = (),
) -> list[tuple[str, list[str]]]:
    """Each group's label and the sentences that carry it, fitted to ``room`` words."""
    said = r.sentences
    narrative = r.kind in NARRATIVE
    # the words each group uses, and in how many groups each word is used
    group_of: list[int] = []
    at = 0
    for s in said:
        while at + 1 < len(groups) and s.start >= groups[at + 1].start:
            at += 1
        group_of.append(at if groups and groups[0].start <= s.start < groups[-1].end else -1)
    words_in: list[Counter[str]] = [Counter() for _ in groups]
    for s, g in zip(said, group_of, strict=True):
        if g >= 0:
            words_in[g].update(content_words(s.text))
    df: Counter[str] = Counter()
    for counts in words_in:
        df.update(counts.keys())
    n = max(1, len(groups))
    ranked: list[list[tuple[float, Sentence]]] = []
    events: list[tuple[float, Sentence] | None] = []
    for g in range(len(groups)):
        weights = {
            w: math.log1p(c) * math.log(1 + n / df[w]) for w, c in words_in[g].items() if c >= 2
        }
        top_names = [name for name in names if words_in[g].get(name.split()[-1].casefold(), 0) >= 2]
        candidates: list[tuple[float, Sentence]] = []
        seen_first = 0
        for s, sg in zip(said, group_of, strict=True):
            if sg != g:
                continue
            if not quotable(s, 45):
                continue
            if narrative and r.kind == "story" and quoted_share(s.text) > 0.3:
                continue
            score = _score(s, weights, top_names, r.kind)
            if narrative:  # what happens is told with the people it happens to
                score += 0.7 * min(2, sum(1 for u in unseen if u in s.text))
            if not narrative and s.first and seen_first < 3:
                score *= 1.3
                seen_first += 1
            candidates.append((score, s))
        candidates.sort(key=lambda p: -p[0])
        ranked.append(candidates)
        if r.kind == "play":
            deeds = [
                (_deed(s, names), s)
                for s, sg in zip(said, group_of, strict=True)
                if sg == g and s.kind == "direction"
            ]
            events.append(max((d for d in deeds if d[0] >= DEED), default=None, key=lambda d: d[0]))
        else:
            events.append(None)
    chosen: list[list[Sentence]] = []
    for g, candidates in enumerate(ranked):
        if not candidates:
            chosen.append([])
            continue
        pick = candidates[0][1]
        if choose is not None and len(candidates) > 1:
            pick = choose(groups[g].parts[0], [s for _, s in candidates[:3]])
        chosen.append([pick])
    labels = [_group_label(r, group) for group in groups]

    def cost(g: int, extra: Sequence[Sentence] = ()) -> int:
        said_words = sum(s.words for s in [*chosen[g], *extra])
        return len(labels[g].split()) + said_words

    # fit: drop the longest sentence's group line... no: swap for shorter candidates first
    total = sum(cost(g) for g in range(len(groups)) if chosen[g])
    for g in sorted(range(len(groups)), key=lambda k: -cost(k)):
        if total <= room:
            break
        shorter = [s for _, s in ranked[g][:6] if s.words < chosen[g][0].words] if chosen[g] else []
        if shorter:
            before = cost(g)
            chosen[g] = [shorter[0]]
            total += cost(g) - before
    while total > room and any(chosen):
        g = max((k for k in range(len(groups)) if chosen[k]), key=cost)
        total -= cost(g)
        chosen[g] = []
    # a play: what a part's stage directions show done (a fight, a death), beside its speech
    for g, event in enumerate(events):
        if event is not None and chosen[g] and total + event[1].words <= room:
            chosen[g].append(event[1])
            chosen[g].sort(key=lambda s: (s.start, said.index(s)))
            total += event[1].words
    # room left: first a sentence where the text goes longest without one (no stretch of
    # more than 1/GAPS of it untold), then a second sentence for the parts whose second
    # best is strongest
    if sentences_wanted is None:
        total = _fill_gaps(r, groups, ranked, chosen, total, room)
        seconds = sorted(
            (
                (-ranked[g][1][0] / max(1, ranked[g][0][0]), g)
                for g in range(len(groups))
                if chosen[g] and len(ranked[g]) > 1
            ),
        )
        for _, g in seconds:
            told = {s.text for c in chosen for s in c}
            extra = next((s for _, s in ranked[g][1:4] if s.text not in told), None)
            if extra is None or total + extra.words > room:
                continue
            chosen[g].append(extra)
            chosen[g].sort(key=lambda s: (s.start, said.index(s)))
            total += extra.words
    elif sum(len(c) for c in chosen) > sentences_wanted:
        while sum(len(c) for c in chosen) > sentences_wanted:
            g = min((k for k in range(len(groups)) if chosen[k]), key=lambda k: ranked[k][0][0])
            chosen[g] = []
    return [(labels[g], [_shown(s, r) for s in chosen[g]]) for g in range(len(groups)) if chosen[g]]


_DEEDS = re.compile(
    r"\b(?:kills?|killed|stabs?|wounds?|dies|die|dead|fights?|falls?|poisons?|drinks?|sleeps?|"
    r"asleep|wakes?|vanish(?:es)?|appears?|seizes?|strikes?|beats?|kneels?|kiss(?:es)?|weeps?|"
    r"reads?|gives?|takes?|throws?|leaps?|drags?|bears?|carries|carried|hangs?|sinks?|rises?|"
    r"draws?|runs?|flies|descends?|ascends?|embraces?|marries|crowns?|crowned|discovers?|"
    r"discovered|disguised|invisible|bound|burn(?:s|ing)?|sings?|dances?|plays?|shows?)\b",
    re.IGNORECASE,
)
_ONLY_COMINGS = re.compile(
    r"^(?:re-?enter|enter|exit|exeunt|manet|manent|flourish|alarums?|sennet|hautboys|"
    r"trumpets?|music|thunder|a\s+flourish)\b[^;]*$",
    re.IGNORECASE,
)
DEED = 2.0
"""A stage direction tells an event when it names one of the main people and shows a deed
("Laertes wounds Hamlet; ...", "Iago stabs Emilia")."""


def _deed(s: Sentence, names: Sequence[str]) -> float:
    """How much a stage direction tells what happens: the main people it names (two at
    most) and a deed it shows; 0 for comings and goings ("Enter Kent, disguised."), a
    short or garbled one."""
    text = s.text
    if len(text.split()) < 4 or garbled(text) or _ONLY_COMINGS.match(text):
        return 0.0
    if not _DEEDS.search(text):
        return 0.0
    named = sum(1 for n in names if whole_word(n, ignore_case=True).search(text))
    return 1.0 + min(2, named)


GAPS = 8
"""The summary leaves no stretch longer than this share (1/8) of the text without a
sentence, when the length has room."""


def _fill_gaps(
    r: Read,
    groups: Sequence[Group],
    ranked: Sequence[Sequence[tuple[float, Sentence]]],
    chosen: list[list[Sentence]],
    total: int,
    room: int,
) -> int:
    """Sentences added where the text goes longest without one, while the longest stretch
    is over 1/:data:`GAPS` of the text and a candidate inside it fits ``room``: of the
    candidates of the groups it spans, the best weighed by how near the stretch's middle
    it is. Returns the words now used."""
    if not groups:
        return total
    start, end = groups[0].start, groups[-1].end
    limit = (end - start) / GAPS
    tried: set[tuple[int, int]] = set()
    while True:
        marks = sorted({start, end, *(s.start for c in chosen for s in c)})
        gaps = sorted(
            ((b - a, a, b) for a, b in itertools.pairwise(marks) if (a, b) not in tried),
            reverse=True,
        )
        if not gaps or gaps[0][0] <= limit:
            return total
        width, a, b = gaps[0]
        tried.add((a, b))
        told = {s.text for c in chosen for s in c}  # a refrain is told once
        best: tuple[float, int, Sentence] | None = None
        for g, group in enumerate(groups):
            if group.end <= a or group.start >= b or (not chosen[g] and not ranked[g]):
                continue
            for score, cand in ranked[g][:12]:
                if not a < cand.start < b or cand.text in told or total + cand.words > room:
                    continue
                near = 1 - abs(cand.start - (a + b) / 2) / width
                if best is None or score * near > best[0]:
                    best = (score * near, g, cand)
        if best is None:
            continue
        _, g, cand = best
        chosen[g].append(cand)
        chosen[g].sort(key=lambda s: s.start)
        total += cand.words + (
            len(_group_label(r, groups[g]).split()) if len(chosen[g]) == 1 else 0
        )


def _shown(s: Sentence, r: Read) -> str:
    if r.kind == "play" and s.speaker:
        who = " ".join(w.capitalize() if w.isupper() else w for w in s.speaker.split())
        return f"{who}: “{s.text}”"
    return s.text


def _group_label(r: Read, group: Group) -> str:
    label = group.label()
    if r.kind == "play":
        settings = []
        for part in group.parts:
            for scene in part.inner:
                m = re.match(r"^scene\s+[\dIVXLC]+\.?\s*(.*)$", scene, re.IGNORECASE)
                where = m.group(1).strip(" .") if m else ""
                place = _uncapped(where.split(".")[0].strip())
                if place and place not in settings:
                    settings.append(place)
        if settings:
            label += f" ({'; '.join(settings[:3])})"
    return label


def _uncapped(text: str) -> str:
    """``text`` with its words in capitals in title case ("OLIVIA'S garden" -> "Olivia's
    garden"), roman numerals kept."""
    return re.sub(
        r"\b[A-Z][A-Z'’]+\b",
        lambda m: m.group() if re.fullmatch(r"[IVXLC]+", m.group()) else m.group().capitalize(),
        text,
    )


_EXCLAIM = re.compile(r"!\s*$|!\W*$")


def _score(
    s: Sentence,
    weights: dict[str, float],
    top_names: Sequence[str],
    kind: Kind,
) -> float:
    """How much ``s`` carries its part: the weight of its content words in the part (used
    there often, seldom elsewhere) over the root of its length, plus the part's main names
    it names; less for dialogue in a story, an exclamation, a sentence that starts
    mid-thought, and one far from the usual length."""
    words = content_words(s.text)
    if not words:
        return 0.0
    central = sum(weights.get(w, 0.0) for w in set(words)) / math.sqrt(len(words))
    named = sum(1 for n in top_names if n in s.text)
    score = central + 0.8 * min(3, named)
    if kind == "story" and dialogue(s.text):
        score *= 0.6
    if _EXCLAIM.search(s.text):
        score *= 0.6
    if mid_thought(s.text):
        score *= 0.5
    if s.words < 12:
        score *= 0.8
    elif s.words > 32:  # a shorter sentence leaves room for another part
        score *= 32 / s.words
    return score
