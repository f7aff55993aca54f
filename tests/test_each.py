from __future__ import annotations

import json
from pathlib import Path

from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.core.events import RunResult
from prism_edge.engine.parallel import EachSettings, folder_name, run_each
from prism_edge.engine.runner import PrismConfig
from prism_edge.methods.presets import TASKS
from prism_edge.prompts import Prompt
from prism_edge.text.inputs import Document
from tests.run_state import run_state


def test_folder_names_are_numbered_and_safe():
    assert folder_name(3, "src/a b/Über file.py") == "003-ber-file.py"
    assert folder_name(12, "<stdin>") == "012-stdin"
    assert folder_name(1, "...") == "001-input"


def reply(prompt: Prompt) -> str:
    if "[ANSWER]" in prompt.text:
        return "answer"
    document = prompt.of_kind("document")
    if "broken" in document:
        raise RuntimeError("not a PrismError: a bug must not be swallowed")
    word = document.split()[0]
    if f"'{word}'" in prompt.of_kind("memory"):
        return ""
    return json.dumps({f"$.'attributes'.'{word}'": {"add": [word]}})


def test_each_document_has_its_own_memory_and_line(tmp_path: Path):
    backend = ScriptedBackend(responder=reply, n_ctx=4096)
    docs = [Document(f"d{i}.txt", f"Word{i} is here. " * 40) for i in range(3)]
    lines: list[tuple[str, RunResult | None, object]] = []
    failed = run_each(
        backend,
        TASKS["summarize"].schema,
        PrismConfig(question="q", max_tokens=64, answer_max_tokens=16),
        docs,
        EachSettings(64, 2, tmp_path),
        done=lambda document, result, error: lines.append((document.name, result, error)),
    )
    assert failed == 0
    results = {name: result for name, result, _ in lines}
    assert set(results) == {"d0.txt", "d1.txt", "d2.txt"}
    for i in range(3):
        result = results[f"d{i}.txt"]
        assert result is not None
        assert result.memory.data == {"attributes": {f"Word{i}": [f"Word{i}"]}}
        assert run_state(tmp_path / f"00{i + 1}-d{i}.txt").is_file()


def test_a_bug_is_not_reported_as_a_failed_document(tmp_path: Path):
    backend = ScriptedBackend(responder=reply, n_ctx=4096)
    docs = [Document("ok.txt", "Fine text. " * 10), Document("bad.txt", "broken text. " * 10)]
    lines: list[str] = []
    try:
        run_each(
            backend,
            TASKS["summarize"].schema,
            PrismConfig(question="q", max_tokens=64, answer_max_tokens=16),
            docs,
            EachSettings(64, 1, tmp_path),
            done=lambda document, result, error: lines.append(document.name),
        )
    except RuntimeError as exc:
        assert "a bug must not be swallowed" in str(exc)
    else:
        raise AssertionError("the bug was swallowed")
    assert lines == ["ok.txt"]
