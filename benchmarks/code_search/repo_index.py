"""A repository read into its index, against ``ast`` parsing the same files, in one measurement
(by hand; one llama.cpp process at a time).

    python benchmarks/code_search/repo_index.py [--folder /tmp/stdlib]

The folder: the Python standard library without its tests (``Lib/`` less ``test/``, ``tests/``,
``idle_test/``, ``site-packages/``), copied so one file can be changed:

    cd $(python -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])') && find . -name
    '*.py' -not -path './site-packages/*' -not -path '*/test/*' -not -path '*/tests/*' -not
    -path '*/idle_test/*' | while read f; do mkdir -p /tmp/stdlib/$(dirname $f); cp -p $f
    /tmp/stdlib/$f; done

Each phase runs in a process of its own (its peak RSS is its own): ``ast`` reading and parsing
every ``.py`` file; the library reading a fresh index (collect + parse + store); the same
again, nothing changed; one file changed; and the command a user types, ``prism-edge run FOLDER
--task code-search --query ...`` with the embedded model, fresh and again. Bytes written are
the phase's ``write()`` bytes (``/proc/self/io`` wchar), the console's included. Writes
benchmarks/results/repo_index.txt.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
QUERY = "Purpose: split a web address into its parts. Output: a named tuple of six parts."


def written() -> int:
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    return 0


def phase(name: str, folder: Path, cache: Path) -> dict[str, object]:
    before = written()
    start = time.perf_counter()
    out: dict[str, object] = {"phase": name}
    if name == "ast":
        import ast

        files = sorted(folder.rglob("*.py"))
        for path in files:
            with contextlib.suppress(SyntaxError, ValueError):
                ast.parse(path.read_bytes())
        out["files"] = len(files)
    elif name.startswith("index"):
        from prism_edge.engine.index import CodeIndex, index_key
        from prism_edge.text.inputs import collect

        documents = collect([str(folder)], hold_code=False).documents
        index = CodeIndex(cache, index_key([str(folder)]))
        for _ in index.update(documents):
            pass
        out["change"] = index.change.line()
        out["index_bytes"] = index.path.stat().st_size
        out["parse_s"] = round(index.change.parse_s, 2)
    else:  # the command, in this process
        from prism_edge.app.cli import main

        os.environ["PRISM_EDGE_CACHE"] = str(cache)
        sys.argv = ["prism-edge", "run", str(folder), "--task", "code-search", "--query", QUERY]
        try:
            main()
        except SystemExit as done:
            out["exit"] = done.code
    out["seconds"] = round(time.perf_counter() - start, 2)
    out["written"] = written() - before
    out["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--folder", type=Path, default=Path("/tmp/stdlib"))
    parser.add_argument("--phase", default=None)
    parser.add_argument("--cache", type=Path, default=None)
    args = parser.parse_args()
    if args.phase:
        print(json.dumps(phase(args.phase, args.folder, args.cache)))
        return
    rows = []
    with tempfile.TemporaryDirectory() as work:
        cache, cli_cache = Path(work) / "cache", Path(work) / "cli-cache"
        changed = sorted(args.folder.rglob("*.py"))[len(list(args.folder.rglob("*.py"))) // 2]
        original = changed.read_bytes()
        env = {**os.environ, "PRISM_EDGE_LOGS": str(Path(work) / "logs.db")}
        plan = [("ast", cache), ("index fresh", cache), ("index unchanged", cache),
                ("index one changed", cache), ("command fresh", cli_cache),
                ("command again", cli_cache)]  # fmt: skip
        try:
            for name, where in plan:
                if name == "index one changed":
                    changed.write_bytes(original + b"\n\ndef added_by_the_benchmark():\n    pass\n")
                cmd = [sys.executable, __file__, "--phase", name, "--folder", str(args.folder),
                       "--cache", str(where)]  # fmt: skip
                done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
                rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
                print(rows[-1], file=sys.stderr, flush=True)
        finally:
            changed.write_bytes(original)
    ast_s = float(rows[0]["seconds"])  # type: ignore[arg-type]
    lines = [
        f"folder {args.folder}: {rows[0]['files']} .py files; ast parse {ast_s:.2f} s "
        f"(same measurement, a process each; {time.strftime('%Y-%m-%d')})",
        "",
        "| phase | seconds | x ast | peak RSS MB | bytes written | index bytes | what |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        seconds = float(row["seconds"])  # type: ignore[arg-type]
        lines.append(
            f"| {row['phase']} | {seconds:.2f} | {seconds / ast_s:.1f} | {row['peak_rss_mb']} | "
            f"{row['written']:,} | {row.get('index_bytes', '')} | {row.get('change', '')} |"
        )
    fresh = next(r for r in rows if r["phase"] == "index fresh")
    ratio = int(fresh["written"]) / int(fresh["index_bytes"])  # type: ignore[call-overload]
    lines += ["", f"fresh index: bytes written / final index size = {ratio:.2f}"]
    text = "\n".join(lines) + "\n"
    (ROOT / "benchmarks" / "results" / "repo_index.txt").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
