"""prism-edge: PRISM (Processing Incrementally with Structured Memory) on local models."""

import gc
from typing import TYPE_CHECKING

_collecting = gc.isenabled()
gc.disable()  # importing makes some 100,000 objects and no cycle: the collector's passes
try:  # over them cost a sixth of the import (a table question's whole time is half a second)
    from prism_edge.core.config import PrismConfig
    from prism_edge.core.errors import (
        BackendError,
        ContextOverflow,
        NoAnswer,
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
finally:
    if _collecting:
        gc.enable()

if TYPE_CHECKING:  # imported when first used (below); their types are known to a checker
    from prism_edge.app.api import (
        Answer,
        CodeSearch,
        CodeSearchOptions,
        Options,
        RunOptions,
        SummaryOptions,
        TableOptions,
        arun,
        ask_table,
        astream,
        open_code_search,
        run,
        search_code,
        stream,
        summarize,
        summarize_text,
    )

__version__ = "0.1.0"

_ONE_CALL = (
    "run",
    "stream",
    "arun",
    "astream",
    "summarize",
    "summarize_text",
    "search_code",
    "open_code_search",
    "CodeSearch",
    "ask_table",
    "Answer",
    "Options",
    "SummaryOptions",
    "CodeSearchOptions",
    "TableOptions",
    "RunOptions",
)
"""The one-call library (``prism_edge.app.api``), imported when first used: ``import
prism_edge`` stays light."""


def __getattr__(name: str) -> object:
    if name in _ONE_CALL:
        from prism_edge.app import api

        return getattr(api, name)
    raise AttributeError(f"module 'prism_edge' has no attribute {name!r}")


__all__ = [
    "Answer",
    "BackendError",
    "CallMetrics",
    "CodeSearch",
    "CodeSearchOptions",
    "ContextOverflow",
    "Memory",
    "NoAnswer",
    "Options",
    "PrismConfig",
    "PrismError",
    "PrismRunner",
    "RevisionError",
    "RunMetrics",
    "RunOptions",
    "RunResult",
    "Schema",
    "SchemaError",
    "Session",
    "SummaryOptions",
    "TableOptions",
    "arun",
    "ask_table",
    "astream",
    "from_model",
    "from_source",
    "open_code_search",
    "run",
    "run_prism",
    "search_code",
    "stream",
    "summarize",
    "summarize_text",
]
