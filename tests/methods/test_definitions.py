"""Definition-grounded code search on a scripted scorer: the model chooses among the chunk's
definitions; the memory holds only real names, described by their own lines."""

from __future__ import annotations

import pytest

from prism_edge.backends import Scored
from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.core.events import RunResult
from prism_edge.engine.runner import run_prism
from prism_edge.methods import MethodError, make
from prism_edge.methods.definitions import DefinitionSearch, bm25_search
from prism_edge.methods.presets import TASKS
from prism_edge.prompts import Part, Prompt
from prism_edge.text.bm25 import code_query, query_words, words

TASK = TASKS["code-search"]


def search(
    backend: ScriptedBackend, question: str, chunks: list[str], task=TASK, **options
) -> RunResult:
    """Code search by definitions through the runner, as every command runs it."""
    config = task.configure(question)
    method = make("definitions", task.schema, config, **options)
    return run_prism(backend, task.schema, config, chunks, method=method)


CHUNKS = [
    "File path: m.py\nContent:\n"
    "def wrap(text, width):\n    '''Break text into lines of a width.'''\n    return text\n\n"
    "def count(text):\n    '''Count the words of a text.'''\n    return len(text.split())\n",
    "File path: m.py\nContent:\n"
    "def shout(text):\n    '''Make text upper case.'''\n    return text.upper()\n",
]


def scorer(prompt: Prompt, continuation: str) -> float:
    """A model that likes whatever mentions words: candidates naming them score higher."""
    shown = prompt.of_kind("document")
    if continuation in ("Yes", "No"):
        fits = "words" in shown
        return -0.1 if fits == (continuation == "Yes") else -3.0
    return -10.0 + 5.0 * ("words" in shown) + 1.0 * ("lines" in shown)


@pytest.mark.parametrize("formulation", ["likelihood", "yes-no"])
def test_the_best_scored_definition_is_the_answer(formulation: str) -> None:
    backend = ScriptedBackend(scorer=scorer)
    result = search(
        backend, "How many words are in a text?", CHUNKS, formulation=formulation, keep=2
    )
    memory = result.memory.data["candidate_functions"]
    assert set(memory) == {"wrap", "count", "shout"}  # only the chunks' own definitions
    assert memory["count"] == {
        "purpose": "Count the words of a text.",
        "input": "text",
        "output": "len(text.split())",
        "procedure": "return len(text.split())",
    }
    assert result.answer == "count" and result.ranking[0][0] == "count"
    assert result.steps == 2 and result.applied == 3
    assert all(call.kind == "score" for call in result.metrics.calls)


def test_every_definition_is_stored_and_each_chunks_best_few_are_the_candidates() -> None:
    backend = ScriptedBackend(scorer=scorer)
    result = search(backend, "words", CHUNKS, keep=1)
    assert set(result.memory.data["candidate_functions"]) == {"wrap", "count", "shout"}
    assert {name for name, _ in result.ranking} == {"count", "shout"}  # wrap lost its chunk


def test_scoring_evaluates_the_shared_prompt_once() -> None:
    backend = ScriptedBackend(scorer=lambda prompt, text: -float(len(text)))
    prompt = Prompt((Part("a long shared prompt " * 20),))
    scored = backend.score(prompt, ["yes", "no thanks", "maybe not at all"])
    assert [s.logprob for s in scored] == [-3.0, -9.0, -16.0]
    assert scored[0].reused_tokens == 0
    assert all(s.reused_tokens == s.prompt_tokens - 1 for s in scored[1:])
    prompt_tokens = scored[0].prompt_tokens
    assert backend.evaluated == prompt_tokens + 2 + 2 + 6  # the prompt once, then 1 + the rest
    assert isinstance(scored[0], Scored) and scored[1].mean == -9.0 / scored[1].tokens


def test_a_backend_that_cannot_score_is_a_clear_error() -> None:
    with pytest.raises(MethodError, match=r"scores continuations.*use --method revisions"):
        search(ScriptedBackend(), "q", CHUNKS)
    with pytest.raises(NotImplementedError, match="cannot score"):
        ScriptedBackend().score(Prompt((Part("x"),)), ["y"])
    with pytest.raises(MethodError, match="candidate_functions"):
        search(ScriptedBackend(scorer=scorer), "q", CHUNKS, task=TASKS["summarize"])


