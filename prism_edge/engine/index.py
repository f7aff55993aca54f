"""A repository's definitions, read once at the parser's speed and re-read only where it changed.

Code search by definitions never puts a chunk in a prompt: its reading is parsing (``ast``,
tree-sitter), so the run reads each file whole, never token-counted or cut. What it keeps is an
index of definitions (name, file, line, description from its own lines, head of its source),
kept per file under the file's content digest and the parser's version
(:data:`PARSER_VERSION`), in the user's cache folder (``PRISM_EDGE_CACHE`` moves it): a later
run over the same inputs, or ``prism-edge ask``, parses only the files whose digest changed,
the new ones, and forgets the removed ones, and says so (:class:`Change`).

The store is one append-only file of JSON lines per set of inputs (``index-<key>.jsonl``, the
key a digest of the inputs' absolute paths): a line per file parsed (its path, digest, parser
version and definitions), a line per file removed. Loading keeps the last line of each path; a
torn last line (a crash or Ctrl-C while it was written) is dropped, and cut off before the next
append. So the index is also the run's checkpoint: an interrupted reading continues with the
files it had not parsed. Bytes written over a fresh reading: the index once; the file is
rewritten whole (atomically) only when stale lines make it more than :data:`COMPACT_AT` times
the live ones. One process updates an index at a time (``index-<key>.lock``); it syncs once,
when the reading ends, not per file.

The store is the program's own and says so (issue 54): its first line names it an index of
prism-edge and lists the inputs whose digest is its key (:func:`own_index`: what ``prism-edge
runs`` lists and removes, labelled by those inputs), and every line ends with a checksum of
itself, so a line damaged into other valid JSON is a damaged line (its file parsed again), never
an entry served on every later run. A file at the store's name that is not such a store is left
as it is; so is the index when its folder cannot be written (read-only, full, a file where the
folder should be): the reading goes on in memory, parsing what it cannot find, and says why
(:attr:`Change.not_kept`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import secrets
import stat
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prism_edge.core.errors import PrismError
from prism_edge.core.events import FileIndexed
from prism_edge.core.paths import user_path
from prism_edge.text.code import Definition, Located, file_definitions, is_code
from prism_edge.text.inputs import Document

PARSER_VERSION = "2"
"""The reading of definitions (``text/code.py``, ``text/syntax.py``): a change that reads a
file differently bumps it, and every file is parsed again."""
CACHE_ENV = "PRISM_EDGE_CACHE"
COMPACT_AT = 2
"""The store is rewritten with its live lines only when it is this many times their size."""
COMPACT_FLOOR = 65536
"""Bytes below which a store is never rewritten."""
FLUSH_EVERY_S = 2.0
"""Parsed files are handed to the operating system at least this often (an interrupted
reading keeps them), but synced only when the reading ends."""
LOCK_WAIT_S = 30.0
FORMAT = 2
"""The store's own format: a header line, then sealed lines (format 1: no header, no seals)."""


class CodeIndexError(PrismError):
    hint = "prism-edge runs lists the indexes, runs rm KEY removes one; the next run reads again"


def cache_folder() -> Path:
    """Where indexes are kept: ``PRISM_EDGE_CACHE``, else the user's cache folder's ``index``."""
    return user_path(CACHE_ENV, "cache", "index")


def index_key(inputs: Sequence[str]) -> str:
    """The store of a run over ``inputs`` (files and folders, as given): their absolute paths."""
    where = sorted({str(Path(i).expanduser().resolve()) for i in inputs})
    return hashlib.sha256("\0".join(where).encode("utf-8", "surrogatepass")).hexdigest()[:16]


