"""Crash-safe runs: the state after every completed step, written atomically to a run folder.

The state holds the memory (exactly: base, amendment records, folds), the position in the
input (chunks consumed, text of a cut chunk still to read), the metrics so far, and two hashes:
one of the settings (schema, question, prompts, model, budgets) and one of the input chunks.
Resuming refuses when either changed, since the memory would then answer a different run.
Each run keeps its state in a file of its own, named by the two hashes (``state-<key>.json``),
so one run folder holds any number of runs: another run started in the same folder (another
question, another file) leaves an interrupted one to be resumed by its own command.

Writes cost what a step adds, not what the run holds (issue 44): the state is a base file
(``state-<key>.json``, written to a temporary file of the writer's own, synced and renamed over
the old one, so a crash leaves the old base or the new, never a torn one) and a journal beside
it (``state-<key>.journal``): after each step one line of what changed since the last write (a
part of the state set, or items appended to one of its lists), synced. When the journal outgrows
the base, the whole state is written as a new base (a compaction, at doubling sizes, as a
log-structured store does) and the journal starts again. Loading reads the base and applies the
journal's complete lines of the same generation in order; a torn last line (a crash while it
was written) is the step that was not saved, and so is a complete line that does not apply
whole (damaged: it and what follows are left out, never half applied). Bytes written over a run:
the journal's lines plus a geometric series of bases, at most a few times the final state. One
process writes a run's state at a time: a lock on ``state-<key>.lock`` (the second says who holds
it and stops).

A folder keeps what ``--resume`` needs and no more (issue 54): one state per command (its
settings and inputs). The same command run again without ``--resume`` starts over, and its first
save replaces the previous state (finished or not) in one rename, the old journal left behind
with the old generation; until then the previous state is there to resume. A state says what it
is a run of (``label``: its task and inputs, for ``prism-edge runs``), and is the program's own
by its name and its content (:func:`own_state`: the key in its name is the digest of the hashes
it holds), so ``runs rm`` never touches a file of the user's that merely looks like one.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import secrets
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from prism_edge.core.errors import PrismError, RevisionError, SchemaError, first_problem
from prism_edge.core.memory import Memory
from prism_edge.core.metrics import CallMetrics, RunMetrics
from prism_edge.core.schema import Schema
from prism_edge.engine.runner import Position, PrismRunner

STATE = "state.json"
"""The single state file of earlier versions, read when a run has no state of its own."""
VERSION = 1


class ResumeError(PrismError):
    hint = "run again without --resume to start over (its first step replaces the old state)"


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
    generation: int = Field(0, ge=0)
    """Which base this is: journal lines of another generation are not applied to it."""
    label: str = ""
    """What the run is, for a reader of the folder: its task and inputs (not hashed)."""


def digest(parts: Iterable[str]) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def write_atomic(path: Path, text: str) -> None:
    """``text`` as the whole of ``path``: written to a temporary file of this writer's own
    (two writers never share one), synced and renamed over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    try:
        with tmp.open("w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where folders can be opened: not on Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


Op = list[Any]
"""A journal operation: ``["set", [key, ...], value]``, ``["update", [key, ...], {key:
value}]`` (an object's changed keys at once), ``["append", [key, ...], items]`` or ``["del",
[key, ...]]``."""


class _Written:
    """What the state files hold so far, as a tree of JSON texts: an object as its keys'
    trees, a list as its items' texts, anything else as its text. What a step changed is
    where the new state encodes differently: a key set or removed, items appended to a list,
    at any depth (a list changed other than at its end is set whole)."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.tree = _tree(state)

    def changes(self, state: dict[str, Any]) -> list[Op]:
        ops: list[Op] = []
        new = _tree(state)
        _diff(self.tree, new, state, [], ops)
        self.tree = new
        return ops


def _tree(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _tree(v) for k, v in value.items()}
    if isinstance(value, list):
        return ("list", [_dump(x) for x in value])
    return _dump(value)


def _diff(old: Any, new: Any, value: Any, path: list[Any], ops: list[Op]) -> None:
    if old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict) and path:
        changed: dict[str, Any] = {}  # new or changed keys whose values are no objects
        for key, node in new.items():
            if key not in old or (not isinstance(node, dict) and old[key] != node):
                if isinstance(node, tuple) and isinstance(old.get(key), tuple):
                    _diff(old[key], node, value[key], [*path, key], ops)  # may append
                else:
                    changed[key] = value[key]
            else:
                _diff(old[key], node, value[key], [*path, key], ops)
        if changed:
            ops.append(["update", path, changed])
        ops += [["del", [*path, key]] for key in old if key not in new]
        return
    if isinstance(old, dict) and isinstance(new, dict):  # the top: never set whole
        for key, node in new.items():
            _diff(old.get(key), node, value[key], [key], ops)
        return
    if isinstance(old, tuple) and isinstance(new, tuple):
        before, after = old[1], new[1]
        if len(after) > len(before) and after[: len(before)] == before:
            ops.append(["append", path, value[len(before) :]])
            return
    ops.append(["set", path, value])


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def apply_ops(state: dict[str, Any], ops: Any) -> None:
    """Apply a journal line's operations to ``state`` (a loaded base, in place), all or none:
    a line whose operations are not all of a known shape with a target in ``state`` is a
    ``ValueError`` and changes nothing."""
    if not isinstance(ops, list):
        raise ValueError("a journal line's operations are not a list")
    targets = [_target(state, op) for op in ops]  # every one checked before any is applied
    for (target, last), (name, _path, *rest) in zip(targets, ops, strict=True):
        if name == "set":
            target[last] = rest[0]
        elif name == "update":
            target[last].update(rest[0])
        elif name == "append":
            target.setdefault(last, []).extend(rest[0])
        else:
            target.pop(last, None)


_ARITY = {"set": 3, "update": 3, "append": 3, "del": 2}


def _target(state: dict[str, Any], op: Any) -> tuple[dict[str, Any], str]:
    """The object an operation changes and the key it changes there (a ``ValueError`` for an
    operation of another shape, or whose path does not lead through objects of ``state``)."""
    if not isinstance(op, list) or not op or not isinstance(op[0], str):
        raise ValueError(f"not a journal operation: {str(op)[:80]}")
    if _ARITY.get(op[0]) != len(op):
        raise ValueError(f"not a journal operation: {str(op)[:80]}")
    name, path = op[0], op[1]
    if not isinstance(path, list) or not path or not all(isinstance(k, str) for k in path):
        raise ValueError(f"not a path of keys: {str(path)[:80]}")
    target: Any = state
    for key in path[:-1]:
        target = target.get(key) if isinstance(target, dict) else None
    if not isinstance(target, dict):
        raise ValueError(f"no object at {path[:-1]}")
    value, last = target.get(path[-1]), path[-1]
    if name == "update" and not (isinstance(value, dict) and isinstance(op[2], dict)):
        raise ValueError(f"update of no object at {path}")
    if name == "append" and not (isinstance(value, list | None) and isinstance(op[2], list)):
        raise ValueError(f"append to no list at {path}")
    return target, last


def journal_of(state_file: Path) -> Path:
    """The journal beside a state file."""
    return state_file.with_suffix(".journal")


def journaled(raw: dict[str, Any], journal: Path) -> dict[str, Any]:
    """``raw`` (a base) with ``journal``'s complete lines of its generation applied in order;
    a torn, unreadable or damaged line ends the journal (the step it was to save was not
    saved): a line applies whole or not at all."""
    try:
        data = journal.read_bytes()
    except FileNotFoundError:
        return raw
    generation = raw.get("generation", 0)
    for line in data.split(b"\n")[:-1]:  # the last piece has no newline: torn or empty
        try:
            entry = json.loads(line.decode("utf-8"))
            if not isinstance(entry, dict) or entry.get("generation") != generation:
                continue
            apply_ops(raw, entry.get("ops"))
        except (ValueError, RecursionError):
            break
    return raw


def read_state(state_file: Path) -> Any:
    """A saved state as its base and journal make it (for tools and tests; a run loads
    through :meth:`RunFolder.load`, which checks it)."""
    raw = json.loads(state_file.read_bytes().decode("utf-8"))
    return journaled(raw, journal_of(state_file)) if isinstance(raw, dict) else raw


class RunLocked(PrismError):
    hint = "wait for it to end, or give this run another --run-dir"


COMPACT_FLOOR = 4096
COMPACT_AT = 2
"""The journal is folded into a new base when it is this many times the last base: the bases
written over a run then sum to about (1 + 1/COMPACT_AT) times the final state."""
"""Journal bytes below which a state is never rewritten whole (a small run's journal)."""


@dataclass(frozen=True)
class RunFolder:
    path: Path
    settings_hash: str
    inputs_hash: str
    label: str = ""
    """What the run is (its task and inputs), kept in its state for ``prism-edge runs``."""
    _writes: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """This process's writing of the state: what is written (``_Written``), the base's
    generation and size, the journal's size, and the run's lock."""

    @property
    def key(self) -> str:
        """The run's own name among the folder's runs: its settings and inputs."""
        return digest([self.settings_hash, self.inputs_hash])[:16]

    @property
    def state_file(self) -> Path:
        return self.path / f"state-{self.key}.json"

    @property
    def journal_file(self) -> Path:
        return journal_of(self.state_file)

    @property
    def bytes_written(self) -> int:
        """Bytes this process wrote to the run's state files so far."""
        return int(self._writes.get("bytes", 0))

    def lock(self) -> None:
        """Hold the run for this process until it ends (or :meth:`unlock`): another process
        that saves or resumes the same run in this folder is refused, naming the holder."""
        if "lock" in self._writes:
            return
        import filelock

        self.path.mkdir(parents=True, exist_ok=True)
        where = self.path / f"state-{self.key}.lock"
        held = filelock.FileLock(str(where), timeout=0)
        try:
            held.acquire()
        except filelock.Timeout:
            raise RunLocked(
                f"another prism-edge process is running this run in {self.path} "
                f"({where.name} is held)"
            ) from None
        self._writes["lock"] = held

    def unlock(self) -> None:
        held = self._writes.pop("lock", None)
        if held is not None:
            held.release()

    def save(self, runner: PrismRunner, *, finished: bool = False) -> None:
        """Save the runner's state (call it on StepDone, when memory and position agree):
        one journal line of what changed, or a whole new base when the journal has outgrown
        the last one."""
        self.lock()
        state = {
            "version": VERSION,
            "settings_hash": self.settings_hash,
            "inputs_hash": self.inputs_hash,
            **runner.snapshot(),
            "finished": finished,
            "label": self.label,
        }
        writes = self._writes
        written: _Written | None = writes.get("written")
        journal = int(writes.get("journal", 0))
        if written is None or journal > max(COMPACT_FLOOR, COMPACT_AT * writes["base"]):
            self._compact(state)
            return
        ops = written.changes(state)
        if not ops:
            return
        line = json.dumps({"generation": writes["generation"], "ops": ops}, ensure_ascii=False)
        data = (line + "\n").encode("utf-8")
        with self.journal_file.open("ab") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        writes["journal"] = journal + len(data)
        writes["bytes"] = self.bytes_written + len(data)

    def _compact(self, state: dict[str, Any]) -> None:
        """The whole state as a new base of the next generation; the journal emptied."""
        generation = int(self._writes.get("generation", self._saved_generation())) + 1
        text = json.dumps({**state, "generation": generation}, ensure_ascii=False)
        write_atomic(self.state_file, text)
        size = len(text.encode("utf-8"))
        with contextlib.suppress(FileNotFoundError):
            self.journal_file.unlink()  # its lines are of the old generation anyway
        self._writes.update(
            written=_Written(state), generation=generation, base=size, journal=0,
            bytes=self.bytes_written + size,
        )  # fmt: skip

    def _saved_generation(self) -> int:
        """The generation of the base on disk (0: none), so a resumed run's next base is
        newer than any journal line left beside it."""
        try:
            raw = json.loads(self.state_file.read_bytes().decode("utf-8"))
        except (OSError, ValueError, RecursionError):
            return 0
        value = raw.get("generation", 0) if isinstance(raw, dict) else 0
        return value if isinstance(value, int) and value >= 0 else 0

    def _journaled(self, raw: dict[str, Any]) -> dict[str, Any]:
        try:
            return journaled(raw, self.journal_file)
        except OSError as exc:
            raise ResumeError(f"{self.journal_file} is unreadable: {exc.strerror}") from None

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
        if isinstance(raw, dict) and where == self.state_file:
            raw = self._journaled(raw)
        try:
            state = RunState.model_validate(raw)
        except ValidationError as exc:
            raise ResumeError(
                f"{where} is damaged ({exc.error_count()} problems; first at {first_problem(exc)})"
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
        if saved is not None:  # the method's own state, checked before anything is restored
            try:
                runner.method.state_model.model_validate(saved.state)
            except ValidationError as exc:
                raise ResumeError(
                    f"{self.state_file}: the saved state of --method {saved.name} is damaged "
                    f"(first at {first_problem(exc)})"
                ) from None
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

    def previous(self) -> RunState | None:
        """Before a new run of this command (not ``--resume``): the state its previous run
        left, or None when there is none or it cannot be read. Nothing is changed here: the
        new run's first save replaces it (:meth:`save`), so a run stopped before its first step
        leaves the previous state to ``--resume``."""
        if not self.state_file.is_file():
            return None
        with contextlib.suppress(ResumeError):
            return self.load()
        return None


STATE_NAME = re.compile(r"state-([0-9a-f]{16})(-\d{8}-\d{6}(?:-\d+)?)?\.json")
"""A run state's name: ``state-<key>.json``, the key the digest of its two hashes (earlier
versions set a state aside as ``state-<key>-<time>.json``)."""


def own_state(path: Path) -> dict[str, Any] | None:
    """The state at ``path`` with its journal applied, when the program wrote it: a regular
    file (not a link) named ``state-<key>.json`` whose content is a state whose two hashes
    digest to that key. None for anything else (a user's file that merely looks like one, a
    folder, a damaged state)."""
    found = STATE_NAME.fullmatch(path.name)
    try:
        if found is None or not stat.S_ISREG(path.lstat().st_mode):
            return None
        raw = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(raw, dict):
        return None
    hashes = raw.get("settings_hash"), raw.get("inputs_hash")
    if not all(isinstance(h, str) for h in hashes):
        return None
    if digest([str(h) for h in hashes])[:16] != found.group(1):
        return None
    return journaled(raw, journal_of(path))


def state_files(state_file: Path) -> list[Path]:
    """The files of the run whose base is ``state_file``, journal first (a journal is never
    left beside a newer base of its generation: removed before the base)."""
    return [journal_of(state_file), state_file, state_file.with_suffix(".lock")]
