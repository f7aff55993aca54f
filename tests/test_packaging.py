"""The package's data travels with it: every file of the package tree that is not Python
(prompts, the model catalog, the table ranker's, lexicon's and answerable model's weights) is
named by ``[tool.setuptools.package-data]``, so that a plain ``pip install .`` ships it (a
missing weights file leaves a learned model silently unused)."""

from __future__ import annotations

import fnmatch
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, as the package reads its defaults
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]


def test_every_data_file_of_the_package_is_declared_package_data():
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"
    ]["package-data"]["prism_edge"]
    package = ROOT / "prism_edge"
    data = [
        p.relative_to(package).as_posix()
        for p in package.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts
    ]
    assert data
    undeclared = [f for f in data if not any(fnmatch.fnmatch(f, pat) for pat in patterns)]
    assert undeclared == []
