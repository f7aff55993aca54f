"""GBNF grammars from a schema and the current memory: every revision emitted parses and applies.

Pure functions, no llama_cpp import. Rules go through a registry that de-duplicates them by
content and emits them in a stable order, so a grammar is deterministic and diffable.

The revision grammar follows the wire format::

    [OBJECTS FOR UPDATE]
    {"<existing path>": {"update": <value of the type at that path>}}
    [OBJECTS FOR ADD]
    {"<new path>": {"add": <value of the type at that path>}}

and it is *memory-aware*: an update may only name a path that exists in the memory now (one
alternative per existing path), an add only a path that does not -- an absent root field, a new
key of an existing dict (free text, but never one of the keys already there: the grammar spells
out the complement of the existing keys), or an append to an existing list. Add-only mode
drops the update section. Revisions per section and string lengths are bounded, so every output
is finite. New dict keys are names: they exclude ``'"\\{}[]$`` and control characters and do
not start with a space; strings are never empty. Existing keys are matched literally, whatever
their characters.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from prism_edge.grounding import Grounding
from prism_edge.schema import (
    MISSING,
    ClassT,
    DictT,
    ListT,
    OptionalT,
    Prim,
    Schema,
    Segment,
    TupleT,
    TypeNode,
    format_path,
    path_templates,
    unwrap,
)

Section = Literal["start", "update", "add"]
LIST_ITEMS = 4
"""Items a list value of one revision holds at most (more can be appended by later lines)."""
TRIE_DEPTH = 48
"""Characters of stored strings the grammar spells out to exclude repeats (keys: all)."""
UPDATE_LINE = "[OBJECTS FOR UPDATE]\n"
ADD_LINE = "[OBJECTS FOR ADD]\n"


@dataclass(frozen=True)
class GrammarLimits:
    max_revisions: int = 8
    """Lines per section at most."""
    max_string: int = 400
    """Characters per JSON string at most."""
    max_items: int = LIST_ITEMS
    """Items per list (or dict) value at most."""
    max_key: int = 64
    """Characters of a new dict key at most."""


def literal(text: str) -> str:
    """A GBNF string literal."""
    out = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return '"' + out.replace("\r", "\\r").replace("\t", "\\t") + '"'


def _class_char(ch: str) -> str:
    """A character inside a GBNF character class: ASCII punctuation as a hex escape."""
    if ch.isascii() and not ch.isalnum():
        return f"\\x{ord(ch):02X}"
    return ch


class Rules:
    """A registry of named rules: same body, same name; stable output order."""

    def __init__(self) -> None:
        self._by_name: dict[str, str] = {}
        self._by_body: dict[str, str] = {}
        self._count: dict[str, int] = {}

    def add(self, name: str, body: str) -> str:
        if body in self._by_body:
            return self._by_body[body]
        unique, n = name, self._count.get(name, 1)
        while unique in self._by_name:
            n += 1
            unique = f"{name}-{n}"
        self._count[name] = n
        self._by_name[unique] = body
        self._by_body[body] = unique
        return unique

    def text(self, root: str) -> str:
        lines = [f"root ::= {root}"]
        lines += [f"{name} ::= {body}" for name, body in sorted(self._by_name.items())]
        return "\n".join(lines) + "\n"


# --- values ------------------------------------------------------------------------------------

_STRING_CHAR = r'[^"\\\x00-\x1f] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4})'


_SEPARATOR = "[ ,.;:!?()\\x2D]{1,3}"
"""Between two words of a grounded string: spaces and punctuation (no quotes, no escapes)."""
_PROSE_SEPARATOR = "[ ,.;:!?()\\n\\x2D]{1,3}"
"""Between two words of grounded prose: the same, and line breaks."""
WORD_CHARS = 5
"""Characters a word and its separator take on average, for a grounded string's word bound."""


