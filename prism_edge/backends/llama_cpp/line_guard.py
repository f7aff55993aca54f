"""No line of a per-line grammar cut by the output budget: the decoder's guard, which keeps a
way to end the open line in the tokens left known after every token."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from prism_edge.backends.llama_cpp.backend import LlamaCppBackend


class _LineGuard:
    """Keeps every line of a per-line grammar finishable within the output budget.

    The invariant, checked with the grammar itself after every token of a line: the line can
    still be ended within the tokens left. The way to end it is found by llama.cpp's grammar
    engine on a copy of the state (:meth:`Constraint.completion`: single-character tokens,
    closers first, then re-spelled in the model's own tokens when the grammar takes them), so it
    holds for whatever the grammar demands -- missing fields, grounded words, the key
    complement -- not for an estimate. A sampled token after which the line could no longer end
    in time is replaced by the completion known to fit since the token before, which is then
    emitted as it is; a line whose first token could not end in time is not begun (the output
    ends there). So after every token some completion that fits is known: by induction no line
    is ever cut. While the model's tokens follow the known
    completion (a grounded sentence), no search is needed; otherwise one search a token. It
    costs 3-9% of a revision call (``benchmarks/results/line_guard.txt``).
    """

    def __init__(self, backend: LlamaCppBackend, constraint: Any) -> None:
        self._backend = backend
        self._constraint = constraint
        self._forced: list[int] = []
        self._path = b""
        """The single-byte completion of the open line from the current state (b"": none
        known). The grammar state depends only on the bytes accepted, so after a token whose
        bytes begin this path, the rest of the path is the completion again, found without a
        search -- the common case when grounding makes the model follow a sentence."""
        self._safe: list[int] | None = None
        """A completion of the open line from the current state, in tokens, known to fit the
        tokens left: the invariant's witness, forced when a sampled token would break it."""

    def close_line(self) -> bool:
        """Emit, from the next token on, the completion of the open line known to fit (the
        invariant's witness): the line ends as soon as the grammar lets it. False when none is
        known (the line's first token)."""
        if self._safe is None or self._forced:
            return False
        self._forced, self._path, self._safe = [int(t) for t in self._safe], b"", None
        return bool(self._forced)

    @property
    def forcing(self) -> bool:
        """Whether the guard is emitting its own completion (no jump-forward meanwhile)."""
        return bool(self._forced)

    def check(self, token: int, left: int, end_of_generation: bool) -> int | None:
        """The token to emit: ``token`` or a forced one; None ends the output here (no line
        can start and end in what is left). ``left`` counts this token."""
        if not self._constraint.per_line:
            return token
        if self._forced:
            return self._forced.pop(0)
        if not self._constraint.in_line:
            self._path, self._safe = b"", None  # a new line: nothing known yet
            if end_of_generation:
                return token
        piece = self._backend._piece_bytes(token)
        if self._path and self._path.startswith(piece) and self._fits_after(piece, token, left):
            return token
        steps = self._backend.completion_steps()
        search = max(4 * left, 512)  # single bytes: the model's tokens are fewer
        after = self._constraint.completion(token, steps, search)
        compact = self._compact(token, after)
        if after is not None and compact is not None and len(compact) <= left - 1:
            self._path = b"".join(self._backend._piece_bytes(t) for t in after)
            self._safe = compact
            return token
        if self._safe is None:
            return None  # the line's first token, and the line it starts cannot end in time
        # the completion known to fit since the last token (the invariant): follow it
        forced = self._safe
        self._forced, self._path, self._safe = [int(t) for t in forced[1:]], b"", None
        return int(forced[0])

    def _fits_after(self, piece: bytes, token: int, left: int) -> bool:
        """With ``token`` on the known path: whether the rest still fits (and keep it)."""
        rest = self._path[len(piece) :]
        safe = self._safe
        if safe and safe[0] == token:
            rest_tokens: list[int] | None = safe[1:]
        else:
            singles = [self._backend._single_byte(b) for b in rest]
            if None in singles:
                return False
            rest_tokens = self._compact(token, [int(t) for t in singles if t is not None])
        if rest_tokens is None or len(rest_tokens) > left - 1:
            return False
        self._path, self._safe = rest, rest_tokens
        return True

    def _compact(self, after: int | None, tokens: list[int] | None) -> list[int] | None:
        """The same completion in the model's own (longer) tokens when the grammar takes them,
        else as it is: its length is what the line needs at most."""
        if not tokens:
            return tokens
        text = self._backend._text(tokens)
        lines = [line + "\n" for line in text.split("\n")[:-1]] or [text]
        compact = [t for line in lines for t in self._backend._tokenize(line, special=False)]
        if len(compact) < len(tokens) and self._constraint.follows(after, compact):
            return compact
        return tokens
