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


SHORT_FORMS: dict[str, tuple[str, ...]] = {
    "minimum": ("min",), "maximum": ("max",), "number": ("num",), "string": ("str",),
    "integer": ("int",), "character": ("char",), "index": ("idx",), "length": ("len",),
    "message": ("msg",), "configuration": ("config", "cfg", "conf"), "context": ("ctx",),
    "directory": ("dir",), "source": ("src",), "destination": ("dst", "dest"),
    "temporary": ("tmp", "temp"), "value": ("val",), "argument": ("arg",), "arguments": ("args",),
    "attribute": ("attr",), "attributes": ("attrs",), "element": ("elem",), "object": ("obj",),
    "position": ("pos",), "previous": ("prev",), "current": ("cur",), "reference": ("ref",),
    "request": ("req",), "response": ("resp",), "initialize": ("init",), "database": ("db",),
    "connection": ("conn",), "parameter": ("param",), "parameters": ("params",),
    "function": ("func", "fn"), "callback": ("cb",), "count": ("cnt",), "button": ("btn",),
    "image": ("img",), "command": ("cmd",), "document": ("doc",), "documents": ("docs",),
    "environment": ("env",), "error": ("err",), "expression": ("expr",), "information": ("info",),
    "library": ("lib",), "manager": ("mgr",), "package": ("pkg",), "pointer": ("ptr",),
    "specification": ("spec",), "statistics": ("stats",), "synchronize": ("sync",),
    "asynchronous": ("async",), "utility": ("util",), "vector": ("vec",), "matrix": ("mat",),
    "allocate": ("alloc",), "authentication": ("auth",), "boolean": ("bool",), "buffer": ("buf",),
    "calculate": ("calc",), "column": ("col",), "coordinate": ("coord",), "description": ("desc",),
    "dictionary": ("dict",), "exception": ("exc",), "execute": ("exec",), "extension": ("ext",),
    "format": ("fmt",), "frequency": ("freq",), "generate": ("gen",), "identifier": ("id",),
    "implementation": ("impl",), "iterator": ("iter",), "language": ("lang",),
    "operation": ("op",), "operations": ("ops",), "option": ("opt",), "options": ("opts",),
    "original": ("orig",), "property": ("prop",), "properties": ("props",), "random": ("rand",),
    "receive": ("recv",), "rectangle": ("rect",), "repository": ("repo",), "sequence": ("seq",),
    "standard": ("std",), "template": ("tmpl", "tpl"), "timestamp": ("ts",),
    "transaction": ("txn",), "variable": ("var",), "version": ("ver",), "window": ("win",),
    "text": ("txt",), "address": ("addr",), "average": ("avg",), "background": ("bg",),
    "delete": ("del",), "increment": ("inc",), "decrement": ("dec",), "instance": ("inst",),
    "token": ("tok",), "millisecond": ("ms",), "milliseconds": ("ms",), "temperature": ("temp",),
    "one": ("1",), "two": ("2",), "three": ("3",), "four": ("4",), "five": ("5",), "six": ("6",),
    "seven": ("7",), "eight": ("8",), "nine": ("9",), "ten": ("10",),
}  # fmt: skip
"""Words and the short forms code writes them in (a general lexicon of programmers' habits,
not any code base's): a description says "the minimum", the code ``min``; "four
components", ``Vector4``. Measured on the code-search needles: benchmarks/results/."""


def code_query(question: str) -> list[str]:
    """A description's words as code search looks for them: :func:`query_words` (or every
    word when none is left), then the short forms code writes them in (:data:`SHORT_FORMS`)."""
    found = query_words(question) or words(question)
    return found + [short for w in found for short in SHORT_FORMS.get(w, ())]


def bm25_scores(corpus: Sequence[Sequence[str]], query: Sequence[str]) -> list[float]:
    """BM25 (Okapi) score of each document (a list of words) for the query's words."""
    from rank_bm25 import BM25Okapi

    if not corpus:
        return []
    return [float(s) for s in BM25Okapi([list(d) for d in corpus]).get_scores(list(query))]
