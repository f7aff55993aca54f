"""An output decoded from the model: sample-first constrained decoding, the lines a grammar
forces at the start evaluated with the prompt, jump-forward over what the grammar forces inside,
the line guard, and the stops (a line that can only be a repeat, a loop)."""

from __future__ import annotations

from collections.abc import Container
from typing import TYPE_CHECKING, Any

from prism_edge.backends import Grammar
from prism_edge.backends.llama_cpp.line_guard import _LineGuard
from prism_edge.backends.llama_cpp.sampling import (
    REPEAT_WINDOW,
    _constrained_pick,
    _penalize,
    _pick,
)
from prism_edge.backends.loops import loop_start

if TYPE_CHECKING:
    from prism_edge.backends.llama_cpp.backend import LlamaCppBackend


class Decoder:
    """One output of a backend's model (:meth:`decode`); after it, or its failure, the decoder
    holds what the backend reports of it: the output tokens evaluated in batches, the lines
    closed because they looped, the tokens for which the grammar filtered the vocabulary."""

    def __init__(self, backend: LlamaCppBackend) -> None:
        self._backend = backend
        self.forced = 0
        """Output tokens evaluated in a batch (the forced start, drafts the model followed)."""
        self.looped: list[int] = []
        """The output lines closed early because they fell into a loop."""
        self.fallbacks = 0
        """Tokens the unconstrained sample got wrong, so the grammar filtered the vocabulary."""

    def decode(
        self,
        grammar: Grammar | None,
        max_tokens: int,
        temperature: float,
        seed: int | None,
        *,
        stop_at_eog: bool = True,
        repeat_penalty: float = 1.0,
    ) -> tuple[list[int], str]:
        """Sample-first constrained decoding, with jump-forward.

        Each step samples from the unconstrained logits, then asks llama.cpp's grammar engine
        about that one token; only when it is rejected is the grammar applied to the whole
        vocabulary and the token sampled again from what is left. At temperature 0 this picks
        exactly the token fully constrained greedy decoding picks (the unconstrained argmax,
        when allowed, is also the constrained argmax); at any temperature every emitted token
        is one the grammar allows.

        Jump-forward: where the grammar allows only one continuation (JSON syntax, the rest of
        a key or of a grounded sentence once determined), its tokens (:meth:`_jump`) are
        evaluated as one batch with the logits of every position, and each position is then
        decided exactly as above from its own logits. Where the model picks the drafted token,
        that token's forward pass was part of the batch; at the first position where it picks
        another spelling of the same text, the rest of the draft is dropped from the cache. So
        the output is the token-by-token output (the grammar is only the draft, the model
        decides), at prefill speed where the two agree.
        """
        import llama_cpp
        import numpy as np

        from prism_edge.backends.llama_grammar import Constraint

        backend = self._backend
        llama = backend.llama
        vocab = llama_cpp.llama_model_get_vocab(llama.model)
        n_vocab = llama.n_vocab()
        constraint = (
            Constraint(vocab, grammar, backend._token_bytes) if grammar is not None else None
        )
        if constraint is not None and not backend.stop_on_repeat:
            constraint.stop_on_repeat(False)
        rng = np.random.default_rng(seed)
        per_line = constraint is not None and constraint.per_line
        guard = _LineGuard(backend, constraint) if per_line else None
        out: list[int] = []
        pending: list[int] = []  # emitted, not yet evaluated
        rows: list[Any] = []  # logits of the drafted positions still to decide
        draft: list[int] = []  # the drafted token of each of those positions
        self.forced = 0
        self.looped = []
        try:
            if constraint is not None and backend.forced_start:
                out = self._start(constraint, max_tokens)
                pending = list(out)  # evaluated in one batch when the next token is wanted
                self.forced = len(out)
                if constraint.ended:
                    return out, "stop"
            while len(out) < max_tokens:
                if rows:
                    logits = rows.pop(0)
                    expected: int | None = draft.pop(0)
                else:
                    expected = None
                    if pending:  # evaluated only when another token is wanted
                        llama.eval(pending)
                        pending = []
                    pointer = llama_cpp.llama_get_logits_ith(llama.ctx, -1)
                    logits = np.ctypeslib.as_array(pointer, shape=(n_vocab,))
                if repeat_penalty != 1.0 and out:
                    logits = _penalize(logits, out[-REPEAT_WINDOW:], repeat_penalty)
                token = _pick(logits, temperature, rng)
                if constraint is not None and not constraint.allows(token):
                    self.fallbacks += 1
                    token = _constrained_pick(logits, constraint, temperature, rng)
                eog = bool(llama_cpp.llama_vocab_is_eog(vocab, token))
                if guard is not None:
                    kept = guard.check(token, max_tokens - len(out), eog)
                    if kept is None:
                        return out, "stop"  # no whole line fits what is left
                    eog = eog and kept == token  # a forced token is never the end
                    token = kept
                if stop_at_eog and eog:
                    return out, "stop"
                out.append(token)
                if expected is not None and token == expected:
                    self.forced += 1  # its forward pass was in the draft's batch
                    if not rows:
                        pending.append(token)  # the draft's last token: not evaluated yet
                elif expected is not None:
                    # another spelling than the draft's: the drafted tokens after this position
                    # (evaluated, not taken) leave the cache
                    llama.n_tokens -= len(rows)
                    rows, draft, pending = [], [], [token]
                else:
                    pending.append(token)
                if constraint is not None:
                    constraint.accept(token, max_tokens - len(out), backend._text)
                    if constraint.ended:
                        if constraint.repeat_tokens:  # a line that could only be a repeat
                            del out[len(out) - constraint.repeat_tokens :]
                        return out, "stop"
                    if self.looped and constraint.lines_done >= self.looped[-1]:
                        return out, "stop"  # the looped line is closed: the output ends
                if backend.stop_on_loop and not (guard and guard.forcing):
                    kept = _after_loop(out, constraint, backend._numerals())
                    if kept is not None and constraint is not None and guard is not None:
                        if not guard.close_line():  # the line's first token: nothing to close
                            return out[:kept], "loop"
                        # a revision line: closed now (the applier keeps what came before the
                        # loop), and the output ends with it
                        self.looped.append(constraint.lines_done + 1)
                    elif kept is not None:
                        return out[:kept], "loop"
                jump = backend.jump_forward and not rows and not (guard and guard.forcing)
                if constraint is not None and jump:
                    drafted = self._jump(constraint, max_tokens - len(out))
                    if drafted:
                        # the emitted token and all drafted but the last, one batch: the
                        # logits of every position, one per drafted token
                        rows = backend._eval_all_logits([*pending, *drafted[:-1]])
                        pending, draft = [], list(drafted)
                        rows = rows[len(rows) - len(drafted) :]
            return out, "length"
        finally:
            if constraint is not None:
                constraint.close()

    def _start(self, constraint: Any, left: int) -> list[int]:
        """Accept into ``constraint`` and return the tokens of the whole lines its grammar
        forces at the start of the output: text no model can change, so it is part of the
        prompt rather than the output. They are spelled by the tokenizer (as the prompt is) and
        evaluated in one batch with no logits but the last one's, at prefill speed. A forced run
        that does not end its line, or that the grammar does not take in the tokenizer's
        spelling, is left to the decoder."""
        backend = self._backend
        backend.completion_steps()
        assert backend._byte_tokens is not None
        tokens: list[int] = []
        while not constraint.ended:
            forced = constraint.forced(
                backend._byte_tokens, backend._end_tokens, left - len(tokens)
            )
            if not forced.endswith(b"\n"):
                break
            line = [int(t) for t in backend.llama.tokenize(forced, add_bos=False, special=False)]
            if len(tokens) + len(line) >= left or not constraint.follows(None, line):
                break
            for token in line:
                tokens.append(token)
                constraint.accept(token, left - len(tokens), backend._text)
        return tokens

    def _jump(self, constraint: Any, left: int) -> list[int]:
        """Jump-forward decoding: the tokens of what the grammar allows as the only
        continuation (JSON syntax, the rest of a key or of a grounded sentence once it is
        determined), spelled by the model's tokenizer, evaluated as one batch at prefill speed
        instead of one forward pass each. Fewer than two forced bytes: nothing to jump."""
        backend = self._backend
        backend.completion_steps()
        assert backend._byte_tokens is not None
        forced = constraint.forced(backend._byte_tokens, backend._end_tokens, left)
        if len(forced) < 2:
            return []
        tokens = [int(t) for t in backend.llama.tokenize(forced, add_bos=False, special=False)]
        if len(tokens) > left or not constraint.follows(None, tokens):
            singles = [backend._byte_tokens[b] for b in forced]  # the grammar's own spelling
            tokens = singles if len(singles) <= left else []
        return tokens


def _after_loop(out: list[int], constraint: Any, numerals: Container[int] = ()) -> int | None:
    """How much of ``out`` to keep when it has fallen into a loop; None when it has not
    (``numerals``: the tokens of digits, which count as one, so counting is a loop).

    Free text keeps the looping piece once. In a per-line output, the output before the line
    the loop is in (a line cut anywhere would not parse; the decoder closes the line instead
    where it can). An output under one fixed grammar is never cut (what is left would not be a
    sentence of the grammar)."""
    if constraint is None:
        return loop_start(out, numerals=numerals)
    if not constraint.per_line or not constraint.in_line:
        return None
    line = constraint.line_tokens
    if loop_start(line, numerals=numerals) is None:
        return None
    return len(out) - len(line)


def _in_json_string(text: str) -> bool:
    """Whether ``text`` (the start of a JSON line) ends inside a string."""
    inside = escaped = False
    for char in text:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = inside
        elif char == '"':
            inside = not inside
    return inside
