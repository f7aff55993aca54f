"""Fail when prism_edge imports a third-party module that pyproject.toml does not declare.

Run it with the Python of a venv that holds the project installed as a user installs it
(``pip install .``, no extras). Two checks:

1. static: every third-party module imported anywhere in the package (read with ``ast``,
   nothing executed) is provided by a distribution named in ``[project] dependencies`` or in an
   extra; a module declared only in an extra must be imported inside a function (lazily);
2. dynamic: every module of the package imports in this venv.

Exit 1 with one line per problem, 0 otherwise.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import sys
from importlib import metadata
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "prism_edge"


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_names(specs: list[str]) -> set[str]:
    return {norm(re.split(r"[\s<>=!~;\[]", spec, maxsplit=1)[0]) for spec in specs}


def imports(path: Path) -> list[tuple[str, bool]]:
    """(top-level module, imported at module level) for every absolute import in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: list[tuple[str, bool]] = []
    top_level = {id(node) for node in tree.body}

    def visit(node: ast.AST, module_level: bool) -> None:
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        for name in names:
            found.append((name.split(".")[0], module_level))
        inside = module_level and (
            id(node) in top_level or isinstance(node, ast.If | ast.Try | ast.With)
        )
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            inside = False
        for child in ast.iter_child_nodes(node):
            visit(child, inside)

    for statement in tree.body:
        visit(statement, True)
    return found


def main() -> int:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    required = requirement_names(project.get("dependencies", []))
    extras: set[str] = set()
    for specs in project.get("optional-dependencies", {}).values():
        extras |= requirement_names(specs)
    providers = metadata.packages_distributions()
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    problems: list[str] = []
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        where = path.relative_to(ROOT)
        for top, module_level in imports(path):
            if top in stdlib or top == PACKAGE:
                continue
            dists = {norm(d) for d in providers.get(top, [top])}
            if dists & required:
                continue
            if dists & extras and not module_level:
                continue
            what = "at module level and only in an extra" if dists & extras else "undeclared"
            problems.append(f"{where}: imports {top} ({what}; add it to [project] dependencies)")
    package = importlib.import_module(PACKAGE)
    for info in pkgutil.walk_packages(package.__path__, f"{PACKAGE}."):
        if info.name.endswith(".__main__"):
            continue  # importing it runs the command line
        try:
            importlib.import_module(info.name)
        except ImportError as exc:
            problems.append(f"{info.name}: does not import in a plain install ({exc})")
    for problem in sorted(set(problems)):
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