class _Values:
    def __init__(
        self,
        rules: Rules,
        schema: Schema,
        limits: GrammarLimits,
        grounding: Grounding | None = None,
    ) -> None:
        self.rules = rules
        self.schema = schema
        self.limits = limits
        self.grounding = grounding
        self._grounded: str | None = None
        """The grounded string rule once built ("" when the grounding has no words)."""
        self.ws = rules.add("ws", '" "?')

    def string(self) -> str:
        if self.grounding is not None:
            grounded = self.grounded_string()
            if grounded is not None:
                return grounded
        char = self.rules.add("char", _STRING_CHAR)
        return self.rules.add("string", f'"\\"" {char}{{1,{self.limits.max_string}}} "\\""')

    def grounded_string(self) -> str | None:
        """A JSON string of the grounding's words, joined by spaces and punctuation, or in an
        extractive grounding one of its sentences."""
        assert self.grounding is not None
        if self._grounded is not None:
            return self._grounded or None
        if self.grounding.sentences:
            bodies = (json.dumps(s, ensure_ascii=False)[1:-1] for s in self.grounding.sentences)
            sentence = choice(self.rules, "sentence", bodies)
            self._grounded = self.rules.add("grounded-string", f'"\\"" {sentence} "\\""')
            return self._grounded
        word = choice(self.rules, "word", self.grounding.words)
        self._grounded = ""
        if word is None:
            return None
        sep = self.rules.add("separator", _SEPARATOR)
        more = max(0, self.limits.max_string // WORD_CHARS - 1)
        self._grounded = self.rules.add(
            "grounded-string", f'"\\"" {word} ({sep} {word}){{0,{more}}} [.!?]? "\\""'
        )
        return self._grounded

    def of(self, node: TypeNode) -> str:
        if isinstance(node, Prim):
            return self._prim(node.kind)
        if isinstance(node, OptionalT):
            inner = self.of(node.inner)
            return self.rules.add(f"{inner}-or-null", f'{inner} | "null"')
        if isinstance(node, ListT):
            item = self.of(node.item)
            more = max(0, self.limits.max_items - 1)
            body = f'"[" ({item} ("," {self.ws} {item}){{0,{more}}})? "]"'
            return self.rules.add(f"list-{item}", body)
        if isinstance(node, TupleT):
            items = f' "," {self.ws} '.join(self.of(i) for i in node.items)
            return self.rules.add("tuple", f'"[" {items} "]"')
        if isinstance(node, DictT):
            value = self.of(node.value)
            pair = self.rules.add(f"pair-{value}", f'{self.string()} ":" {self.ws} {value}')
            more = max(0, self.limits.max_items - 1)
            return self.rules.add(
                f"dict-{value}", f'"{{" ({pair} ("," {self.ws} {pair}){{0,{more}}})? "}}"'
            )
        return self._class(node)

    def _class(self, node: ClassT) -> str:
        parts = []
        for i, f in enumerate(node.fields):
            value = self.of(f.type)
            if self.schema.allow_missing:
                value = self.rules.add(
                    f"{value}-or-missing", f'{value} | {literal(json.dumps(MISSING))} | "null"'
                )
            sep = "" if i == 0 else f'"," {self.ws} '
            parts.append(f"{sep}{literal(json.dumps(f.name) + ':')} {self.ws} {value}")
        return self.rules.add(_name(node.name), '"{" ' + " ".join(parts) + ' "}"')

    def _prim(self, kind: str) -> str:
        if kind == "str":
            return self.string()
        if kind == "bool":
            return self.rules.add("boolean", '"true" | "false"')
        integer = self.rules.add("integer", '"-"? ("0" | [1-9] [0-9]{0,17})')
        if kind == "int":
            return integer
        return self.rules.add(
            "number", f'{integer} ("." [0-9]{{1,17}})? ([eE] [-+]? [0-9]{{1,3}})?'
        )


def _name(text: str) -> str:
    out = "".join(ch.lower() if ch.isalnum() else "-" for ch in text).strip("-")
    return out or "rule"


# --- paths -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Target:
    segments: tuple[Segment, ...]
    node: TypeNode
    subject: str | None = None
    """The deepest dict key on the path: what the value there is about."""


def existing_paths(schema: Schema, data: dict[str, Any]) -> Iterator[_Target]:
    """Every concrete path in the memory below the root, with its schema type."""

    def walk(
        value: Any, node: TypeNode, at: tuple[Segment, ...], about: str | None = None
    ) -> Iterator[_Target]:
        node = unwrap(node)
        if isinstance(node, ClassT) and isinstance(value, dict):
            for f in node.fields:
                if f.name in value:
                    yield _Target((*at, f.name), f.type, about)
                    yield from walk(value[f.name], f.type, (*at, f.name), about)
        elif isinstance(node, DictT) and isinstance(value, dict):
            for key, item in value.items():
                yield _Target((*at, key), node.value, key)
                yield from walk(item, node.value, (*at, key), key)
        elif isinstance(node, ListT) and isinstance(value, list):
            for i, item in enumerate(value):
                yield _Target((*at, i), node.item, about)
                yield from walk(item, node.item, (*at, i), about)
        elif isinstance(node, TupleT) and isinstance(value, list):
            for i, (item, item_node) in enumerate(zip(value, node.items, strict=False)):
                yield _Target((*at, i), item_node, about)
                yield from walk(item, item_node, (*at, i), about)

    yield from walk(data, schema.root, ())


def _path_literal(segments: tuple[Segment, ...]) -> str:
    """The GBNF literal of a path as it appears inside the JSON key string."""
    return literal(json.dumps(format_path(segments), ensure_ascii=False)[1:-1])


def _trie(words: Iterable[str]) -> dict[str, Any]:
    """A character trie of ``words``: each node maps a character to its child, and holds
    ``""`` where a word ends."""
    trie: dict[str, Any] = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}
    return trie


