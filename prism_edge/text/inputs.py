"""Inputs: files, folders and stdin, read as text documents in a stable order.

Folders are walked recursively in sorted order, skipping hidden entries, binary files and what
the folder's ``.gitignore`` files exclude (a line git accepts but no pattern reads matches
nothing, as in git); a folder's own entries come before what its links lead to, so a link to
one of its folders never hides that folder's files. Text is UTF-8, or UTF-16 or UTF-32 when it
starts with a byte-order mark; text that is not valid in its encoding (a file's or standard
input's) is decoded with replacement characters and reported (a warning, never a silent skip);
a binary file (a NUL byte in its first 8 KiB, found before the rest is read) named directly is
an error, inside a folder it is skipped and reported. A file whose name is not UTF-8 is read by
its own path and named with the bytes that are not as ``\\xNN`` (:func:`shown`).

A Project Gutenberg book is read without the header and licence the project wraps around it
(:func:`without_boilerplate`; ``keep_boilerplate`` keeps them), so a summary is about the book.
"""

from __future__ import annotations

import codecs
import io
import json
import re
import sqlite3
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from prism_edge.core.errors import PrismError
from prism_edge.text.tables import (
    JSONL_SUFFIXES,
    SQLITE_MAGIC,
    TableChunk,
    jsonl_columns,
    jsonl_csv_lines,
    records,
    sqlite_csv_lines,
    sqlite_records,
    sqlite_table_names,
    table_label,
    text_tables,
)

if TYPE_CHECKING:
    import pathspec

CODE_SUFFIXES = {
    ".py",
    ".pyi",
    ".js",
    ".mjs",
    ".cjs",
    ".mts",
    ".cts",
    ".ts",
    ".tsx",
    ".jsx",
    ".go",
    ".rs",
    ".java",
    ".c",
    ".h",
    ".cc",
    ".cpp",
    ".hpp",
    ".cs",
    ".rb",
    ".php",
    ".swift",
    ".kt",
    ".scala",
    ".sh",
    ".lua",
    ".r",
    ".jl",
    ".m",
    ".sql",
}
TABLE_SUFFIXES = {".csv", ".tsv", *JSONL_SUFFIXES}


