"""Inputs: files, folders and stdin, read as text documents in a stable order.

Folders are walked recursively in sorted order, skipping hidden entries, binary files and what
the folder's ``.gitignore`` files exclude. Text that is not valid UTF-8 is decoded with
replacement characters and reported (a warning, never a silent skip); a binary file (a NUL
byte in its first 8 KiB) named directly is an error, inside a folder it is skipped and
reported.

A Project Gutenberg book is read without the header and licence the project wraps around it
(:func:`without_boilerplate`; ``keep_boilerplate`` keeps them), so a summary is about the book.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pathspec

from prism_edge.errors import PrismError

CODE_SUFFIXES = {
    ".py",
    ".js",
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
TABLE_SUFFIXES = {".csv", ".tsv"}


class InputError(PrismError):
    hint = "check the path; use - to read standard input"


@dataclass(frozen=True)
class Document:
    name: str
    """The path as given (or ``<stdin>``)."""
    text: str
    kind: str = "prose"
    """``prose``, ``code`` or ``table``: which boundaries the chunker prefers."""


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
    return b"\x00" in head


_GUTENBERG_START = re.compile(
    r"^[ \t]*(?:\*{3}[ \t]*START OF (?:THE|THIS) PROJECT GUTENBERG E-?BOOK|\*END\*THE SMALL PRINT!)"
    r".*$",
    re.IGNORECASE | re.MULTILINE,
)
_GUTENBERG_END = re.compile(
    r"^[ \t]*(?:\*{3}[ \t]*END OF (?:THE|THIS) PROJECT GUTENBERG E-?BOOK|End of (?:the )?Project "
    r"Gutenberg\b).*$",
    re.IGNORECASE | re.MULTILINE,
)
FRAME_SHARE = 0.25
"""The header is sought in the first quarter of a text, the end marker in the last."""


def without_boilerplate(text: str) -> tuple[str, int, int]:
    """``text`` without Project Gutenberg's header (up to its "*** START OF ..." or "*END*THE
    SMALL PRINT!" line) and what follows its end line ("*** END OF ..." or "End of the Project
    Gutenberg ..."), with how many lines each was; ``(text, 0, 0)`` when it has neither."""
    start = end = None
    for m in _GUTENBERG_START.finditer(text, 0, int(len(text) * FRAME_SHARE)):
        start = m  # the last one (a licence may quote the marker)
    for m in _GUTENBERG_END.finditer(text, start.end() if start else 0):
        if m.start() >= len(text) * (1 - FRAME_SHARE):
            end = m
            break
    if start is None and end is None:
        return text, 0, 0
    body_start = start.end() if start else 0
    body_end = end.start() if end else len(text)
    head = len(text[:body_start].splitlines())
    tail = len(text[body_end:].splitlines()) if end else 0
    return text[body_start:body_end].strip("\n") + "\n", head, tail


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


def collect(
    inputs: Iterable[str], stdin_text: str | None = None, *, keep_boilerplate: bool = False
) -> Collected:
    """Read every input; raise :class:`InputError` for a missing, unreadable or empty input.
    Prose is read without a Project Gutenberg frame unless ``keep_boilerplate``."""
    out = _collect(inputs, stdin_text)
    if not keep_boilerplate:
        out.documents = [_unwrapped(d, out.warnings) for d in out.documents]
    return out


def _collect(inputs: Iterable[str], stdin_text: str | None) -> Collected:
    out = Collected()
    for spec in inputs:
        if spec == "-":
            text = stdin_text if stdin_text is not None else sys.stdin.read()
            out.documents.append(Document("<stdin>", text, "prose"))
            continue
        path = Path(spec)
        if path.is_dir():
            found = 0
            notes: list[str] = []
            for file in walk(path, out.warnings):
                doc = _read(file, notes, inside_folder=True)
                if doc is not None:
                    out.documents.append(doc)
                    found += 1
            out.warnings += _binaries_counted(notes, spec)
            if not found:
                raise InputError(f"{spec}: the folder holds no readable text files")
        elif path.exists():
            doc = _read(path, out.warnings, inside_folder=False)
            assert doc is not None
            out.documents.append(doc)
        else:
            raise InputError(f"{spec}: no such file or folder")
    if not any(d.text.strip() for d in out.documents):
        raise InputError("the input is empty: nothing to read")
    return out