def _complement(
    rules: Rules,
    name: str,
    words: list[str],
    follows: Callable[[str], bool],
    leave: Callable[[list[str], int], list[str]],
    anything: str,
    depth_limit: int = TRIE_DEPTH,
) -> str:
    """A non-empty string that is none of ``words``: a trie of the words in which every node
    also lets the string leave on a character no word continues with (``leave``), or end where
    no word ends. ``follows`` says which characters the trie may spell out literally.

    The trie is spelled out to ``depth_limit`` characters; past that, ``anything`` (a rule for
    any rest, empty included) takes over, so a string sharing that long a prefix with a word is
    let through and left to the applier, which refuses exact repeats too.
    """
    trie = _trie(words)

    def build(node: dict[str, Any], depth: int) -> str:
        if depth >= depth_limit:  # stop spelling out; still never end on a word's last char
            if "" not in node:
                return anything
            return rules.add(f"{name}-past", " | ".join(leave([], depth)))
        children = sorted(c for c in node if c and follows(c))
        options = leave(children, depth)
        options += [f"{literal(ch)} {build(node[ch], depth + 1)}" for ch in children]
        if depth > 0 and "" not in node:
            options.append('""')
        return rules.add(f"{name}-{depth}", " | ".join(options))

    return build(trie, 0)


def bounded_complement(
    rules: Rules,
    name: str,
    exclude: Iterable[str],
    longest: int,
    char_class: Callable[[int, str], str],
    spells: Callable[[int, str], bool],
) -> str:
    """A rule for a string of 1 to ``longest`` characters that is none of ``exclude``.

    Exact, and bounded on every path: a trie of the excluded words (those short enough to be
    written) in which every node lets the string leave on a character no word continues
    with, or end where no word ends. ``char_class(depth, excluded)`` is the GBNF class of the
    characters allowed at ``depth`` minus ``excluded`` ("" when none is left);
    ``spells(depth, ch)`` says whether ``ch`` is allowed there. Excluded characters are passed
    as themselves, not escaped.
    """

    def tail(room: int) -> str:
        """Up to ``room`` more characters: a chain of rules, one a length, shared."""
        if room <= 0:
            return '""'
        return rules.add(f"{name}-tail-{room}", f'{char_class(1, "")} {tail(room - 1)} | ""')

    trie = _trie(w for w in exclude if 0 < len(w) <= longest)

    def build(node: dict[str, Any], depth: int) -> str | None:
        children = sorted(c for c in node if c and spells(depth, c))
        options = []
        if depth < longest:
            leave = char_class(depth, "".join(children))
            if leave:
                options.append(f"{leave} {tail(longest - depth - 1)}")
            for ch in children:
                after = build(node[ch], depth + 1)
                if after is not None:
                    options.append(f"{literal(ch)} {after}")
        if depth > 0 and "" not in node:
            options.append('""')
        return rules.add(f"{name}-{depth}", " | ".join(options)) if options else None

    root = build(trie, 0)
    if root is None:
        raise ValueError(f"every {name} is excluded")
    return root


