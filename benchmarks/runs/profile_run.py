"""Where a run's time goes: one `prism-edge run` under py-spy, its samples sorted into what
the run does (by hand, alone on the machine; `pip install py-spy`).

    python benchmarks/runs/profile_run.py INPUT [prism-edge run options...] \
        --out benchmarks/results/profile-NAME.txt

Each sample is counted once, under the first of these it finds in its stack (innermost
first): prefill (the prompt evaluated: `_prefill`, `_prefill_head`), candidate scores
(`_eval_all_logits`, `_score_group`), decode (`_decode`: the token-by-token output, grammar
checks included), then the Python around them: grammar (the revision grammar's own Python),
tokenize, apply (parsing and applying revisions), render (the memory rendered into the
prompt), progress (the console), the checkpoint saved, the method's own Python (a scored
method's candidates and sentences, the table method's facts), startup (imports and model
load), other. The run's own summary (its stderr) and the command are written first, then the
table.
"""

from __future__ import annotations

import argparse
import collections
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CATEGORIES = (
    ("score: candidates evaluated", ("_eval_all_logits", "_score_group")),
    ("prefill: prompt evaluated", ("_prefill_head", "_prefill")),
    ("decode: output tokens (grammar checks included)", ("_decode",)),
    ("grammar (Python)", ("grammar",)),
    ("tokenize", ("tokenize",)),
    ("revisions parsed and applied", ("revisions", "apply")),
    ("memory rendered", ("render",)),
    ("progress display", ("render.py", "rich", "Condition.wait")),
    ("checkpoint saved", ("checkpoint.py",)),
    ("the method's own Python (candidates, sentences, facts)", ("prism_edge/methods/",)),
    ("startup: imports, model load", ("_find_and_load", "__init__ (llama_cpp", "_load (prism")),
)


def category(stack: str) -> str:
    """The first category whose marker is in the stack, innermost frame first."""
    frames = stack.split(";")[::-1]
    for frame in frames:
        for name, markers in CATEGORIES:
            if any(marker in frame for marker in markers):
                return name
    return "other"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--rate", type=int, default=50)
    args, run_args = parser.parse_known_args()
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    with tempfile.TemporaryDirectory() as folder:
        raw = Path(folder) / "samples.txt"
        command = [
            spy, "record", "-r", str(args.rate), "-f", "raw", "-o", str(raw), "--",
            sys.executable, "-m", "prism_edge", "run", *run_args, "--no-log",
            "--run-dir", str(Path(folder) / "run"),
        ]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        counts: collections.Counter[str] = collections.Counter()
        for line in raw.read_text(encoding="utf-8").splitlines():
            stack, _, n = line.rpartition(" ")
            if n.isdigit():
                counts[category(stack)] += int(n)
    total = sum(counts.values()) or 1
    summary = [line for line in done.stderr.splitlines() if line.startswith(("done", "plan"))]
    lines = [
        "$ python benchmarks/runs/profile_run.py " + " ".join(run_args),
        *summary,
        "",
        f"samples: {total} ({args.rate}/s)",
        "| where | samples | share |",
        "|---|---|---|",
        *(f"| {name} | {n} | {n / total:.1%} |" for name, n in counts.most_common()),
    ]
    print("\n".join(lines))
    if done.returncode or not any(line.startswith("done") for line in summary):
        # py-spy may exit 0 when the run it watched failed: the run's own last words decide
        sys.stderr.write(done.stderr[-2000:])
        raise SystemExit(done.returncode or 1)
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