def shown(path: Path | str) -> str:
    """A path as text that can be printed, logged and stored: as it is when its name is
    UTF-8, else with each byte that is not written as ``\\xNN`` (a name the system gave as
    bytes that do not decode). The file is still opened by its own path."""
    text = str(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        try:
            raw = text.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:  # a lone surrogate that stands for no byte
            return text.encode("utf-8", "backslashreplace").decode("utf-8")
        return raw.decode("utf-8", "backslashreplace")
    return text


class InputError(PrismError):
    hint = "check the path; use - to read standard input"


STREAM_BLOCK = 1 << 20
"""Characters a streamed file is read in at a time."""


Form = Literal["text", "jsonl", "sqlite"]


@dataclass(frozen=True)
class Document:
    """One text input. A table file (CSV, TSV, JSON lines, an SQLite file's table) is
    *streamed*: ``held`` is empty and ``source`` names the file, which is read from disk each
    time it is chunked (JSON lines and SQLite rows converted to CSV a record at a time), so a
    run over a large table holds one chunk of it at a time, never the whole file.
    :attr:`text` reads a streamed file whole (for what needs all of it at once: ``bench``'s
    long context)."""

    name: str
    """The path as given (or ``<stdin>``)."""
    held: str = field(repr=False)
    kind: str = "prose"
    """``prose``, ``code`` or ``table``: which boundaries the chunker prefers."""
    source: Path | None = None
    """The file a streamed document is read from (its text is not held)."""
    stamp: tuple[int, ...] = (0, 0)
    """The streamed file's size and modification time when it was collected (an SQLite
    file's write-ahead log's too): a file that changes between two readings is an error, never
    a run over two different texts."""
    form: Form = "text"
    """How a streamed file becomes text: as it is, JSON lines as CSV, or an SQLite table."""
    table: str = ""
    """The SQLite table a streamed ``sqlite`` document reads."""
    columns: tuple[str, ...] = ()
    """The keys of streamed JSON lines, in first-seen order (found when collected)."""
    encoding: str = "utf-8-sig"
    """The streamed file's encoding: UTF-8, or UTF-16 or UTF-32 by its byte-order mark."""
    label: str = ""
    """The name a table goes by (its chunks' ``Table:`` line) when not its file's stem: an
    SQLite table's own name, ``notes 1`` for a text file's first table, the path where two
    tables of one run would otherwise share a name (:func:`labelled`)."""

    @property
    def text(self) -> str:
        if self.source is None:
            return self.held
        return "".join(self.lines())

    def lines(self) -> Iterator[str]:
        """The text as lines, each with its own line ending (``\r\n`` kept), read block by
        block when the document is streamed."""
        if self.source is None:
            yield from io.StringIO(self.held, newline="")
        elif self.form == "sqlite":
            self._check_stamp()
            try:
                yield from sqlite_csv_lines(self.source, self.table)
            except sqlite3.Error as exc:
                raise InputError(f"{self.source}: not a readable SQLite file ({exc})") from None
        else:
            with self._open() as stream:
                if self.form == "jsonl":
                    yield from jsonl_csv_lines(stream, self.columns)
                else:
                    yield from stream

    def records(self) -> Iterator[TableChunk]:
        """A table document's records in batches (:func:`text.tables.records`): an SQLite
        table's straight from its rows, a CSV file's from the file (its lines read in C),
        any other's from its lines."""
        if self.source is not None and self.form == "text":
            with self._open() as stream:
                yield from records(self.name, stream, self.label)
            return
        if self.source is None or self.form != "sqlite":
            yield from records(self.name, self.lines(), self.label)
            return
        self._check_stamp()
        try:
            yield from sqlite_records(self.source, self.table, self.name, self.label)
        except sqlite3.Error as exc:
            raise InputError(f"{self.source}: not a readable SQLite file ({exc})") from None

    def blocks(self) -> Iterator[str]:
        """The text in pieces of about :data:`STREAM_BLOCK` characters at most (a streamed
        table converted to CSV: whole lines)."""
        if self.source is None:
            for start in range(0, len(self.held), STREAM_BLOCK):
                yield self.held[start : start + STREAM_BLOCK]
        elif self.form == "text":
            with self._open() as stream:
                while block := stream.read(STREAM_BLOCK):
                    yield block
        else:
            parts: list[str] = []
            size = 0
            for line in self.lines():
                parts.append(line)
                size += len(line)
                if size >= STREAM_BLOCK:
                    yield "".join(parts)
                    parts, size = [], 0
            if parts:
                yield "".join(parts)

    def _open(self) -> io.TextIOWrapper:
        assert self.source is not None
        try:
            stream = self.source.open(encoding=self.encoding, errors="replace", newline="")
        except OSError as exc:
            raise InputError(f"{self.source}: cannot read ({exc.strerror})") from None
        try:
            self._check_stamp()
        except InputError:
            stream.close()
            raise
        return stream

    def _check_stamp(self) -> None:
        assert self.source is not None
        try:
            stamp = _stamp(self.source)
        except OSError as exc:
            raise InputError(f"{self.source}: cannot read ({exc.strerror})") from None
        if stamp != self.stamp:
            raise InputError(f"{self.source} changed while it was being read; run again")

    def has_text(self) -> bool:
        """Whether anything but white space is in it (a streamed file stops at the first)."""
        return any(block.strip() for block in self.blocks())


@dataclass
class Collected:
    documents: list[Document] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def kind_of(name: str) -> str:
    suffix = Path(name).suffix.lower()
    if suffix in CODE_SUFFIXES:
        return "code"
    if suffix in TABLE_SUFFIXES:
        return "table"
    return "prose"


def is_binary(head: bytes) -> bool:
    """Whether a file whose first bytes are ``head`` is binary: a NUL byte in text that has no
    byte-order mark of UTF-16 or UTF-32 (whose characters hold NUL bytes)."""
    if encoding_of(head) != "utf-8":
        return "\x00" in head.decode(encoding_of(head), errors="ignore").lstrip("\ufeff")
    return b"\x00" in head


HEAD = 8192
"""Bytes of a file read before the rest: the binary check and the encoding."""
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


_LABEL = {"utf-8": "UTF-8", "utf-16": "UTF-16", "utf-32": "UTF-32"}


def encoding_of(head: bytes) -> str:
    """The encoding of text that starts with ``head``: UTF-16 or UTF-32 by a byte-order mark
    (UTF-32's first: it starts like UTF-16's), else UTF-8."""
    return next((name for bom, name in _BOMS if head.startswith(bom)), "utf-8")


def decoded(data: bytes, name: str, warnings: list[str]) -> str:
    """``data`` as text in its encoding (:func:`encoding_of`), a byte-order mark dropped;
    bytes that do not decode are replaced and reported in ``warnings``."""
    encoding = encoding_of(data[:4])
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError:
        text = data.decode(encoding, errors="replace")
        warnings.append(f"{name} is not valid {_LABEL[encoding]}; undecodable bytes were replaced")
    return text.removeprefix("\ufeff")


_GUTENBERG_START = re.compile(
    r"^[ \t]*(?:\*{3}[ \t]*START OF (?:THE|THIS) PROJECT GUTENBERG E-?BOOK\b.*\*{3}"
    r"|\*END\*THE SMALL PRINT!.*\*END\*)[ \t]*\r?$",
    re.IGNORECASE | re.MULTILINE,
)
_GUTENBERG_END = re.compile(
    r"^[ \t]*(?:\*{3}[ \t]*END OF (?:THE|THIS) PROJECT GUTENBERG E-?BOOK\b.*\*{3}"
    r"|End of (?:the )?Project Gutenberg(?:'s\b|[ \t]+(?:E-?book|E-?text|Edition)\b).*)"
    r"[ \t]*\r?$",
    re.IGNORECASE | re.MULTILINE,
)
FRAME_SHARE = 0.25
"""The start marker is sought in the first quarter of a text, the end marker in the last."""


def without_boilerplate(text: str) -> tuple[str, int, int]:
    """``text`` without Project Gutenberg's header and end matter, with how many lines each
    was; ``(text, 0, 0)`` unless the text holds exactly one start marker ("*** START OF THE
    PROJECT GUTENBERG EBOOK ... ***", or the old "*END*THE SMALL PRINT! ... *END*") in its
    first quarter and, after it in its last quarter, an end marker ("*** END OF THE PROJECT
    GUTENBERG EBOOK ... ***", or the old "End of the Project Gutenberg EBook of ..." and
    "End of Project Gutenberg's ..."): the first such is where the end matter begins. A marker
    quoted alone, a sentence that merely begins like one, or two books in one file (two start
    markers) leave every line in place."""
    starts = list(_GUTENBERG_START.finditer(text))
    if len(starts) != 1 or starts[0].start() > len(text) * FRAME_SHARE:
        return text, 0, 0
    start = starts[0]
    end = next(
        (m for m in _GUTENBERG_END.finditer(text, start.end())
         if m.start() >= len(text) * (1 - FRAME_SHARE)),
        None,
    )  # fmt: skip
    if end is None:
        return text, 0, 0
    head = len(text[: start.end()].splitlines())
    tail = len(text[end.start() :].splitlines())
    return text[start.end() : end.start()].strip("\n") + "\n", head, tail


def _unwrapped(document: Document, warnings: list[str]) -> Document:
    if document.kind != "prose":
        return document
    text, head, tail = without_boilerplate(document.text)
    if not head and not tail:
        return document
    warnings.append(
        f"{document.name}: read without Project Gutenberg's header ({head} lines) and end matter "
        f"({tail} lines); --keep-boilerplate reads them too"
    )
    return Document(document.name, text, document.kind)


@dataclass(frozen=True)
class Filters:
    """Which files of a folder are read, beside what its ignore files and git leave out:
    ``include`` globs (none: every file) and ``exclude`` globs, matched as .gitignore lines
    against each file's path inside the folder."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def keeps(self, relative: str) -> bool:
        if self.include and not _spec(self.include).match_file(relative):
            return False
        return not (self.exclude and _spec(self.exclude).match_file(relative))


def _spec(lines: tuple[str, ...]) -> pathspec.PathSpec[Any]:
    import pathspec  # only where a folder is read: a file's run never needs it

    return pathspec.PathSpec.from_lines("gitignore", lines)


def collect(
    inputs: Iterable[str],
    stdin_text: str | None = None,
    *,
    keep_boilerplate: bool = False,
    follow_links: bool = False,
    filters: Filters | None = None,
    hold_code: bool = True,
) -> Collected:
    """Read every input; raise :class:`InputError` for a missing, unreadable, empty or not
    regular input (a device, a pipe). Prose is read without a Project Gutenberg frame unless
    ``keep_boilerplate``; a folder's links that lead out of it are skipped (and reported)
    unless ``follow_links``; a folder's files pass ``filters`` (``--include``,
    ``--exclude``). Without ``hold_code``, code files are checked and then read again from
    disk when they are used (a repository's index holds one file at a time)."""
    out = _collect(inputs, stdin_text, follow_links, filters or Filters(), hold_code)
    out.documents = _once(out.documents, out.warnings)
    if not keep_boilerplate:
        out.documents = [_unwrapped(d, out.warnings) for d in out.documents]
    out.documents = labelled(out.documents)
    return out


def _once(documents: list[Document], warnings: list[str]) -> list[Document]:
    """Each file read once, however often the inputs name it (a file given twice, a folder
    and a file inside it): twice would count its rows twice."""
    seen: set[tuple[str, str]] = set()
    kept: list[Document] = []
    repeated: list[str] = []
    for document in documents:
        where = document.source or (Path(document.name) if document.name != "<stdin>" else None)
        try:
            key = (
                str(where.resolve()) if where is not None else f"<{id(document)}>",
                document.table,
            )
        except OSError:
            key = (document.name, document.table)
        if key in seen:
            repeated.append(document.name)
            continue
        seen.add(key)
        kept.append(document)
    if repeated:
        warnings.append("read once, though given more than once: " + ", ".join(repeated))
    return kept


def labelled(documents: list[Document]) -> list[Document]:
    """The documents with every table's label its own: tables that would go by one name
    (``2023/sales.csv`` and ``2024/sales.csv``, both ``sales``) go by the shortest ends of
    their paths that tell them apart, so a question's tables are never merged into one."""
    names = [table_label(d.name, d.label) for d in documents]
    groups: dict[str, list[int]] = {}
    for i, (name, document) in enumerate(zip(names, documents, strict=True)):
        if document.kind == "table":
            groups.setdefault(name, []).append(i)
    out = list(documents)
    for members in groups.values():
        if len(members) > 1:
            labels = _distinct_ends([documents[i].name for i in members])
            for i, label in zip(members, labels, strict=True):
                out[i] = replace(documents[i], label=label)
    return out


def _distinct_ends(paths: list[str]) -> list[str]:
    """The fewest last parts of each path that are distinct among them (the whole paths when
    no ending is)."""
    parts = [p.replace("\\", "/").split("/") for p in paths]
    for k in range(1, max(len(p) for p in parts) + 1):
        ends = ["/".join(p[-k:]) for p in parts]
        if len(set(ends)) == len(ends):
            return ends
    return paths


def _tracked(relative: str, tracked: set[str]) -> bool:
    """Whether git sees a file: it is tracked (or untracked, not ignored), or reached through
    a link git tracks (``--follow-links``: git tracks the link, not what it leads to)."""
    if relative in tracked:
        return True
    parts = relative.split("/")
    return any("/".join(parts[:i]) in tracked for i in range(1, len(parts)))


def _collect(
    inputs: Iterable[str],
    stdin_text: str | None,
    follow_links: bool,
    filters: Filters,
    hold_code: bool = True,
) -> Collected:
    out = Collected()
    for spec in inputs:
        if spec == "-":
            text = stdin_text if stdin_text is not None else _stdin(out.warnings)
            out.documents.append(Document("<stdin>", text, "prose"))
            continue
        if not spec:  # Path("") is the current folder: never read it unasked
            raise InputError("an empty name is no file: name a file or folder, or - for stdin")
        path = Path(spec)
        if path.is_dir():
            found = 0
            notes: list[str] = []
            tracked = git_files(path)
            left_out = {"by git": 0, "by --include/--exclude": 0}
            for file in walk(path, notes, follow_links=follow_links):
                relative = file.relative_to(path).as_posix()
                if tracked is not None and not _tracked(relative, tracked):
                    left_out["by git"] += 1  # ignored by .git/info/exclude, global excludes
                    continue
                if not filters.keeps(relative):
                    left_out["by --include/--exclude"] += 1
                    continue
                docs = _read_all(file, notes, inside_folder=True, hold_code=hold_code)
                out.documents += docs
                found += len(docs)
            out.warnings += _binaries_counted(notes, spec)
            said = [f"{n} {why}" for why, n in left_out.items() if n]
            if said:
                out.warnings.append(f"left out of {spec}: " + ", ".join(said))
            if not found:
                raise InputError(f"{spec}: the folder holds no readable text files")
        elif path.is_file():
            out.documents += _read_all(path, out.warnings, inside_folder=False, hold_code=hold_code)
        elif path.exists():
            raise InputError(f"{spec}: not a regular file or folder (a device or a pipe?)")
        else:
            raise InputError(f"{spec}: no such file or folder")
    if not any(d.has_text() for d in out.documents):
        raise InputError("the input is empty: nothing to read")
    return out


def _stdin(warnings: list[str]) -> str:
    """Standard input as text, read as bytes and decoded as a file is (:func:`decoded`)."""
    raw = getattr(sys.stdin, "buffer", None)
    if raw is None:  # a text stream without bytes beneath (a test's, an embedding's)
        return sys.stdin.read()
    return decoded(raw.read(), "<stdin>", warnings)


_BINARY = "skipped binary file "


_OUTSIDE = "skipped a link out of the folder: "


def _binaries_counted(notes: list[str], folder: str) -> list[str]:
    """A folder's warnings with its skipped binary files (compiled code, images) and its links
    that lead out of it each as one line."""
    out = [n for n in notes if not n.startswith((_BINARY, _OUTSIDE))]
    for prefix, what, hint in (
        (_BINARY, "binary files", ""),
        (_OUTSIDE, "links that lead out of the folder", "; --follow-links reads them"),
    ):
        found = [n.removeprefix(prefix) for n in notes if n.startswith(prefix)]
        if len(found) == 1:
            out.append(f"{prefix.removesuffix(': ').removesuffix(' ')} {found[0]}{hint}")
        elif found:
            out.append(f"skipped {len(found)} {what} in {folder} (the first: {found[0]}){hint}")
    return out


def _read_all(
    path: Path, warnings: list[str], *, inside_folder: bool, hold_code: bool = True
) -> list[Document]:
    """The documents of one file: one, or one per table of an SQLite file (none when a
    folder's file is skipped)."""
    try:
        with path.open("rb") as stream:
            head = stream.read(len(SQLITE_MAGIC))
    except OSError as exc:
        if inside_folder:
            warnings.append(f"skipped {path}: {exc.strerror}")
            return []
        raise InputError(f"{path}: cannot read ({exc.strerror})") from None
    if head == SQLITE_MAGIC:
        skipped: list[str] = []
        try:
            stamp = _stamp(path)
            names = sqlite_table_names(path, skipped)
        except sqlite3.Error as exc:
            if inside_folder:
                warnings.append(f"skipped {path}: not a readable SQLite file ({exc})")
                return []
            raise InputError(f"{path}: not a readable SQLite file ({exc})") from None
        if skipped:
            warnings.append(f"skipped in {path}, unreadable here: {', '.join(skipped)}")
        return [
            Document(
                f"{shown(path)}#{name}",
                "",
                "table",
                source=path,
                stamp=stamp,
                form="sqlite",
                table=name,
                label=_table_label(name),
            )
            for name in names
        ]
    doc = _read(path, warnings, inside_folder=inside_folder, hold_code=hold_code)
    return [] if doc is None else [doc]


STREAMED_SUFFIXES = (".csv", ".tsv", *JSONL_SUFFIXES)
"""Files that are streamed (read from disk as they are chunked): tables, the inputs that grow
to hundreds of megabytes (SQLite files are streamed too, a table at a time)."""


def _read(
    path: Path, warnings: list[str], *, inside_folder: bool, hold_code: bool = True
) -> Document | None:
    if path.suffix.lower() in STREAMED_SUFFIXES:
        return _streamed(path, warnings, inside_folder=inside_folder)
    name = shown(path)
    try:
        with path.open("rb") as stream:
            head = stream.read(HEAD)
            if is_binary(head):  # before the rest is read: a disk image is not read whole
                if inside_folder:
                    warnings.append(f"{_BINARY}{name}")
                    return None
                raise InputError(f"{name}: a binary file, not text")
            data = head + stream.read()
    except OSError as exc:
        if inside_folder:
            warnings.append(f"skipped {name}: {exc.strerror}")
            return None
        raise InputError(f"{name}: cannot read ({exc.strerror})") from None
    text = decoded(data, name, warnings)
    kind = kind_of(path.name)
    if kind == "code" and not hold_code:
        return Document(name, "", kind, source=path, stamp=_stamp(path))
    return Document(name, text, kind)


def _streamed(path: Path, warnings: list[str], *, inside_folder: bool) -> Document | None:
    """A table file as a streamed document: checked here block by block (binary, encoding) as
    :func:`_read` checks a file it holds, with the same warnings and errors."""
    name = shown(path)
    valid = True
    try:
        stamp = _stamp(path)
        with path.open("rb") as stream:
            head = stream.read(HEAD)
            if is_binary(head):
                if inside_folder:
                    warnings.append(f"{_BINARY}{name}")
                    return None
                raise InputError(f"{name}: a binary file, not text")
            encoding = encoding_of(head)
            decoder = codecs.getincrementaldecoder(encoding)()
            block = head
            while block:
                if valid:
                    try:
                        decoder.decode(block)
                    except UnicodeDecodeError:
                        valid = False
                block = stream.read(STREAM_BLOCK)
            if valid:
                try:
                    decoder.decode(b"", final=True)
                except UnicodeDecodeError:
                    valid = False
    except OSError as exc:
        if inside_folder:
            warnings.append(f"skipped {name}: {exc.strerror}")
            return None
        raise InputError(f"{name}: cannot read ({exc.strerror})") from None
    document = Document(
        name,
        "",
        kind_of(path.name),
        source=path,
        stamp=stamp,
        encoding="utf-8-sig" if encoding == "utf-8" else encoding,
    )
    if path.suffix.lower() in JSONL_SUFFIXES:
        try:
            with document._open() as stream:
                columns = jsonl_columns(stream)
        except ValueError as exc:
            if inside_folder:
                warnings.append(f"skipped {name}: not JSON lines ({exc})")
                return None
            raise InputError(f"{name}: not JSON lines ({exc})") from None
        document = replace(document, form="jsonl", columns=tuple(columns))
    if not valid:
        warnings.append(f"{name} is not valid {_LABEL[encoding]}; undecodable bytes were replaced")
    return document


def _table_label(name: str) -> str:
    """An SQLite table's name as its chunks say it: as it is when plain, quoted with its
    spaces and control characters escaped when not ("cities" and "cities " stay two
    tables)."""
    plain = name == name.strip() and name.isprintable()
    return name if plain else json.dumps(name, ensure_ascii=False)


def _stamp(path: Path) -> tuple[int, ...]:
    """The file's size and modification time; an SQLite file's write-ahead log's as well (a
    database in WAL mode changes there, its main file untouched)."""
    info = path.stat()
    stamp: tuple[int, ...] = (info.st_size, info.st_mtime_ns)
    try:
        wal = path.with_name(path.name + "-wal").stat()
    except OSError:
        return stamp
    return (*stamp, wal.st_size, wal.st_mtime_ns)


IGNORE_FILES = (".gitignore", ".prismignore")
"""Files whose lines (in .gitignore's syntax) leave paths of their folder out of a reading:
git's own, and prism-edge's for what a repository keeps but a question should not read
(lockfiles, vendored code, minified bundles)."""


def git_files(root: Path) -> set[str] | None:
    """Inside a git work tree, the files git sees under ``root`` (tracked, and untracked but
    not ignored: .gitignore, .git/info/exclude and the user's global excludes honoured), as
    paths relative to ``root``; None outside one or without git."""
    import shutil
    import subprocess

    if shutil.which("git") is None:
        return None
    try:
        inside = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--is-inside-work-tree"],
            capture_output=True, text=True, timeout=30, check=False,
        )  # fmt: skip
        if inside.returncode != 0 or inside.stdout.strip() != "true":
            return None
        listed = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
             "--exclude-standard", "--", "."],
            capture_output=True, timeout=120, check=False,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    if listed.returncode != 0:
        return None
    return {p for p in listed.stdout.decode("utf-8", "surrogateescape").split("\0") if p}


