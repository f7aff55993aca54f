"""The backend a command asks for: a local GGUF model with llama.cpp's engine settings, or an
inference server (ollama's by its own API, any other by the OpenAI one)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from prism_edge.backends import Backend
from prism_edge.backends.deferred import Deferred

if TYPE_CHECKING:
    import httpx

    from prism_edge.backends.server import ServerBackend


@dataclass(frozen=True)
class Engine:
    """llama.cpp's settings for a local model (``benchmarks/speed/depth_rates.py`` measures
    them)."""

    threads: int | None = None
    """None: the physical cores."""
    batch: int = 512
    flash_attn: bool | None = None
    """None: chosen for each run by what its method does (flash attention prefills faster;
    for a method that decodes, the setting measured faster here: ``backends/attention.py``)."""
    kv_type: str = "f16"
    jump_forward: bool = False
    gpu_layers: int | None = None
    """Layers offloaded to a GPU: None (``auto``) every layer where llama.cpp was built with a
    GPU backend (Metal, CUDA, Vulkan...), none on a CPU build; 0 none; -1 all."""
    """Off by default: llama.cpp's logits for a token evaluated in a batch differ from the
    same token evaluated alone (up to 1.6 here: benchmarks/results/batch_numerics.txt), so
    outputs can differ from token-by-token decoding, for 2% of wall time
    (benchmarks/results/jump_forward.txt)."""


def open_backend(
    model: str | None = None,
    *,
    server: str | None = None,
    n_ctx: int | None = None,
    server_model: str | None = None,
    api_key: str | None = None,
    grammar_field: str = "auto",
    retries: int = 4,
    engine: Engine | None = None,
) -> Backend:
    """The backend a command asked for: an OpenAI-compatible ``server`` (its ``server_model``,
    ``api_key``, how it takes grammars, how often to retry) or the local GGUF ``model`` (a
    path, a catalog name, ``hf:...``; None: the embedded one) with the ``engine`` settings."""
    if server is not None:
        if model is not None:
            raise ValueError("use either --model or --server, not both")
        return open_server(
            server,
            api_key=api_key,
            model=server_model,
            n_ctx=n_ctx,
            grammar_field=grammar_field,
            retries=retries,
        )
    from prism_edge.backends.catalog import resolve_model
    from prism_edge.backends.llama_cpp import LlamaCppBackend  # llama_cpp: only for models

    engine = engine or Engine()
    return LlamaCppBackend(
        resolve_model(model),
        n_ctx=n_ctx,
        n_threads=engine.threads,
        n_batch=engine.batch,
        flash_attn=engine.flash_attn,
        kv_type=engine.kv_type,
        jump_forward=engine.jump_forward,
        gpu_layers=engine.gpu_layers,
    )


def open_later(model: str | None = None, *, n_ctx: int, engine: Engine | None = None) -> Deferred:
    """The local GGUF ``model`` (as :func:`open_backend` names it) found now, its size read
    from its header, and opened with the ``engine`` settings only when a call needs it: a
    model that is not on this machine is an error now, its loading waits (a table question
    the ranker is sure of never calls it)."""
    from prism_edge.backends.catalog import resolve_model
    from prism_edge.backends.local import LocalModelError, parse_size, read_gguf

    path = resolve_model(model)
    try:
        parameters = parse_size(read_gguf(path).parameters)
    except LocalModelError:
        parameters = None

    def opener(size: int) -> Backend:
        return open_backend(str(path), n_ctx=size, engine=engine)

    return Deferred(opener, path.name, parameters, n_ctx)


def open_server(
    url: str, *, transport: httpx.BaseTransport | None = None, **options: Any
) -> ServerBackend:
    """The server at ``url``: ollama's through its own API (it answers ``/api/version``: the
    context is sent with every request there), any other through the OpenAI-compatible one.
    ``options`` are :class:`~prism_edge.backends.server.ServerBackend`'s."""
    from prism_edge.backends.ollama import OllamaBackend, answers_as_ollama  # httpx: servers only
    from prism_edge.backends.server import ServerBackend, split_credentials

    bare, _, auth = split_credentials(url)
    key = options.get("api_key")
    headers = {"Authorization": f"Bearer {key}"} if key else None
    if answers_as_ollama(bare, headers=headers, auth=auth, transport=transport):
        return OllamaBackend(url, transport=transport, **options)
    return ServerBackend(url, transport=transport, **options)
