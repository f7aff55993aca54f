"""prism-edge: PRISM (Processing Incrementally with Structured Memory) on local models."""

from prism_edge.core.config import PrismConfig
from prism_edge.core.errors import (
    BackendError,
    ContextOverflow,
    PrismError,
    RevisionError,
    SchemaError,
)
from prism_edge.core.events import RunResult
from prism_edge.core.memory import Memory
from prism_edge.core.metrics import CallMetrics, RunMetrics
from prism_edge.core.schema import Schema, from_model, from_source
from prism_edge.engine.runner import PrismRunner, run_prism
from prism_edge.engine.session import Session

__version__ = "0.1.0"

__all__ = [
    "BackendError",
    "CallMetrics",
    "ContextOverflow",
    "Memory",
    "PrismConfig",
    "PrismError",
    "PrismRunner",
    "RevisionError",
    "RunMetrics",
    "RunResult",
    "Schema",
    "SchemaError",
    "Session",
    "from_model",
    "from_source",
    "run_prism",
]