def walk(
    root: Path, warnings: list[str] | None = None, *, follow_links: bool = False
) -> Iterator[Path]:
    """Regular files under ``root`` in sorted order, minus hidden entries and .gitignore
    matches; then what its links lead to.

    A link whose target lies outside ``root`` (a cloned repository's ``docs -> ~/.ssh``) is
    skipped and reported, so nothing from elsewhere reaches a prompt, the history or a server,
    unless ``follow_links``. Links inside are followed once the folder's own entries are read,
    and every file and folder is visited once by its real path: a link to a folder read already
    (``lib -> src``) adds nothing and hides nothing, a link back into a folder being walked (a
    loop) is skipped and reported in ``warnings``.
    """
    seen: set[Path] = set()
    real_root = _real(root)
    inside = None if follow_links or real_root is None else real_root
    out = warnings if warnings is not None else []
    links: list[_Link] = []
    yield from _walk(root, root, [], real_root, seen, out, (), inside, links)
    while links:  # in the order they were met; a link's folder may hold links of its own
        entry, specs, ancestors = links.pop(0)
        yield from _visit(root, entry, specs, seen, out, ancestors, inside, links)


def _real(path: Path) -> Path | None:
    try:
        return path.resolve(strict=True)
    except (OSError, RuntimeError):  # a dangling link, a link loop, no permission
        return None


