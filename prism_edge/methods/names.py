"""Summaries in which the model chooses the names, and the answer covers the memory.

A 135M model spells names badly (letter by letter through a trie of names, the first tokens
decide: 11 of 19 keys of Gemma's grounded memory began with K) but ranks the names it is shown.
So each step of this PRISM variant offers the model the chunk's names (capitalised runs written
mid-sentence at least twice: ``grounding.names_of``) and scores each as the answer to "who or
what is this passage about?", normalised by the same name's score with no passage (pointwise
mutual information: a name the passage makes likely, not a name that is likely anyway). The
best few enter the memory (the summary schema's ``attributes``) under their own names, each
with a sentence of the chunk that names it, verbatim; a name stored already gains another
sentence, up to a few. A chunk that names nothing (a manual, a text in lower case) offers the
words it keeps returning to instead (``grounding.terms_of``). Every change is a revision the
memory validates and applies, as in Algorithm 1.

The answer covers the memory: the stored sentences that name the most stored names per token
(a name weighing more the more often the input mentioned it), until the answer's budget; the
sentences come out in the order they were read, each once. Every word is the book's, so the
answer cannot name what the text did not say.

A later question to the same memory (``prism-edge ask``: :func:`answer_question`) is answered
the same way, from the stored sentences: those naming a stored name the question names, or else
the ones BM25 finds for the question's words, ranked by the model (how much more likely each
sentence is after the question than without it) when they do not all fit; a question with
neither (what is it about?) gets the covering answer.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from prism_edge.backends import Backend
from prism_edge.core.config import PrismConfig
from prism_edge.core.errors import NoAnswer
from prism_edge.core.events import Answered, Event, StepDone
from prism_edge.core.metrics import CallMetrics, RunMetrics
from prism_edge.core.revisions import Revision
from prism_edge.core.schema import Schema, format_path
from prism_edge.methods.base import Capability, Context, Method, best_by_gain, score
from prism_edge.methods.summary import by_cues, compose
from prism_edge.prompts import Part, Prompt
from prism_edge.text.bm25 import bm25_scores, query_words, words
from prism_edge.text.grounding import names_of, sentences_of, terms_of, whole_word
from prism_edge.text.prose import (
    content_counts,
    description_score,
    event_score,
    is_prose,
    plausible_name,
    title_of,
)

FIELD = "attributes"
MAX_CANDIDATES = 24
"""Names of one chunk scored at most (the first seen)."""
NAME_ALLOWANCE = 16
"""Tokens kept free after the passage for the name scored there (a name of up to three
words)."""
Scoring = Literal["pmi", "likelihood", "frequency", "pmi+frequency"]
"""How a chunk's names are ranked: the model's PMI of the name as what the passage is about,
its plain likelihood, no model at all (``frequency``: how often the input has named it so far,
times in how many chunks: the ablation every scored ranking is measured against), or both
(``pmi+frequency``: the sum of the two as standard scores over the chunk's candidates)."""


Count = Annotated[int, Field(ge=0)]
Finite = Annotated[float, Field(allow_inf_nan=False)]


class NamesState(BaseModel):
    """The shape of a summary by names' saved state (:meth:`ScoredNames.state`)."""

    model_config = ConfigDict(extra="forbid")
    read_at: dict[str, tuple[Count, Count]] = {}
    mentions: dict[str, Count] = {}
    prior: dict[str, Finite] = {}
    spread: dict[str, Count] = {}
    title: str | None = None
    events: list[tuple[Count, str, Finite]] = []
    decided: Annotated[list[Count], Field(min_length=2, max_length=2)] = [0, 0]
    described: dict[str, tuple[Finite, str]] = {}
    lowered: dict[str, Count] = {}


class NothingToSummarize(NoAnswer):
    hint = "--method revisions lets the model write the memory instead"


@dataclass(frozen=True)
class NamesOptions:
    """How a summary by names chooses (the method's own settings)."""

    keep: int = 3
    """Names of a chunk that enter (or grow in) the memory: its best-scored ones."""
    sentences: int = 5
    """Sentences kept per name at most (the candidates of its describing sentence)."""
    scoring: Scoring = "pmi"
    max_sentence_chars: int = 300
    describe: Literal["cues", "model"] = "cues"
    """How each main name's describing sentence is chosen among its stored ones: the
    program's cues alone (:func:`description_score`), or the model among the best three where
    the cues do not set one apart (pointwise mutual information of the sentence with "Who or
    what is NAME?")."""
    margin: float | None = None
    """The model only where the program's ranking is uncertain: a chunk's names are ranked
    by frequency first, and only those whose frequency score lies within ``margin`` of the
    place where the kept names end are scored by the model and ranked among themselves by
    it (none near it: no call). None: the model scores every name (``scoring`` alone)."""


_ASK = "\n\nQuestion: Who or what is this passage about?\nAnswer:"


def _prompt(chunk: str) -> Prompt:
    return Prompt((Part("Passage:\n"), Part(chunk, "document"), Part(_ASK)))


def _place(sentence: str) -> str:
    """A short key for a sentence read (the checkpoint keeps where each was first read)."""
    return hashlib.blake2b(sentence.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


class ScoredNames(Method):
    """Each step scores the chunk's names as what it is about; the best few enter the memory
    with sentences of the chunk that name them. The answer covers the memory (no call)."""

    name: ClassVar[str] = "names"
    task_field: ClassVar[str | None] = FIELD
    task_name: ClassVar[str] = "summarize"
    needs: ClassVar[frozenset[Capability]] = frozenset({"score"})
    state_model: ClassVar[type[BaseModel]] = NamesState
    option_names: ClassVar[tuple[str, ...]] = (
        "keep",
        "sentences",
        "scoring",
        "max_sentence_chars",
        "margin",
        "describe",
    )
    chunk_tokens: ClassVar[int | None] = 512
    """Measured on the summary development set, SmolLM2: 512-token chunks name 0.78 of the key
    entities on the mean of seven texts, 1,024-token chunks 0.72 (benchmarks/results/
    dev-set-512-smollm2, dev-set-smollm2), 2,048 less on four of them (dev-set-chunks-smollm2);
    and they read faster, shallower in the cache."""

    def __init__(self, config: PrismConfig, options: NamesOptions | None = None) -> None:
        self.config = config
        self.options = options or NamesOptions()
        self.read_at: dict[str, tuple[int, int]] = {}
        """Where each stored sentence was read (step, place), by :func:`_place`: only those
        stored, so the saved state grows with the memory, not with the input."""
        self.mentions: Counter[str] = Counter()
        """How often the input named each name it offered."""
        self.prior: dict[str, float] = {}
        """Each name's score with no passage (the PMI's normaliser: the same in every
        chunk, so scored once a run)."""
        self.spread: Counter[str] = Counter()
        """In how many chunks each name offered was offered."""
        self.title: str | None = None
        """The title line at the head of the input (:func:`title_of`), if it has one."""
        self.events: list[tuple[int, str, float]] = []
        """Each step's best sentences for what happens in it: (step, sentence, score)."""
        self.decided = [0, 0]
        """Chunks whose names the program ranked alone, and those the model was asked."""
        self.lowered: Counter[str] = Counter()
        """How often the chunks that name each one-word name write it in lower case: a name
        written so more often than capitalised is a common noun ("Rock", "Song" of a
        heading, "King"), not a name."""
        self.described: dict[str, tuple[float, str]] = {}
        """Each name's best describing sentence read so far, whether or not the step kept
        the name (an introduction is often read before the name is frequent): (score,
        sentence), by :func:`description_score`; only sentences that score above 0."""

    def check(self, backend: Backend, schema: Schema) -> None:
        self.check_schema(schema)
        if self.options.scoring != "frequency" or self.options.describe == "model":
            super().check(backend, schema)

    def settings(self) -> dict[str, Any]:
        return asdict(self.options)

    def room(self, run: Context) -> int:
        return run.backend.n_ctx - run.backend.count_tokens(_prompt("")) - NAME_ALLOWANCE

    def state(self) -> dict[str, Any]:
        return {
            "read_at": {k: list(v) for k, v in self.read_at.items()},
            "mentions": dict(self.mentions),
            "prior": dict(self.prior),
            "spread": dict(self.spread),
            "title": self.title,
            "events": [list(e) for e in self.events],
            "decided": list(self.decided),
            "described": {k: list(v) for k, v in self.described.items()},
            "lowered": dict(self.lowered),
        }

    def restore(self, state: dict[str, Any]) -> None:
        self.read_at = {k: (int(v[0]), int(v[1])) for k, v in state.get("read_at", {}).items()}
        self.mentions = Counter({k: int(v) for k, v in state.get("mentions", {}).items()})
        self.prior = {k: float(v) for k, v in state.get("prior", {}).items()}
        self.spread = Counter({k: int(v) for k, v in state.get("spread", {}).items()})
        title = state.get("title")
        self.title = title if isinstance(title, str) else None
        self.events = [(int(i), str(s), float(x)) for i, s, x in state.get("events", [])]
        decided = state.get("decided", [0, 0])
        self.decided = [int(decided[0]), int(decided[1])]
        self.described = {
            str(k): (float(v[0]), str(v[1])) for k, v in state.get("described", {}).items()
        }
        self.lowered = Counter({k: int(v) for k, v in state.get("lowered", {}).items()})

    def step(self, run: Context, index: int, chunk: str, chunk_tokens: int) -> StepDone:
        options = self.options
        if index == 0 and self.title is None:
            self.title = title_of(chunk)
        seen = [n for n in names_of(chunk) if plausible_name(n)]
        twice = set(names_of(chunk, min_mentions=2))
        names = [n for n in seen if n in twice] or seen or terms_of(chunk)
        names = names[:MAX_CANDIDATES]
        for name in dict.fromkeys([*names, *seen]):  # every name read is counted
            self.mentions[name] += len(whole_word(name).findall(chunk))
            self.spread[name] += 1
            if " " not in name and name[:1].isupper():  # and how often it is a common word
                self.lowered[name] += len(whole_word(name.lower()).findall(chunk))

        sentences = sentences_of(chunk, options.max_sentence_chars)
        self._note_events(index, chunk, sentences, names)
        about = {
            n: _by_preference([s for s in sentences if whole_word(n).search(s)], n) for n in names
        }
        # a name said only in code, a heading or a list is an identifier, not a name to tell
        names = [n for n in names if any(is_prose(s) for s in about[n])]
        for name in names:
            best = max(about[name], key=partial(_describes, name))
            # the chunk that first offers a name introduces it: its sentences count more
            value = description_score(best, name) + (INTRODUCED if self.spread[name] == 1 else 0)
            if value > self.described.get(name, (0.0, ""))[0] and is_prose(best):
                self.described[name] = (round(value, 4), best)
        calls: list[CallMetrics] = []
        revisions: list[Revision] = []
        if names:
            scores = self.scores(run, chunk, names, calls)
            ranked = sorted(zip(names, scores, strict=True), key=lambda p: -p[1])
            stored = run.memory.data.get(FIELD) or {}
            for name, _ in ranked[: options.keep]:
                have = stored.get(name)
                if have is None:
                    revisions.append(_revision(name, [about[name][0]]))
                elif len(have) < options.sentences:
                    fresh = [s for s in about[name] if s not in have]
                    if fresh:
                        revisions.append(_revision(name, fresh[0]))
        report = run.memory.revise(revisions)
        where = {sentence: i for i, sentence in enumerate(sentences)}
        for revision in report.applied:  # where each stored sentence was read (its order)
            said = revision.value if isinstance(revision.value, list) else [revision.value]
            for sentence in said:
                if isinstance(sentence, str) and sentence in where:
                    self.read_at.setdefault(_place(sentence), (index, where[sentence]))
        return StepDone(
            index,
            chunk_tokens,
            list(report.applied),
            list(report.rejected),
            tuple(calls),
            run.memory_tokens(),
            chunk=chunk,
        )

    EVENTS_KEPT: ClassVar[int] = 2
    """Sentences of a step kept as what happens in it (the answer picks one a part)."""

    def _note_events(
        self, index: int, chunk: str, sentences: Sequence[str], names: Sequence[str]
    ) -> None:
        counts = content_counts(chunk)
        scored = [(event_score(s, counts, names), s) for s in sentences]
        best = sorted((p for p in scored if p[0] > 0), key=lambda p: -p[0])[: self.EVENTS_KEPT]
        self.events += [(index, s, round(x, 4)) for x, s in best]

    def scores(
        self, run: Context, chunk: str, names: Sequence[str], calls: list[CallMetrics]
    ) -> list[float]:
        """Each name's score as what ``chunk`` is about (higher: better): its log-probability
        after the passage, less (PMI) its log-probability with no passage. ``frequency``
        calls no model: log mentions so far plus log chunks it was offered in. With a
        ``margin``, frequency ranks first and the model only reorders the names near the
        place where the kept names end."""
        if self.options.scoring == "frequency":
            return self.frequency(names)
        if self.options.margin is not None:
            return self.gated(run, chunk, names, calls, self.options.margin)
        return self.model_scores(run, chunk, names, calls)

    def gated(
        self,
        run: Context,
        chunk: str,
        names: Sequence[str],
        calls: list[CallMetrics],
        margin: float,
    ) -> list[float]:
        """Frequency scores, with the names near the boundary of the kept ones reordered by
        the model: those within ``margin`` of the midpoint between the last kept and the first
        left out take the same frequency slots in the model's order. No name near it, or one
        alone: no call."""
        frequency = self.frequency(names)
        keep = self.options.keep
        if len(names) <= keep:
            self.decided[0] += 1
            return frequency
        ordered = sorted(frequency, reverse=True)
        boundary = (ordered[keep - 1] + ordered[keep]) / 2
        near = [i for i, f in enumerate(frequency) if abs(f - boundary) < margin]
        if len(near) < 2:
            self.decided[0] += 1
            return frequency
        self.decided[1] += 1
        model = self.model_scores(run, chunk, [names[i] for i in near], calls)
        slots = sorted((frequency[i] for i in near), reverse=True)
        by_model = [near[j] for j in sorted(range(len(near)), key=lambda j: -model[j])]
        out = list(frequency)
        for rank, (slot, i) in enumerate(zip(slots, by_model, strict=True)):
            out[i] = slot - rank * 1e-6  # equal slots keep the model's order
        return out

    def model_scores(
        self, run: Context, chunk: str, names: Sequence[str], calls: list[CallMetrics]
    ) -> list[float]:
        """The model's score of each name as what ``chunk`` is about (``scoring``)."""
        continuations = [f" {name}" for name in names]
        scored, made = score(run.backend, _prompt(chunk), continuations, run.metrics)
        calls += made
        values = [s.logprob for s in scored]
        if self.options.scoring == "likelihood":
            return values
        new = [name for name in dict.fromkeys(names) if name not in self.prior]
        if new:
            alone, made = score(run.backend, _prompt(""), [f" {n}" for n in new], run.metrics)
            calls += made
            self.prior.update({n: s.logprob for n, s in zip(new, alone, strict=True)})
        pmi = [v - self.prior[n] for n, v in zip(names, values, strict=True)]
        if self.options.scoring == "pmi+frequency":
            frequency = _standard(self.frequency(names))
            return [a + b for a, b in zip(_standard(pmi), frequency, strict=True)]
        return pmi

    def frequency(self, names: Sequence[str]) -> list[float]:
        """Each name's score with no model: log mentions so far plus log chunks it was in."""
        return [math.log1p(self.mentions[n]) + math.log(self.spread[n]) for n in names]

    def answer(self, run: Context) -> Iterator[Event]:
        entries = run.memory.data.get(FIELD) or {}
        read_at = {}
        for sentences in entries.values():
            for sentence in sentences:
                place = self.read_at.get(_place(sentence))
                if place is not None:
                    read_at[sentence] = place
        count = counter_of(run.backend)
        budget = self.config.answer_max_tokens
        offered = {  # each stored name's sentences, its best describing one read first
            name: list(dict.fromkeys([self.described[name][1], *said]))
            if name in self.described
            else said
            for name, said in entries.items()
        }
        describe = by_cues if self.options.describe == "cues" else self._describer(run)
        common = {n for n, low in self.lowered.items() if low > self.mentions[n]}
        answer = compose(
            offered, self.mentions, self.events, budget, count, self.title, describe, common
        )
        if not answer:  # nothing a summary may quote: the stored sentences as they cover
            answer = covering_answer(entries, budget, count, read_at, dict(self.mentions))
        if not answer:
            raise NothingToSummarize(
                "nothing to summarize by names: the input names nothing and repeats no word"
            )
        run.result.answer = answer
        yield Answered(answer, None)

    DESCRIBE_MARGIN: ClassVar[float] = 2.0
    """Cue scores apart at which the program's describing sentence stands without the
    model."""

    def _describer(self, run: Context) -> Callable[[str, Sequence[str]], str]:
        """The model's choice of a name's describing sentence: of the three the cues rank
        best, the one whose likelihood after "Who or what is NAME?" gains most over its
        likelihood with no question; the cues' best alone when it leads by
        :data:`DESCRIBE_MARGIN` or has no rival."""

        def choose(name: str, sentences: Sequence[str]) -> str:
            ranked = sorted(sentences, key=lambda s: -description_score(s, name))[:3]
            cues = [description_score(s, name) for s in ranked]
            if len(ranked) == 1 or cues[0] - cues[1] >= self.DESCRIBE_MARGIN:
                return ranked[0]
            asked = Prompt((Part("Question: Who or what is "), Part(name, "document"), Part(_SAYS)))
            alone = Prompt((Part("Question:"), Part("", "document"), Part(_SAYS)))
            texts = [f" {s}" for s in ranked]
            return ranked[best_by_gain(run.backend, asked, alone, texts, run.metrics)]

        return choose

    def ask(self, run: Context) -> Iterator[Event]:
        entries = run.memory.data.get(FIELD) or {}
        budget = self.config.answer_max_tokens
        answer = answer_question(run.backend, entries, self.config.question, budget, run.metrics)
        run.result.answer = answer
        yield Answered(answer, None)


def _describes(name: str, sentence: str) -> float:
    return description_score(sentence, name)


def _standard(values: Sequence[float]) -> list[float]:
    """``values`` as standard scores (0 where they do not vary)."""
    mean = sum(values) / len(values)
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
    return [(v - mean) / spread if spread > 1e-9 else 0.0 for v in values]


INTRODUCED = 1.0
"""Added to a describing sentence's score in the chunk that first offers its name."""
_QUOTED = re.compile(r"[\"“][^\"“”]*[\"”]|‘[^‘’]*’(?!\w)")
NARRATIVE_WORDS = 6
"""Words a sentence says outside quotation marks to count as narration (not a line of
dialogue, not an interjection)."""


def _narrates(sentence: str, name: str | None = None) -> bool:
    """``sentence`` tells (about ``name``) in the narrator's words: at least NARRATIVE_WORDS
    words outside quotation marks (the name among them), ending as a statement does (not in
    "!" or "?"), and not a list of lines (a table of contents)."""
    outside = _QUOTED.sub(" ", sentence).strip()
    if len(outside.split()) < NARRATIVE_WORDS or outside.rstrip("\"'’”)").endswith(("!", "?")):
        return False
    if sentence.count("\n") >= 2 and not re.search(r"[.,;:]\s*\n", sentence):
        return False
    return name is None or bool(whole_word(name).search(outside))


def _by_preference(sentences: list[str], name: str) -> list[str]:
    """The sentences naming ``name``, best first: those a summary may quote
    (:func:`is_prose`: no heading, footnote or contents line), then those that say most of
    who or what it is (:func:`description_score`), then those that narrate about it (each
    group in reading order): a summary introduces a name by what the text says of it, not by
    a line of dialogue or an exclamation."""
    return sorted(
        sentences,
        key=lambda s: (
            not is_prose(s),
            -max(0.0, description_score(s, name)),
            not _narrates(s, name),
        ),
    )


def _revision(name: str, value: object) -> Revision:
    segments = (FIELD, name)
    return Revision(format_path(segments), segments, "add", value)


def counter_of(backend: Backend) -> Callable[[str], int]:
    return lambda text: len(backend.tokenize(text))


def _words(text: str) -> int:
    return len(text.split())


def covering_answer(
    entries: dict[str, list[str]],
    budget: int,
    count: Callable[[str], int] = _words,
    read_at: dict[str, tuple[int, int]] | None = None,
    mentions: dict[str, int] | None = None,
) -> str:
    """A summary of the stored names within ``budget`` (in ``count``'s units: the model's
    tokens): a header line naming the main names with how often the input mentioned each
    (``mentions``; else the memory), then the stored sentences that cover the stored names
    best, one paragraph per main name.

    The sentences are chosen by greedy weighted set cover (:func:`_cover`), a name weighing
    1 + log(mentions). A sentence joins the paragraph of the heaviest main name it names (the
    header's order), the others a last paragraph; each paragraph's sentences in reading order
    (``read_at``: each one's place; else the memory's order), each once."""
    sentences = list(dict.fromkeys(s for ss in entries.values() for s in ss))
    if not sentences:
        return ""
    order: dict[str, tuple[int, int]] = {s: (0, i) for i, s in enumerate(sentences)}
    order.update({s: at for s, at in (read_at or {}).items() if s in order})
    patterns = {name: whole_word(name) for name in entries}
    if mentions is None:
        said = " ".join(sentences)
        mentions = {name: len(p.findall(said)) for name, p in patterns.items()}
    weight = {n: 1.0 + math.log(mentions[n]) if mentions.get(n) else 0.5 for n in entries}
    main = _main_names(entries, mentions, weight)
    header = _header(main, mentions)
    named = {s: {n for n, p in patterns.items() if p.search(s)} for s in sentences}
    cost = {s: max(1, count(" " + s)) for s in sentences}
    room = budget - count(header + "\n\n") if header else budget
    chosen = _cover(sentences, named, weight, cost, room) if room > 0 else []
    if not chosen:  # the header leaves no room: the sentences come first
        header, chosen = "", _cover(sentences, named, weight, cost, budget)
    paragraphs: dict[str, list[str]] = {name: [] for name in main}
    rest: list[str] = []
    for sentence in sorted(chosen, key=lambda s: order[s]):
        lead = [n for n in main if n in named[sentence]]  # the heaviest main name it names
        (paragraphs[lead[0]] if lead else rest).append(sentence)
    body = "\n\n".join(_join(ss) for ss in [*paragraphs.values(), rest] if ss)
    return f"{header}\n\n{body}".strip() if chosen else ""


def _cover(
    sentences: Sequence[str],
    named: dict[str, set[str]],
    weight: dict[str, float],
    cost: dict[str, int],
    budget: int,
) -> list[str]:
    """Greedy weighted set cover within ``budget``: each time the sentence adding the most
    weight of names not yet covered per token; once every name it can reach is covered, the
    room left goes to more sentences of the heaviest names (a name's weight halving with
    every sentence already given to it)."""
    chosen: list[str] = []
    picked: set[str] = set()
    given: Counter[str] = Counter()
    used = 0
    # narration is preferred: a line of dialogue or an exclamation counts twice its tokens
    price = {s: cost[s] * (1 if _narrates(s) else 2) for s in sentences}
    for repeat in (False, True):
        while True:
            best, best_gain = None, 0.0
            covered = set(given)
            for sentence in sentences:
                if sentence in picked or used + cost[sentence] > budget:
                    continue
                names = named[sentence] if repeat else named[sentence] - covered
                gain = sum(weight[n] / 2 ** given[n] for n in names) / price[sentence]
                if gain > best_gain:
                    best, best_gain = sentence, gain
            if best is None:
                break
            chosen.append(best)
            picked.add(best)
            used += cost[best]
            given.update(named[best])
    return chosen


MAIN_NAMES = 8
"""Names the summary's header line lists at most (the most mentioned stored names)."""


def _main_names(
    entries: dict[str, list[str]], mentions: dict[str, int], weight: dict[str, float]
) -> list[str]:
    """The stored names the input mentioned most (:data:`MAIN_NAMES` at most), most first.

    A name that is mostly said as part of longer stored names is not a main name of its own:
    "Wolf" (34) beside "Father Wolf" (21) and "Mother Wolf" (10), "Bennet" beside "Mr. Bennet"
    and "Mrs. Bennet"; "Elizabeth", said far more often alone than in "Elizabeth Bennet",
    stays."""
    named = sorted((n for n in entries if mentions.get(n)), key=lambda n: (-weight[n], n))
    return [n for n in named if not _mostly_inside(n, named, mentions)][:MAIN_NAMES]


def _mostly_inside(name: str, names: Sequence[str], mentions: dict[str, int]) -> bool:
    """Whether most mentions of ``name`` are inside longer ``names`` holding it as words."""
    part = whole_word(name)
    inside = sum(mentions[n] for n in names if n != name and part.search(n))
    return inside * 2 > mentions[name]


def _header(main: Sequence[str], mentions: dict[str, int]) -> str:
    """``Main names: Mowgli (177), Bagheera (127).``: the main names, with how often the
    input mentioned each."""
    if not main:
        return ""
    return "Main names: " + ", ".join(f"{n} ({mentions[n]})" for n in main) + "."


QUESTION_CANDIDATES = 24
"""Stored sentences the model ranks for a question at most (BM25's best)."""


def answer_question(
    backend: Backend,
    entries: dict[str, list[str]],
    question: str,
    budget: int,
    metrics: RunMetrics,
) -> str:
    """The stored sentences that answer ``question`` within ``budget`` tokens (in memory
    order): those naming a stored name the question names; else BM25's best for its content
    words; ranked by the model's pointwise mutual information with the question when they do
    not all fit (the best one is given even when it alone is over the budget).
    Neither (a question about the whole): the covering answer."""
    count = counter_of(backend)
    sentences = list(dict.fromkeys(s for ss in entries.values() for s in ss))
    asked = [whole_word(n, ignore_case=True) for n in entries]
    asked = [p for p in asked if p.search(question)]
    if asked:  # every stored sentence naming them, under whichever name it was kept
        candidates = [s for s in sentences if any(p.search(s) for p in asked)]
    else:
        candidates = _bm25(sentences, question)[:QUESTION_CANDIDATES]
    if not candidates:
        return covering_answer(entries, budget, count)
    cost = {s: max(1, count(" " + s)) for s in candidates}
    if sum(cost.values()) > budget:
        prompt = Prompt((Part("Question: "), Part(question, "document"), Part(_ANSWERED)))
        prior = Prompt((Part("Question: "), Part("", "document"), Part(_ANSWERED)))
        texts = [f" {s}" for s in candidates]
        given, _ = score(backend, prompt, texts, metrics)
        alone, _ = score(backend, prior, texts, metrics)
        gain = {s: a.logprob - b.logprob for s, a, b in zip(candidates, given, alone, strict=True)}
        candidates = sorted(candidates, key=lambda s: -gain[s])
    chosen: list[str] = []
    used = 0
    for sentence in candidates:
        if used + cost[sentence] <= budget or not chosen:  # the best one always
            chosen.append(sentence)
            used += cost[sentence]
    chosen.sort(key=sentences.index)
    return _join(chosen)


_ANSWERED = "\nA sentence of the text that answers it:"
_SAYS = "?\nA sentence of the text that says it:"


def _bm25(sentences: Sequence[str], question: str) -> list[str]:
    """The sentences sharing a content word with ``question``, BM25's best first."""
    wanted = query_words(question)
    if not sentences or not wanted:
        return []
    corpus = [words(s) for s in sentences]
    scores = bm25_scores(corpus, wanted)
    hits = [(s, x, set(c)) for s, x, c in zip(sentences, scores, corpus, strict=True)]
    return [s for s, _, seen in sorted(hits, key=lambda h: -h[1]) if seen & set(wanted)]


def _join(sentences: Sequence[str]) -> str:
    text = " ".join(s if re.search(r"[.!?][\"'’”)]*$", s) else s + "." for s in sentences)
    return text.strip()
