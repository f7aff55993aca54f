"""Where a test finds the state a run saved in its run folder."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from prism_edge.engine.checkpoint import read_state

_CURRENT = re.compile(r"state-[0-9a-f]{16}\.json")


def run_state(run_dir: Path) -> Path:
    """The state file of the one run saved in ``run_dir`` (not one set aside); a path that does
    not exist while there is none."""
    found = [p for p in run_dir.glob("state-*.json") if _CURRENT.fullmatch(p.name)]
    assert len(found) <= 1, f"more than one run saved in {run_dir}: {found}"
    return found[0] if found else run_dir / "state-(none yet).json"


def saved_state(run_dir: Path) -> Any:
    """The state the one run saved in ``run_dir`` holds: its base with its journal applied."""
    return read_state(run_state(run_dir))
