"""Defaults: flag, then PRISM_EDGE_* variable, then the config file, then the built-in."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from prism_edge.app import defaults
from tests.cli_harness import invoke


def _config(text: str) -> Path:
    path = defaults.config_path()
    path.write_text(text, encoding="utf-8")
    return path


def _chunks(out) -> int:
    assert out.exit_code == 0, out.output
    return int(json.loads(out.stdout)["chunks"])


def test_flag_then_env_then_config_then_built_in(harness, story, tmp_path, monkeypatch):
    run = ("run", str(story), "--run-dir", str(tmp_path / "r"), "--json")
    built_in = _chunks(invoke(*run))
    assert harness.requests[-1][0] is None  # the embedded default model
    _config('model = "from-config"\nchunk_tokens = 64\n')
    from_config = _chunks(invoke(*run))
    assert harness.requests[-1][0] == "from-config" and from_config > built_in
    monkeypatch.setenv("PRISM_EDGE_MODEL", "from-env")
    monkeypatch.setenv("PRISM_EDGE_CHUNK_TOKENS", "256")
    from_env = _chunks(invoke(*run))
    assert harness.requests[-1][0] == "from-env" and built_in < from_env < from_config
    from_flag = _chunks(invoke(*run, "-m", "from-flag", "--chunk-tokens", "128"))
    assert harness.requests[-1][0] == "from-flag" and from_env < from_flag < from_config


def test_a_default_task_gives_way_to_a_schema_and_a_default_model_to_a_server(
    harness, story, tmp_path
):
    _config('task = "code-search"\nmodel = "from-config"\n')
    schema = tmp_path / "s.py"
    schema.write_text("class Notes:\n    names: list[str]\n", encoding="utf-8")
    args = ("run", str(story), "--run-dir", str(tmp_path / "r"), "--schema", str(schema))
    out = invoke(*args, "--query", "Who is there?")
    assert out.exit_code == 0, out.output
    # typed on the line, both still clash
    clash = invoke(*args, "--task", "summarize", "--query", "q")
    assert clash.exit_code == 1 and "either --task or --schema" in clash.stderr


def test_help_names_the_variables_and_the_file():
    text = invoke("--help").stdout
    for name in (
        "PRISM_EDGE_MODEL",
        "PRISM_EDGE_TASK",
        "PRISM_EDGE_CHUNK_TOKENS",
        "PRISM_EDGE_CTX",
    ):
        assert name in text
    assert "config" in text and "PRISM_EDGE_LOGS" in text
    assert "PRISM_EDGE_MODEL" in invoke("run", "--help").stdout


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("model = ", "not valid TOML"),
        ('modle = "x"', "unknown key 'modle'"),
        ('chunk_tokens = "many"', "chunk_tokens must be a int"),
        ("ctx = true", "ctx must be a int"),
    ],
)
def test_a_bad_config_file_is_a_one_line_error(text, message, harness, story):
    path = _config(text)
    out = invoke("run", str(story))
    assert out.exit_code == 1 and out.stderr.count("\n") == 1
    assert message in out.stderr and str(path) in out.stderr


def test_models_default_sets_shows_and_unsets(harness, tmp_path, monkeypatch):
    from prism_edge.backends import catalog

    monkeypatch.setattr(catalog, "on_disk", lambda entry: True)  # as if every one were here
    assert invoke("models", "default").stdout.strip() == "smollm2-135m (built-in)"
    out = invoke("models", "default", "gemma3-270m")
    assert out.exit_code == 0 and "saved in" in out.stderr
    assert defaults.load() == {"model": "gemma3-270m"}
    assert invoke("models", "default").stdout.startswith("gemma3-270m (from ")
    gguf = tmp_path / "mine.gguf"
    gguf.write_bytes(b"GGUF")
    invoke("models", "default", str(gguf))
    assert defaults.load()["model"] == str(gguf.resolve())
    bad = invoke("models", "default", "no-such-model")
    assert bad.exit_code == 1 and "unknown model 'no-such-model'" in bad.stderr
    assert defaults.load()["model"] == str(gguf.resolve())  # unchanged by the failure
    monkeypatch.setenv("PRISM_EDGE_MODEL", "qwen2.5-0.5b")
    assert invoke("models", "default").stdout.strip() == "qwen2.5-0.5b (from PRISM_EDGE_MODEL)"
    monkeypatch.delenv("PRISM_EDGE_MODEL")
    invoke("models", "default", "--unset")
    assert defaults.load() == {}


def test_save_keeps_the_other_keys(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("chunk_tokens = 512\n", encoding="utf-8")
    defaults.save("model", 'a "quoted" name', path)
    assert defaults.load(path) == {"chunk_tokens": 512, "model": 'a "quoted" name'}


def test_schema_generate_takes_the_defaults_and_a_server(harness, monkeypatch, tmp_path):
    """`schema generate` opens the model the config or PRISM_EDGE_MODEL names, with its own
    context unless --ctx gives one; a server on the line wins over a default model."""
    import prism_edge.app.schema as schema_command

    def generated(backend, domain, query, seed=None):
        from types import SimpleNamespace

        return SimpleNamespace(source="class Notes:\n    names: list[str]\n")

    monkeypatch.setattr(schema_command, "generate_schema", generated)
    generate = ("schema", "generate", "--example-query", "Who?")
    _config('model = "from-config"\n')
    assert invoke(*generate).exit_code == 0
    assert harness.requests[-1] == ("from-config", schema_command.SCHEMA_CTX)
    monkeypatch.setenv("PRISM_EDGE_MODEL", "from-env")
    out = tmp_path / "notes.py"
    assert invoke(*generate, "--ctx", "8192", "-o", str(out)).exit_code == 0
    assert harness.requests[-1] == ("from-env", 8192) and out.read_text().startswith("class")
    assert invoke(*generate, "--server", "http://127.0.0.1:11434").exit_code == 0
    assert harness.requests[-1] == (None, None)
    assert harness.options[-1]["server"] == "http://127.0.0.1:11434"
