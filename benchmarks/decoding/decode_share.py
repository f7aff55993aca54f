"""Tokens decoded per prompt token prefilled, by method, over every bench report kept here
(output tokens the grammar forced, evaluated in batches, are not counted as decoded).

The engine's attention is chosen by this share (``prism_edge/backends/attention.py``): the
median over the written PRISM runs is ``WrittenRevisions.decode_share``, the baselines' is
what ``bench`` suits the engine to before running them. Each report counts once per method
(a report repeated under another name is counted once: same method, same token counts).

    python benchmarks/decoding/decode_share.py [REPORT.json ...] \
        > benchmarks/results/decode_share.txt

With reports named, only those are counted (the runs of one version of the code).
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

RESULTS = Path(__file__).resolve().parents[1] / "results"
WRITTEN = ("PRISM in-place", "PRISM amendments")
"""Method names that begin so are the model-written revisions (every variant)."""
BASELINES = ("incremental", "hierarchical")


def shares(reports: list[Path] | None = None) -> dict[str, list[tuple[str, float]]]:
    """Each method's share in ``reports`` (every JSON report kept here when None)."""
    found: dict[str, list[tuple[str, float]]] = {"written": [], **{b: [] for b in BASELINES}}
    seen: set[tuple[str, int, int]] = set()
    for path in (
        sorted(p.resolve() for p in reports) if reports else sorted(RESULTS.rglob("*.json"))
    ):
        try:
            report = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(report, dict):
            continue
        for row in report.get("methods") or []:
            name, decoded, net = row.get("name"), row.get("decoded_tokens"), row.get("net_tokens")
            if not (isinstance(name, str) and decoded and net) or (name, decoded, net) in seen:
                continue
            # output tokens the grammar forced were evaluated in batches, at the prefill rate
            decoded -= row.get("forced_tokens") or 0
            seen.add((name, decoded, net))
            kind = "written" if name.startswith(WRITTEN) else name
            if kind in found:
                found[kind].append((f"{path.relative_to(RESULTS)}: {name}", decoded / net))
    return found


def main() -> None:
    reports = [Path(a) for a in sys.argv[1:]]
    command = " ".join(["python benchmarks/decoding/decode_share.py", *sys.argv[1:]])
    print(f"$ {command}   (decoded tokens / net prompt tokens, by run)")
    for kind, runs in shares(reports or None).items():
        values = [v for _, v in runs]
        for label, value in runs:
            print(f"  {kind:12} {value:.3f}  {label}")
        if values:
            print(
                f"{kind}: median {statistics.median(values):.3f} over {len(values)} runs "
                f"(min {min(values):.3f}, max {max(values):.3f})\n"
            )


if __name__ == "__main__":
    main()
