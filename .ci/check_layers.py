"""No module of prism_edge imports from a layer above its own (the flow is one-directional).

Layers, lowest first; a module may import its own layer and those below. Every import counts,
those inside functions too. Run from the project root: ``python .ci/check_layers.py``; it
prints each offending import and exits 1, or prints nothing and exits 0.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("core", ("core",)),
    ("text", ("text",)),
    ("grammar", ("grammar",)),
    ("prompts", ("prompts",)),
    ("backends", ("backends",)),
    ("methods", ("methods",)),
    ("engine", ("engine",)),
    ("eval", ("eval",)),
    ("app", ("app", "__main__", "")),
]
"""The packages of ``prism_edge``, lowest first; "" is the package itself, whose ``__init__``
gathers the public names. A module outside every package is an error: the tree shows the
architecture."""

ROOT = Path(__file__).resolve().parents[1] / "prism_edge"


def layer_of(module: str) -> int:
    """The layer of a dotted module path under prism_edge ("" for the package itself)."""
    head = module.split(".", 1)[0]
    for index, (_, names) in enumerate(LAYERS):
        if head in names:
            return index
    raise SystemExit(f"{module or 'prism_edge'} is in no layer: add it to .ci/check_layers.py")


def imported(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, module under prism_edge) of every import of the package in a module."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.startswith("prism_edge")]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("prism_edge"):
            base = node.module or ""
            for alias in node.names:  # `from prism_edge import x`: the module x when it is one
                full = f"{base}.{alias.name}"
                path = ROOT.parent / full.replace(".", "/")
                is_module = path.with_suffix(".py").exists() or path.is_dir()
                out.append((node.lineno, full if is_module else base))
    return [(line, name.removeprefix("prism_edge").lstrip(".")) for line, name in out]


def main() -> int:
    problems = []
    for path in sorted(ROOT.rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        module = module.removesuffix("__init__").rstrip(".")
        own = layer_of(module)
        for line, target in imported(ast.parse(path.read_text(encoding="utf-8"))):
            if layer_of(target) > own:
                problems.append(
                    f"prism_edge/{path.relative_to(ROOT)}:{line}: {module or 'prism_edge'} "
                    f"({LAYERS[own][0]}) imports {target or 'prism_edge'} "
                    f"({LAYERS[layer_of(target)][0]})"
                )
    if problems:
        print("\n".join(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