_BINARY = "skipped binary file "


def _binaries_counted(notes: list[str], folder: str) -> list[str]:
    """A folder's warnings with its skipped binary files (compiled code, images) as one line."""
    binary = [n for n in notes if n.startswith(_BINARY)]
    if len(binary) <= 1:
        return notes
    first = binary[0].removeprefix(_BINARY)
    rest = [n for n in notes if not n.startswith(_BINARY)]
    return [*rest, f"skipped {len(binary)} binary files in {folder} (the first: {first})"]


def _read(path: Path, warnings: list[str], *, inside_folder: bool) -> Document | None:
    try:
        data = path.read_bytes()
    except OSError as exc:
        if inside_folder:
            warnings.append(f"skipped {path}: {exc.strerror}")
            return None
        raise InputError(f"{path}: cannot read ({exc.strerror})") from None
    if is_binary(data[:8192]):
        if inside_folder:
            warnings.append(f"{_BINARY}{path}")
            return None
        raise InputError(f"{path}: a binary file, not text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("utf-8", errors="replace")
        warnings.append(f"{path} is not valid UTF-8; undecodable bytes were replaced")
    return Document(str(path), text.removeprefix("\ufeff"), kind_of(path.name))


def walk(root: Path, warnings: list[str] | None = None) -> Iterator[Path]:
    """Files under ``root`` in sorted order, minus hidden entries and .gitignore matches.

    Links are followed, but every file and folder is visited once by its real path: a link
    back into a folder being walked (a loop) or to something already visited is skipped, and
    a loop is reported in ``warnings``.
    """
    seen: set[Path] = set()
    yield from _walk(root, root, [], _real(root), seen, warnings if warnings is not None else [])


def _real(path: Path) -> Path | None:
    try:
        return path.resolve(strict=True)
    except (OSError, RuntimeError):  # a dangling link, a link loop, no permission
        return None


def _walk(
    root: Path,
    folder: Path,
    specs: list[tuple[Path, pathspec.PathSpec[Any]]],
    real_folder: Path | None,
    seen: set[Path],
    warnings: list[str],
    ancestors: tuple[Path, ...] = (),
) -> Iterator[Path]:
    if real_folder is None:
        warnings.append(f"skipped {folder}: cannot be resolved (a broken or looping link)")
        return
    ancestors = (*ancestors, real_folder)
    seen.add(real_folder)
    ignore = folder / ".gitignore"
    if ignore.is_file():
        lines = ignore.read_text(encoding="utf-8", errors="replace").splitlines()
        specs = [*specs, (folder, pathspec.PathSpec.from_lines("gitignore", lines))]
    try:
        entries = sorted(folder.iterdir(), key=lambda p: p.name)
    except OSError as exc:
        warnings.append(f"skipped {folder}: {exc.strerror or exc}")
        return
    for entry in entries:
        if entry.name.startswith("."):
            continue
        if _ignored(entry, specs):
            continue
        real = _real(entry)
        if real is None:
            if entry.is_symlink():
                warnings.append(f"skipped {entry}: a broken or looping link")
            continue
        if real in ancestors:
            warnings.append(f"skipped {entry}: a link back to {real} (a loop)")
            continue
        if real in seen:
            continue  # reached already through another link: read once
        if real.is_dir():
            yield from _walk(root, entry, specs, real, seen, warnings, ancestors)
        elif real.is_file():
            seen.add(real)
            yield entry


def _ignored(entry: Path, specs: list[tuple[Path, pathspec.PathSpec[Any]]]) -> bool:
    for base, spec in specs:
        rel = entry.relative_to(base).as_posix()
        if entry.is_dir():
            rel += "/"
        if spec.match_file(rel):
            return True
    return False
