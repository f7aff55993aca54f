"""Token-aware chunking at natural boundaries.

A chunk never exceeds its token budget as counted by the model's own tokenizer. Boundaries
are tried coarse to fine -- paragraphs, lines, sentences (BooookScore splits prose at sentence
punctuation), words, and finally any character -- and a coarser boundary is kept when it fills
at least half the budget, so chunks stay large without cutting sentences.

Code in a language with a tree-sitter grammar (``syntax.py``) is cut where top-level
definitions start, then where members start; other code by the regular expressions below.
Tables are read by the :mod:`csv` module, so a chunk holds whole records, a quoted field with
newlines included.
"""

from __future__ import annotations

import csv
import io
import itertools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from prism_edge.text import syntax
from prism_edge.text.inputs import Document
from prism_edge.text.tables import big_fields, table_label

Counter = Callable[[str], int]


@dataclass(frozen=True)
class Cuts:
    """Boundaries known by position (character offsets into the whole text) rather than by a
    pattern. A ``strict`` set is never passed over for a finer one while any of its cuts fits:
    a table is cut inside a record only when not one whole record fits."""

    positions: Sequence[int]
    strict: bool = False

    def within(self, offset: int, length: int) -> list[int]:
        lo = bisect_right(self.positions, offset)
        hi = bisect_left(self.positions, offset + length)
        return [p - offset for p in self.positions[lo:hi]]


Boundary = re.Pattern[str] | Cuts

_PARAGRAPH = re.compile(r"\n\s*\n")
_LINE = re.compile(r"\n")
_SENTENCE = re.compile(r"(?<=[.!?;:][\"'”’)\]])\s+|(?<=[.!?;:])\s+")
_WORD = re.compile(r"\s+")
# a top-level definition (Python, JS, Go, Rust, C-like) starts on the next line
_DEFINITION = re.compile(
    r"\n(?=(?:@|(?:async\s+)?def |class |function |func |fn |pub |impl |struct |export ))"
)
_INDENTED_DEFINITION = re.compile(r"\n(?=[ \t]+(?:@|(?:async\s+)?def |class ))")

PROSE = (_PARAGRAPH, _LINE, _SENTENCE, _WORD)
CODE = (_DEFINITION, _INDENTED_DEFINITION, _PARAGRAPH, _LINE, _WORD)
ROWS = (_LINE, _WORD)


def split_to_fit(
    text: str,
    max_tokens: int,
    count: Counter,
    boundaries: tuple[Boundary, ...] = PROSE,
    offset: int = 0,
) -> tuple[str, str]:
    """Split ``text`` into (head, rest) with ``count(head) <= max_tokens``, at the best boundary.

    ``head`` is never empty when ``text`` is not; ``head + rest == text``. ``offset`` is where
    ``text`` starts in the text that :class:`Cuts` positions refer to.
    """
    if max_tokens < 1:
        raise ValueError("max_tokens must be at least 1")
    count = remembering(count)
    window, density = _window(text, max_tokens, count)
    head = _head(window, density, max_tokens, count, boundaries, offset)
    return head, text[len(head) :]


def _head(
    window: str,
    density: float | None,
    max_tokens: int,
    count: Counter,
    boundaries: tuple[Boundary, ...],
    offset: int,
) -> str:
    """The head :func:`split_to_fit` cuts from a window (see :func:`_window`): the whole window
    when it fits, else its prefix at the best boundary."""
    if density is None:
        tokens = count(window)
        if tokens <= max_tokens:
            return window
        density = tokens / len(window)
    best = 0
    for boundary in boundaries:
        if isinstance(boundary, Cuts):
            ends = boundary.within(offset, len(window))
        else:
            ends = [m.end() for m in boundary.finditer(window)]
        cuts = [end for end in ends if 0 < end < len(window)]
        pos = _largest_fitting(cuts, window, max_tokens, count, density)
        if pos > best:
            best = pos
        if best and (
            count(window[:best]) * 2 >= max_tokens
            or (isinstance(boundary, Cuts) and boundary.strict)
        ):
            return window[:best]
    if best:
        return window[:best]
    cuts = list(range(1, len(window) + 1))
    pos = _largest_fitting(cuts, window, max_tokens, count, density) or 1
    return window[:pos]


class _Remembered:
    """A counter that keeps its last few answers: the cutters ask for the same prefix more
    than once (the window, then the cut that fits), and a count is a tokenizer call."""

    def __init__(self, count: Counter, size: int = 8) -> None:
        self.count = count
        self.size = size
        self.known: dict[str, int] = {}

    def __call__(self, text: str) -> int:
        tokens = self.known.get(text)
        if tokens is None:
            tokens = self.known[text] = self.count(text)
            if len(self.known) > self.size:
                del self.known[next(iter(self.known))]
        return tokens


