"""The backend contract: tokenize, and complete a prompt (optionally under a grammar).

:class:`Backend` is the one abstract base: three methods to implement (``tokenize``,
``count_tokens``, ``generate``), its capabilities declared as attributes with defaults, and
sampling settings carried by one :class:`Sampling`. :mod:`prism_edge.backends.factory` opens the
backend of every command: a local GGUF model or an inference server; ``catalog`` and ``local``
know the models (the catalog, downloads, ollama's and LM Studio's stores); ``llama_cpp``,
``server`` and ``scripted`` are the backends. The contract lives in ``base`` and is exported
here. May import the core and prompts.

A backend turns a :class:`~prism_edge.prompts.Prompt` into tokens part by part, so a static
prefix tokenizes identically on every call and a grown memory shares its token prefix with the
previous one. Reused tokens follow llama.cpp's rule: the longest common prefix with the tokens
already evaluated, one less when the whole prompt was already cached (the last token is always
evaluated again to produce logits).
"""

from prism_edge.backends.base import (
    Backend,
    Completion,
    Grammar,
    LineGrammar,
    Sampling,
    Scored,
    reused_prefix,
)

__all__ = [
    "Backend",
    "Completion",
    "Grammar",
    "LineGrammar",
    "Sampling",
    "Scored",
    "reused_prefix",
]
