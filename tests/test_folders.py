"""A folder read as a user keeps it: git's own view of a work tree, a .prismignore, --include
and --exclude, and every code suffix tree-sitter knows read as code."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from prism_edge.text.inputs import Filters, collect

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _repository(root: Path) -> Path:
    files = {
        "src/app.py": "def main():\n    return 1\n",
        "src/util.mjs": "export function add(a, b) { return a + b }\n",
        "src/types.pyi": "def main() -> int: ...\n",
        "vendor/lib.js": "function vendored() { return 0 }\n",
        "build/out.py": "def built():\n    return 2\n",
        "secret.txt": "kept out by .git/info/exclude\n",
        "package-lock.json": '{"lockfileVersion": 3}\n',
        "docs/notes.md": "Notes about the app.\n",
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    git = ["git", "-C", str(root)]
    subprocess.run([*git, "init", "-q"], check=True)
    (root / ".gitignore").write_text("build/\n", encoding="utf-8")
    (root / ".git" / "info" / "exclude").write_text("secret.txt\n", encoding="utf-8")
    (root / ".prismignore").write_text("package-lock.json\nvendor/\n", encoding="utf-8")
    return root


def test_a_work_tree_is_read_as_git_and_the_user_keep_it(tmp_path):
    root = _repository(tmp_path / "repo")
    collected = collect([str(root)], filters=Filters(exclude=("docs/",)))
    read = sorted(Path(d.name).relative_to(root).as_posix() for d in collected.documents)
    assert read == ["src/app.py", "src/types.pyi", "src/util.mjs"]
    kinds = {Path(d.name).name: d.kind for d in collected.documents}
    assert kinds["util.mjs"] == "code" and kinds["types.pyi"] == "code"
    assert any("left out of" in w and "by git" in w for w in collected.warnings)
    only = collect([str(root)], filters=Filters(include=("*.py",)))
    assert [Path(d.name).name for d in only.documents] == ["app.py"]