def test_bm25_ranks_the_definitions_by_their_words() -> None:
    ranking = bm25_search(CHUNKS, "count the words of a text")
    assert ranking[0][0] == "count"
    assert words("do_wordCount HTMLParser x2") == [
        "do",
        "word",
        "count",
        "html",
        "parser",
        "x",
        "2",
    ]


def test_a_bm25_shortlist_limits_what_the_model_scores() -> None:
    backend = ScriptedBackend(scorer=scorer)
    result = search(backend, "break text into lines of a width", CHUNKS, shortlist=1)
    assert [name for name, _ in result.ranking] == ["wrap"]
    assert len(result.metrics.calls) == 2  # wrap's source in its step, its entry at the end
    assert set(result.memory.data["candidate_functions"]) == {"wrap", "count", "shout"}


def test_a_later_description_is_answered_from_the_stored_definitions_alone() -> None:
    from prism_edge.core.metrics import RunMetrics
    from prism_edge.engine.runner import Position, PrismRunner

    shown: list[str] = []

    def overlap(prompt: Prompt, continuation: str) -> float:
        """A model that finds a description likely after what shares its words."""
        shown.append(prompt.of_kind("document"))
        return float(len(set(words(shown[-1])) & set(words(continuation))))

    backend = ScriptedBackend(scorer=overlap)
    first = search(backend, "How many words are in a text?", CHUNKS)
    shown.clear()
    config = TASK.configure("Make the text upper case")
    method = make("definitions", TASK.schema, config)
    runner = PrismRunner(backend, TASK.schema, config, method=method)
    runner.restore(first.memory, RunMetrics(), Position(), {}, None)
    for _ in runner.ask():
        pass
    # BM25 over the stored entries puts shout first; the model scores the shortlist from
    # the memory (entries, not sources): no step, no chunk read again
    assert runner.result.answer == "shout"
    assert runner.result.steps == 0
    assert len(runner.metrics.calls) == 3  # every stored entry: the shortlist holds them all
    assert shown and all(text.startswith(("wrap\n", "count\n", "shout\n")) for text in shown)


def test_a_description_is_also_read_in_the_short_forms_code_writes():
    assert code_query("Keep the four components between the minimum and the maximum") == [
        "keep", "four", "components", "minimum", "maximum", "4", "min", "max",
    ]  # fmt: skip
    from prism_edge.text.code import Located, definitions_in

    source = "class Vector4:\n    def clampScalar(self, minVal, maxVal):\n        return self\n"
    others = "".join(
        f"class Shape{i}:\n    def clamp(self, low, high):\n        # keep components\n"
        "        return self\n"
        for i in range(6)
    )
    found = [Located("v.js", d) for d in definitions_in(source + others)]
    ranked = DefinitionSearch(found).ranked(
        "Keep each of the four components between the minimum and the maximum value"
    )
    assert ranked[0][0].definition.name == "Vector4.clampScalar"


def test_bm25_reads_the_description_not_the_request_around_it():
    assert query_words("Find the function that returns the user's cache dir") == [
        "returns",
        "user",
        "cache",
        "dir",
    ]
    assert query_words("find files matching a glob") == ["find", "files", "matching", "glob"]
    code = (
        "File path: dirs.py\nContent:\n"
        "def find_user_file(name):\n    # Find the file the user named, and return it.\n"
        "    return find(name)\n\n"
        "def user_cache_dir():\n    # The user's cache directory.\n    return CACHE\n"
    ) + "".join(  # unrelated definitions: BM25's word weights need a corpus
        f"\ndef parse_{w}(text):\n    # Parse a {w} from text.\n    return {w}(text)\n"
        for w in ("date", "number", "colour", "url", "email", "money")
    )
    ranked = bm25_search([code], "Find the function that returns the user's cache directory")
    assert ranked[0][0] == "user_cache_dir"


def test_without_the_model_bm25_ranks_the_stored_definitions_and_no_model_is_called() -> None:
    backend = ScriptedBackend()  # cannot score: none is needed
    result = search(backend, "How many words are in a text?", CHUNKS, formulation="bm25")
    assert result.answer == "count" and result.ranking[0][0] == "count"
    assert result.metrics.calls == [] and backend.calls == []
    assert set(result.memory.data["candidate_functions"]) == {"wrap", "count", "shout"}