def choice(rules: Rules, name: str, options: Iterable[str]) -> str | None:
    """A rule for exactly one of ``options`` (non-empty strings), as a radix trie: a node per
    branching point, shared prefixes spelled once. None when there are no options."""
    trie = _trie(w for w in options if w)
    if not trie:
        return None

    def build(node: dict[str, Any]) -> str:
        alternatives = ['""'] if "" in node else []
        for ch in sorted(c for c in node if c):
            run, child = ch, node[ch]
            while len(child) == 1 and "" not in child:  # a chain: one literal
                ((nxt, child),) = child.items()
                run += nxt
            if list(child) == [""]:
                alternatives.append(literal(run))
            else:
                alternatives.append(f"{literal(run)} {build(child)}")
        return rules.add(f"{name}-node", " | ".join(alternatives))

    return build(trie)


_KEY_BANNED = "'\"\\\\{}\\[\\]$\\x00-\\x1f"


def _new_key(rules: Rules, existing: list[str], limits: GrammarLimits) -> str:
    """A rule for a dict key (between the single quotes) that is none of ``existing``, of
    1 to ``max_key + 1`` characters, not starting with a space. Bounded on every path, so a
    new key cannot grow by extending an old one step after step."""

    def char_class(depth: int, excluded: str) -> str:
        escaped = "".join(_class_char(c) for c in excluded)
        return f"[^{_KEY_BANNED}{escaped}{' ' if depth == 0 else ''}]"

    def spells(depth: int, ch: str) -> bool:
        return ch not in "'\"\\{}[]$" and ord(ch) >= 0x20 and (depth > 0 or ch != " ")

    return bounded_complement(rules, "new-key", existing, limits.max_key + 1, char_class, spells)


def identifier(
    rules: Rules, name: str, exclude: Iterable[str], first: str, rest: str, longest: int
) -> str:
    """A rule for an identifier of 1 to ``longest`` characters, starting with one of ``first``
    and going on with ``rest``, that is none of ``exclude``."""

    def char_class(depth: int, excluded: str) -> str:
        allowed = first if depth == 0 else rest
        kept = "".join(_class_char(c) for c in sorted(allowed) if c not in excluded)
        return f"[{kept}]" if kept else ""

    def spells(depth: int, ch: str) -> bool:
        return ch in (first if depth == 0 else rest)

    return bounded_complement(rules, name, exclude, longest, char_class, spells)


def _new_string(rules: Rules, existing: list[str], limits: GrammarLimits) -> str:
    """A JSON string (quotes included) equal to none of ``existing``.

    The complement is spelled over the characters of the JSON encodings; values that hold an
    escape sequence are left to the applier (which refuses repeats too).
    """
    plain = sorted(
        {
            json.dumps(v, ensure_ascii=False)[1:-1]
            for v in existing
            if "\\" not in json.dumps(v, ensure_ascii=False)
        }
    )
    char = rules.add("char", _STRING_CHAR)
    # one named rule: llama.cpp expands every `x{0,N}` it meets into N rules
    rest = rules.add("string-rest", f"{char}{{0,{limits.max_string}}}")
    if not plain:
        return rules.add("string", f'"\\"" {char}{{1,{limits.max_string}}} "\\""')

    def leave(children: list[str], depth: int) -> list[str]:
        excluded = "".join(_class_char(c) for c in children)
        return [
            f'[^"\\\\\\x00-\\x1f{excluded}] {rest}',
            f'"\\\\" (["\\\\/bfnrt] | "u" [0-9a-fA-F]{{4}}) {rest}',
        ]

    inner = _complement(rules, "new-string", plain, lambda c: True, leave, rest)
    return rules.add("new-string", f'"\\"" {inner} "\\""')


