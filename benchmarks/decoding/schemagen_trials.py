"""Ten schema generations over different domains with the embedded model (run by hand).

Each generated schema is parsed and given a revision grammar; prints each schema and a summary.

    python benchmarks/decoding/schemagen_trials.py [--model NAME]
"""

from __future__ import annotations

import argparse
import time

import llama_cpp

from prism_edge.backends.catalog import resolve_model
from prism_edge.backends.llama_cpp import LlamaCppBackend
from prism_edge.backends.llama_grammar import GrammarMatcher
from prism_edge.grammar.revision import revision_grammar
from prism_edge.methods.schemagen import SchemaGenerationError, generate_schema

DOMAINS = [
    (
        "Retrieving the exact name of a function given a query that describes the purpose, "
        "input, output, and procedure of the function. Documents are files of code.",
        "Find the function that parses a date string and returns a datetime object.",
    ),
    (
        "You are summarizing very long narrative books. Each document is a segment of the book.",
        "Summarize this book. Introduce characters, places and major elements.",
    ),
    (
        "Given a bunch of SQL tables formatted in text, answer queries that may require "
        "reasoning over multiple tables.",
        "What is the total number of singers?",
    ),
    (
        "Legal contracts between companies, read clause by clause.",
        "What are the termination conditions and notice periods?",
    ),
    ("Scientific papers about climate.", "Which regions are projected to warm the most?"),
    (
        "Customer support chat logs of a software company.",
        "What are the most common complaints and how were they resolved?",
    ),
    ("Recipes from a cookbook.", "Which recipes are vegetarian and take under 30 minutes?"),
    ("Server log files of a web application.", "Which endpoints return errors most often?"),
    ("Meeting transcripts of a project team.", "What decisions were made and who owns them?"),
    ("Product reviews of laptops.", "Compare battery life and build quality across models."),
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default=None)
    args = parser.parse_args()
    backend = LlamaCppBackend(resolve_model(args.model), n_ctx=4096)
    vocab = llama_cpp.llama_model_get_vocab(backend.llama.model)
    parsed = 0
    for i, (domain, query) in enumerate(DOMAINS, start=1):
        start = time.perf_counter()
        try:
            generated = generate_schema(backend, domain, query)
        except SchemaGenerationError as exc:
            print(f"## {i}. FAILED: {exc}\n{exc.text}\n")
            continue
        grammar = revision_grammar(generated.schema, generated.schema.empty_memory())
        GrammarMatcher(vocab, grammar).close()  # llama.cpp's engine compiles it
        parsed += 1
        print(
            f"## {i}. {query} ({generated.attempts} attempt(s), "
            f"{time.perf_counter() - start:.1f} s, grammar {len(grammar)} chars)"
        )
        print(generated.source)
    print(
        f"{parsed}/{len(DOMAINS)} generations parsed and gave a revision grammar "
        "that llama.cpp's grammar engine compiles"
    )


if __name__ == "__main__":
    main()
