"""The same bench under two versions of the code, side by side (by hand, alone on the machine).

For each text, ``prism-edge bench`` runs under each source tree given (a checkout of another
commit, e.g. made with ``git worktree add /tmp/old COMMIT``; ``.`` is this one), one after the
other, the first tree going first on odd texts and last on even ones, every run in its own
process with the tree first on ``PYTHONPATH``. Prints, for each text, method and tree: wall
time, tokens decoded, input rate against the run's depth-0 prefill, wall over the depth-aware
bound, entity recall, faithfulness, and whether the final memory and answer are those of the
first tree.

    python benchmarks/runs/versions.py TEXT [TEXT ...] --tree before=/tmp/old --tree after=. \
        [--methods "PRISM amendments,PRISM amendments grounded"] [--chunk-tokens 1024] \
        [--out benchmarks/results/FILE.txt]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]


def _bench(
    tree: Path, text: Path, methods: str, chunk_tokens: int, keep: Path | None
) -> list[dict[str, str]]:
    entities = text.with_suffix(".entities")
    with tempfile.TemporaryDirectory() as scratch:
        out = keep or Path(scratch) / "bench.json"
        command = [
            *(sys.executable, "-m", "prism_edge", "bench", str(text)),
            *("--task", "summarize", "--chunk-tokens", str(chunk_tokens)),
            *("--methods", methods, "--json-out", str(out)),
        ]
        if entities.exists():
            command += ["--entities", str(entities)]
        env = {**os.environ, "PYTHONPATH": str(tree)}
        subprocess.run(command, check=True, env=env, cwd=scratch, stdout=subprocess.DEVNULL)
        rows: list[dict[str, str]] = json.loads(out.read_text())["methods"]
        return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("texts", type=Path, nargs="+")
    parser.add_argument("--tree", action="append", required=True, help="NAME=PATH")
    parser.add_argument("--methods", default="PRISM amendments,PRISM amendments grounded")
    parser.add_argument("--chunk-tokens", type=int, default=1024)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--json-dir", type=Path, default=None, help="keep each bench's JSON")
    args = parser.parse_args()
    if args.json_dir is not None:
        args.json_dir = args.json_dir.resolve()  # the benches run in a scratch folder
        args.json_dir.mkdir(parents=True, exist_ok=True)
    trees = [(n, Path(p).resolve()) for n, _, p in (t.partition("=") for t in args.tree)]
    lines = [
        "| text | method | code | wall s | decoded | x prefill | wall/bound | entity recall"
        " | faithful | memory as the first's | answer as the first's |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    print("\n".join(lines), flush=True)
    for i, text in enumerate(args.texts):
        order = trees if i % 2 == 0 else trees[::-1]
        runs: dict[str, list[dict[str, str]]] = {}
        for name, tree in order:
            keep = None if args.json_dir is None else args.json_dir / f"{text.stem}-{name}.json"
            runs[name] = _bench(tree, text.resolve(), args.methods, args.chunk_tokens, keep)
        first = runs[trees[0][0]]
        for m, row0 in enumerate(first):
            for name, _ in trees:
                row = runs[name][m]
                line = (
                    f"| {text.stem} | {row['name']} | {name} | {float(row['wall_s']):.1f} "
                    f"| {row['decoded_tokens']} | {row['prefill_ratio']} "
                    f"| {row['wall_over_bound']} "
                    f"| {row.get('entity_recall')} | {row.get('faithfulness')} "
                    f"| {row['memory'] == row0['memory']} | {row['answer'] == row0['answer']} |"
                )
                lines.append(line)
                print(line, flush=True)
    if args.out is not None:
        command = " ".join(sys.argv)
        args.out.write_text(f"$ python {command}\n" + "\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