@dataclass
class Change:
    """What a reading found against the stored index."""

    files: int = 0
    unchanged: int = 0
    changed: int = 0
    new: int = 0
    removed: int = 0
    skipped: int = 0
    """Inputs that are not code a parser reads (prose, tables, unknown languages)."""
    definitions: int = 0
    parse_s: float = 0.0
    not_kept: str = ""
    """Why the index is not kept on disk this time (a read-only or full folder, a file of
    someone else's at its name): it was read in memory. Empty when it is kept."""

    def line(self) -> str:
        """``601 files: 598 unchanged, 2 changed, 1 new, 20,000 definitions``."""
        parts = [f"{n:,} {what}" for what, n in self._counts() if n]
        head = _counted(self.files, "code file") + (": " + ", ".join(parts) if parts else "")
        tail = f", {_counted(self.definitions, 'definition')}"
        if self.skipped:
            tail += f", {_counted(self.skipped, 'file')} not code (skipped)"
        return head + tail

    def _counts(self) -> list[tuple[str, int]]:
        return [
            ("unchanged", self.unchanged),
            ("changed", self.changed),
            ("new", self.new),
            ("removed", self.removed),
        ]


def _counted(n: int, what: str) -> str:
    return f"{n:,} {what}" + ("" if n == 1 else "s")


@dataclass
class _Entry:
    digest: str
    parser: str
    definitions: list[Definition]


def _encode(path: str, digest: str, found: list[Definition]) -> bytes:
    rows = [
        [d.name, d.kind, d.line, d.purpose, d.inputs, d.output, d.procedure, d.source]
        for d in found
    ]
    return _sealed({"p": path, "d": digest, "v": PARSER_VERSION, "defs": rows})


def _sealed(line: dict[str, Any]) -> bytes:
    """``line`` as one line of the store, its checksum last: ``{...,"c":"<16 hex>"}``."""
    body = json.dumps(line, ensure_ascii=False, separators=(",", ":"))
    data = body.encode("utf-8", "surrogatepass")
    check = hashlib.sha256(data).hexdigest()[:16]
    return data[:-1] + b',"c":"' + check.encode() + b'"}\n'


_SEAL = re.compile(rb',"c":"([0-9a-f]{16})"}\n\Z')


def _opened(raw: bytes) -> Any:
    """A sealed line's content, or None when its checksum does not match (damaged)."""
    seal = _SEAL.search(raw)
    if seal is None:
        return None
    data = raw[: seal.start()] + b"}"
    if hashlib.sha256(data).hexdigest()[:16] != seal.group(1).decode():
        return None
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return None


def _header(inputs: Sequence[str]) -> bytes:
    return _sealed({"prism-edge": "index", "format": FORMAT, "inputs": list(inputs)})


def _header_inputs(raw: bytes) -> list[str] | None:
    """The inputs a store's first line names, when it is a store's header."""
    line = _opened(raw)
    if not isinstance(line, dict) or line.get("prism-edge") != "index":
        return None
    inputs = line.get("inputs")
    return [str(i) for i in inputs] if isinstance(inputs, list) else None


def _format_1(raw: bytes) -> bool:
    """Whether a line is an entry of the first format (no header, no seals)."""
    try:
        line = json.loads(raw)
    except (ValueError, RecursionError):
        return False
    return (
        isinstance(line, dict)
        and set(line) == {"p", "d", "v", "defs"}
        and isinstance(line["p"], str)
        and Path(line["p"]).is_absolute()
        and isinstance(line["d"], str)
        and re.fullmatch(r"[0-9a-f]{64}", line["d"]) is not None
    )


def own_index(path: Path) -> list[str] | None:
    """The inputs of the index at ``path`` when the program wrote it: a regular file named
    ``index-<key>.jsonl`` whose header names inputs of that key (or an index of the first
    format, whose inputs are not known: []). None for anything else."""
    found = re.fullmatch(r"index-([0-9a-f]{16})\.jsonl", path.name)
    try:
        if found is None or not stat.S_ISREG(path.lstat().st_mode):
            return None
        with path.open("rb") as lines:
            first = lines.readline(1 << 20)
    except OSError:
        return None
    inputs = _header_inputs(first)
    if inputs is not None:
        return inputs if index_key(inputs) == found.group(1) else None
    return [] if _format_1(first) else None


def _decode(row: Any) -> Definition:
    name, kind, line, purpose, inputs, output, procedure, source = row
    return Definition(
        str(name), str(kind), str(source), str(purpose), str(inputs), str(output),
        str(procedure), int(line),
    )  # fmt: skip


