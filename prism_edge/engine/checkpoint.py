"""Crash-safe runs: the state after every completed step, written atomically to a run folder.

The state holds the memory (exactly: base, amendment records, folds), the position in the
input (chunks consumed, text of a cut chunk still to read), the metrics so far, and two hashes:
one of the settings (schema, question, prompts, model, budgets) and one of the input chunks.
Resuming refuses when either changed, since the memory would then answer a different run.
Each run keeps its state in a file of its own, named by the two hashes (``state-<key>.json``),
so one run folder holds any number of runs: another run started in the same folder (another
question, another file) leaves an interrupted one to be resumed by its own command.
A write goes to a temporary file that is flushed, synced and renamed over the old state, so a
crash at any moment leaves either the previous state or the new one, never a torn file.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from prism_edge.core.errors import PrismError, RevisionError, SchemaError
from prism_edge.core.memory import Memory
from prism_edge.core.metrics import CallMetrics, RunMetrics
from prism_edge.core.schema import Schema
from prism_edge.engine.runner import Position, PrismRunner

STATE = "state.json"
"""The single state file of earlier versions, read when a run has no state of its own."""
VERSION = 1


class ResumeError(PrismError):
    hint = "run again without --resume to start over (the old state is kept beside it)"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class PositionState(_Strict):
    consumed: int = Field(ge=0)
    pending: list[str]


class MemoryState(_Strict):
    encoding: Literal["in-place", "amendments"]
    base: dict[str, Any]
    records: list[str]
    folds: int = Field(0, ge=0)


class CallState(_Strict):
    kind: str
    prompt_tokens: int = Field(ge=0)
    reused_tokens: int | None = Field(ge=0)
    decoded_tokens: int = Field(ge=0)
    seconds: float = Field(ge=0)
    prefill_seconds: float | None = Field(None, ge=0)
    forced_tokens: int = Field(0, ge=0)


class MetricsState(_Strict):
    wall_s: float = Field(ge=0)
    calls: list[CallState]


class Counts(_Strict):
    steps: int = Field(ge=0)
    applied: int = Field(ge=0)
    rejected: int = Field(ge=0)
    duplicates: int = Field(ge=0)
    cut: int = Field(ge=0)
    reasked: int = Field(0, ge=0)


class MethodState(_Strict):
    name: str
    state: dict[str, Any]


class RunState(BaseModel):
    """The whole of ``state.json``, validated before anything is restored from it."""

    model_config = ConfigDict(extra="forbid", strict=True)

    version: Literal[1]
    settings_hash: str
    inputs_hash: str
    position: PositionState
    memory: MemoryState
    metrics: MetricsState
    counts: Counts
    finished: bool
    answer: str | None
    method: MethodState | None = None
    """The method's own state beside the memory (None: a checkpoint of the paper's method
    written before methods kept any)."""
    ranking: list[Annotated[tuple[str, float], Field(strict=False)]] = Field(default_factory=list)
    """A scored method's final candidates and scores, best first."""


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
    def key(self) -> str:
        """The run's own name among the folder's runs: its settings and inputs."""
        return digest([self.settings_hash, self.inputs_hash])[:16]

    @property
    def state_file(self) -> Path:
        return self.path / f"state-{self.key}.json"

    def save(self, runner: PrismRunner, *, finished: bool = False) -> None:
        """Write the runner's state (call it on StepDone, when memory and position agree)."""
        state = {
            "version": VERSION,
            "settings_hash": self.settings_hash,
            "inputs_hash": self.inputs_hash,
            **runner.snapshot(),
            "finished": finished,
        }
        write_atomic(self.state_file, json.dumps(state, ensure_ascii=False))

    def load(self) -> RunState:
        """The saved state, after checking its shape and that it belongs to these settings and
        inputs; every way it can be wrong is a :class:`ResumeError` naming the file."""
        where = self.state_file
        if not where.is_file():
            where = self.path / STATE
            if not where.is_file():
                raise self._nothing_to_resume()
        try:
            raw = json.loads(where.read_bytes().decode("utf-8"))
        except OSError as exc:
            raise ResumeError(f"{where} is unreadable: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise ResumeError(f"{where} is not UTF-8 text (corrupted?)") from None
        except (ValueError, RecursionError) as exc:
            raise ResumeError(f"{where} is not valid JSON ({exc})") from None
        if isinstance(raw, dict) and raw.get("version") not in (None, VERSION):
            raise ResumeError(f"{where} was written by another version")
        try:
            state = RunState.model_validate(raw)
        except ValidationError as exc:
            first = exc.errors()[0]
            place = ".".join(str(p) for p in first["loc"]) or "the top level"
            raise ResumeError(
                f"{where} is damaged ({exc.error_count()} problems; first at {place}: "
                f"{first['msg']})"
            ) from None
        if state.settings_hash != self.settings_hash:
            raise ResumeError(
                "the settings changed since the checkpoint (schema, question, "
                "model, prompt style, memory mode or budgets); cannot resume"
            )
        if state.inputs_hash != self.inputs_hash:
            raise ResumeError("the inputs changed since the checkpoint; cannot resume")
        return state

    def restore(self, runner: PrismRunner, schema: Schema, state: RunState) -> None:
        """Put the saved memory, position, metrics and counts into a fresh runner."""
        try:
            memory = Memory.from_state(schema, state.memory.model_dump())
        except (PrismError, ValueError, TypeError, KeyError) as exc:
            if isinstance(exc, RevisionError | SchemaError):
                exc = ValueError(str(exc))
            raise ResumeError(
                f"{self.state_file}: the saved memory does not restore ({exc})"
            ) from None
        saved = state.method
        if saved is not None and saved.name != runner.method.name:
            raise ResumeError(
                f"{self.state_file} was written by --method {saved.name}, not "
                f"{runner.method.name}; cannot resume"
            )
        metrics = RunMetrics(
            [CallMetrics(**call.model_dump()) for call in state.metrics.calls],
            state.metrics.wall_s,
        )
        runner.restore(
            memory,
            metrics,
            Position(state.position.consumed, list(state.position.pending)),
            state.counts.model_dump(),
            state.answer,
            None if saved is None else saved.state,
            list(state.ranking),
        )

    def _nothing_to_resume(self) -> ResumeError:
        """Why there is no state to resume: the settings or the inputs of a run saved here
        changed (one of the two hashes is a saved run's), or no run like it was saved here."""
        others = sorted(self.path.glob("state-*.json"))
        for saved in others:
            try:
                raw = json.loads(saved.read_bytes().decode("utf-8"))
            except (OSError, ValueError, RecursionError):
                continue  # a damaged state of another run is not this run's concern
            if not isinstance(raw, dict):
                continue
            if raw.get("inputs_hash") == self.inputs_hash:
                return ResumeError(
                    f"the settings changed since the checkpoint {saved.name} of these inputs "
                    "(schema, question, model, prompt style, memory mode or budgets); cannot "
                    "resume"
                )
            if raw.get("settings_hash") == self.settings_hash:
                return ResumeError(
                    f"the inputs changed since the checkpoint {saved.name} of these settings; "
                    "cannot resume"
                )
        seen = f" ({len(others)} saved there are of other inputs and settings)" if others else ""
        return ResumeError(f"nothing to resume in {self.path} for these inputs and settings{seen}")

    def set_aside(self) -> Path | None:
        """Before a new run: move this run's previous state (the same command's) aside as
        ``state-<key>-<its time>.json``, never deleted; return where it went, or None when
        there was none. Other runs' states in the folder are left as they are."""
        if not self.state_file.is_file():
            return None
        when = time.localtime(self.state_file.stat().st_mtime)
        stem = f"state-{self.key}-{time.strftime('%Y%m%d-%H%M%S', when)}"
        target = self.path / f"{stem}.json"
        n = 1
        while target.exists():
            n += 1
            target = self.path / f"{stem}-{n}.json"
        os.replace(self.state_file, target)
        return target
