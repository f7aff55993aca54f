"""The package imports and runs where POSIX-only modules do not exist (Windows): no
``resource`` or ``fcntl`` on the import path, a scripted run to its answer without them."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = textwrap.dedent(
    """
    import sys

    class Blocked:
        def find_spec(self, name, path=None, target=None):
            if name in ("resource", "fcntl"):
                raise ImportError(f"no module named {name!r} here")
            return None

    sys.meta_path.insert(0, Blocked())
    for name in ("resource", "fcntl"):
        sys.modules.pop(name, None)

    import prism_edge
    from prism_edge.backends.cpu_share import Claims
    from prism_edge.backends.scripted import ScriptedBackend
    from prism_edge.core.footprint import peak_rss_bytes
    from prism_edge.engine.session import Session
    from prism_edge.methods import make
    from prism_edge.methods.presets import TASKS
    from prism_edge.text.inputs import Document

    task = TASKS["summarize"]
    config = task.configure(None, answer_max_tokens=120)
    method = make("names", task.schema, config, scoring="frequency")
    text = "Then Mowgli ran to Akela at the rock. Later Mowgli spoke to Akela again there. " * 9
    session = Session.of_documents(
        ScriptedBackend(), task.schema, config, [Document("t.txt", text)], 64,
        run_dir=__import__("pathlib").Path(sys.argv[1]), method=method,
    )
    result = session.run()
    assert result.answer and "Mowgli" in result.answer
    class Model:
        pass

    assert Claims(__import__("pathlib").Path(sys.argv[1]) / "lock").claim(Model()) is None
    assert peak_rss_bytes() >= 0
    assert "resource" not in sys.modules and "fcntl" not in sys.modules
    print("ran without resource and fcntl")
    """
)


def test_the_package_imports_and_runs_without_posix_modules(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "run")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "ran without resource and fcntl" in done.stdout
