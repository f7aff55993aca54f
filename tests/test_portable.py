"""The package imports and runs where POSIX-only modules do not exist (Windows): no
``resource`` or ``fcntl`` on the import path, a scripted run to its answer without them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = ROOT / ".ci" / "without_posix.py"


def test_the_package_imports_and_runs_without_posix_modules(tmp_path):
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path / "run")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "ran without resource and fcntl" in done.stdout