_Link = tuple[Path, list[tuple[Path, "pathspec.PathSpec[Any]"]], tuple[Path, ...]]
"""A link met in a walk: itself, the ignore files over it, the real folders above it."""


def _walk(
    root: Path,
    folder: Path,
    specs: list[tuple[Path, pathspec.PathSpec[Any]]],
    real_folder: Path | None,
    seen: set[Path],
    warnings: list[str],
    ancestors: tuple[Path, ...],
    inside: Path | None,
    links: list[_Link],
) -> Iterator[Path]:
    if real_folder is None:
        warnings.append(f"skipped {folder}: cannot be resolved (a broken or looping link)")
        return
    ancestors = (*ancestors, real_folder)
    seen.add(real_folder)
    for name in IGNORE_FILES:
        ignore = folder / name
        if ignore.is_file():
            lines = ignore.read_text(encoding="utf-8", errors="replace").splitlines()
            specs = [*specs, (folder, ignore_spec(lines))]
    try:
        entries = sorted(folder.iterdir(), key=lambda p: p.name)
    except OSError as exc:
        warnings.append(f"skipped {folder}: {exc.strerror or exc}")
        return
    for entry in entries:
        if entry.name.startswith(".") or _ignored(entry, specs):
            continue
        if entry.is_symlink():
            links.append((entry, specs, ancestors))  # after the folders' own entries
            continue
        yield from _visit(root, entry, specs, seen, warnings, ancestors, inside, links)


