"""The llama.cpp backend: one model and its context for a whole run, the KV cache carried over
between calls. It holds the model, its settings and the vocabulary's caches; the work is the
package's other modules'."""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

from prism_edge.backends import (
    Backend,
    Completion,
    Grammar,
    Sampling,
    Scored,
    attention,
    cpu_share,
    native,
)
from prism_edge.backends.llama_cpp import calibration, evaluation, scoring, tokenizing
from prism_edge.backends.llama_cpp.decoding import Decoder
from prism_edge.backends.llama_cpp.loading import (
    KV_TYPES,
    _Closed,
    _context_length,
    check_gguf,
    context_settings,
    embedded_model_path,
    is_recurrent,
    model_footprint,
    model_parameters,
    open_context,
    physical_cores,
)
from prism_edge.backends.llama_cpp.scoring import SCORE_SEQUENCES
from prism_edge.core.errors import BackendError, ContextOverflow
from prism_edge.core.footprint import Footprint
from prism_edge.core.metrics import SpeedProfile
from prism_edge.prompts import Prompt


class LlamaCppBackend(Backend):
    """One model instance for a whole run; its KV cache carries over between calls."""

    supports_grammar: ClassVar[bool] = True
    reports_reused_tokens = True
    can_reset_cache: ClassVar[bool] = True
    can_calibrate: ClassVar[bool] = True
    can_score = True

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        n_ctx: int | None = None,
        n_threads: int | None = None,
        n_batch: int = 512,
        n_ubatch: int | None = None,
        flash_attn: bool | None = None,
        kv_type: str = "f16",
        jump_forward: bool = False,
        forced_start: bool = True,
        stop_on_repeat: bool = True,
        stop_on_loop: bool = True,
        seed: int = 0,
        score_sequences: int = SCORE_SEQUENCES,
        gpu_layers: int | None = None,
    ) -> None:
        """Load a GGUF model; ``n_ctx`` is capped at the model's training context.

        Without ``n_ctx`` the context is min(8192, training context). ``flash_attn`` and
        ``kv_type`` (``f16``, ``q8_0``; a quantized V cache needs flash attention in llama.cpp)
        are the attention settings ``benchmarks/speed/depth_rates.py`` measures; ``flash_attn=None``
        opens with flash attention and lets :meth:`suit` choose for the run
        (:mod:`~prism_edge.backends.attention`).
        """
        if kv_type not in KV_TYPES:
            raise BackendError(f"unknown KV cache type {kv_type!r} (one of {', '.join(KV_TYPES)})")
        if kv_type != "f16" and flash_attn is False:
            raise BackendError(f"a {kv_type} KV cache needs flash attention in llama.cpp")
        self._attention_chosen = flash_attn is not None or kv_type != "f16"
        """Flash attention was given (or a quantized cache needs it): :meth:`suit` keeps it."""
        path = Path(model_path) if model_path is not None else embedded_model_path()
        check_gguf(path)
        self.path = path
        self.name = path.name
        self.n_ctx_train = _context_length(path)
        self.parameters = model_parameters(path)
        wanted = n_ctx or 8192
        if self.n_ctx_train:
            wanted = min(wanted, self.n_ctx_train)
        threads = n_threads or physical_cores()
        self.repack = native.decide(path)
        """Whether llama.cpp's extra buffer types (weight repacking, AMX) are on, and why."""
        self._settings = context_settings(
            wanted,
            threads=threads,
            n_batch=n_batch,
            n_ubatch=n_ubatch,
            kv_type=kv_type,
            seed=seed,
            gpu_layers=gpu_layers,
        )
        """What the context is opened with (:func:`~.loading.context_settings`)."""
        self.flash_attn = flash_attn is not False
        self.llama = open_context(
            path, self._settings, self.flash_attn, score_sequences, self.repack.extra_buffers
        )
        self.score_sequences = score_sequences
        """Candidates :meth:`score` evaluates side by side in one call (1: one call each)."""
        self.kv_type = kv_type
        self.jump_forward = jump_forward
        """Forced continuations are evaluated as one batch (see :meth:`.Decoder._jump`)."""
        self.forced_start = forced_start
        """The whole lines a grammar forces at the start of an output (a revision step's
        ``[OBJECTS FOR UPDATE]`` header) are evaluated with the prompt, in the tokenizer's own
        spelling, instead of decoded one token at a time (see :meth:`.Decoder._start`)."""
        self.stop_on_repeat = stop_on_repeat
        """A step's output ends at the first token after which its line can only be a repeat
        of what is stored (see :meth:`Constraint.stop_on_repeat`); off, the line is decoded
        to its end and then dropped: the same revisions applied either way."""
        self.stop_on_loop = stop_on_loop
        """An output fallen into a loop (:func:`~prism_edge.backends.loops.loop_start`): free
        text ends where the loop began, keeping the piece once (finish reason ``loop``); a
        revision line is closed at once by the shortest completion its grammar allows, reported
        in ``Completion.looped_lines`` for the applier, and the output ends with that line (the
        lines a model writes after one it looped in loop again:
        ``benchmarks/decoding/loop_stop.py``). Off, the loop runs to the budget."""
        self._last_forced = 0
        self._last_looped: list[int] = []
        """The output lines the last generation closed early because they fell into a loop."""
        eos = self.llama.token_eos()
        self._end_tokens = [eos] if eos >= 0 else []
        self.shares_cores_with = cpu_share.claim(self)
        self.n_ctx = self.llama.n_ctx()
        self.threads = threads
        layers = self._settings["n_gpu_layers"]
        self.device = "CPU" if layers == 0 else f"GPU ({'all' if layers < 0 else layers} layers)"
        self.prefix_reuse = not is_recurrent(self.llama)
        self._part_tokens = lru_cache(maxsize=4096)(self._plain_tokens)
        self._pieces = lru_cache(maxsize=None)(self._piece_bytes)
        self._steps: list[int] | None = None
        self._byte_tokens: dict[int, int] | None = None
        self._numeral_tokens: frozenset[int] | None = None
        self.grammar_fallbacks = 0
        """Tokens the unconstrained sample got wrong, so the grammar filtered the vocabulary."""
        self._wrap_before, self._wrap_after = tokenizing.chat_wrapping(self.llama)

    # --- the model --------------------------------------------------------------------------

    @property
    def architecture(self) -> str:
        return str(self.llama.metadata.get("general.architecture", "unknown"))

    def close(self) -> None:
        """Free the model and its context now, not when the collector gets to them; every
        later call is a :class:`BackendError` (never a call into freed memory). Closing
        twice is nothing."""
        if isinstance(self.llama, _Closed):
            return
        self.llama.close()
        self.llama = _Closed(self.name)
        self._part_tokens.cache_clear()
        self._pieces.cache_clear()

    def footprint(self) -> Footprint:
        """The GGUF file's size and the KV cache's: every layer's keys and values for the whole
        context at the cache's type (head sizes from the model's metadata)."""
        return model_footprint(self.llama, self.path, self.n_ctx, self.kv_type)

    def _reopen(self, flash_attn: bool) -> None:
        """The same model and settings with the other attention (the KV cache starts empty)."""
        self.llama.close()
        self.llama = open_context(
            self.path, self._settings, flash_attn, self.score_sequences, self.repack.extra_buffers
        )
        self.flash_attn = flash_attn

    def fit(self, n_ctx: int) -> None:
        """A smaller context where ``n_ctx`` is less than this one's: the KV cache takes
        memory for every token of the context, used or not."""
        if n_ctx >= self.n_ctx:
            return
        settings = self._settings
        settings["n_ctx"] = n_ctx
        settings["n_batch"] = min(settings["n_batch"], n_ctx)
        settings["n_ubatch"] = min(settings["n_ubatch"], n_ctx)
        settings["plain_ubatch"] = min(settings["plain_ubatch"], n_ctx)
        self._reopen(self.flash_attn)
        self.n_ctx = self.llama.n_ctx()

    # --- tokens -----------------------------------------------------------------------------

    def _tokenize(self, text: str, *, special: bool) -> list[int]:
        return tokenizing.tokenize(self.llama, text, special=special)

    def _plain_tokens(self, text: str) -> tuple[int, ...]:
        return tuple(self._tokenize(text, special=False))

    def tokenize(self, text: str) -> list[int]:
        return list(self._part_tokens(text))

    def prompt_tokens(self, prompt: Prompt) -> list[int]:
        tokens = list(self._wrap_before)
        for part in prompt.parts:
            tokens.extend(self._part_tokens(part.text))
        tokens.extend(self._wrap_after)
        return tokens

    def count_tokens(self, prompt: Prompt) -> int:
        return len(self.prompt_tokens(prompt))

    def _piece_bytes(self, token: int) -> bytes:
        return bytes(self.llama.detokenize([token]))

    def _token_bytes(self, token: int) -> bytes:
        return self._pieces(token)

    def _text(self, tokens: list[int]) -> str:
        return str(self.llama.detokenize(tokens).decode("utf-8", errors="replace"))

    def completion_steps(self) -> list[int]:
        """Single-byte tokens, line end and closers first, then letters, digits, punctuation and
        the bytes of non-ASCII characters: what a line's completion is spelled with (see
        :class:`~.line_guard._LineGuard`)."""
        if self._steps is None:
            self._steps, self._byte_tokens = tokenizing.completion_steps(
                self.llama.n_vocab(), self._pieces
            )
        return self._steps

    def _single_byte(self, byte: int) -> int | None:
        """The token whose text is exactly this one byte (None: the vocabulary has none)."""
        if self._byte_tokens is None:
            self.completion_steps()
        assert self._byte_tokens is not None
        return self._byte_tokens.get(byte)

    def _numerals(self) -> frozenset[int]:
        """The tokens that spell only digits (after one leading space): one token to the loop
        detector, so a model counting ``1. 2. 3. ...`` is seen looping."""
        if self._numeral_tokens is None:
            self._numeral_tokens = tokenizing.numeral_tokens(self.llama.n_vocab(), self._pieces)
        return self._numeral_tokens

    # --- the KV cache -----------------------------------------------------------------------

    def cached_tokens(self) -> list[int]:
        """The tokens whose KV activations the context holds now."""
        return evaluation.cached_tokens(self.llama)

    def reset_cache(self) -> None:
        """Forget the KV cache (for measuring what reuse saves)."""
        evaluation.reset(self.llama)

    def _prefill(self, tokens: list[int]) -> int:
        """Evaluate the prompt, reusing the longest cached prefix; return the reused count."""
        return evaluation.prefill(self.llama, tokens, reuse=self.prefix_reuse)

    def _prefill_head(self, tokens: list[int]) -> int:
        """Evaluate ``tokens`` (no logits needed), reusing the longest cached prefix; return
        how many were reused."""
        return evaluation.prefill_head(self.llama, tokens, reuse=self.prefix_reuse)

    def _eval_all_logits(self, tokens: list[int]) -> list[Any]:
        """Evaluate ``tokens`` after the cached ones, keeping the logits of every one."""
        return evaluation.eval_all_logits(self.llama, tokens)

    # --- the engine's attention and speed ---------------------------------------------------

    @property
    def engine(self) -> str:
        return f"flash attention {'on' if self.flash_attn else 'off'}"

    def suit(self, decode_share: float) -> str | None:
        """Flash attention for a run that only prefills and scores (the faster prefill on both
        shipped models); for a run that decodes, the setting that costs less per prompt token
        at the rates measured on this machine (:mod:`~prism_edge.backends.attention`, measured
        once per model and build, about eight seconds on the embedded model). A setting given
        when the backend was opened is kept."""
        return calibration.suit(self, decode_share)

    def _measure_attention(self) -> attention.Verdict:
        """Both attention settings side by side (:func:`~.calibration.measure_attention`)."""
        return calibration.measure_attention(self)

    def calibrate(
        self,
        max_depth: int | None = None,
        window: int = 512,
        decode_tokens: int = 16,
        passes: int = 3,
    ) -> SpeedProfile:
        """Prefill and decode speed of this model on this machine, by KV depth.

        ``passes`` passes over filler text up to ``max_depth`` (default: the whole context),
        each timing every ``window`` of prefill and then ``decode_tokens`` decoded on top of
        it; each point is the median of the passes (one pass on a 2-core host read up to 16%
        apart from another). The cache is reset before and after every pass.
        """
        return calibration.calibrate(self, max_depth, window, decode_tokens, passes)

    def _calibration_pass(
        self, tokens: list[int], window: int, decode_tokens: int
    ) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
        """One calibration pass: (depth, seconds per token) of prefill and of decode."""
        return calibration.calibration_pass(self, tokens, window, decode_tokens)

    # --- generation and scores --------------------------------------------------------------

    def generate(self, prompt: Prompt, sampling: Sampling, grammar: Grammar | None) -> Completion:
        max_tokens = sampling.max_tokens
        tokens = self.prompt_tokens(prompt)
        if len(tokens) + max_tokens > self.n_ctx:
            raise ContextOverflow(
                len(tokens) + max_tokens, self.n_ctx, "the prompt and its output budget"
            )
        start = time.perf_counter()
        reused = self._prefill(tokens)
        prefilled = time.perf_counter()
        try:
            out, finish = self._decode(
                grammar,
                max_tokens,
                sampling.temperature,
                sampling.seed,
                repeat_penalty=sampling.repeat_penalty,
            )
        except (RuntimeError, ValueError) as exc:
            raise BackendError(f"generation failed: {exc}") from None
        text = self.llama.detokenize(out).decode("utf-8", errors="replace")
        seconds = time.perf_counter() - start
        return Completion(
            text,
            len(tokens),
            reused,
            len(out),
            seconds,
            finish,
            prefill_seconds=prefilled - start,
            forced_tokens=self._last_forced,
            looped_lines=tuple(self._last_looped),
        )

    def _decode(
        self,
        grammar: Grammar | None,
        max_tokens: int,
        temperature: float,
        seed: int | None,
        *,
        stop_at_eog: bool = True,
        repeat_penalty: float = 1.0,
    ) -> tuple[list[int], str]:
        """Sample-first constrained decoding, with jump-forward (:meth:`.Decoder.decode`): the
        output's tokens and why it ended; what it forced and the lines it closed looping are
        kept for :meth:`generate`."""
        decoder = Decoder(self)
        try:
            return decoder.decode(
                grammar,
                max_tokens,
                temperature,
                seed,
                stop_at_eog=stop_at_eog,
                repeat_penalty=repeat_penalty,
            )
        finally:
            self._last_forced, self._last_looped = decoder.forced, decoder.looped
            self.grammar_fallbacks += decoder.fallbacks

    def score(self, prompt: Prompt, continuations: Sequence[str]) -> list[Scored]:
        """Log-probabilities of each continuation after the prompt, each computed the same way
        whatever the order of the candidates or what the cache held (:func:`.scoring.score`)."""
        return scoring.score(self, prompt, continuations)
