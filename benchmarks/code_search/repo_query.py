"""What else could bring the needle into BM25's shortlist: ways of reading a description,
measured on the code-search needles' rule split (the held-out needles are not read here).

    python benchmarks/code_search/repo_query.py WHAT

    lexicon     short forms (the product's), joined compounds
    grid        BM25's k1, b and the name's weight
    guess       the model guesses the name or the code's words
    neighbors   the model's own token embeddings as synonyms

``neighbors`` reads the embedded model's token embeddings with the ``gguf`` package (not a
dependency: ``pip install gguf``). ``guess`` loads the model (run it alone on the machine).
Each writes ``benchmarks/results/repo-query-<what>.txt``: recall of the needle in BM25's top
1/4/8/16/32 at repository scale (Django, three.js: 16 rule needles) and module scale (click,
Jinja2, semver: 30), with every needle's rank. The repositories: see ``repo_search.py``.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import repo_search as rs

from prism_edge.methods.definitions import DefinitionSearch
from prism_edge.text.bm25 import code_query, query_words, words

CUTS = (1, 4, 8, 16, 32)
Query = Callable[[str], list[str]]


def rule_sets(cache: Path) -> list[tuple[str, list[Any], list[dict[str, Any]]]]:
    """(repository, its indexed definitions, its rule needles), repositories first."""
    out = []
    for repo in [*rs.FOLDERS, *rs.MODULES]:
        found = rs.index_of(repo, cache)
        mine = rs.needles() if repo in rs.FOLDERS else rs.module_needles(repo)
        out.append((repo, found, [n for n in mine if n["repo"] == repo and n["split"] == "rule"]))
    return out


def rank(found: list[Any], needle: dict[str, Any], scores: Any) -> int | None:
    order = sorted(range(len(found)), key=lambda i: -scores[i])
    return next((i + 1 for i, k in enumerate(order) if rs.is_needle(found[k], needle)), None)


def line(label: str, ranks: dict[str, list[int | None]]) -> str:
    cells = []
    for scale in ("repository", "module"):
        got = ranks.get(scale, [])
        cells.append(" / ".join(str(sum(1 for r in got if r and r <= k)) for k in CUTS))
    every = ",".join(str(r or "-") for scale in ("repository", "module") for r in ranks[scale])
    return f"| {label} | {cells[0]} of 16 | {cells[1]} of 30 | {every} |"


HEADER = [
    "| reading | repository @1/4/8/16/32 | modules @1/4/8/16/32 | ranks |",
    "|---|---|---|---|",
]


def scale_of(repo: str) -> str:
    return "repository" if repo in rs.FOLDERS else "module"


def lexicon(cache: Path) -> list[str]:
    def base(q: str) -> list[str]:
        return query_words(q) or words(q)

    lines = ["Reading a description for BM25 (it reads a definition's name twice and its "
             "source; rule needles)", "", *HEADER]  # fmt: skip
    sets = rule_sets(cache)
    for label, make in [
        ("its words (before)", lambda vocab: base),
        ("+ short forms (code_query, chosen)", lambda vocab: code_query),
        ("+ adjacent words joined where code has them", lambda vocab: lambda q: _joined(q, vocab)),
    ]:
        ranks: dict[str, list[int | None]] = {"repository": [], "module": []}
        for repo, found, needles in sets:
            search = DefinitionSearch(found, "source")
            assert search._bm25 is not None
            read = make(set(search._bm25.idf))
            for n in needles:
                ranks[scale_of(repo)].append(
                    rank(found, n, search._bm25.get_scores(read(n["query"])))
                )
        lines.append(line(label, ranks))
    return lines


def _joined(question: str, vocab: set[str]) -> list[str]:
    found = query_words(question) or words(question)
    return found + [a + b for a, b in itertools.pairwise(found) if a + b in vocab]


def grid(cache: Path) -> list[str]:
    from rank_bm25 import BM25Okapi

    lines = ["BM25's settings (the query read by code_query; rule needles)", "", *HEADER]
    sets = rule_sets(cache)
    for weight, k1, b in itertools.product((1, 2, 3), (0.9, 1.2, 1.5, 1.8), (0.5, 0.75, 0.9)):
        ranks: dict[str, list[int | None]] = {"repository": [], "module": []}
        for repo, found, needles in sets:
            corpus = [words(x.definition.name) * weight + words(x.definition.source) for x in found]
            bm25 = BM25Okapi(corpus, k1=k1, b=b)
            for n in needles:
                ranks[scale_of(repo)].append(
                    rank(found, n, bm25.get_scores(code_query(n["query"])))
                )
        chosen = " (the product's)" if (weight, k1, b) == (2, 1.5, 0.75) else ""
        lines.append(line(f"name x{weight}, k1 {k1}, b {b}{chosen}", ranks))
    return lines


GUESSES = {
    "name": "What is the function's name in the code? Reply with the identifier only.",
    "words": "List ten words that its code most likely contains (identifiers, keywords), "
    "separated by spaces.",
}


def guess(cache: Path) -> list[str]:
    from prism_edge.backends.factory import open_backend
    from prism_edge.prompts import Part, Prompt

    backend = open_backend(None, n_ctx=2048)
    lines = [f"The model ({backend.name}) guesses, greedy, 24 tokens; its words added to the "
             "query (a guessed name twice); rule needles", "", *HEADER]  # fmt: skip
    sets = rule_sets(cache)
    ranks: dict[str, dict[str, list[int | None]]] = {}
    for repo, found, needles in sets:
        search = DefinitionSearch(found, "source")
        assert search._bm25 is not None
        for n in needles:
            said = {}
            for kind, ask in GUESSES.items():
                prompt = Prompt((Part("A function in a code base is described like this:\n\n"),
                                 Part(n["query"], "document"), Part(f"\n\n{ask}")))  # fmt: skip
                said[kind] = backend.complete(prompt, max_tokens=24).text
            for label, query in [
                ("code_query", code_query(n["query"])),
                ("+ the guessed name", code_query(n["query"]) + words(said["name"]) * 2),
                ("+ the guessed words", code_query(n["query"]) + words(said["words"])),
            ]:
                got = ranks.setdefault(label, {"repository": [], "module": []})
                got[scale_of(repo)].append(rank(found, n, search._bm25.get_scores(query)))
    lines += [line(label, got) for label, got in ranks.items()]
    backend.close()
    return lines


def neighbors(cache: Path) -> list[str]:
    import numpy as np

    matrix, vocabulary = _token_embeddings()
    lines = ["Each query word's nearest words by the embedded model's token embeddings (cosine, "
             "words of the code base only), added with weight alpha x similarity; rule needles",
             "", *HEADER]  # fmt: skip
    sets = rule_sets(cache)
    prepared = []
    for repo, found, needles in sets:
        search = DefinitionSearch(found, "source")
        bm25 = search._bm25
        assert bm25 is not None
        known = [w for w in bm25.idf if w in vocabulary]
        rows = matrix[[vocabulary[w] for w in known]]
        for n in needles:
            query = code_query(n["query"])
            single = {w: np.array(bm25.get_scores([w])) for w in set(query)}
            near: dict[str, list[tuple[str, float]]] = {}
            for w in set(query) & set(vocabulary):
                similar = rows @ matrix[vocabulary[w]]
                near[w] = [(known[k], float(similar[k])) for k in np.argsort(-similar)[:9]
                           if known[k] != w]  # fmt: skip
                for x, _ in near[w]:
                    single.setdefault(x, np.array(bm25.get_scores([x])))
            prepared.append((repo, found, n, query, single, near))
    for k, floor, alpha in [
        (0, 0.0, 0.0),
        *itertools.product((2, 4, 8), (0.3, 0.4, 0.5), (0.3, 0.6, 1.0)),
    ]:
        ranks: dict[str, list[int | None]] = {"repository": [], "module": []}
        for repo, found, n, query, single, near in prepared:
            scores = sum(single[w] for w in query)
            for w in query:
                for x, s in near.get(w, [])[:k]:
                    if s >= floor:
                        scores = scores + alpha * s * single[x]
            ranks[scale_of(repo)].append(rank(found, n, scores))
        label = (
            "code_query alone"
            if k == 0
            else f"{k} neighbours, similarity >= {floor}, alpha {alpha}"
        )
        lines.append(line(label, ranks))
    return lines


def _token_embeddings() -> tuple[Any, dict[str, int]]:
    """The embedded model's input embeddings of whole-word tokens, normalized, by word."""
    import gguf
    import numpy as np

    from prism_edge.backends.catalog import resolve_model

    reader = gguf.GGUFReader(str(resolve_model(None)))
    tensor = next(t for t in reader.tensors if t.name == "token_embd.weight")
    matrix = np.asarray(gguf.quants.dequantize(tensor.data, tensor.tensor_type), dtype=np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True) + 1e-9
    field = reader.fields["tokenizer.ggml.tokens"]
    vocabulary: dict[str, int] = {}
    for i, part in enumerate(field.data):
        token = bytes(field.parts[part]).decode("utf-8", "replace")
        word = token.removeprefix("\u0120").lower()
        if token.startswith("\u0120") and word.isalpha() and len(word) > 1:
            vocabulary.setdefault(word, i)
    return matrix, vocabulary


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("what", choices=["lexicon", "grid", "guess", "neighbors"])
    args = parser.parse_args()
    run = {"lexicon": lexicon, "grid": grid, "guess": guess, "neighbors": neighbors}[args.what]
    with tempfile.TemporaryDirectory() as cache:
        lines = run(Path(cache))
    out = rs.RESULTS / f"repo-query-{args.what}.txt"
    out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