def revision_grammar(
    schema: Schema,
    data: dict[str, Any],
    *,
    add_only: bool = False,
    limits: GrammarLimits | None = None,
    section: Section = "start",
    used: int = 0,
    grounding: Grounding | None = None,
) -> str:
    """The GBNF grammar of one revision step against memory ``data``.

    ``section`` and ``used`` give the grammar of the *rest* of a step: after the update header
    (``update``) or the add header (``add``), with ``used`` lines of that section written.
    With a ``grounding`` (the chunk's words and spans), new dict keys are spans of the chunk
    and strings are made of its words; a repeated string is then left to the applier.
    """
    limits = limits or GrammarLimits()
    rules = Rules()
    values = _Values(rules, schema, limits, grounding)
    by_subject: dict[str, _Values | None] = {}

    def about(subject: str | None) -> _Values | None:
        """The values a line about ``subject`` may hold (None: the chunk says nothing of it)."""
        if grounding is None or not grounding.sentences or subject is None:
            return values
        if subject not in by_subject:
            sentences = grounding.about(subject)
            by_subject[subject] = (
                _Values(rules, schema, limits, replace(grounding, sentences=sentences))
                if sentences
                else None
            )
        return by_subject[subject]

    adds: list[str] = []
    updates: list[str] = []
    for f in schema.root.fields:
        if f.name not in data:
            adds.append(_line(rules, values, (f.name,), f.type, "add"))
    for target in existing_paths(schema, data):
        node = unwrap(target.node)
        value = _lookup(data, target.segments)
        if isinstance(node, DictT) and isinstance(value, dict):
            prefix = _path_literal(target.segments)[:-1] + ".'\""
            if grounding is not None and grounding.sentences:
                # extractive: each new key with only the sentences that name it
                for span in _new_keys(value, grounding, limits):
                    said = about(span)
                    if said is not None:
                        adds.append(_add_key_line(rules, said, prefix, literal(span), node.value))
                continue
            key = _new_key_rule(rules, value, grounding, limits)
            if key is not None:
                adds.append(_add_key_line(rules, values, prefix, key, node.value))
            continue
        here = about(target.subject)
        if here is None:  # an extractive step cannot add to what its chunk does not name
            continue
        if isinstance(node, ListT) and isinstance(value, list):
            if unwrap(node.item) == Prim("str") and grounding is None:  # never a repeat
                item = _new_string(rules, [v for v in value if isinstance(v, str)], limits)
                adds.append(_line_with(rules, here, target.segments, item, "add"))
            else:
                adds.append(_line(rules, here, target.segments, node.item, "add"))
        if not add_only and not (len(target.segments) == 1 and isinstance(node, ListT)):
            if node == Prim("str") and isinstance(value, str) and grounding is None:
                # a change, never the same text
                changed = _new_string(rules, [value], limits)
                updates.append(_line_with(rules, here, target.segments, changed, "update"))
            else:
                updates.append(_line(rules, here, target.segments, target.node, "update"))
    n = limits.max_revisions
    parts: list[str] = []
    if section == "start" and not add_only:
        parts.append(literal(UPDATE_LINE))
    if section in ("start", "update") and not add_only:
        parts.append(_repeat(rules, "update", updates, n - used if section == "update" else n))
    if section != "add":
        parts.append(literal(ADD_LINE))
    parts.append(_repeat(rules, "add", adds, n - used if section == "add" else n))
    return rules.text(" ".join(p for p in parts if p != '""') or '""')


def _add_key_line(rules: Rules, values: _Values, prefix: str, key: str, node: TypeNode) -> str:
    """An add line of a new dict entry: ``prefix`` (the dict's path, open quote), the ``key``
    rule or literal, and a value of ``node``."""
    opening = literal('{"')
    body = f"{opening} {prefix} {key} {literal(_ADD_OPEN)} {values.ws} {values.of(node)} "
    return rules.add("add-line", body + literal("}}"))


_ADD_OPEN = '\'": {"add":'


def _new_keys(value: dict[str, Any], grounding: Grounding, limits: GrammarLimits) -> list[str]:
    """The grounding's spans that can be new keys of a dict holding ``value``."""
    return sorted(
        k
        for k in grounding.spans
        if k not in value and len(k) <= limits.max_key and "'" not in k and "’" not in k
    )