def text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class CodeIndex:
    """The index of one set of inputs in ``folder`` (:func:`cache_folder`)."""

    folder: Path
    key: str
    inputs: Sequence[str] = ()
    """The inputs whose index this is (absolute), named in the store's header."""
    entries: dict[str, _Entry] = field(default_factory=dict)
    """Each file's entry by its absolute path (after :meth:`update`)."""
    order: list[tuple[str, str]] = field(default_factory=list)
    """(absolute path, name as the run gives it) of the inputs read, in reading order."""
    change: Change = field(default_factory=Change)
    written: int = 0
    """Bytes this process wrote to the store."""

    @property
    def path(self) -> Path:
        return self.folder / f"index-{self.key}.jsonl"

    def _load(self) -> tuple[int, int | None]:
        """The stored entries; (bytes of live lines, bytes of the file up to its last complete
        line: None when the file is not a store of the program's, to be left as it is)."""
        self.entries = {}
        live: dict[str, int] = {}
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return 0, 0
        lines = data.splitlines(keepends=True)
        if lines and lines[0].endswith(b"\n") and _header_inputs(lines[0]) is None:
            # a store of the first format is read again from the start; another file is not ours
            return 0, (0 if _format_1(lines[0]) else None)
        good = 0
        for number, raw in enumerate(lines):
            if not raw.endswith(b"\n"):
                break  # a torn last line: the file that was being written when it stopped
            good += len(raw)
            line: Any = _opened(raw) if number else None
            try:
                path = str(line["p"])
                if line.get("gone"):
                    self.entries.pop(path, None)
                    live.pop(path, None)
                    continue
                found = [_decode(row) for row in line["defs"]]
                self.entries[path] = _Entry(str(line["d"]), str(line["v"]), found)
                live[path] = len(raw)
            except (ValueError, KeyError, TypeError, AttributeError):
                continue  # the header, or a damaged line: that file is parsed again
        return sum(live.values()), good

    def update(self, documents: Sequence[Document]) -> Iterator[FileIndexed]:
        """Read ``documents`` into the index: each code file parsed unless its digest and the
        parser's version match the stored entry; stored files no longer among them forgotten.
        One event per code file; :attr:`change` says what was found. Where the store cannot be
        kept, the reading goes on in memory (:attr:`Change.not_kept` says why)."""
        import filelock

        self.change = Change()
        lock: filelock.BaseFileLock | None = None
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            where = str(self.folder / f"index-{self.key}.lock")
            lock = filelock.FileLock(where, timeout=LOCK_WAIT_S)
            lock.acquire()
        except filelock.Timeout:
            raise CodeIndexError(
                f"another prism-edge process has been reading into {self.path} for "
                f"{LOCK_WAIT_S:.0f} s"
            ) from None
        except OSError as exc:
            lock = None
            self._not_kept(exc)
        try:
            yield from self._update(documents, lock is not None)
        finally:
            if lock is not None:
                lock.release()

    def _not_kept(self, problem: OSError | str) -> None:
        """Go on in memory from here, saying why the store is not kept."""
        if isinstance(problem, OSError):
            problem = f"{problem.strerror or problem}"
        if not self.change.not_kept:
            self.change.not_kept = (
                f"the index is not kept in {self.folder} ({problem}): read in memory this time"
            )

    def _update(self, documents: Sequence[Document], writable: bool) -> Iterator[FileIndexed]:
        try:
            live_bytes, good = self._load()
        except OSError as exc:
            live_bytes, good = 0, None
            self._not_kept(exc)
        if good is None and not self.change.not_kept:
            self._not_kept(f"{self.path.name} there is not an index of prism-edge's: left as it is")
        code = [d for d in documents if is_code(d.name)]
        change = self.change
        change.files, change.skipped = len(code), len(documents) - len(code)
        self.order = [(_absolute(d), d.name) for d in code]
        store = None
        if writable and good is not None:
            try:
                store = _Store(self, good)
            except OSError as exc:
                self._not_kept(exc)
        try:
            said = time.monotonic()
            for done, (document, (where, name)) in enumerate(zip(code, self.order, strict=True), 1):
                text = document.text
                digest = text_digest(text)
                stored = self.entries.get(where)
                if stored and stored.digest == digest and stored.parser == PARSER_VERSION:
                    change.unchanged += 1
                    change.definitions += len(stored.definitions)
                    yield FileIndexed(done, len(code), name, len(stored.definitions), False)
                    continue
                start = time.perf_counter()
                found = file_definitions(name, text)
                change.parse_s += time.perf_counter() - start
                line = _encode(where, digest, found)
                if store is not None:
                    store = store.write(line)
                live_bytes += len(line) - (0 if stored is None else _size(stored, where))
                self.entries[where] = _Entry(digest, PARSER_VERSION, found)
                change.definitions += len(found)
                if stored is None:
                    change.new += 1
                else:
                    change.changed += 1
                if store is not None and time.monotonic() - said > FLUSH_EVERY_S:
                    store = store.flush()
                    said = time.monotonic()
                yield FileIndexed(done, len(code), name, len(found), True)
            keep = {where for where, _ in self.order}
            for where in [p for p in self.entries if p not in keep]:
                if store is not None:
                    store = store.write(_sealed({"p": where, "gone": True}))
                live_bytes -= _size(self.entries.pop(where), where)
                change.removed += 1
            size = None if store is None else store.sync()
        finally:
            if store is not None:
                store.close()
        if size is not None and size > COMPACT_AT * max(live_bytes, 1) and size > COMPACT_FLOOR:
            self._compact()

    def _compact(self) -> None:
        """Rewrite the store with its live lines only (a new file renamed over the old; the
        old kept when the new cannot be written)."""
        temporary = self.path.with_name(f"{self.path.name}.{secrets.token_hex(4)}.tmp")
        try:
            with temporary.open("wb") as out:
                header = _header(self.inputs)
                out.write(header)
                self.written += len(header)
                for where, entry in self.entries.items():
                    line = _encode(where, entry.digest, entry.definitions)
                    out.write(line)
                    self.written += len(line)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, self.path)
        except OSError as exc:
            self._not_kept(exc)
        finally:
            temporary.unlink(missing_ok=True)

    def located(self) -> list[Located]:
        """Every definition of the inputs read, in reading order, named as the run names
        its files."""
        out: list[Located] = []
        for where, name in self.order:
            entry = self.entries.get(where)
            if entry is not None:
                out += [Located(name, d) for d in entry.definitions]
        return out


