"""Where BM25 ranks the wanted definition, no model (by hand; seconds).

Two code bases: the Jinja2 filters needles (long descriptions, ``benchmarks/data``) and the
installed ``platformdirs`` package with four short questions a user would type, each with the
definition that answers it (read from its source: macos.py, windows.py, unix.py). Chunks are
cut as ``prism-edge run`` cuts them (1024 tokens, 4 characters a token here), so a method in a
chunk that starts inside its class must keep its owner to be found by it.

    PYTHONPATH=. python benchmarks/code_search/bm25_ranks.py
"""

from __future__ import annotations

import json
from pathlib import Path

import platformdirs

from prism_edge.methods.definitions import bm25_search
from prism_edge.text.chunking import chunk_documents
from prism_edge.text.inputs import Document, kind_of

DATA = Path(__file__).resolve().parents[1] / "data"
QUESTIONS = [
    (
        "Find the function that returns the path of the user's cache directory on macOS",
        "_MacOSDefaults.user_cache_dir",
    ),
    (
        "Find the function that returns the user's config directory on Windows",
        "Windows.user_config_dir",
    ),
    (
        "Which function gets a folder path from the Windows registry?",
        "get_win_folder_from_registry",
    ),
    ("Find the function that reads XDG_DATA_DIRS", "XDGMixin.site_data_dir"),
]


def chunks_of(paths: list[Path]) -> list[str]:
    docs = [Document(str(p), p.read_text(encoding="utf-8"), kind_of(p.name)) for p in paths]
    return chunk_documents(docs, 1024, lambda text: len(text) // 4)


def rank(chunks: list[str], question: str, expected: str) -> int | None:
    names = [name for name, _ in bm25_search(chunks, question)]
    return names.index(expected) + 1 if expected in names else None


def main() -> None:
    jinja = chunks_of([DATA / "jinja2_filters.py"])
    lines = (DATA / "jinja2-filters-needles.jsonl").read_text(encoding="utf-8").splitlines()
    needles = [json.loads(line) for line in lines if line.strip()]
    print("jinja2 needles:", [rank(jinja, n["query"], n["expected"]) for n in needles])
    package = Path(platformdirs.__file__).parent
    dirs = chunks_of(sorted(package.glob("*.py")))
    print(f"platformdirs {platformdirs.__version__}:", [rank(dirs, q, e) for q, e in QUESTIONS])


if __name__ == "__main__":
    main()