def _new_key_rule(
    rules: Rules, value: dict[str, Any], grounding: Grounding | None, limits: GrammarLimits
) -> str | None:
    """A new key of a dict holding ``value``: free text, or with a grounding a span of the
    chunk that is not a key yet (None: no span is left)."""
    if grounding is None:
        return _new_key(rules, sorted(value), limits)
    return choice(rules, "new-key", _new_keys(value, grounding, limits))


def _repeat(rules: Rules, name: str, options: list[str], times: int) -> str:
    """Up to ``times`` lines of the given alternatives ("" when none are possible)."""
    if not options or times <= 0:
        return '""'
    return f'({_alt(rules, name, options)} "\\n"){{0,{times}}}'


def _alt(rules: Rules, name: str, options: list[str]) -> str:
    return rules.add(f"{name}-lines", " | ".join(dict.fromkeys(options)))


def _line(
    rules: Rules, values: _Values, segments: tuple[Segment, ...], node: TypeNode, op: str
) -> str:
    return _line_with(rules, values, segments, values.of(node), op)


def _line_with(
    rules: Rules, values: _Values, segments: tuple[Segment, ...], value: str, op: str
) -> str:
    body = f'"{{\\"" {_path_literal(segments)} "\\": {{\\"{op}\\":" {values.ws} {value} "}}}}"'
    return rules.add(f"{op}-line", body)


def _lookup(data: Any, segments: tuple[Segment, ...]) -> Any:
    for seg in segments:
        data = data[seg]
    return data


def answer_grammar(names: list[str]) -> str | None:
    """Exactly one of ``names`` (e.g. a function name from the memory's keys); None if none."""
    if not names:
        return None
    options = " | ".join(literal(n) for n in sorted(set(names)))
    return f"root ::= {options}\n"


def prose_grammar(words: Iterable[str], max_words: int) -> str | None:
    """Prose made only of ``words``, joined by spaces, punctuation and line breaks, at most
    ``max_words`` words (None when there are no words)."""
    rules = Rules()
    word = choice(rules, "word", words)
    if word is None:
        return None
    sep = rules.add("separator", _PROSE_SEPARATOR)
    return rules.text(f"{word} ({sep} {word}){{0,{max(0, max_words - 1)}}} [.!?]?")


PARAGRAPH_BREAK = "\n\n"
PARAGRAPH_WORDS = 40
"""Words a paragraph of an outlined answer holds at most after its key."""


def outline_grammar(keys: list[str], words: Iterable[str], max_words: int) -> str | None:
    """Prose in paragraphs that each open with one of ``keys`` (a memory's names), in their
    order, each at most once, followed by ``words`` as in :func:`prose_grammar`: an answer
    that walks the memory entry by entry, skipping what it likes, to the last one (the story's
    end; a small model otherwise stops after an entry or two). None when there are no keys or
    words."""
    rules = Rules()
    word = choice(rules, "word", words)
    keys = list(dict.fromkeys(k for k in keys if k))
    if word is None or not keys:
        return None
    sep = rules.add("separator", _SEPARATOR)
    more = max(1, min(PARAGRAPH_WORDS, max_words) - 1)
    rest = rules.add("paragraph-rest", f"({sep} {word}){{1,{more}}} [.!?]?")
    tail = f"{literal(keys[-1])} {rest}"
    for key in reversed(keys[:-1]):  # this key's paragraph then the later ones, or skip it
        later = rules.add("outline", tail)
        tail = f"{literal(key)} {rest} {literal(PARAGRAPH_BREAK)} {later} | {later}"
    return rules.text(tail)


def _addable_types(schema: Schema) -> list[TypeNode]:
    """The value types a revision line can carry."""
    return [
        t.type
        for t in path_templates(schema)
        if t.parts[-1] is None
        or isinstance(t.parts[-1], int)  # dict values, list items
        or (len(t.parts) == 1 and not isinstance(unwrap(t.type), (ListT, DictT)))
    ]


