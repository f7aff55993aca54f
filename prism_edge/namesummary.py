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

import math
import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from prism_edge.backends import Backend
from prism_edge.codesearch import query_words, record_score, words
from prism_edge.errors import BackendError, PrismError
from prism_edge.grounding import names_of, sentences_of, terms_of, whole_word
from prism_edge.memory import Encoding, Memory
from prism_edge.metrics import RunMetrics
from prism_edge.prompts import Part, Prompt
from prism_edge.revisions import Revision
from prism_edge.runner import RunResult
from prism_edge.schema import Schema, format_path

FIELD = "attributes"
MAX_CANDIDATES = 24
"""Names of one chunk scored at most (the first seen)."""
Scoring = Literal["pmi", "likelihood"]


class NothingToSummarize(PrismError):
    hint = "--method revisions lets the model write the memory instead"


@dataclass(frozen=True)
class NamesConfig:
    question: str
    keep: int = 3
    """Names of a chunk that enter (or grow in) the memory: its best-scored ones."""
    sentences: int = 3
    """Sentences kept per name at most."""
    answer_tokens: int = 256
    """The answer's budget in the model's tokens."""
    scoring: Scoring = "pmi"
    encoding: Encoding = "amendments"
    max_sentence_chars: int = 300


@dataclass
class NamesResult(RunResult):
    ranking: list[tuple[str, float]] = field(default_factory=list)
    """The last chunk's names with their scores, best first (for inspection)."""
    chunks: int = 0


def _prompts(chunk: str) -> tuple[Prompt, Prompt]:
    ask = "\n\nQuestion: Who or what is this passage about?\nAnswer:"
    with_text = Prompt((Part("Passage:\n"), Part(chunk, "document"), Part(ask)))
    without = Prompt((Part("Passage:\n"), Part("", "document"), Part(ask)))
    return with_text, without


def score_names(
    backend: Backend, chunk: str, names: Sequence[str], scoring: Scoring, metrics: RunMetrics
) -> list[float]:
    """Each name's score as what ``chunk`` is about (higher: better)."""
    if not backend.can_score:
        raise BackendError(f"{backend.name} cannot score names; use a local model")
    with_text, without = _prompts(chunk)
    continuations = [f" {name}" for name in names]
    scored = backend.score(with_text, continuations)
    for s in scored:
        record_score(metrics, s)
    scores = [s.logprob for s in scored]
    if scoring == "pmi":
        prior = backend.score(without, continuations)
        for s in prior:
            record_score(metrics, s)
        scores = [a - b.logprob for a, b in zip(scores, prior, strict=True)]
    return scores


def name_summary(
    backend: Backend,
    schema: Schema,
    config: NamesConfig,
    chunks: Sequence[str],
    on_step: Callable[[str, list[Revision]], object] | None = None,
) -> NamesResult:
    """PRISM over ``chunks`` with names chosen by the model's scores (the summary schema);
    ``on_step(chunk, applied revisions)`` after every step."""
    if schema.root.field(FIELD) is None:
        raise ValueError(f"a summary by names needs a schema with {FIELD} (the summarize task)")
    memory = Memory(schema, config.encoding)
    result = NamesResult(None, memory, RunMetrics(), chunks=len(chunks))
    start = time.perf_counter()
    read_at: dict[str, tuple[int, int]] = {}  # each sentence's place in the input
    mentions: Counter[str] = Counter()  # how often the input names each name it offered
    for step, chunk in enumerate(chunks):
        result.steps += 1
        names = (names_of(chunk, min_mentions=2) or names_of(chunk) or terms_of(chunk))[
            :MAX_CANDIDATES
        ]
        for name in names:
            mentions[name] += len(whole_word(name).findall(chunk))
        sentences = sentences_of(chunk, config.max_sentence_chars)
        for i, sentence in enumerate(sentences):
            read_at.setdefault(sentence, (step, i))
        about = {n: [s for s in sentences if whole_word(n).search(s)] for n in names}
        names = [n for n in names if about[n]]
        if not names:
            continue
        scores = score_names(backend, chunk, names, config.scoring, result.metrics)
        ranked = sorted(zip(names, scores, strict=True), key=lambda p: -p[1])
        result.ranking = ranked
        revisions = []
        stored = memory.data.get(FIELD) or {}
        for name, _ in ranked[: config.keep]:
            have = stored.get(name)
            if have is None:
                revisions.append(_revision(name, [about[name][0]]))
            elif len(have) < config.sentences:
                fresh = [s for s in about[name] if s not in have]
                if fresh:
                    revisions.append(_revision(name, fresh[0]))
        report = memory.revise(revisions)
        result.applied += len(report.applied)
        result.rejected += len(report.rejected)
        if on_step is not None:
            on_step(chunk, list(report.applied))
    count = counter_of(backend)
    entries = memory.data.get(FIELD) or {}
    result.answer = covering_answer(entries, config.answer_tokens, count, read_at, dict(mentions))
    result.metrics.wall_s = time.perf_counter() - start
    return result


