"""Memory a run takes: the process's peak resident set, beside the model file and KV cache.

On Linux the peak (``VmHWM``) is reset before each measured part by writing 5 to
``/proc/self/clear_refs``, so each benchmark method gets its own peak, not the highest so far.
Elsewhere the peak comes from ``getrusage`` and cannot be reset; where there is no
``resource`` module (Windows) from psutil when it is installed, else it is unknown (0).
"""

from __future__ import annotations

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
    try:
        import resource  # POSIX only: imported here, so the package imports everywhere
    except ImportError:
        return _windows_peak()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak if sys.platform == "darwin" else peak * 1024)


def _windows_peak() -> int:
    """The peak working set where there is no ``resource`` module (0: unknown)."""
    try:
        import psutil  # type: ignore[import-untyped]
    except ImportError:
        return 0
    info = psutil.Process().memory_info()
    return int(getattr(info, "peak_wset", 0) or info.rss)


def mb(value: int | None) -> str:
    return "" if value is None else f"{value / 2**20:.0f}"
