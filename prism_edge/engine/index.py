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
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
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

PARSER_VERSION = "1"
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


def _encode(path: str, digest: str, found: list[Definition]) -> str:
    rows = [
        [d.name, d.kind, d.line, d.purpose, d.inputs, d.output, d.procedure, d.source]
        for d in found
    ]
    line = {"p": path, "d": digest, "v": PARSER_VERSION, "defs": rows}
    return json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n"


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

    def _load(self) -> tuple[int, int]:
        """The stored entries; (bytes of live lines, bytes of the file up to its last complete
        line)."""
        self.entries = {}
        live: dict[str, int] = {}
        good = 0
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return 0, 0
        except OSError as exc:
            raise CodeIndexError(f"{self.path}: cannot read the index ({exc.strerror})") from None
        for raw in data.splitlines(keepends=True):
            if not raw.endswith(b"\n"):
                break  # a torn last line: the file that was being written when it stopped
            good += len(raw)
            try:
                line = json.loads(raw)
                path = str(line["p"])
                if line.get("gone"):
                    self.entries.pop(path, None)
                    live.pop(path, None)
                    continue
                found = [_decode(row) for row in line["defs"]]
                self.entries[path] = _Entry(str(line["d"]), str(line["v"]), found)
                live[path] = len(raw)
            except (ValueError, KeyError, TypeError):
                continue  # a damaged line: that file is parsed again
        return sum(live.values()), good

    def update(self, documents: Sequence[Document]) -> Iterator[FileIndexed]:
        """Read ``documents`` into the index: each code file parsed unless its digest and the
        parser's version match the stored entry; stored files no longer among them forgotten.
        One event per code file; :attr:`change` says what was found."""
        import filelock

        self.folder.mkdir(parents=True, exist_ok=True)
        lock = filelock.FileLock(str(self.folder / f"index-{self.key}.lock"), timeout=LOCK_WAIT_S)
        try:
            lock.acquire()
        except filelock.Timeout:
            raise CodeIndexError(
                f"another prism-edge process has been reading into {self.path} for "
                f"{LOCK_WAIT_S:.0f} s"
            ) from None
        try:
            yield from self._update(documents)
        finally:
            lock.release()

    def _update(self, documents: Sequence[Document]) -> Iterator[FileIndexed]:
        live_bytes, good = self._load()
        code = [d for d in documents if is_code(d.name)]
        change = self.change = Change(files=len(code), skipped=len(documents) - len(code))
        self.order = [(_absolute(d), d.name) for d in code]
        with self.path.open("ab") as out:
            if out.tell() != good:
                out.truncate(good)  # a torn last line is cut before anything follows it
                out.seek(good)
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
                line = _encode(where, digest, found).encode("utf-8", "surrogatepass")
                out.write(line)
                self.written += len(line)
                live_bytes += len(line) - (0 if stored is None else _size(stored, where))
                self.entries[where] = _Entry(digest, PARSER_VERSION, found)
                change.definitions += len(found)
                if stored is None:
                    change.new += 1
                else:
                    change.changed += 1
                if time.monotonic() - said > FLUSH_EVERY_S:
                    out.flush()
                    said = time.monotonic()
                yield FileIndexed(done, len(code), name, len(found), True)
            keep = {where for where, _ in self.order}
            for where in [p for p in self.entries if p not in keep]:
                removal = (json.dumps({"p": where, "gone": True}) + "\n").encode()
                out.write(removal)
                self.written += len(removal)
                live_bytes -= _size(self.entries.pop(where), where)
                change.removed += 1
            out.flush()
            os.fsync(out.fileno())
            size = out.tell()
        if size > COMPACT_AT * max(live_bytes, 1) and size > COMPACT_FLOOR:
            self._compact()

    def _compact(self) -> None:
        """Rewrite the store with its live lines only (a new file renamed over the old)."""
        temporary = self.path.with_name(f"{self.path.name}.{secrets.token_hex(4)}.tmp")
        try:
            with temporary.open("wb") as out:
                for where, entry in self.entries.items():
                    line = _encode(where, entry.digest, entry.definitions).encode(
                        "utf-8", "surrogatepass"
                    )
                    out.write(line)
                    self.written += len(line)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, self.path)
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


def _size(entry: _Entry, where: str) -> int:
    return len(_encode(where, entry.digest, entry.definitions).encode("utf-8", "surrogatepass"))


def _absolute(document: Document) -> str:
    source = document.source or Path(document.name)
    return str(Path(source).expanduser().resolve())


def stored_indexes(folder: Path) -> list[Path]:
    """The index files in ``folder``."""
    return sorted(folder.glob("index-*.jsonl"))