def _visit(
    root: Path,
    entry: Path,
    specs: list[tuple[Path, pathspec.PathSpec[Any]]],
    seen: set[Path],
    warnings: list[str],
    ancestors: tuple[Path, ...],
    inside: Path | None,
    links: list[_Link],
) -> Iterator[Path]:
    real = _real(entry)
    if real is None:
        if entry.is_symlink():
            warnings.append(f"skipped {shown(entry)}: a broken or looping link")
        return
    if real in ancestors:
        warnings.append(f"skipped {shown(entry)}: a link back to {shown(real)} (a loop)")
        return
    if inside is not None and not real.is_relative_to(inside):
        warnings.append(f"{_OUTSIDE}{shown(entry)} -> {shown(real)}")
        return
    if real in seen:
        return  # reached already by its own name or through another link: read once
    if real.is_dir():
        yield from _walk(root, entry, specs, real, seen, warnings, ancestors, inside, links)
    elif real.is_file():
        seen.add(real)
        yield entry


def ignore_spec(lines: list[str]) -> pathspec.PathSpec[Any]:
    """The patterns of an ignore file's lines; a line git accepts but that no pattern reads
    (``[z-a]``, ``bin\\``, a lone ``!``) matches nothing, as in git."""
    import pathspec

    try:
        return pathspec.PathSpec.from_lines("gitignore", lines)
    except (ValueError, re.error):
        kept = [line for line in lines if _pattern(line)]
        return pathspec.PathSpec.from_lines("gitignore", kept)


def _pattern(line: str) -> bool:
    import pathspec

    try:
        pathspec.PathSpec.from_lines("gitignore", [line])
    except (ValueError, re.error):
        return False
    return True


def _ignored(entry: Path, specs: list[tuple[Path, pathspec.PathSpec[Any]]]) -> bool:
    for base, spec in specs:
        rel = entry.relative_to(base).as_posix()
        if entry.is_dir():
            rel += "/"
        if spec.match_file(rel):
            return True
    return False


def with_text_tables(documents: list[Document]) -> list[Document]:
    """For table questions: a text file that holds Markdown or fixed-width tables is read as
    those tables (``notes.md#1``, ``notes.md#2``); other documents stay as they are."""
    out = []
    for document in documents:
        found = text_tables(document.text) if document.kind == "prose" else []
        if not found:
            out.append(document)
        stem = table_label(document.name)
        for i, text in enumerate(found, start=1):
            out.append(Document(f"{document.name}#{i}", text, "table", label=f"{stem} {i}"))
    return labelled(out)
