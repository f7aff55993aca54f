"""The package imports and runs where POSIX-only modules do not exist (Windows): with
``resource`` and ``fcntl`` made unimportable, a scripted run to its answer, the CPU lock and
peak memory. Run by tests/test_portable.py and, on the installed package, by .ci/run:

    python -I .ci/without_posix.py RUN_FOLDER
"""

from __future__ import annotations

import importlib.abc
import sys
from pathlib import Path

BLOCKED = ("resource", "fcntl")


class Blocked(importlib.abc.MetaPathFinder):
    """Every import of a POSIX-only module fails, as it does on Windows."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name in BLOCKED:
            raise ImportError(f"no module named {name!r} here")


def main(folder: Path) -> None:
    sys.meta_path.insert(0, Blocked())
    for name in BLOCKED:
        sys.modules.pop(name, None)

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
        run_dir=folder, method=method,
    )  # fmt: skip
    result = session.run()
    assert result.answer and "Mowgli" in result.answer, result.answer

    class Model:
        pass

    assert Claims(folder / "lock").claim(Model()) is None
    assert peak_rss_bytes() >= 0
    assert not set(BLOCKED) & set(sys.modules), "a POSIX-only module was imported"
    print("ran without resource and fcntl")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
