"""Bytes a run's checkpoints write, against the final state's size and the input's (issue 44).

    python benchmarks/runs/checkpoint_bytes.py [--text ../shared/data/moby-dick.txt] [--out FILE]

The whole of a text is read by a summary by names without the model (``--no-model``'s method;
the scripted backend counts tokens, so no model is needed and the figures are the checkpoint's
alone) in 512-token chunks, saved after every step as ``run`` saves it. Reported: bytes the
journal and the bases wrote, the final state's size (base with its journal applied, as one
JSON text), the input's size, the ratio the issue bounds (written over 3 x final + input), what
the old checkpoint (the whole state rewritten after every step) would have written, measured by
encoding the whole state at every step, and the time of the saves. Then a resume from the
files as they were after a step near the middle is run to the end and compared with the
uninterrupted run.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from prism_edge.backends.scripted import ScriptedBackend  # noqa: E402
from prism_edge.engine.checkpoint import RunFolder, read_state  # noqa: E402
from prism_edge.engine.runner import PrismRunner  # noqa: E402
from prism_edge.methods import make  # noqa: E402
from prism_edge.methods.presets import TASKS  # noqa: E402
from prism_edge.text.chunking import chunk_documents  # noqa: E402
from prism_edge.text.inputs import Document  # noqa: E402


def runner(backend: ScriptedBackend) -> PrismRunner:
    task = TASKS["summarize"]
    config = task.configure(None, answer_max_tokens=512)
    method = make("names", task.schema, config, scoring="frequency")
    return PrismRunner(backend, task.schema, config, method=method)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--text", type=Path, default=ROOT.parent / "shared/data/moby-dick.txt")
    parser.add_argument("--chunk-tokens", type=int, default=512)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    text = args.text.read_text(encoding="utf-8")
    backend = ScriptedBackend()
    chunks = chunk_documents(
        [Document(args.text.name, text)], args.chunk_tokens, lambda t: len(backend.tokenize(t))
    )
    work = Path(tempfile.mkdtemp(prefix="checkpoint-bytes-"))
    folder = RunFolder(work / "run", "settings", "inputs")
    run = runner(backend)
    old_bytes = 0
    save_s = 0.0
    middle = len(chunks) // 2
    steps = 0
    for event in run.run(chunks):
        if event.kind != "step":
            continue
        steps += 1
        start = time.perf_counter()
        folder.save(run)
        save_s += time.perf_counter() - start
        whole = {"version": 1, **run.snapshot(), "finished": False}
        old_bytes += len(json.dumps(whole, ensure_ascii=False).encode("utf-8"))
        if steps == middle:
            shutil.copytree(folder.path, work / "killed", ignore=shutil.ignore_patterns("*.lock"))
    folder.save(run, finished=True)
    folder.unlock()
    final = len(json.dumps(read_state(folder.state_file), ensure_ascii=False).encode("utf-8"))
    written = folder.bytes_written
    size = len(text.encode("utf-8"))
    again = RunFolder(work / "killed", "settings", "inputs")
    fresh = runner(ScriptedBackend())
    again.restore(fresh, fresh.schema, again.load())
    for _ in fresh.run(chunks):
        pass
    again.unlock()
    same = (fresh.result.answer, fresh.memory.data) == (run.result.answer, run.memory.data)
    lines = [
        f"$ python benchmarks/runs/checkpoint_bytes.py --text {args.text.name} "
        f"--chunk-tokens {args.chunk_tokens}",
        f"steps: {steps}; input {size:,} bytes; final state {final:,} bytes",
        f"written by the journal and its bases: {written:,} bytes "
        f"({written / (3 * final + size):.2f} of 3 x final + input; "
        f"{written / final:.2f} x the final state)",
        f"the whole state rewritten after every step (before): {old_bytes:,} bytes "
        f"({old_bytes / written:.1f} x the journal's)",
        f"time in saves: {save_s:.2f} s ({1000 * save_s / max(1, steps):.1f} ms a step)",
        f"resumed after step {middle} of {steps}: answer and memory "
        + ("identical" if same else "DIFFERENT"),
    ]
    report = "\n".join(lines) + "\n"
    print(report, end="")
    if args.out is not None:
        args.out.write_text(report, encoding="utf-8")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