class _Store:
    """The store open for appending; on the first write it cannot make (a full disk, a folder
    gone read-only) it is closed, the index goes on in memory and says why."""

    def __init__(self, index: CodeIndex, good: int) -> None:
        self.index = index
        self.out = index.path.open("ab")
        try:
            if self.out.tell() != good:
                self.out.truncate(good)  # a torn last line is cut before anything follows it
                self.out.seek(good)
            if good == 0:
                self._write(_header(index.inputs))
        except OSError:
            self.out.close()
            raise

    def _write(self, line: bytes) -> None:
        self.out.write(line)
        self.index.written += len(line)

    def write(self, line: bytes) -> _Store | None:
        return self._safely(lambda: self._write(line))

    def flush(self) -> _Store | None:
        return self._safely(self.out.flush)

    def sync(self) -> int | None:
        """Everything written made durable; the store's size (None: it could not be)."""
        if self._safely(self._sync) is None:
            return None
        return self.out.tell()

    def _sync(self) -> None:
        self.out.flush()
        os.fsync(self.out.fileno())

    def _safely(self, act: Any) -> _Store | None:
        try:
            act()
        except OSError as exc:
            self.close()
            self.index._not_kept(exc)
            return None
        return self

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.out.close()


def _size(entry: _Entry, where: str) -> int:
    return len(_encode(where, entry.digest, entry.definitions))


def _absolute(document: Document) -> str:
    source = document.source or Path(document.name)
    return str(Path(source).expanduser().resolve())


def stored_indexes(folder: Path) -> list[Path]:
    """The index files in ``folder``."""
    return sorted(folder.glob("index-*.jsonl"))