def closing_reserve(schema: Schema) -> int:
    """Tokens that finish any open line in the shortest way the grammar allows.

    Closing a line writes the fields still missing, each with a one-token value, and closes
    every open string, list and object: about 6 tokens a field plus the brackets. The decoder
    switches to closing when a line is open and no more tokens than this are left, so the
    output budget never cuts a revision in half.
    """

    def fields(node: TypeNode) -> int:
        node = unwrap(node)
        if isinstance(node, (ListT, DictT)):
            return 1 + fields(node.item if isinstance(node, ListT) else node.value)
        if isinstance(node, TupleT):
            return sum(fields(i) for i in node.items)
        if isinstance(node, ClassT):
            return sum(fields(f.type) for f in node.fields)
        return 1

    return 12 + 6 * max([1, *(fields(node) for node in _addable_types(schema))])


def string_slots(schema: Schema) -> int:
    """How many strings one revision value holds at most (lists and dicts of LIST_ITEMS).

    Used to split a step's output budget among the strings of a line, so one line fits.
    """

    def slots(node: TypeNode) -> int:
        node = unwrap(node)
        if isinstance(node, Prim):
            return 1 if node.kind == "str" else 0
        if isinstance(node, ListT):
            return LIST_ITEMS * slots(node.item)
        if isinstance(node, DictT):
            return LIST_ITEMS * slots(node.value)
        if isinstance(node, TupleT):
            return sum(slots(i) for i in node.items)
        if isinstance(node, ClassT):
            return sum(slots(f.type) for f in node.fields)
        return 0

    return max([1, *(slots(node) for node in _addable_types(schema))])


def preset_grammars() -> dict[str, str]:
    """The revision grammars of the built-in presets on an empty memory, by file name."""
    from prism_edge.tasks import TASKS

    out: dict[str, str] = {}
    for name, task in TASKS.items():
        empty = task.schema.empty_memory()
        out[f"{name}.gbnf"] = revision_grammar(task.schema, empty)
        out[f"{name}.add-only.gbnf"] = revision_grammar(task.schema, empty, add_only=True)
    return out


@dataclass
class StepGrammar:
    """The grammar of one revision step, rebuilt after every line it lets through.

    A grammar fixed for the whole step cannot see what the step's own earlier lines did: a key
    added on line 1 may not be added again on line 2, and may now be updated. This object keeps
    a scratch copy of the memory, applies each finished line to it, and hands the backend the
    grammar of the rest of the output. It ends the step (returns None) when a line repeats what
    is stored (a model caught in a loop) or when the tokens left could not hold another line.
    """

    schema: Schema
    data: dict[str, Any]
    add_only: bool = False
    limits: GrammarLimits = field(default_factory=GrammarLimits)
    section: Section = "start"
    used: int = 0
    longest_line: int = 0
    stopped: str | None = None
    """Why the step was ended early: ``repeat`` or ``budget`` (None: it was not)."""
    closing_reserve: int = 0
    """Tokens kept to close an open line (0: derived from the schema)."""
    grounding: Grounding | None = None
    """The chunk's words and spans, when what is stored must come from it."""

    def __post_init__(self) -> None:
        self.data = json.loads(json.dumps(self.data))  # a scratch copy
        self.closing_reserve = self.closing_reserve or closing_reserve(self.schema)

    def initial(self) -> str:
        return self._grammar()

    def after_line(self, line: str, line_tokens: int, tokens_left: int) -> str | None:
        from prism_edge.revisions import ADD_HEADER, UPDATE_HEADER, apply_all, parse_output

        text = line.strip()
        if text == UPDATE_HEADER:
            self.section, self.used = "update", 0
        elif text == ADD_HEADER:
            self.section, self.used = "add", 0
        else:
            parsed = parse_output(text)
            report = apply_all(self.schema, self.data, parsed.revisions, add_only=self.add_only)
            if parsed.rejected or report.rejected:
                self.stopped = "repeat"
                return None
            self.used += 1
            self.longest_line = max(self.longest_line, line_tokens)
        header = 16 if self.section == "update" else 0
        if tokens_left < max(self.longest_line, 24, self.closing_reserve) + header:
            self.stopped = "budget"
            return None
        return self._grammar()

    def _grammar(self) -> str:
        return revision_grammar(
            self.schema,
            self.data,
            add_only=self.add_only,
            limits=self.limits,
            section=self.section,
            used=self.used,
            grounding=self.grounding,
        )
