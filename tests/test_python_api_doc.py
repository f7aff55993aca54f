"""The Python examples of docs/python-api.md and the README run as written from a fresh clone's
root (on a scripted model: the answers themselves are checked against the command's in
tests/test_api.py, on the embedded one), and mypy (strict) finds nothing wrong in them."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from prism_edge.backends import factory
from prism_edge.backends.scripted import ScriptedBackend

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "python-api.md"
README = ROOT / "README.md"


def _blocks(page: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)\n```", page.read_text(encoding="utf-8"), flags=re.S)


BLOCKS = [(PAGE, block) for block in _blocks(PAGE)] + [(README, b) for b in _blocks(README)]


def test_the_pages_have_their_examples():
    assert len(_blocks(PAGE)) == 5 and len(_blocks(README)) == 1


@pytest.mark.parametrize(
    ("page", "block"), BLOCKS, ids=[f"{p.stem}-{i}" for i, (p, _) in enumerate(BLOCKS)]
)
def test_each_block_runs_from_a_fresh_clone(page, block, monkeypatch):
    opened: list[ScriptedBackend] = []

    def scorer(prompt, text: str) -> float:  # words of the candidate in the prompt
        document = prompt.text.lower()
        return float(sum(word in document for word in text.lower().split()))

    def open_backend(model=None, **options):  # type: ignore[no-untyped-def]
        opened.append(ScriptedBackend(scorer=scorer, parameters=135_000_000))
        return opened[-1]

    monkeypatch.setattr(factory, "open_backend", open_backend)
    monkeypatch.chdir(ROOT)  # as a user runs it: in the clone, beside examples/ and benchmarks/
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block, str(page), "exec"), {"__name__": "__doc__"})
    assert printed.getvalue().strip() and opened


def test_the_examples_type_check_and_a_misspelt_option_does_not(tmp_path):
    """The library is typed: mypy (strict) passes every example, and names a misspelt option
    and a text given for a path before anything runs."""
    pytest.importorskip("mypy")
    files = []
    for i, (page, block) in enumerate(BLOCKS):
        files.append(tmp_path / f"{page.stem.replace('-', '_')}_{i}.py")
        files[-1].write_text(block + "\n", encoding="utf-8")
    wrong = tmp_path / "wrong.py"
    wrong.write_text(
        "import prism_edge\n\n"
        'prism_edge.summarize("examples/mowglis-brothers.txt", modle="gemma3-270m")\n'
        'prism_edge.search_code("src/", "a function", chunk_tokens="many")\n'
        "prism_edge.summarize_text(3)\n",
        encoding="utf-8",
    )

    def mypy(*paths: Path) -> subprocess.CompletedProcess[str]:
        """mypy in a process of its own (it raises the recursion limit of the one it runs in)."""
        return subprocess.run(
            [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
             "--cache-dir", str(tmp_path / "cache"), "--strict", "--follow-imports", "silent",
             *map(str, paths)],
            env={**os.environ, "MYPYPATH": str(ROOT)},  # this checkout's package
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip

    examples = mypy(*files)
    assert examples.returncode == 0, examples.stdout + examples.stderr
    out = mypy(wrong).stdout
    assert 'Unexpected keyword argument "modle" for "summarize"; did you mean "model"?' in out
    assert '"chunk_tokens"' in out and "summarize_text" in out and "wrong.py:5" in out
