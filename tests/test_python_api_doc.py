"""docs/python-api.md: every Python block runs as written (on a scripted model: the answers
themselves are checked against the command's in tests/test_api.py, on the embedded one)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from prism_edge.backends import factory
from prism_edge.backends.scripted import ScriptedBackend

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "python-api.md"
BLOCKS = re.findall(r"```python\n(.*?)\n```", PAGE.read_text(encoding="utf-8"), flags=re.S)


def test_the_page_has_its_examples():
    assert len(BLOCKS) == 5


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_each_block_runs(block, tmp_path, monkeypatch):
    opened: list[ScriptedBackend] = []

    def scorer(prompt, text: str) -> float:  # words of the candidate in the prompt
        document = prompt.text.lower()
        return float(sum(word in document for word in text.lower().split()))

    def open_backend(model=None, **options):  # type: ignore[no-untyped-def]
        opened.append(ScriptedBackend(scorer=scorer, parameters=135_000_000))
        return opened[-1]

    monkeypatch.setattr(factory, "open_backend", open_backend)
    (tmp_path / "src").mkdir()
    source = ROOT / "benchmarks" / "data" / "click" / "formatting.py"
    (tmp_path / "src" / "formatting.py").write_text(source.read_text(encoding="utf-8"))
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)  # as a user runs it: beside examples/ and src/
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block, str(PAGE), "exec"), {"__name__": "__doc__"})
    assert printed.getvalue().strip() and opened
