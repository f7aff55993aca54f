"""Crash-safe runs: the state after every completed step, written atomically to a run folder.

The state holds the memory (exactly: base, amendment records, folds), the position in the
input (chunks consumed, text of a cut chunk still to read), the metrics so far, and two hashes:
one of the settings (schema, question, prompts, model, budgets) and one of the input chunks.
Resuming refuses when either changed, since the memory would then answer a different run.
A write goes to a temporary file that is flushed, synced and renamed over the old state, so a
crash at any moment leaves either the previous state or the new one, never a torn file.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prism_edge.errors import PrismError
from prism_edge.memory import Memory
from prism_edge.metrics import RunMetrics
from prism_edge.runner import Position, PrismRunner
from prism_edge.schema import Schema

STATE = "state.json"
VERSION = 1


class ResumeError(PrismError):
    hint = "run again without --resume to start over (the old run folder is replaced)"


def digest(parts: Iterable[str]) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    try:  # make the rename itself durable
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@dataclass(frozen=True)
class RunFolder:
    path: Path
    settings_hash: str
    inputs_hash: str

    @property
    def state_file(self) -> Path:
        return self.path / STATE

    def save(
        self, runner: PrismRunner, *, finished: bool = False, extra: dict[str, Any] | None = None
    ) -> None:
        """Write the runner's state (call it on StepDone, when memory and position agree)."""
        result = runner.result
        state = {
            "version": VERSION,
            "settings_hash": self.settings_hash,
            "inputs_hash": self.inputs_hash,
            "position": {"consumed": runner.position.consumed, "pending": runner.position.pending},
            "memory": runner.memory.state(),
            "metrics": runner.metrics.state(),
            "counts": {
                "steps": result.steps,
                "applied": result.applied,
                "rejected": result.rejected,
                "duplicates": result.duplicates,
                "cut": result.cut,
                "reasked": result.reasked,
            },
            "finished": finished,
            "answer": result.answer,
            **(extra or {}),
        }
        write_atomic(self.state_file, json.dumps(state, ensure_ascii=False))

    def load(self) -> dict[str, Any]:
        """The saved state, after checking it belongs to these settings and inputs."""
        if not self.state_file.is_file():
            raise ResumeError(f"nothing to resume in {self.path} (no {STATE})")
        try:
            state: dict[str, Any] = json.loads(self.state_file.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ResumeError(f"{self.state_file} is unreadable: {exc}") from None
        if state.get("version") != VERSION:
            raise ResumeError(f"{self.state_file} was written by another version")
        if state["settings_hash"] != self.settings_hash:
            raise ResumeError(
                "the settings changed since the checkpoint (schema, question, "
                "model, prompt style, memory mode or budgets); cannot resume"
            )
        if state["inputs_hash"] != self.inputs_hash:
            raise ResumeError("the inputs changed since the checkpoint; cannot resume")
        return state

    def restore(self, runner: PrismRunner, schema: Schema, state: dict[str, Any]) -> None:
        """Put the saved memory, position, metrics and counts into a fresh runner."""
        memory = Memory.from_state(schema, state["memory"])
        runner.memory = memory
        runner.result.memory = memory
        runner.metrics = RunMetrics.from_state(state["metrics"])
        runner.result.metrics = runner.metrics
        position = state["position"]
        runner.position = Position(int(position["consumed"]), list(position["pending"]))
        counts = state["counts"]
        runner.result.steps = int(counts["steps"])
        runner.result.applied = int(counts["applied"])
        runner.result.rejected = int(counts["rejected"])
        runner.result.duplicates = int(counts["duplicates"])
        runner.result.cut = int(counts["cut"])
        runner.result.reasked = int(counts.get("reasked", 0))
        runner.result.answer = state.get("answer")

    def clear(self) -> None:
        self.state_file.unlink(missing_ok=True)
