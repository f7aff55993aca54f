"""Local GGUF models through llama-cpp-python, the KV cache reused across calls.

Every prompt is turned into tokens here, part by part: the chat template's own text (from the
GGUF metadata) is split around the user message and tokenized with special tokens parsed; every
prompt part -- instructions, memory, document -- is tokenized with ``special=False``, so a
document that contains ``<|im_start|>`` is text, never a control token. Because each part is
tokenized on its own, the static prefix and an unchanged memory produce identical tokens on
every call, and llama.cpp reuses them from the KV cache (longest common prefix with the tokens
already evaluated; one token less when the whole prompt was cached). The reused count is read
from the model state before each call, the same comparison llama.cpp makes.

The package by concern: ``loading`` opens a model file (the embedded one, the context's
settings, GPU offload); ``tokenizing`` turns text into tokens and knows the vocabulary's bytes;
``evaluation`` evaluates tokens into the KV cache; ``scoring`` scores continuations;
``decoding`` generates (sample-first constrained decoding, the forced start, jump-forward, the
stops), with ``sampling`` (a token picked from logits) and ``line_guard`` (no line cut by the
budget); ``calibration`` measures this machine (speed by depth, the attention a run takes).
``backend`` is :class:`LlamaCppBackend`, which holds the model, its settings and caches and
hands the work to them. Names with a leading underscore are the package's own: its modules
share them; the few re-exported here are for the tests and benchmarks that reach into them.
"""

from prism_edge.backends.llama_cpp.backend import LlamaCppBackend
from prism_edge.backends.llama_cpp.decoding import _in_json_string as _in_json_string
from prism_edge.backends.llama_cpp.line_guard import _LineGuard as _LineGuard
from prism_edge.backends.llama_cpp.loading import (
    EMBEDDED_FILE,
    EMBEDDED_PACKAGE,
    KV_BYTES,
    KV_TYPES,
    PLAIN_UBATCH,
    check_gguf,
    embedded_model_path,
    gpu_offload_supported,
    model_parameters,
    offloaded_layers,
    physical_cores,
)
from prism_edge.backends.llama_cpp.loading import _load as _load
from prism_edge.backends.llama_cpp.sampling import REPEAT_WINDOW, SCAN, TOP_K
from prism_edge.backends.llama_cpp.scoring import SCORE_SEQUENCES
from prism_edge.backends.llama_cpp.tokenizing import LlamaTokenizer

__all__ = [
    "EMBEDDED_FILE",
    "EMBEDDED_PACKAGE",
    "KV_BYTES",
    "KV_TYPES",
    "PLAIN_UBATCH",
    "REPEAT_WINDOW",
    "SCAN",
    "SCORE_SEQUENCES",
    "TOP_K",
    "LlamaCppBackend",
    "LlamaTokenizer",
    "check_gguf",
    "embedded_model_path",
    "gpu_offload_supported",
    "model_parameters",
    "offloaded_layers",
    "physical_cores",
]
