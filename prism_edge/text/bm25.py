"""Words as BM25 reads them, and BM25 (Okapi) itself: what a user reaches for without a model.

Identifiers split at underscores and case changes (``do_wordCount`` reads as do, word, count);
a question loses the request around it ("Find the function that ...") and its function words,
which would otherwise match names such as ``find_file`` by accident.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from prism_edge.text.grounding import FUNCTION_WORDS

_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_REQUEST = re.compile(
    r"^\s*(?:please\s+)?(?:(?:find|show|locate|give|get|search\s+for|look\s+for|where\s+is|"
    r"which\s+is|what\s+is|which|what)\s+)?(?:me\s+)?(?:(?:the|a|an)\s+)?"
    r"(?:function|method|class|code|definition|routine)s?\s+(?:that|which|to)?\b",
    re.IGNORECASE,
)


def words(text: str) -> list[str]:
    """Lower-case words, identifiers split at underscores and case changes."""
    return [w.lower() for w in _WORD.findall(text)]


def query_words(question: str) -> list[str]:
    """The words of a description that can match code: without a leading request ("Find the
    function that"), function words and single letters, which match names such as
    ``find_file`` by accident."""
    return [w for w in words(_REQUEST.sub("", question)) if w not in FUNCTION_WORDS and len(w) > 1]


def bm25_scores(corpus: Sequence[Sequence[str]], query: Sequence[str]) -> list[float]:
    """BM25 (Okapi) score of each document (a list of words) for the query's words."""
    from rank_bm25 import BM25Okapi

    if not corpus:
        return []
    return [float(s) for s in BM25Okapi([list(d) for d in corpus]).get_scores(list(query))]
