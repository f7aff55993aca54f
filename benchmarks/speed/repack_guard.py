"""What the AMX guard costs: prefill and decode speed with llama.cpp's extra buffer types on
(the default load; what every machine without AMX kernels keeps) and off (what the guard falls
back to where the probe crashed), side by side in one run, on the shipped models (by hand).

Also times the guard itself: the decision on this build, and one probe in a child process (the
one-time cost per build and model on an AMX machine).

    python benchmarks/speed/repack_guard.py [--models smollm2-135m,gemma3-270m] [--repeats 3]

Writes benchmarks/results/repack_guard.{txt,json}.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

from prism_edge.backends import native
from prism_edge.backends.catalog import resolve_model
from prism_edge.backends.llama_cpp import LlamaCppBackend

RESULTS = Path(__file__).resolve().parents[1] / "results"


def speeds(backend: LlamaCppBackend, prefill: int, decode: int) -> tuple[float, float]:
    filler = backend.tokenize("The quick brown fox jumps over the lazy dog. " * 400)
    tokens = (filler * (prefill // len(filler) + 1))[:prefill]
    backend.reset_cache()
    start = time.perf_counter()
    backend._prefill(tokens)
    prefill_rate = prefill / (time.perf_counter() - start)
    start = time.perf_counter()
    out, _ = backend._decode(None, decode, 0.0, None, stop_at_eog=False)
    return prefill_rate, len(out) / (time.perf_counter() - start)


def load(path: Path, extra: bool, n_ctx: int) -> LlamaCppBackend:
    os.environ[native.REPACK_ENV] = "on" if extra else "off"
    try:
        backend = LlamaCppBackend(path, n_ctx=n_ctx)
    finally:
        del os.environ[native.REPACK_ENV]
    assert backend.repack.extra_buffers is extra
    return backend


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--models", default="smollm2-135m,gemma3-270m")
    parser.add_argument("--prefill", type=int, default=1024)
    parser.add_argument("--decode", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    info = native.build_info()
    lines = [
        f"llama-cpp-python {info.package_version}, {info.library_version}",
        f"build: {info.system_info}",
        f"AMX kernels in this build: {info.has_amx_kernels}; CPU AMX flags: "
        + (" ".join(sorted(f for f in native.cpu_flags() if f.startswith("amx"))) or "none"),
        f"prefill {args.prefill} tokens from an empty cache, then {args.decode} greedy decoded "
        f"tokens; median of {args.repeats}, the two settings interleaved",
        "",
        "| model | extra buffer types | prefill tok/s | decode tok/s | prefill ratio | "
        "decode ratio |",
        "|---|---|---|---|---|---|",
    ]
    report: dict[str, object] = {"build": info.system_info, "models": {}}
    guard_rows = []
    for name in args.models.split(","):
        path = resolve_model(name)
        backends = {
            extra: load(path, extra, args.prefill + args.decode + 64) for extra in (True, False)
        }
        runs: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
        for _ in range(args.repeats):
            for extra in (True, False):
                runs[extra].append(speeds(backends[extra], args.prefill, args.decode))
        med = {
            extra: (
                statistics.median(r[0] for r in runs[extra]),
                statistics.median(r[1] for r in runs[extra]),
            )
            for extra in runs
        }
        for extra, label in ((True, "on (default; no AMX kernels)"), (False, "off (guarded)")):
            p, d = med[extra]
            lines.append(
                f"| {path.name} | {label} | {p:.0f} | {d:.1f} | "
                f"{p / med[True][0]:.2f} | {d / med[True][1]:.2f} |"
            )
        del backends
        start = time.perf_counter()
        decision = native.decide(path, info=info)
        decide_ms = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        outcome = native.probe_in_child(path)
        probe_s = time.perf_counter() - start
        guard_rows.append(
            f"| {path.name} | {decide_ms:.2f} ms ({decision.reason}) | {probe_s:.1f} s "
            f"({outcome.describe()}) |"
        )
        report["models"][path.name] = {  # type: ignore[index]
            "runs": {str(k): v for k, v in runs.items()},
            "median": {str(k): v for k, v in med.items()},
            "decide_ms": decide_ms,
            "probe_s": probe_s,
            "probe": outcome.describe(),
        }
    lines += [
        "",
        "| model | the guard's decision on this build | one probe in a child process |",
        "|---|---|---|",
        *guard_rows,
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "repack_guard.txt").write_text(text, encoding="utf-8")
    (RESULTS / "repack_guard.json").write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
