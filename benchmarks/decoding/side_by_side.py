"""What the side-by-side scripts share (``attention_runs.py``, ``loop_stop.py``,
``repeat_stop.py``): the same arguments, the first chunks of each text, and a summary task
scored on the text's entity list when it has one. Imported by the scripts run from here
(``python benchmarks/decoding/NAME.py``), never run itself."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from itertools import islice
from pathlib import Path

from prism_edge.eval.bench import BenchTask
from prism_edge.eval.quality import load_entities
from prism_edge.methods.presets import TASKS
from prism_edge.text.chunking import chunk_text


def arguments(doc: str | None) -> argparse.Namespace:
    """TEXT [TEXT ...] [--chunks 8] [--chunk-tokens 1024] [--model M] [--out FILE]."""
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    parser.add_argument("texts", type=Path, nargs="+")
    parser.add_argument("--chunks", type=int, default=8)
    parser.add_argument("--chunk-tokens", type=int, default=1024)
    parser.add_argument("--model", default=None)
    parser.add_argument("--out", type=Path, default=None)
    return parser.parse_args()


def first_chunks(path: Path, chunks: int, size: int, count: Callable[[str], int]) -> list[str]:
    """The first ``chunks`` chunks of up to ``size`` tokens of the text at ``path``."""
    return list(islice(chunk_text(path.read_text(encoding="utf-8"), size, count), chunks))


def summary_task(path: Path) -> BenchTask:
    """The summarize preset's question, scored on ``path``'s ``.entities`` list if any."""
    preset = TASKS["summarize"]
    listed = path.with_suffix(".entities")
    entities = tuple(load_entities(listed)) if listed.exists() else ()
    return BenchTask(preset, preset.question(None), entities)
