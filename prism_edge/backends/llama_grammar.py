"""llama.cpp's own grammar engine, one token at a time (through its sampler API).

:class:`GrammarMatcher` answers "may this token come next?" for a single token, which is what
sample-first constrained decoding needs: sample from the unconstrained distribution, keep the
token when the grammar allows it, and only otherwise filter the whole vocabulary. It also lets
tests check that a text is accepted by exactly the engine that constrains generation.
"""

from __future__ import annotations

import ctypes
from typing import Any

import llama_cpp
import numpy as np
from llama_cpp._internals import LlamaTokenDataArray

_NEG_INF = float("-inf")


class GrammarMatcher:
    """The state of a GBNF grammar as tokens are accepted."""

    def __init__(self, vocab: Any, grammar: str | None, root: str = "root") -> None:
        self._vocab = vocab
        self._sampler: Any = None
        if grammar is not None:
            self._sampler = llama_cpp.llama_sampler_init_grammar(
                vocab, grammar.encode("utf-8"), root.encode("utf-8")
            )
            if not self._sampler:
                raise ValueError("llama.cpp rejected the grammar")
        self._one = (llama_cpp.llama_token_data * 1)()
        self._one_array = llama_cpp.llama_token_data_array(
            data=self._one, size=1, selected=-1, sorted=False
        )
        self._candidates: LlamaTokenDataArray | None = None
        self._some: Any = None

    def close(self) -> None:
        if self._sampler:
            llama_cpp.llama_sampler_free(self._sampler)
            self._sampler = None

    def __del__(self) -> None:
        self.close()

    def clone(self) -> GrammarMatcher:
        """An independent copy of this state (llama.cpp's ``llama_sampler_clone``)."""
        copy = GrammarMatcher(self._vocab, None)
        copy._sampler = llama_cpp.llama_sampler_clone(self._sampler)
        if not copy._sampler:
            raise ValueError("llama.cpp could not copy the grammar state")
        return copy

    def allows(self, token: int) -> bool:
        """Whether ``token`` may come next (the state does not change)."""
        self._one[0].id = token  # type: ignore[assignment]
        self._one[0].logit = 0.0
        self._one[0].p = 0.0
        self._one_array.size = 1
        self._one_array.selected = -1
        llama_cpp.llama_sampler_apply(self._sampler, ctypes.byref(self._one_array))
        return bool(self._one[0].logit != _NEG_INF)

    def allowed_of(self, tokens: list[int]) -> list[int]:
        """Which of ``tokens`` may come next, in one pass of the grammar engine (the state
        does not change)."""
        n = len(tokens)
        if self._some is None or len(self._some) < n:
            self._some = (llama_cpp.llama_token_data * max(n, 1))()
        for i, token in enumerate(tokens):
            self._some[i].id = token
            self._some[i].logit = 0.0
            self._some[i].p = 0.0
        array = llama_cpp.llama_token_data_array(data=self._some, size=n, selected=-1, sorted=False)
        llama_cpp.llama_sampler_apply(self._sampler, ctypes.byref(array))
        return [int(self._some[i].id) for i in range(n) if self._some[i].logit != _NEG_INF]

    def accept(self, token: int) -> None:
        llama_cpp.llama_sampler_accept(self._sampler, token)

    def mask(self, logits: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """A copy of ``logits`` with every token the grammar forbids at -inf (whole vocabulary).

        This is the expensive path (the grammar visits every token); sample-first decoding
        takes it only when the sampled token was rejected.
        """
        if self._candidates is None or self._candidates.n_vocab != len(logits):
            self._candidates = LlamaTokenDataArray(n_vocab=len(logits))
        candidates = self._candidates
        candidates.copy_logits(logits)
        llama_cpp.llama_sampler_apply(self._sampler, ctypes.byref(candidates.candidates))
        size = int(candidates.candidates.size)
        out = np.full(len(logits), -np.inf, dtype=np.float32)
        data = candidates.candidates_data[:size]
        out[data["id"]] = data["logit"]
        return out


def accepts(vocab: Any, grammar: str, tokens: list[int], eos: int) -> bool:
    """Whether the grammar accepts exactly this token sequence followed by end of generation."""
    matcher = GrammarMatcher(vocab, grammar)
    try:
        for token in tokens:
            if not matcher.allows(token):
                return False
            matcher.accept(token)
        return matcher.allows(eos)
    finally:
        matcher.close()


class Constraint:
    """The grammar state of one generation: a fixed GBNF grammar or a per-line one.

    With a :class:`~prism_edge.backends.LineGrammar`, a token may not straddle a line end (its
    text may hold a newline only as its last character), so every line ends on a token boundary
    and the next line's grammar takes over from exactly there.
    """

    def __init__(self, vocab: Any, grammar: Any, piece: Any) -> None:
        self._vocab = vocab
        self._piece = piece
        self._lines = None if isinstance(grammar, str) else grammar
        text = grammar if isinstance(grammar, str) else grammar.initial()
        self._matcher: GrammarMatcher | None = GrammarMatcher(vocab, text)
        self._shadow: GrammarMatcher | None = None
        self._line: list[int] = []
        self.lines_done = 0
        """Lines ended so far (per-line grammars): the open line is number ``lines_done + 1``
        of the output."""
        self.ended = False
        self.repeat_tokens = 0
        """When the output was ended inside a line that could only be a repeat: the tokens
        of that line (to drop)."""
        self.stop_on_repeat(True)

    def stop_on_repeat(self, on: bool) -> None:
        """Follow the grammar's repeat-free form beside it (per-line grammars that have one):
        the output ends at the first token that form refuses, a line the applier would refuse
        as a repeat, ending the step, anyway (off: decode it to its end)."""
        if self._shadow is not None:
            self._shadow.close()
            self._shadow = None
        strict = self._lines.repeat_free() if on and self._lines is not None else None
        if strict is not None:
            self._shadow = GrammarMatcher(self._vocab, strict)

    def close(self) -> None:
        if self._matcher is not None:
            self._matcher.close()
            self._matcher = None
        if self._shadow is not None:
            self._shadow.close()
            self._shadow = None

    @property
    def per_line(self) -> bool:
        """Whether the grammar is a per-line one (the output is a sequence of lines)."""
        return self._lines is not None

    @property
    def in_line(self) -> bool:
        """A per-line grammar with a line begun and not yet ended."""
        return bool(self._line)

    @property
    def line_tokens(self) -> list[int]:
        """The tokens of the line begun (per-line grammars)."""
        return list(self._line)

    def _splits_line(self, token: int) -> bool:
        return self._lines is not None and b"\n" in self._piece(token)[:-1]

    def allows(self, token: int) -> bool:
        assert self._matcher is not None
        return self._matcher.allows(token) and not self._splits_line(token)

    def mask(self, logits: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        assert self._matcher is not None
        masked = self._matcher.mask(logits)
        if self._lines is not None:
            for token in np.flatnonzero(np.isfinite(masked)):
                if self._splits_line(int(token)):
                    masked[token] = -np.inf
        return masked

    def completion(self, after: int | None, steps: list[int], limit: int) -> list[int] | None:
        """Tokens that end the open line from this state (after ``after``, when given), found
        by the grammar itself: at each position the first token of ``steps`` (single
        characters, closers first) that the grammar allows. None when no end is reached
        within ``limit`` tokens (or ``after`` is not allowed)."""
        assert self._matcher is not None and self._lines is not None
        matcher = self._matcher.clone()
        out: list[int] = []
        try:
            if after is not None:
                if not matcher.allows(after):
                    return None
                matcher.accept(after)
                if self._piece(after).endswith(b"\n"):
                    return out
            for _ in range(limit):
                token = next((t for t in steps if matcher.allows(t)), None)
                if token is None:
                    return None
                matcher.accept(token)
                out.append(token)
                if self._piece(token).endswith(b"\n"):
                    return out
            return None
        finally:
            matcher.close()

    def forced(self, byte_tokens: dict[int, int], ends: list[int], limit: int) -> bytes:
        """The bytes the grammar allows as the only continuation from this state: while
        exactly one byte may come next and the output may not end, that byte (up to ``limit``
        bytes, and up to a line end, which is kept). ``byte_tokens`` maps each byte to its
        single-byte token; a byte the vocabulary cannot spell alone ends the run."""
        assert self._matcher is not None
        matcher = self._matcher.clone()
        singles = list(byte_tokens.values())
        out = bytearray()
        try:
            while len(out) < limit:
                allowed = matcher.allowed_of([*singles, *ends])
                if len(allowed) != 1 or allowed[0] in ends:
                    break
                token = allowed[0]
                piece = self._piece(token)
                out += piece
                matcher.accept(token)
                if piece.endswith(b"\n"):
                    break
            return bytes(out)
        finally:
            matcher.close()

    def follows(self, after: int | None, tokens: list[int]) -> bool:
        """Whether the grammar takes ``tokens`` from this state (after ``after``), each token
        keeping line ends last."""
        assert self._matcher is not None
        matcher = self._matcher.clone()
        try:
            for token in [after, *tokens] if after is not None else tokens:
                if not matcher.allows(token) or self._splits_line(token):
                    return False
                matcher.accept(token)
            return True
        finally:
            matcher.close()

    def accept(self, token: int, tokens_left: int, text_of: Any) -> None:
        """Advance past ``token``; at a line end, switch to the grammar of the rest."""
        assert self._matcher is not None
        self._matcher.accept(token)
        if self._lines is None:
            return
        self._line.append(token)
        if self._shadow is not None:
            if not self._shadow.allows(token):  # only a repeat can follow: end here
                self.repeat_tokens = len(self._line)
                self.ended = True
                self._lines.repeated()
                return
            self._shadow.accept(token)
        if not self._piece(token).endswith(b"\n"):
            return
        line = text_of(self._line)
        following = self._lines.after_line(line, len(self._line), tokens_left)
        self._line = []
        self.lines_done += 1
        self._matcher.close()
        self._matcher = None
        if following is None:
            self.ended = True
            self.stop_on_repeat(False)
        else:
            self._matcher = GrammarMatcher(self._vocab, following)
            self.stop_on_repeat(self._shadow is not None)
