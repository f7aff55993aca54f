"""Local GGUF models through llama-cpp-python (:mod:`.backend`), the names it had as a module.

Names with a leading underscore are the package's own; the few re-exported here are for tests
that reach into the decoder and the loader.
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