def remembering(count: Counter) -> Counter:
    """``count`` keeping its last few answers (itself when it does already)."""
    return count if isinstance(count, _Remembered) else _Remembered(count)


def _window(
    text: str, max_tokens: int, count: Counter, start: int = 0, size: int = 0
) -> tuple[str, float | None]:
    """``text[start:]`` up to a length that holds more than ``max_tokens`` tokens, or all of it;
    and the tokens per character of the prefix found to hold more (None when none was).

    Only prefixes of about twice a chunk's length are counted, so cutting a long text costs
    time in proportion to its length, not its square. ``size`` is the first length tried
    (:func:`_next_size` aims it just past a chunk from the last window's density).
    """
    size = size or max(64, max_tokens * 8)
    while start + size < len(text):
        tokens = count(text[start : start + size])
        if tokens > max_tokens:
            return text[start : start + size + 1], tokens / size
        size *= 2
    return text[start : start + size + 1], None


def _next_size(max_tokens: int, density: float | None) -> int:
    """The first window length to try after a window of this density: a quarter past the
    length that holds ``max_tokens`` (0, the default, when the density is not known)."""
    return 0 if not density else max(64, int(max_tokens * 1.25 / density))


def _largest_fitting(
    cuts: Sequence[int], text: str, max_tokens: int, count: Counter, density: float | None = None
) -> int:
    """The largest of the (ascending) ``cuts`` whose prefix of ``text`` fits ``max_tokens``, or
    0. Like bisection it takes a longer prefix never to hold fewer tokens, so the answer is
    bisection's; each probe is aimed where the tokens per character measured so far (or the
    ``density`` given) put the limit, so most cuts are found in two or three counts rather than
    log2 of their number, and a probe that does not halve the range is followed by a halving
    one."""
    lo, hi = -1, len(cuts)  # cuts[lo] fits (-1: the empty prefix); cuts[hi] does not (or none)
    lo_pos = lo_tokens = 0
    hi_pos = hi_tokens = -1
    halve = density is None
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if not halve:
            if hi_tokens > lo_tokens:  # between the two counts known either side
                density = (hi_tokens - lo_tokens) / max(1, hi_pos - lo_pos)
            elif lo_tokens:  # past the last fitting count, at its density
                density = lo_tokens / max(1, lo_pos)
            target = lo_pos + (max_tokens - lo_tokens + 0.5) / (density or 1.0)
            mid = min(max(bisect_right(cuts, target, lo + 1, hi) - 1, lo + 1), hi - 1)
        tokens = count(text[: cuts[mid]])
        width = hi - lo
        if tokens <= max_tokens:
            lo, lo_pos, lo_tokens = mid, cuts[mid], tokens
        else:
            hi, hi_pos, hi_tokens = mid, cuts[mid], tokens
        halve = not halve and (hi - lo) * 2 > width
    return cuts[lo] if lo >= 0 else 0


def chunk_text(
    text: str, max_tokens: int, count: Counter, boundaries: tuple[Boundary, ...] = PROSE
) -> Iterator[str]:
    """Cut ``text`` into consecutive chunks of at most ``max_tokens`` tokens each.

    Each cut looks at a window of the text from the current offset (never the whole rest), so
    the work is linear in the length of the text.
    """
    count = remembering(count)
    start, density = 0, None
    while start < len(text):
        size = _next_size(max_tokens, density)
        window, density = _window(text, max_tokens, count, start, size)
        head = _head(window, density, max_tokens, count, boundaries, start)
        yield head
        start += len(head)


def chunk_document(
    name: str, text: str, kind: str, max_tokens: int, count: Counter, *, table: str = ""
) -> Iterator[str]:
    """Chunks of one document, each within ``max_tokens`` including its header.

    * ``code``: each chunk starts with ``File path: <name>`` as in the paper's prompt and is
      cut before definitions where possible; a chunk that starts inside a class (or any type
      tree-sitter knows) says so in an ``In: <Owner>`` line, so its methods keep their owner;
    * ``table`` (CSV/TSV): each chunk starts with ``Table: <label>`` (``table``, or the file's
      stem: :func:`~prism_edge.text.tables.table_label`) and the header record, and holds
      whole records;
    * ``prose``: paragraphs, then sentences.
    """
    if kind == "code":
        yield from _code_chunks(name, text, max_tokens, count)
        return
    elif kind == "table":
        yield from table_chunks(name, io.StringIO(text, newline=""), max_tokens, count, table=table)
    else:
        yield from chunk_text(text, max_tokens, count)


