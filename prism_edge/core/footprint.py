"""Memory a run takes: the process's peak resident set, beside the model file and KV cache.

On Linux the peak (``VmHWM``) is reset before each measured part by writing 5 to
``/proc/self/clear_refs``, so each benchmark method gets its own peak, not the highest so far.
Elsewhere the peak comes from ``getrusage`` and cannot be reset (``resettable`` False).
"""

from __future__ import annotations

import resource
import sys
from dataclasses import dataclass
from pathlib import Path

_STATUS = Path("/proc/self/status")
_CLEAR = Path("/proc/self/clear_refs")


@dataclass(frozen=True)
class Footprint:
    """What a loaded model occupies by design (bytes)."""

    model_bytes: int
    kv_bytes: int


def reset_peak() -> bool:
    """Start a new peak-RSS window; False where the platform cannot."""
    try:
        _CLEAR.write_text("5")
    except OSError:
        return False
    return True


def peak_rss_bytes() -> int:
    """The process's peak resident set size since start or the last :func:`reset_peak`."""
    try:
        for line in _STATUS.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak if sys.platform == "darwin" else peak * 1024)


def mb(value: int | None) -> str:
    return "" if value is None else f"{value / 2**20:.0f}"
