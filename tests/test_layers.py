"""The import layers hold: no module imports from a layer above its own (.ci/check_layers.py)."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / ".ci" / "check_layers.py"


def load():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("check_layers", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_package_keeps_its_layers():
    done = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_an_import_from_a_higher_layer_is_found_even_inside_a_function():
    layers = load()
    tree = ast.parse(
        "from prism_edge.text import syntax\n"
        "def f():\n    from prism_edge.methods.presets import TASKS\n"
        "    import prism_edge.engine.runner\n"
    )
    found = layers.imported(tree)
    assert found == [(1, "text.syntax"), (3, "methods.presets"), (4, "engine.runner")]
    grammar = layers.layer_of("grammar.revision")
    assert layers.layer_of("methods.presets") > grammar  # grammars may not import the presets
    assert layers.layer_of("methods.names") < layers.layer_of("engine.runner")
    assert layers.layer_of("backends.factory") < layers.layer_of("methods")


def test_every_module_is_in_a_package():
    root = SCRIPT.parents[1] / "prism_edge"
    loose = sorted(
        p.name for p in root.glob("*.py") if p.name not in ("__init__.py", "__main__.py")
    )
    assert loose == []