def table_chunks(
    name: str, lines: Iterable[str], max_tokens: int, count: Counter, *, table: str = ""
) -> Iterator[str]:
    """The chunks of a table given as lines: ``Table: <label>``, the header record, then whole
    records, read as they come (a file is never held whole: a chunk's records and the window
    it is cut from are). The cuts are those :func:`chunk_text` makes on the whole body."""
    count = remembering(count)
    source = records(lines, name)
    header = _table_header(name, table, next(source, ""))
    room = _room(max_tokens, count(header), name)
    buffer, base = "", 0  # the body from offset ``base`` on, as far as it is read
    ends: list[int] = []  # offsets (in the body) just after each record in the buffer
    exhausted = False

    def fill(upto: int) -> None:
        nonlocal buffer, exhausted
        parts, length = [buffer], len(buffer)
        while length < upto and not exhausted:
            record = next(source, None)
            if record is None:
                exhausted = True
                break
            parts.append(record)
            length += len(record)
            ends.append(base + length)
        buffer = "".join(parts)

    fill(1)
    while not buffer.strip() and not exhausted:
        fill(len(buffer) + SNIFF_CHARS)
    if not buffer.strip():
        yield header
        return
    density: float | None = None
    while True:
        fill(1)
        if not buffer:
            return
        # the window :func:`_window` takes, read only as far as needed
        size = _next_size(room, density) or max(64, room * 8)
        fill(size + 1)
        density = None
        while size < len(buffer):
            tokens = count(buffer[:size])
            if tokens > room:
                density = tokens / size
                break
            size *= 2
            fill(size + 1)
        window = buffer[: size + 1]
        cuts = (Cuts(ends, strict=True), *ROWS)
        head = _head(window, density, room, count, cuts, base)
        yield header + head
        buffer, base = buffer[len(head) :], base + len(head)
        del ends[: bisect_right(ends, base)]


def _table_header(name: str, table: str, first: str) -> str:
    """What every chunk of a table starts with: its label and its header record."""
    return f"Table: {table_label(name, table)}\n{first.rstrip(chr(10) + chr(13))}\n"


def _room(max_tokens: int, header_tokens: int, name: str) -> int:
    """What a chunk of ``name`` holds after its header; ValueError when that is too little."""
    room = max_tokens - header_tokens
    if room < max(16, max_tokens // 8):
        raise ValueError(
            f"the chunk budget of {max_tokens} tokens leaves no room after the header of {name}"
        )
    return room


def _code_chunks(name: str, text: str, max_tokens: int, count: Counter) -> Iterator[str]:
    header = f"File path: {name}\nContent:\n"
    boundaries, types = code_boundaries(text, name)
    widest = max((count(f"In: {t.name}\n") for t in types), default=0)
    room = _room(max_tokens, count(header) + widest, name)
    if not text.strip():
        yield header
        return
    offset = 0
    for piece in chunk_text(text, room, count, boundaries):
        inside = [t for t in types if t.start < offset < t.end and text[t.start : offset].strip()]
        owner = max(inside, key=lambda t: t.start).name if inside else None
        head = header if owner is None else f"File path: {name}\nIn: {owner}\nContent:\n"
        yield head + piece
        offset += len(piece)


def code_boundaries(code: str, name: str) -> tuple[tuple[Boundary, ...], list[syntax.Span]]:
    """Definition starts from the file's tree-sitter grammar, or the regular expressions; and
    the file's types (classes, structs, ...), from the same parse.

    Definition starts are strict: a chunk ends where a definition starts whenever one fits, so a
    definition is split only when it alone is longer than a chunk."""
    if syntax.language_of(name) is None:
        return CODE, []
    spans, top, members = syntax.layout(code, name)
    boundaries = (Cuts(top, strict=True), Cuts(members, strict=True), _PARAGRAPH, _LINE, _WORD)
    return boundaries, [s for s in spans if s.kind == "class"]


SNIFF_CHARS = 4096
"""Characters the CSV dialect is guessed from: ``csv.Sniffer`` is quadratic in its sample (a
crafted 64 KB one took 14 s), and a few lines tell the delimiter and quoting."""


def record_ends(text: str, name: str) -> list[int]:
    """Offsets just after each record of a CSV/TSV text (see :func:`records`)."""
    ends, position = [], 0
    for record in records(io.StringIO(text, newline=""), name):
        position += len(record)
        ends.append(position)
    return ends


def records(lines: Iterable[str], name: str) -> Iterator[str]:
    """The raw text of each record of a CSV/TSV text given as lines (line endings kept), read
    by :mod:`csv` one record at a time (quoted fields may hold newlines), so a file is never
    held whole. The dialect is guessed from the first :data:`SNIFF_CHARS` characters; from
    where the module cannot read on (a NUL byte, a field over its size limit), each line is a
    record."""
    source = iter(lines)
    head: list[str] = []
    sample_chars = 0
    for line in source:
        head.append(line)
        sample_chars += len(line)
        if sample_chars > SNIFF_CHARS:
            break
    sample = "".join(head)[:SNIFF_CHARS]
    if sample_chars > SNIFF_CHARS and "\n" in sample:
        sample = sample[: sample.rindex("\n")]  # whole lines: a cut row misleads the sniffer
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample, ",\t;|")
    except csv.Error:
        dialect = csv.excel_tab if name.lower().endswith(".tsv") else csv.excel
    taken: list[str] = []  # the lines of the record being read
    every = itertools.chain(head, source)

    def feed() -> Iterator[str]:
        for line in every:
            taken.append(line)
            yield line

    big_fields()
    try:
        for _ in csv.reader(feed(), dialect):
            yield "".join(taken)
            taken.clear()
    except csv.Error:
        yield from taken  # the lines of the record it could not read, then every line after
        yield from every