def _revision(name: str, value: object) -> Revision:
    segments = (FIELD, name)
    return Revision(format_path(segments), segments, "add", value)


def _words(text: str) -> int:
    return len(text.split())


def counter_of(backend: Backend) -> Callable[[str], int]:
    return lambda text: len(backend.tokenize(text))


def covering_answer(
    entries: dict[str, list[str]],
    budget: int,
    count: Callable[[str], int] = _words,
    read_at: dict[str, tuple[int, int]] | None = None,
    mentions: dict[str, int] | None = None,
) -> str:
    """Stored sentences that cover the stored names best within ``budget`` (in ``count``'s
    units: the model's tokens): greedy weighted set cover, each time the sentence that adds the
    most weight of names not yet covered per token, a name weighing 1 + log(mentions) (how
    often the input mentioned it: ``mentions``; else the memory), until nothing more fits. The
    sentences come out in reading order (``read_at``: each one's place; else the memory's
    order), each once."""
    sentences = list(dict.fromkeys(s for ss in entries.values() for s in ss))
    order: dict[str, tuple[int, int]] = {s: (0, i) for i, s in enumerate(sentences)}
    order.update({s: at for s, at in (read_at or {}).items() if s in order})
    patterns = {name: whole_word(name) for name in entries}
    if mentions is None:
        said = " ".join(sentences)
        mentions = {name: len(p.findall(said)) for name, p in patterns.items()}
    weight = {n: 1.0 + math.log(mentions[n]) if mentions.get(n) else 0.5 for n in entries}
    named = {s: {n for n, p in patterns.items() if p.search(s)} for s in sentences}
    cost = {s: max(1, count(" " + s)) for s in sentences}
    chosen: list[str] = []
    covered: set[str] = set()
    used = 0
    while True:
        best, best_gain = None, 0.0
        for sentence in sentences:
            if sentence in chosen or used + cost[sentence] > budget:
                continue
            gain = sum(weight[n] for n in named[sentence] - covered) / cost[sentence]
            if gain > best_gain:
                best, best_gain = sentence, gain
        if best is None:
            break
        chosen.append(best)
        used += cost[best]
        covered |= named[best]
    chosen.sort(key=lambda s: order[s])
    return _join(chosen)


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
        if not backend.can_score:
            raise BackendError(f"{backend.name} cannot score sentences; use a local model")
        prompt = Prompt((Part("Question: "), Part(question, "document"), Part(_ANSWERED)))
        prior = Prompt((Part("Question: "), Part("", "document"), Part(_ANSWERED)))
        texts = [f" {s}" for s in candidates]
        given = backend.score(prompt, texts)
        alone = backend.score(prior, texts)
        for scored in (*given, *alone):
            record_score(metrics, scored)
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


def _bm25(sentences: Sequence[str], question: str) -> list[str]:
    """The sentences sharing a content word with ``question``, BM25's best first."""
    from rank_bm25 import BM25Okapi

    wanted = query_words(question)
    if not sentences or not wanted:
        return []
    corpus = [words(s) for s in sentences]
    scores = BM25Okapi(corpus).get_scores(wanted)
    hits = [(s, float(x), set(c)) for s, x, c in zip(sentences, scores, corpus, strict=True)]
    return [s for s, _, seen in sorted(hits, key=lambda h: -h[1]) if seen & set(wanted)]


def _join(sentences: Sequence[str]) -> str:
    text = " ".join(s if re.search(r"[.!?][\"'’”)]*$", s) else s + "." for s in sentences)
    return text.strip()
