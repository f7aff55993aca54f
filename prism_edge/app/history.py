"""Run history: every run, answered or failed, kept in SQLite in the user's data folder.

Each entry holds what is needed to read the run again and to ask its memory a new question
without reading the input again (``prism-edge ask``): the inputs with their SHA-256, the task,
question, schema (as JSON Schema), model, settings, answer, memory (its data and its replayable
state), metrics with every call, timings, and the error of a failed run. ``PRISM_EDGE_LOGS``
moves the database; ``--no-log`` keeps a run out of it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import re
import sqlite3
import stat
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, TypeAdapter
from rich.console import Console

from prism_edge.core.errors import PrismError
from prism_edge.core.paths import user_path
from prism_edge.core.schema import json_schema

if TYPE_CHECKING:
    from prism_edge.backends import Backend
    from prism_edge.core.config import PrismConfig
    from prism_edge.methods import Choice
    from prism_edge.methods.presets import Task
    from prism_edge.text.inputs import Collected, Document

LOGS_ENV = "PRISM_EDGE_LOGS"
"""A path to the SQLite file that holds the history (instead of the user data folder's)."""
VERSION = 1

_COLUMNS = (
    "started",
    "ended",
    "status",
    "command",
    "parent",
    "task",
    "method",
    "question",
    "model",
    "inputs",
    "schema",
    "settings",
    "answer",
    "memory",
    "memory_state",
    "metrics",
    "calls",
    "error",
)
_SEARCHED = ("question", "answer", "inputs", "model", "error")
"""What ``logs --search`` looks in."""
FTS = "runs_fts"
"""The full-text index of :data:`_SEARCHED` (SQLite FTS5; the inputs by their names), kept
beside ``runs`` where the sqlite3 module has FTS5; a search falls back to LIKE where it has
not, or where the index lags the runs (a writer without FTS5 added some)."""
_JSON = {"inputs", "schema", "settings", "memory", "memory_state", "metrics", "calls"}
_LOCK = threading.Lock()
LOCK_WAIT_S = 5.0
"""Seconds to wait for another process's lock on the history before saying so."""


class HistoryError(PrismError):
    hint = "prism-edge logs lists the recorded runs"


def default_path() -> Path:
    return user_path(LOGS_ENV, "data", "logs.db")


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def describe_inputs(documents: Sequence[Any]) -> list[dict[str, Any]]:
    """Each input document's name, size and SHA-256 (of its text as read)."""
    out = []
    for d in documents:
        chars, h = 0, hashlib.sha256()
        for block in d.blocks():  # a streamed table is read block by block, never whole
            chars += len(block)
            h.update(block.encode("utf-8", "surrogatepass"))
        out.append({"name": d.name, "kind": d.kind, "chars": chars, "sha256": h.hexdigest()})
    return out


@dataclass
class Entry:
    """One recorded run (or ``ask``)."""

    command: str
    """``run`` or ``ask``."""
    task: str
    question: str
    model: str
    started: str = field(default_factory=now)
    ended: str | None = None
    status: str = "running"
    """``done``, ``failed`` or ``interrupted``."""
    parent: int | None = None
    """For ``ask``: the run whose memory answered."""
    method: str = "revisions"
    """The method that built the memory (``prism_edge.methods``: revisions, names, definitions)."""
    inputs: list[dict[str, Any]] = field(default_factory=list)
    schema: dict[str, Any] = field(default_factory=dict)
    """The memory schema as JSON Schema (``schema.json_schema``)."""
    settings: dict[str, Any] = field(default_factory=dict)
    """The run's config (``PrismConfig``) and its chunk and context sizes."""
    answer: str | None = None
    memory: dict[str, Any] = field(default_factory=dict)
    memory_state: dict[str, Any] = field(default_factory=dict)
    """``Memory.state()``: replays to the same memory, encoding included."""
    metrics: dict[str, Any] = field(default_factory=dict)
    calls: list[dict[str, Any]] = field(default_factory=list)
    """Every model call: kind, prompt, reused, net and decoded tokens, seconds."""
    error: str | None = None
    id: int | None = None

    def finish(self, result: Any | None, status: str = "done", error: str | None = None) -> None:
        """Fill in what a run ended with (``result``: a RunResult, or None when it had none)."""
        self.ended = now()
        self.status = status
        self.error = error
        if result is None:
            return
        self.answer = result.answer
        self.memory = result.memory.data
        self.memory_state = result.memory.state()
        self.metrics = result.metrics.to_dict()
        self.calls = [
            {
                "kind": c.kind,
                "prompt": c.prompt_tokens,
                "reused": c.reused_tokens,
                "net": c.net_tokens,
                "decoded": c.decoded_tokens,
                "seconds": round(c.seconds, 4),
            }
            for c in result.metrics.calls
        ]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class History:
    """The run history in one SQLite file (created on first use)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()

    @contextmanager
    def _connect(self, write: bool) -> Iterator[sqlite3.Connection | None]:
        """A connection for reading (read-only: a read never changes the file; None when there
        is no history yet) or for writing (the file and its table created on first use)."""
        doing = "written" if write else "read"
        with contextlib.suppress(OSError):  # a FIFO or a device would hang SQLite's open
            if self.path.exists() and not stat.S_ISREG(self.path.stat().st_mode):
                raise HistoryError(f"the run history {self.path} is not a regular file")
        if not write and not self.path.exists():
            folder = next((f for f in self.path.parents if f.exists()), None)
            if folder is not None and not folder.is_dir():
                raise HistoryError(
                    f"the run history {self.path} cannot be read: {folder} is a file"
                )
            yield None
            return
        try:
            if write:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                connection = sqlite3.connect(self.path, timeout=LOCK_WAIT_S)
            else:
                uri = f"{self.path.resolve().as_uri()}?mode=ro"
                connection = sqlite3.connect(uri, uri=True, timeout=LOCK_WAIT_S)
            connection.text_factory = _text  # one undecodable value does not fail a listing
        except (OSError, sqlite3.Error) as exc:
            raise HistoryError(f"the run history {self.path} cannot be {doing}: {exc}") from None
        with closing(connection):
            try:
                with connection:
                    yield connection if self._checked(connection, write) else None
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) or "busy" in str(exc):
                    raise HistoryError(
                        f"the run history {self.path} is locked by another process "
                        f"(waited {LOCK_WAIT_S:.0f} s)"
                    ) from None
                raise HistoryError(
                    f"the run history {self.path} cannot be {doing}: {exc}"
                ) from None
            except sqlite3.DatabaseError as exc:
                raise HistoryError(
                    f"the run history {self.path} cannot be {doing}: {exc}"
                ) from None

    def _checked(self, connection: sqlite3.Connection, write: bool) -> bool:
        """Whether the file holds a run history (made one, when writing an empty file); a
        foreign database or a newer format is a :class:`HistoryError`, never changed."""
        (version,) = connection.execute("PRAGMA user_version").fetchone()
        if version > VERSION:
            raise HistoryError(
                f"the run history was written by a newer prism-edge (format {version})"
            )
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
        ours = "runs" in tables and version == VERSION
        if ours:
            return True
        if tables - {"sqlite_sequence"}:
            raise HistoryError(
                f"{self.path} is a database, but not a prism-edge run history; "
                f"{LOGS_ENV} may point elsewhere"
            )
        if not write:
            return False  # an empty file: no runs yet, and it stays as it is
        columns = ", ".join(f"{name} TEXT" for name in _COLUMNS)
        connection.execute(
            f"CREATE TABLE IF NOT EXISTS runs (id INTEGER PRIMARY KEY AUTOINCREMENT, {columns})"
        )
        connection.execute(f"PRAGMA user_version = {VERSION}")
        return True

    def _indexed(self, connection: sqlite3.Connection) -> bool:
        """Bring the full-text index up to date when it lags the runs (made on first use, and
        after runs a writer without FTS5 added); whether there is one to keep."""
        if not fts5_available():
            return False
        try:
            connection.execute(
                f"CREATE VIRTUAL TABLE IF NOT EXISTS {FTS} USING fts5({', '.join(_SEARCHED)})"
            )
            if not _fts_current(connection):
                connection.execute(f"DELETE FROM {FTS}")
                for row in connection.execute(f"SELECT id, {', '.join(_SEARCHED)} FROM runs"):
                    _index_row(connection, row[0], dict(zip(_SEARCHED, row[1:], strict=True)))
        except sqlite3.OperationalError:  # FTS5 refused here after all: LIKE it is
            return False
        return True

    def record(self, entry: Entry) -> int:
        """Store ``entry`` (insert, or update when it has an id); returns its id."""
        values = [_encode(name, getattr(entry, name)) for name in _COLUMNS]
        with _LOCK, self._connect(write=True) as connection:
            assert connection is not None
            indexed = self._indexed(connection)
            if entry.id is None:
                marks = ", ".join("?" for _ in _COLUMNS)
                cursor = connection.execute(
                    f"INSERT INTO runs ({', '.join(_COLUMNS)}) VALUES ({marks})", values
                )
                entry.id = int(cursor.lastrowid or 0)
            else:
                sets = ", ".join(f"{name} = ?" for name in _COLUMNS)
                connection.execute(f"UPDATE runs SET {sets} WHERE id = ?", [*values, entry.id])
            if indexed:
                connection.execute(f"DELETE FROM {FTS} WHERE rowid = ?", (entry.id,))
                _index_row(connection, entry.id, dict(zip(_COLUMNS, values, strict=True)))
        return entry.id

    def latest_run(self) -> int:
        """The id of the latest ``run`` in the history (``ask last``)."""
        with self._connect(write=False) as connection:
            row = (
                None
                if connection is None
                else connection.execute("SELECT max(id) FROM runs WHERE command = 'run'").fetchone()
            )
        if row is None or row[0] is None:
            raise HistoryError(f"no run in the history yet ({self.path})")
        return int(row[0])

    def resolve(self, ref: int) -> int:
        """A run reference as the command line takes it: an id, or 0 for the latest run."""
        return self.latest_run() if ref == 0 else ref

    def recent(self, limit: int = 20, search: str | None = None) -> list[Entry]:
        """The latest ``limit`` entries, newest first; with ``search``, those whose question,
        answer, inputs, model or error hold all its words (SQLite's full-text search: whole
        words in any case, ``word*`` a prefix; where FTS5 is missing, the text as it is,
        anywhere, any case of ASCII letters)."""
        limit = min(limit, 2**63 - 1)
        columns = f"SELECT id, {', '.join(_COLUMNS)} FROM runs"
        values: list[object]
        with self._connect(write=False) as connection:
            if connection is None:
                return []
            if not search:
                query, values = f"{columns} ORDER BY id DESC LIMIT ?", [limit]
            elif _fts_usable(connection):
                query = f"{columns} WHERE id IN (SELECT rowid FROM {FTS} WHERE {FTS} MATCH ?) "
                query += "ORDER BY id DESC LIMIT ?"
                values = [fts_query(search), limit]
            else:
                pattern = "%" + re.sub(r"([\\%_])", r"\\\1", search) + "%"
                where = " OR ".join(f"{c} LIKE ? ESCAPE '\\'" for c in _SEARCHED)
                query = f"{columns} WHERE {where} ORDER BY id DESC LIMIT ?"
                values = [*([pattern] * len(_SEARCHED)), limit]
            rows = connection.execute(query, values).fetchall()
        return [_entry(row) for row in rows]

    def remove(self, run_ids: Sequence[int]) -> None:
        """Delete these runs, all or none: an id not in the history is a :class:`HistoryError`
        naming it, and nothing is deleted."""
        wanted = sorted(set(run_ids))
        with _LOCK, self._connect(write=bool(wanted) and self.path.exists()) as connection:
            marks = ", ".join("?" for _ in wanted)
            found = set()
            if connection is not None and wanted:
                rows = connection.execute(f"SELECT id FROM runs WHERE id IN ({marks})", wanted)
                found = {row[0] for row in rows}
            missing = [i for i in wanted if i not in found]
            if missing:
                raise HistoryError(
                    f"no run {', '.join(map(str, missing))} in the history ({self.path}); "
                    "nothing removed"
                )
            if connection is not None and wanted:
                connection.execute(f"DELETE FROM runs WHERE id IN ({marks})", wanted)
                if _fts_usable(connection, current=False):
                    connection.execute(f"DELETE FROM {FTS} WHERE rowid IN ({marks})", wanted)

    def get(self, run_id: int) -> Entry:
        with self._connect(write=False) as connection:
            row = (
                None
                if connection is None
                else connection.execute(
                    f"SELECT id, {', '.join(_COLUMNS)} FROM runs WHERE id = ?", (run_id,)
                ).fetchone()
            )
        if row is None:
            raise HistoryError(f"no run {run_id} in the history ({self.path})")
        return _entry(row)


def fts5_available() -> bool:
    """Whether this Python's SQLite has FTS5 (most builds; some trimmed ones do not)."""
    global _FTS5
    if _FTS5 is None:
        with closing(sqlite3.connect(":memory:")) as probe:
            try:
                probe.execute("CREATE VIRTUAL TABLE probe USING fts5(text)")
                _FTS5 = True
            except sqlite3.OperationalError:
                _FTS5 = False
    return _FTS5


_FTS5: bool | None = None


def _fts_current(connection: sqlite3.Connection) -> bool:
    """Whether the full-text index holds every run and no other."""
    (runs,) = connection.execute("SELECT count(*) FROM runs").fetchone()
    (indexed,) = connection.execute(f"SELECT count(*) FROM {FTS}").fetchone()
    if runs != indexed:
        return False
    (missing,) = connection.execute(
        f"SELECT count(*) FROM runs WHERE id NOT IN (SELECT rowid FROM {FTS})"
    ).fetchone()
    return int(missing) == 0


def _fts_usable(connection: sqlite3.Connection, current: bool = True) -> bool:
    """Whether a search can use the full-text index: there is one, this SQLite reads it, and
    (``current``) it holds every run."""
    if not fts5_available():
        return False
    found = connection.execute(
        "SELECT 1 FROM sqlite_master WHERE name = ? AND type = 'table'", (FTS,)
    ).fetchone()
    if found is None:
        return False
    try:
        return not current or _fts_current(connection)
    except sqlite3.OperationalError:
        return False


def _index_row(connection: sqlite3.Connection, run_id: int, values: dict[str, Any]) -> None:
    """One run's searched text into the full-text index (its inputs by their names)."""
    texts = [_searched_text(name, values.get(name)) for name in _SEARCHED]
    marks = ", ".join("?" for _ in _SEARCHED)
    connection.execute(
        f"INSERT INTO {FTS} (rowid, {', '.join(_SEARCHED)}) VALUES (?, {marks})",
        [run_id, *texts],
    )


def _searched_text(name: str, value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bytes):
        value = _text(value)
    if name == "inputs":
        try:
            inputs = json.loads(value) if isinstance(value, str) else value
            return " ".join(str(i.get("name", "")) for i in inputs if isinstance(i, dict))
        except (ValueError, TypeError, AttributeError, RecursionError):
            return str(value)
    return str(value)


_FTS_WORD = re.compile(r'[^\s"]+')


def fts_query(search: str) -> str:
    """``search`` as an FTS5 query that cannot be a syntax error: each word a quoted phrase
    (a ``*`` after it: a prefix), all of them required."""
    words = []
    for word in _FTS_WORD.findall(search):
        prefix = word.endswith("*") and len(word.rstrip("*")) > 0
        bare = word.rstrip("*") if prefix else word
        words.append('"' + bare.replace('"', '""') + '"' + ("*" if prefix else ""))
    return " ".join(words) or '""'


def _encode(name: str, value: Any) -> Any:
    if name in _JSON:
        text = json.dumps(value, ensure_ascii=False)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a path in bytes that are not UTF-8: kept, escaped
            return json.dumps(value)
        return text
    if name == "parent":
        return None if value is None else str(value)
    return value


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


_LISTS = {"inputs", "calls"}


class _Input(BaseModel):
    """One input of a recorded run, as ``logs`` and the report read it."""

    model_config = ConfigDict(extra="allow")
    name: str
    sha256: str = ""
    chars: int | None = None


class _Call(BaseModel):
    model_config = ConfigDict(extra="allow")
    kind: str
    prompt: int | None = 0
    reused: int | None = 0
    """None where a server does not say what it reused."""
    net: int | None = 0
    decoded: int | None = 0
    seconds: float | None = 0.0


class _Settings(BaseModel):
    model_config = ConfigDict(extra="allow")
    config: dict[str, Any] = {}
    n_ctx: int | None = None
    chunk_tokens: int | None = None
    model: str | None = None
    server: str | None = None
    server_model: str | None = None


_SHAPES: dict[str, Any] = {
    "inputs": TypeAdapter(list[_Input]),
    "calls": TypeAdapter(list[_Call]),
    "settings": TypeAdapter(_Settings),
    "schema": TypeAdapter(dict[str, Any]),
    "memory": TypeAdapter(dict[str, Any]),
    "memory_state": TypeAdapter(dict[str, Any]),
    "metrics": TypeAdapter(dict[str, int | float | str | bool | list[Any] | dict[str, Any] | None]),
}
"""What each JSON column of a row must be: checked once, where a row is read."""
_TEXT = ("started", "status", "command", "task", "method", "question", "model")
MAX_DEPTH = 64
"""Containers nested in a column's value at most (a memory is a few levels deep): a row nested
deeper was not written by a run, and would fail every reader that recurses."""


def _deeper(value: Any, limit: int) -> bool:
    """Whether ``value`` nests containers deeper than ``limit`` (walked without recursion)."""
    stack = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            if depth >= limit:
                return True
            children = node.values() if isinstance(node, dict) else node
            stack.extend((child, depth + 1) for child in children)
    return False


def _entry(row: Sequence[Any]) -> Entry:
    """An entry from its row, checked against the shape of each column: a row that another
    program or a crash left in another shape reads as a damaged entry (its id, its time when
    readable, ``status`` "damaged" and what is wrong as its error), never as an error for the
    whole listing and never as a value a reader trips on."""
    values: dict[str, Any] = {"id": int(row[0])}
    wrong: list[str] = []
    for name, raw in zip(_COLUMNS, row[1:], strict=True):
        if name in _SHAPES:
            if raw is None or raw == "":
                values[name] = _SHAPES[name].validate_python([] if name in _LISTS else {})
                continue
            try:
                value = json.loads(raw) if isinstance(raw, str) else raw
                if _deeper(value, MAX_DEPTH):
                    raise ValueError(f"nested deeper than {MAX_DEPTH}")
                values[name] = _SHAPES[name].validate_python(value)
            except (ValueError, RecursionError):  # ValidationError is a ValueError
                wrong.append(name)
        elif name == "parent":
            ok = raw is None or (isinstance(raw, int | str) and str(raw).isdigit())
            values[name] = int(raw) if ok and raw is not None else None
            if not ok:
                wrong.append(name)
        elif raw is None or isinstance(raw, str):
            values[name] = raw or ("" if name in _TEXT else None)
        else:
            values[name] = str(raw) if name not in _TEXT else ""
            wrong.append(name)
    if wrong:
        return Entry(
            command="damaged",
            task="",
            question="",
            model="",
            started=values.get("started") or "",
            status="damaged",
            error="damaged row: " + ", ".join(wrong) + " unreadable",
            id=values["id"],
        )
    # checked, then kept as written (a row reads back as it was recorded)
    values["inputs"] = [i.model_dump(exclude_unset=True) for i in values["inputs"]]
    values["calls"] = [c.model_dump(exclude_unset=True) for c in values["calls"]]
    values["settings"] = values["settings"].model_dump(exclude_unset=True)
    for name in ("ended", "error", "answer"):  # optional in an entry: None when not set
        values[name] = values[name] or None
    return Entry(**values)


class RunLog:
    """Records a command in the run history when it ends: answered, failed (with the memory it
    had) or interrupted. A history that cannot be written costs a warning, never the run."""

    def __init__(self, history: History | None, entry: Entry, console: Console) -> None:
        self.history = history
        self.entry = entry
        self.console = console

    @classmethod
    def of_run(
        cls,
        no_log: bool,
        task: Task,
        config: PrismConfig,
        backend: Backend,
        choice: Choice,
        collected: Collected,
        console: Console,
    ) -> RunLog:
        """The log of a ``run`` (its settings completed by the caller); with ``no_log``,
        kept nowhere, so its inputs are not read again to describe them."""
        entry = Entry(
            "run",
            task.name,
            config.question,
            backend.name,
            method=choice.name,
            inputs=[] if no_log else describe_inputs(collected.documents),
            schema=json_schema(task.schema),
            settings={"config": config.model_dump(), "n_ctx": backend.n_ctx},
        )
        return cls(None if no_log else History(), entry, console)

    def save(self, entry: Entry) -> None:
        if self.history is None:
            return
        try:
            self.history.record(entry)
        except HistoryError as exc:
            self.console.print(f"warning: not logged: {exc}", markup=False)

    @contextlib.contextmanager
    def recording(self, partial: Callable[[], Any]) -> Iterator[Callable[[Any], None]]:
        """Yields ``done(result)``; an exception records ``partial()`` as failed or
        interrupted and goes on up."""
        finished: list[Any] = []
        try:
            yield finished.append
        except KeyboardInterrupt:
            self.entry.finish(partial(), "interrupted", "interrupted by the user")
            self.save(self.entry)
            raise
        except Exception as exc:
            self.entry.finish(partial(), "failed", str(exc) or type(exc).__name__)
            self.save(self.entry)
            raise
        self.entry.finish(finished[-1] if finished else partial())
        self.save(self.entry)

    def for_question(self, question: str) -> RunLog:
        """The log of a further question of this run (``--queries``): a run of its own, with
        this one's inputs and settings."""
        settings = dict(self.entry.settings)
        if isinstance(settings.get("config"), dict):
            settings["config"] = {**settings["config"], "question": question}
        entry = dataclasses.replace(
            self.entry, question=question, settings=settings, id=None, started=now(),
            ended=None, status="running", error=None, answer=None, calls=[], metrics={},
        )  # fmt: skip
        return RunLog(self.history, entry, self.console)

    def each_document(self, document: Document, result: Any, error: str | None) -> None:
        """``--parallel``: every document its own entry."""
        entry = dataclasses.replace(
            self.entry, inputs=describe_inputs([document]), id=None, started=self.entry.started
        )
        entry.finish(result, "failed" if error else "done", error)
        self.save(entry)
