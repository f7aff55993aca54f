"""Text into a model's tokens and back, and what the decoder needs to know of its vocabulary.

Every prompt is turned into tokens part by part: the chat template's own text (from the GGUF
metadata) is split around the user message and tokenized with special tokens parsed
(:func:`chat_wrapping`); every prompt part -- instructions, memory, document -- is tokenized with
``special=False``, so a document that contains ``<|im_start|>`` is text, never a control token.
The single-byte tokens (:func:`completion_steps`) spell what a grammar forces and a line's
completion; the tokens of digits (:func:`numeral_tokens`) count as one to the loop detector.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from pathlib import Path
from typing import Any

from prism_edge.backends.llama_cpp.loading import (
    _load,
    check_gguf,
    embedded_model_path,
    model_parameters,
)

_SENTINEL = "\x00PRISM-USER-MESSAGE\x00"


class LlamaTokenizer:
    """A model's tokenizer alone (vocab-only load: no weights, no context), for planning."""

    def __init__(self, model_path: str | Path | None = None) -> None:
        path = Path(model_path) if model_path is not None else embedded_model_path()
        check_gguf(path)
        self.name = path.name
        self.parameters = model_parameters(path)
        """The size the header states: ``inspect`` chooses the method by it, as ``run``."""
        self.can_score = True  # a local model scores continuations
        self._vocab = _load(path, vocab_only=True)

    def tokenize(self, text: str) -> list[int]:
        if not text:
            return []
        return list(self._vocab.tokenize(text.encode("utf-8"), add_bos=False, special=False))


def tokenize(llama: Any, text: str, *, special: bool) -> list[int]:
    """``text``'s tokens, no BOS; ``special``: control tokens' text parsed as control tokens."""
    if not text:
        return []
    return list(llama.tokenize(text.encode("utf-8"), add_bos=False, special=special))


def piece_text(llama: Any, token: int) -> str:
    """A token's text as the vocabulary spells it ("" for no token)."""
    if token < 0:
        return ""
    return llama._model.token_get_text(token)  # type: ignore[no-any-return]


def chat_wrapping(llama: Any) -> tuple[list[int], list[int]]:
    """Tokens of the chat template before and after the user message (stable each call)."""
    template = llama.metadata.get("tokenizer.chat_template")
    bos_id, eos_id = llama.token_bos(), llama.token_eos()
    if template:
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        bos = piece_text(llama, bos_id)
        eos = piece_text(llama, eos_id)
        formatter = Jinja2ChatFormatter(template, eos_token=eos, bos_token=bos)
        text = formatter(messages=[{"role": "user", "content": _SENTINEL}]).prompt
        before, _, after = text.partition(_SENTINEL)
    else:  # a base model: the prompt is the text
        before, after = "", ""
    head = tokenize(llama, before, special=True)
    add_bos = str(llama.metadata.get("tokenizer.ggml.add_bos_token", "true")) == "true"
    if add_bos and bos_id >= 0 and (not head or head[0] != bos_id):
        head = [bos_id, *head]
    return head, tokenize(llama, after, special=True)


def completion_steps(
    n_vocab: int, pieces: Callable[[int], bytes]
) -> tuple[list[int], dict[int, int]]:
    """Single-byte tokens, line end and closers first, then letters, digits, punctuation and
    the bytes of non-ASCII characters: what a line's completion is spelled with (see
    :class:`~prism_edge.backends.llama_cpp.line_guard._LineGuard`); and the token of each byte
    the vocabulary spells alone."""
    wanted = "\n\"}]'),:; " + string.ascii_lowercase + string.digits
    wanted += string.ascii_uppercase + ".-_!?(/{[$"
    wanted += "".join(c for c in string.punctuation if c not in wanted)
    by_piece: dict[bytes, int] = {}
    for token in range(n_vocab):
        piece = pieces(token)
        if len(piece) == 1 and piece not in by_piece:
            by_piece[piece] = token
    chars = [c.encode() for c in wanted] + [bytes([b]) for b in range(0x80, 0x100)]
    steps = [by_piece[c] for c in chars if c in by_piece]
    return steps, {piece[0]: token for piece, token in by_piece.items()}


def numeral_tokens(n_vocab: int, pieces: Callable[[int], bytes]) -> frozenset[int]:
    """The tokens that spell only digits (after one leading space): one token to the loop
    detector, so a model counting ``1. 2. 3. ...`` is seen looping."""
    return frozenset(
        token for token in range(n_vocab) if pieces(token).removeprefix(b" ").isdigit()
    )
