"""The names prompt with the question before the passage, against the shipped one (by hand,
alone on the machine).

The shipped prompt asks after the passage (``Passage: ... Question: Who or what is this passage
about? Answer:``), so the question and the chat template's end, 22 tokens, are evaluated again
after every chunk. Asked first, the question joins the head every chunk shares (evaluated once)
and 10 tokens follow the passage. This runs ``prism-edge bench`` (PRISM names, 512-token
chunks) with that prompt on the given texts, the prompt swapped in by a ``sitecustomize`` the
bench's interpreter loads; compare its tables with a run of the shipped prompt made in the same
sitting (a run's speed moves with the machine).

    python benchmarks/summaries/names_prompt.py \\
        --out benchmarks/results/names-question-first-smollm2 \\
        ../shared/data/jungle-book.txt:benchmarks/data/jungle-book-entities.txt \\
        benchmarks/data/dev-set/persuasion.txt:benchmarks/data/dev-set/persuasion.entities
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PATCH = """
import prism_edge.methods.names as names
from prism_edge.prompts import Part, Prompt


def _prompt(chunk):
    return Prompt((
        Part("Question: Who or what is the passage below about?\\n\\nPassage:\\n"),
        Part(chunk, "document"),
        Part("\\n\\nAnswer:"),
    ))


names._prompt = _prompt
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("texts", nargs="+", help="TEXT:ENTITIES pairs")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as patch:
        (Path(patch) / "sitecustomize.py").write_text(PATCH)
        env = {**os.environ, "PYTHONPATH": patch}
        for pair in args.texts:
            text, entities = pair.split(":")
            name = Path(text).stem
            command = [
                str(Path(sys.executable).with_name("prism-edge")),
                "bench",
                text,
                "--task",
                "summarize",
                "--methods",
                "PRISM names",
                "--entities",
                entities,
                "--chunk-tokens",
                "512",
                "--answer-tokens",
                "512",
                "--json-out",
                str(args.out / f"{name}.json"),
            ]
            print("$", " ".join(command), file=sys.stderr, flush=True)
            done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
            (args.out / f"{name}.txt").write_text(done.stdout + done.stderr)
            if done.returncode:
                sys.exit(f"{name}: the bench failed: {done.stderr.strip().splitlines()[-1]}")


if __name__ == "__main__":
    main()
