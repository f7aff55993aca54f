"""The CLI under test with a scripted model: ``Harness`` stands in for ``open_backend``, the
``harness`` and ``story`` fixtures (registered in conftest) and ``invoke`` run a command."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from prism_edge.app import cli
from prism_edge.app import inspect as inspect_command
from prism_edge.backends import factory
from prism_edge.backends.catalog import ModelNotFound
from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.prompts import Prompt

NAME = re.compile(r"\b([A-Z][a-z]{3,})\b")
STORY = (
    "Mowgli lived with the wolves in the hills above the river. Akela led the pack. "
    "Shere Khan the tiger wanted the man-cub for himself.\n\n"
) * 30


def reviser(prompt: Prompt) -> str:
    if "[ANSWER]" in prompt.text:
        return "Mowgli grows up among wolves."
    memory = prompt.of_kind("memory")
    adds = []
    for name in dict.fromkeys(NAME.findall(prompt.of_kind("document"))):
        if f"'{name}'" not in memory and f'"{name}"' not in memory:
            adds.append(json.dumps({f"$.'attributes'.'{name}'": {"add": [f"{name} appears."]}}))
    return "[OBJECTS FOR UPDATE]\n[OBJECTS FOR ADD]\n" + "\n".join(adds[:2])


class Harness:
    def __init__(
        self, monkeypatch: pytest.MonkeyPatch, n_ctx: int = 100_000, responder: Any = reviser
    ) -> None:
        self.backends: list[ScriptedBackend] = []
        self.requests: list[tuple[str | None, int | None]] = []
        self.engines: list[Any] = []
        """The engine settings each command opened its backend with."""
        self.options: list[dict[str, Any]] = []
        """Everything else each command opened its backend with (server, api_key...)."""
        self.n_ctx = n_ctx

        def open_backend(
            model: str | None = None, *, n_ctx: int | None = None, **options: Any
        ) -> ScriptedBackend:
            self.requests.append((model, n_ctx))
            self.engines.append(options.get("engine"))
            self.options.append(options)
            if model is not None and options.get("server") is not None:
                raise ValueError("use either --model or --server, not both")  # as the factory
            if model == "missing-model":
                raise ModelNotFound("unknown model 'missing-model'")
            # a model that does not say its size: ``auto`` runs the written revisions, the
            # path these tests drive (a summary's model-free names: tests/methods)
            backend = ScriptedBackend(
                responder=responder, n_ctx=min(n_ctx or 4096, self.n_ctx), parameters=None
            )
            self.backends.append(backend)
            return backend

        monkeypatch.setattr(factory, "open_backend", open_backend)
        monkeypatch.setattr(inspect_command, "load_tokenizer", lambda model: ScriptedBackend())

    @property
    def backend(self) -> ScriptedBackend:
        return self.backends[-1]


@pytest.fixture
def harness(monkeypatch: pytest.MonkeyPatch) -> Harness:
    return Harness(monkeypatch)


@pytest.fixture
def story(tmp_path: Path) -> Path:
    path = tmp_path / "story.txt"
    path.write_text(STORY, encoding="utf-8")
    return path


def invoke(*args: str, stdin: str | None = None, cwd: Path | None = None) -> Any:
    runner = CliRunner()
    return runner.invoke(cli.app, list(args), input=stdin, catch_exceptions=False)
