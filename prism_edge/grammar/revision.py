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

import functools
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any, Literal

from prism_edge.core.revisions import ADD_HEADER, UPDATE_HEADER
from prism_edge.core.schema import (
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
from prism_edge.grammar.gbnf import (
    Rules,
    bounded_complement,
    choice,
    class_char,
    complement,
    literal,
    repeat_lines,
    rule_name,
)
from prism_edge.text.grounding import Grounding

Section = Literal["start", "update", "add"]
LIST_ITEMS = 4
"""Items a list value of one revision holds at most (more can be appended by later lines)."""
TRIE_DEPTH = 48
"""Characters of stored strings the grammar spells out to exclude repeats (keys: all)."""
DISTINCT_SENTENCES = 5
"""Sentences about one subject up to which a list of them is spelled without repeats (a rule
per set of sentences still free: at most 2**5)."""


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
        distinct: bool = False,
    ) -> None:
        self.rules = rules
        self.distinct = distinct
        """Lists of an extractive grounding's sentences never repeat one."""
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
            sentences = self._sentences() if unwrap(node.item) == Prim("str") else None
            if sentences is not None and self.distinct:
                return self._distinct_sentences(sentences)
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

    def _sentences(self) -> tuple[str, ...] | None:
        """The sentences an extractive grounding's strings are (None: not extractive)."""
        if self.grounding is None or not self.grounding.sentences:
            return None
        return self.grounding.sentences

    def _distinct_sentences(self, sentences: tuple[str, ...]) -> str:
        """A list of the grounding's sentences, none twice, at most ``max_items`` of them.

        The applier refuses a list that repeats an item (and the whole line with it), so a
        repeat is decoded for nothing: with up to :data:`DISTINCT_SENTENCES` sentences the
        grammar leaves each used one out of what may follow (a rule per set of sentences
        still free); with more, the list is bounded by their count and the applier refuses
        what repeats."""
        items = [
            self.rules.add("sentence", literal(json.dumps(s, ensure_ascii=False)))
            for s in dict.fromkeys(sentences)
        ]
        limit = min(self.limits.max_items, len(items))
        if len(items) > DISTINCT_SENTENCES:
            item = self.grounded_string()
            more = max(0, limit - 1)
            body = f'"[" ({item} ("," {self.ws} {item}){{0,{more}}})? "]"'
            return self.rules.add(f"list-{item}", body)

        @functools.cache
        def rest(free: tuple[str, ...], left: int) -> str:
            """What may follow an item: more items, none of them used yet, or nothing."""
            if left == 0 or not free:
                return '""'
            options = [
                f'"," {self.ws} {item} {rest(tuple(f for f in free if f != item), left - 1)}'
                for item in free
            ]
            return self.rules.add("more-sentences", '"" | ' + " | ".join(options))

        first = [f"{i} {rest(tuple(f for f in items if f != i), limit - 1)}" for i in items]
        return self.rules.add("sentence-list", '"[" (' + " | ".join(first) + ')? "]"')

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
        return self.rules.add(rule_name(node.name), '"{" ' + " ".join(parts) + ' "}"')

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


_KEY_BANNED = "'\"\\\\{}\\[\\]$\\x00-\\x1f"