def chunk_documents(documents: Iterable[Document], max_tokens: int, count: Counter) -> list[str]:
    """The chunks of every document in turn (each document's own kind of boundaries)."""
    return list(iter_chunks(documents, max_tokens, count))


class ChunkSource:
    """The chunks of documents, cut again each time they are iterated (never all held): how
    a run reads a streamed table (:attr:`Document.source`).

    The first complete pass cuts with the tokenizer and keeps each chunk's length in
    characters; later passes cut the table's records at those lengths without counting a
    token (the same chunks, as long as the file is unchanged, which :meth:`Document.lines`
    checks). Held documents' chunks are kept: their text is held already."""

    def __init__(self, documents: Sequence[Document], max_tokens: int, count: Counter) -> None:
        self.documents = tuple(documents)
        self.max_tokens = max_tokens
        self.count = count
        self._cut: list[tuple[list[str], list[int]]] | None = None
        """Each document's chunks as the first pass cut them: a held document's chunks, or a
        streamed table's chunk lengths."""

    def __iter__(self) -> Iterator[str]:
        if self._cut is None:
            return self._first_pass()
        return self._again(self._cut)

    def _first_pass(self) -> Iterator[str]:
        cut: list[tuple[list[str], list[int]]] = []
        for document in self.documents:
            held: list[str] = []
            lengths: list[int] = []
            cut.append((held, lengths))
            keep = lengths.append if _streamed_table(document) else None
            for chunk in iter_chunks([document], self.max_tokens, self.count):
                if keep is None:
                    held.append(chunk)
                else:
                    keep(len(chunk))
                yield chunk
        self._cut = cut

    def _again(self, cut: list[tuple[list[str], list[int]]]) -> Iterator[str]:
        for document, (held, lengths) in zip(self.documents, cut, strict=True):
            if _streamed_table(document):
                yield from table_pieces(
                    document.name, document.lines(), lengths, table=document.label
                )
            else:
                yield from held


def _streamed_table(document: Document) -> bool:
    return document.kind == "table" and document.source is not None


def table_pieces(
    name: str, lines: Iterable[str], lengths: Iterable[int], *, table: str = ""
) -> Iterator[str]:
    """The chunks :func:`table_chunks` cut from a table, given their lengths in characters:
    the header, then the body's records read as they come and cut at those lengths."""
    source = records(lines, name)
    header = _table_header(name, table, next(source, ""))
    buffer = ""
    for length in lengths:
        need = length - len(header)
        parts, have = [buffer], len(buffer)
        while have < need:
            record = next(source, None)
            if record is None:
                break
            parts.append(record)
            have += len(record)
        buffer = "".join(parts)
        yield header + buffer[:need]
        buffer = buffer[need:]


def iter_chunks(documents: Iterable[Document], max_tokens: int, count: Counter) -> Iterator[str]:
    """:func:`chunk_documents` one chunk at a time: a streamed table is read from its file as
    its chunks are taken."""
    for document in documents:
        if document.kind == "table":
            yield from table_chunks(
                document.name, document.lines(), max_tokens, count, table=document.label
            )
        else:
            yield from chunk_document(
                document.name, document.text, document.kind, max_tokens, count
            )
