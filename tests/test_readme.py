"""The README's library example runs as written, on the embedded model."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.mark.model
def test_the_library_example_runs() -> None:
    text = README.read_text(encoding="utf-8")
    (example,) = re.findall(r"```python\n(.*?)\n```", text, flags=re.S)
    namespace: dict[str, object] = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(example, str(README), "exec"), namespace)
    result = namespace["result"]
    memory = result.memory.data  # type: ignore[attr-defined]
    assert result.steps == 1 and result.answer  # type: ignore[attr-defined]
    assert set(memory) <= {"attributes"}
    for name, sentences in memory.get("attributes", {}).items():
        assert all(name in s for s in sentences)  # grounded: the text's own sentences
    assert printed.getvalue().strip()