def _new_key(rules: Rules, existing: list[str], limits: GrammarLimits) -> str:
    """A rule for a dict key (between the single quotes) that is none of ``existing``, of
    1 to ``max_key + 1`` characters, not starting with a space. Bounded on every path, so a
    new key cannot grow by extending an old one step after step."""

    def char_class(depth: int, excluded: str) -> str:
        escaped = "".join(class_char(c) for c in excluded)
        return f"[^{_KEY_BANNED}{escaped}{' ' if depth == 0 else ''}]"

    def spells(depth: int, ch: str) -> bool:
        return ch not in "'\"\\{}[]$" and ord(ch) >= 0x20 and (depth > 0 or ch != " ")

    return bounded_complement(rules, "new-key", existing, limits.max_key + 1, char_class, spells)


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
        excluded = "".join(class_char(c) for c in children)
        return [
            f'[^"\\\\\\x00-\\x1f{excluded}] {rest}',
            f'"\\\\" (["\\\\/bfnrt] | "u" [0-9a-fA-F]{{4}}) {rest}',
        ]

    inner = complement(rules, "new-string", plain, lambda c: True, leave, rest, TRIE_DEPTH)
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
    repeats: bool = True,
) -> str:
    """The GBNF grammar of one revision step against memory ``data``.

    ``section`` and ``used`` give the grammar of the *rest* of a step: after the update header
    (``update``) or the add header (``add``), with ``used`` lines of that section written.
    With a ``grounding`` (the chunk's words and spans), new dict keys are spans of the chunk
    and strings are made of its words; a repeated string is then left to the applier.
    With ``repeats=False`` as well an extractive grounding's sentences are never repeated: not
    one a list holds appended to it, not one twice in a list, not the one a string holds as its
    update. Those are exactly the lines the
    applier refuses as repeats, so the two grammars differ in nothing else: a backend decodes
    under the first and ends the step as soon as the second refuses a token (the line can
    only end as a repeat, which ends the step anyway).
    """
    limits = limits or GrammarLimits()
    rules = Rules()
    values = _Values(rules, schema, limits, grounding, distinct=not repeats)
    by_subject: dict[tuple[str | None, frozenset[str]], _Values | None] = {}
    extractive = grounding is not None and bool(grounding.sentences)

    def about(subject: str | None, stored: frozenset[str] = frozenset()) -> _Values | None:
        """The values a line about ``subject`` may hold, leaving out the ``stored`` sentences
        (None: the chunk says nothing of it that is not stored)."""
        if grounding is None or not grounding.sentences or (subject is None and not stored):
            return values
        if (subject, stored) not in by_subject:
            named = grounding.about(subject) if subject is not None else grounding.sentences
            sentences = tuple(s for s in named if s not in stored)
            by_subject[subject, stored] = (
                _Values(
                    rules,
                    schema,
                    limits,
                    replace(grounding, sentences=sentences),
                    distinct=not repeats,
                )
                if sentences
                else None
            )
        return by_subject[subject, stored]

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
            strings = frozenset(v for v in value if isinstance(v, str))
            if unwrap(node.item) == Prim("str") and grounding is None:  # never a repeat
                item = _new_string(rules, sorted(strings), limits)
                adds.append(_line_with(rules, here, target.segments, item, "add"))
            elif unwrap(node.item) == Prim("str") and extractive and not repeats:
                # a sentence the list does not hold yet (none left: no line)
                fresh = about(target.subject, strings)
                if fresh is not None:
                    adds.append(_line(rules, fresh, target.segments, node.item, "add"))
            else:
                adds.append(_line(rules, here, target.segments, node.item, "add"))
        if extractive and isinstance(node, ListT):
            # a list updated with the chunk's sentences would lose every stored one (they
            # are other chunks' sentences): sentences are appended, never swapped in
            continue
        if not add_only and not (len(target.segments) == 1 and isinstance(node, ListT)):
            if node == Prim("str") and isinstance(value, str) and grounding is None:
                # a change, never the same text
                changed = _new_string(rules, [value], limits)
                updates.append(_line_with(rules, here, target.segments, changed, "update"))
            elif node == Prim("str") and isinstance(value, str) and extractive and not repeats:
                # a sentence other than the one it holds (the applier refuses the same one)
                other = about(target.subject, frozenset({value}))
                if other is not None:
                    updates.append(_line(rules, other, target.segments, target.node, "update"))
            else:
                updates.append(_line(rules, here, target.segments, target.node, "update"))
    n = limits.max_revisions
    parts: list[str] = []
    if section == "start" and not add_only:
        parts.append(literal(UPDATE_HEADER + "\n"))
    if section in ("start", "update") and not add_only:
        parts.append(repeat_lines(rules, "update", updates, n - used if section == "update" else n))
    if section != "add":
        parts.append(literal(ADD_HEADER + "\n"))
    parts.append(repeat_lines(rules, "add", adds, n - used if section == "add" else n))
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


WORDS_PER_TOKEN = 0.35
"""Words an answer's token budget holds under the grammar, on the safe side (a word and its
separator take one to three tokens, a name more); a cut answer keeps its whole words."""


def outline_grammar(keys: list[str], words: Iterable[str], max_tokens: int) -> str | None:
    """Prose in paragraphs, one for each of ``keys`` (a memory's names) in their order, each
    opening with its key and followed by ``words`` as in :func:`prose_grammar`: an answer that
    gives every stored name its place. The output budget is shared: each paragraph holds at
    most its share of the budget's words (and :data:`PARAGRAPH_WORDS`); when the budget cannot
    give every key three words, only the first keys that it can are kept (order keys most
    important first). None when there are no keys or words."""
    rules = Rules()
    word = choice(rules, "word", words)
    keys = list(dict.fromkeys(k for k in keys if k))
    if word is None or not keys:
        return None
    budget = int(max_tokens * WORDS_PER_TOKEN)
    keys = keys[: max(1, budget // 4)]
    share = max(3, budget // len(keys))
    sep = rules.add("separator", _SEPARATOR)
    more = max(1, min(PARAGRAPH_WORDS, share) - 1 - max(len(k.split()) for k in keys))
    rest = rules.add("paragraph-rest", f"({sep} {word}){{1,{more}}} [.!?]?")
    paragraphs = [f"{literal(key)} {rest}" for key in keys]
    return rules.text(f" {literal(PARAGRAPH_BREAK)} ".join(paragraphs))


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
