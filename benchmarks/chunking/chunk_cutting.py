"""Chunk cutting against an earlier revision's: the same chunks, and the time (by hand).

    python benchmarks/chunking/chunk_cutting.py REV [--sizes 512,1024]

Loads ``prism_edge/text/chunking.py`` as it was at the git revision REV and cuts the
development set's texts, the Jungle Book, the click and semver sources and the first table
set's CSV files with both, counting tokens with the embedded model's tokenizer; prints any file
whose chunks differ, and each version's total time.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from prism_edge.backends.llama_cpp import LlamaTokenizer
from prism_edge.text import chunking
from prism_edge.text.inputs import collect

ROOT = Path(__file__).resolve().parents[2]


def inputs() -> list[Path]:
    data = ROOT / "benchmarks" / "data"
    found = sorted((data / "dev-set").glob("*.txt"))
    found += sorted((data / "click").glob("*.py")) + sorted((data / "semver").rglob("*.js"))
    tables = ROOT / "benchmarks" / "results" / "table-qa-first-smollm2-inputs"
    found += sorted(tables.rglob("*.csv"))
    book = ROOT.parent / "shared" / "data" / "jungle-book.txt"
    return [*found, book] if book.exists() else found


def load_revision(rev: str, folder: Path):  # type: ignore[no-untyped-def]
    source = subprocess.run(
        ["git", "show", f"{rev}:prism_edge/text/chunking.py"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    path = folder / "chunking_then.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("chunking_then", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["chunking_then"] = module
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("rev")
    parser.add_argument("--sizes", default="512,1024")
    args = parser.parse_args()
    tokenizer = LlamaTokenizer()

    def count(text: str) -> int:
        return len(tokenizer.tokenize(text))

    paths = inputs()
    with tempfile.TemporaryDirectory() as folder:
        then = load_revision(args.rev, Path(folder))
        seconds = {"then": 0.0, "now": 0.0}
        differ = 0
        for size in (int(s) for s in args.sizes.split(",")):
            for path in paths:
                documents = collect([str(path)]).documents
                start = time.perf_counter()
                before = list(then.iter_chunks(documents, size, count))
                seconds["then"] += time.perf_counter() - start
                start = time.perf_counter()
                after = list(chunking.iter_chunks(documents, size, count))
                seconds["now"] += time.perf_counter() - start
                if before != after:
                    differ += 1
                    print(f"differs: {path} at {size} ({len(before)} / {len(after)} chunks)")
    print(
        f"{len(paths)} files at sizes {args.sizes}: {differ} differ; cutting took "
        f"{seconds['then']:.1f} s at {args.rev}, {seconds['now']:.1f} s now "
        f"({seconds['then'] / max(seconds['now'], 1e-9):.1f}x)"
    )


if __name__ == "__main__":
    main()
