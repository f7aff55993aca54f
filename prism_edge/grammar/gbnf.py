"""GBNF building blocks, independent of PRISM: literals, a rule registry, choices and bounded
complements over character tries.

Rules go through :class:`Rules`, which de-duplicates them by content and emits them in a
stable order, so a grammar built from these pieces is deterministic and diffable.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any


def literal(text: str) -> str:
    """A GBNF string literal."""
    out = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return '"' + out.replace("\r", "\\r").replace("\t", "\\t") + '"'


def class_char(ch: str) -> str:
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


def trie(words: Iterable[str]) -> dict[str, Any]:
    """A character trie of ``words``: each node maps a character to its child, and holds
    ``""`` where a word ends."""
    root: dict[str, Any] = {}
    for word in words:
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}
    return root


def complement(
    rules: Rules,
    name: str,
    words: list[str],
    follows: Callable[[str], bool],
    leave: Callable[[list[str], int], list[str]],
    anything: str,
    depth_limit: int,
) -> str:
    """A non-empty string that is none of ``words``: a trie of the words in which every node
    also lets the string leave on a character no word continues with (``leave``), or end where
    no word ends. ``follows`` says which characters the trie may spell out literally.

    The trie is spelled out to ``depth_limit`` characters; past that, ``anything`` (a rule for
    any rest, empty included) takes over, so a string sharing that long a prefix with a word is
    let through and left to the applier, which refuses exact repeats too.
    """
    tree = trie(words)

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

    return build(tree, 0)


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

    tree = trie(w for w in exclude if 0 < len(w) <= longest)

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

    root = build(tree, 0)
    if root is None:
        raise ValueError(f"every {name} is excluded")
    return root


def choice(rules: Rules, name: str, options: Iterable[str]) -> str | None:
    """A rule for exactly one of ``options`` (non-empty strings), as a radix trie: a node per
    branching point, shared prefixes spelled once. None when there are no options."""
    tree = trie(w for w in options if w)
    if not tree:
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

    return build(tree)


def identifier(
    rules: Rules, name: str, exclude: Iterable[str], first: str, rest: str, longest: int
) -> str:
    """A rule for an identifier of 1 to ``longest`` characters, starting with one of ``first``
    and going on with ``rest``, that is none of ``exclude``."""

    def char_class(depth: int, excluded: str) -> str:
        allowed = first if depth == 0 else rest
        kept = "".join(class_char(c) for c in sorted(allowed) if c not in excluded)
        return f"[{kept}]" if kept else ""

    def spells(depth: int, ch: str) -> bool:
        return ch in (first if depth == 0 else rest)

    return bounded_complement(rules, name, exclude, longest, char_class, spells)


def rule_name(text: str) -> str:
    out = "".join(ch.lower() if ch.isalnum() else "-" for ch in text).strip("-")
    return out or "rule"


def repeat_lines(rules: Rules, name: str, options: list[str], times: int) -> str:
    """Up to ``times`` lines of the given alternatives ("" when none are possible)."""
    if not options or times <= 0:
        return '""'
    return f'({alternatives(rules, name, options)} "\\n"){{0,{times}}}'


def alternatives(rules: Rules, name: str, options: list[str]) -> str:
    return rules.add(f"{name}-lines", " | ".join(dict.fromkeys(options)))
