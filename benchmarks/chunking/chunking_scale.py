"""Chunking time against input size: it must grow linearly (by hand).

Cuts 0.25, 0.5, 1, 2 and 5 MB of the Jungle Book (repeated) into 2048-token chunks with the
scripted backend's tokenizer (regex words, no model), and also 0.5 and 5 MB of one single line
(no paragraph or line boundary to cut at). Prints seconds and the 5 MB / 0.5 MB ratio.

    python benchmarks/chunking/chunking_scale.py

Writes benchmarks/results/chunking_scale.txt.
"""

from __future__ import annotations

import time
from pathlib import Path

from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.text.chunking import chunk_document

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT.parent / "shared" / "data" / "jungle-book.txt"


def seconds(text: str, tokens: int = 2048) -> tuple[float, int]:
    backend = ScriptedBackend([])

    def count(piece: str) -> int:
        return len(backend.tokenize(piece))

    start = time.perf_counter()
    chunks = list(chunk_document("book.txt", text, "prose", tokens, count))
    elapsed = time.perf_counter() - start
    assert "".join(chunks) == text
    return elapsed, len(chunks)


def main() -> None:
    book = BOOK.read_text(encoding="utf-8")
    lines = ["| input | MB | chunks | seconds |", "|---|---|---|---|"]
    measured: dict[tuple[str, float], float] = {}
    for kind in ("prose", "one line"):
        source = book if kind == "prose" else " ".join(book.split())
        sizes = (0.25, 0.5, 1, 2, 5) if kind == "prose" else (0.5, 5)
        for mb in sizes:
            n = int(mb * 1_000_000)
            text = (source * (n // len(source) + 1))[:n]
            took, chunks = seconds(text)
            measured[(kind, mb)] = took
            lines.append(f"| {kind} | {mb} | {chunks} | {took:.2f} |")
    for kind in ("prose", "one line"):
        ratio = measured[(kind, 5)] / measured[(kind, 0.5)]
        lines.append(f"\n{kind}: 5 MB took {ratio:.1f}x the time of 0.5 MB (linear: 10x)")
    text = "\n".join(lines) + "\n"
    print(text)
    (ROOT / "benchmarks" / "results" / "chunking_scale.txt").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
