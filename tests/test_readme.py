"""The README's library example runs as written, on the embedded model."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.mark.model
def test_the_library_example_runs(tmp_path, monkeypatch) -> None:
    import subprocess
    import sys

    root = README.parent
    text = README.read_text(encoding="utf-8")
    (example,) = re.findall(r"```python\n(.*?)\n```", text, flags=re.S)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "filters.py").write_text(
        (root / "benchmarks" / "data" / "jinja2_filters.py").read_text(encoding="utf-8")
    )
    (tmp_path / "examples").symlink_to(root / "examples")
    monkeypatch.chdir(tmp_path)  # as a user runs it: beside examples/ and src/
    namespace: dict[str, object] = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(example, str(README), "exec"), namespace)
    result = namespace["result"]
    done = subprocess.run(
        [str(Path(sys.executable).with_name("prism-edge")), "run",
         "examples/mowglis-brothers.txt", "--no-log", "-q"],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert result.answer and done.stdout == result.answer + "\n"  # type: ignore[attr-defined]
    assert namespace["found"].answer and namespace["answer"].answer  # type: ignore[attr-defined]
    assert ": " in str(namespace["where"])  # path:line: name
    assert printed.getvalue().strip()
