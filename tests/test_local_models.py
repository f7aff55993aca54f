"""The models a user already has: ollama's store, LM Studio's folder, GGUF headers."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import struct
from pathlib import Path

import pytest

from prism_edge.backends.catalog import resolve_model
from prism_edge.backends.llama_cpp import embedded_model_path
from prism_edge.backends.local import (
    LocalModelError,
    huggingface_models,
    lmstudio_models,
    ollama_models,
    read_gguf,
    resolve_store_spec,
)
from tests.cli_harness import invoke

EMBEDDED = embedded_model_path()


def _ollama_store(
    home: Path, model: Path, name: str = "smol", tag: str = "latest", link: bool = False
) -> Path:
    """ollama's layout: a manifest per name and tag naming its layers' blobs by digest (the
    model's blob a link to the file with ``link``: the same file, so the probes this machine
    keeps for it apply, and a run does not measure a copy again)."""
    root = home / ".ollama" / "models"
    digest = hashlib.sha256(model.read_bytes()).hexdigest()
    blobs = root / "blobs"
    blobs.mkdir(parents=True)
    blob = blobs / f"sha256-{digest}"
    if link:
        blob.symlink_to(model)
    else:
        shutil.copyfile(model, blob)
    (blobs / "sha256-0123").write_text("{}", encoding="utf-8")
    manifest = root / "manifests" / "registry.ollama.ai" / "library" / name / tag
    manifest.parent.mkdir(parents=True)
    manifest.write_text(
        json.dumps(
            {
                "schemaVersion": 2,
                "config": {"mediaType": "application/vnd.docker.container.image.v1+json"},
                "layers": [
                    {
                        "mediaType": "application/vnd.ollama.image.model",
                        "digest": f"sha256:{digest}",
                    },
                    {"mediaType": "application/vnd.ollama.image.template", "digest": "sha256:0123"},
                ],
            }
        ),
        encoding="utf-8",
    )
    return blob


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("OLLAMA_MODELS", raising=False)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf"))
    return tmp_path


def test_the_gguf_header_is_read_without_the_arrays():
    info = read_gguf(EMBEDDED)
    assert info.architecture == "llama"
    assert info.quantization == "Q4_1" and info.context_length == 8192
    assert info.parameters == "135M"


def test_what_is_not_gguf_is_refused_in_one_line(tmp_path):
    for content in (b"", b"GGML" + b"\0" * 32, b"GGUF" + struct.pack("<IQQ", 3, 0, 5)):
        bad = tmp_path / "bad.gguf"
        bad.write_bytes(content)
        with pytest.raises(LocalModelError, match="cannot read its GGUF header"):
            read_gguf(bad)
    huge = tmp_path / "huge.gguf"  # a string length from a corrupt header
    huge.write_bytes(b"GGUF" + struct.pack("<IQQQ", 3, 0, 1, 1 << 60))
    with pytest.raises(LocalModelError):
        read_gguf(huge)


def test_an_ollama_store_is_listed_and_resolved_in_place(home):
    blob = _ollama_store(home, EMBEDDED)
    (listed,) = list(ollama_models())
    assert listed.spec == "ollama:smol:latest" and listed.path == blob
    assert resolve_model("ollama:smol") == blob == resolve_model("ollama:smol:latest")
    with pytest.raises(LocalModelError, match=r"no ollama model 'smol:7b'.*have: smol:latest"):
        resolve_store_spec("ollama:smol:7b")
    out = invoke("models")
    assert "ollama:smol:latest" in out.stdout and "llama 135M Q4_1, ctx 8192" in out.stdout
    listing = json.loads(invoke("models", "--json").stdout)["found"]
    found = [m for m in listing if m["store"] == "ollama"]
    assert found == [
        {
            "spec": "ollama:smol:latest",
            "store": "ollama",
            "path": str(blob),
            "size": blob.stat().st_size,
            "architecture": "llama",
            "name": found[0]["name"],
            "quantization": "Q4_1",
            "context_length": 8192,
            "parameters": "135M",
        }
    ]


def test_ollama_models_moves_with_its_variable_and_skips_broken_manifests(home, monkeypatch):
    elsewhere = home / "elsewhere"
    _ollama_store(elsewhere, EMBEDDED, "tiny", "q4")
    monkeypatch.setenv("OLLAMA_MODELS", str(elsewhere / ".ollama" / "models"))
    broken = elsewhere / ".ollama" / "models" / "manifests" / "registry.ollama.ai" / "library"
    (broken / "gone").mkdir()
    (broken / "gone" / "latest").write_text("not json", encoding="utf-8")
    assert [m.spec for m in ollama_models()] == ["ollama:tiny:q4"]


def test_lm_studio_models_resolve_by_name(home):
    folder = home / ".lmstudio" / "models" / "HuggingFaceTB" / "SmolLM2-GGUF"
    folder.mkdir(parents=True)
    model = folder / "smollm2-q4.gguf"
    os.symlink(EMBEDDED, model)
    (folder / "mmproj-smollm2.gguf").write_bytes(b"GGUF")
    assert [m.spec for m in lmstudio_models()] == ["lmstudio:HuggingFaceTB/SmolLM2-GGUF/smollm2-q4"]
    assert resolve_model("lmstudio:HuggingFaceTB/SmolLM2-GGUF/smollm2-q4") == model
    assert resolve_model("lmstudio:smollm2-q4") == model
    with pytest.raises(LocalModelError, match="no LM Studio model matches 'qwen'"):
        resolve_model("lmstudio:qwen")


@pytest.mark.model
def test_a_run_with_an_ollama_model(home, tmp_path):
    _ollama_store(home, EMBEDDED, link=True)
    text = tmp_path / "note.txt"
    text.write_text("Mowgli lived with the wolves. Akela led the pack.\n", encoding="utf-8")
    args = (
        "run",
        str(text),
        "-m",
        "ollama:smol",
        "--task",
        "summarize",
        "--answer-tokens",
        "24",
        "--method",
        "revisions",
    )
    out = invoke(*args, "--max-tokens", "64", "--run-dir", str(tmp_path / "r"), "--json")
    assert out.exit_code == 0, out.output
    payload = json.loads(out.stdout)
    assert payload["answer"] and payload["steps"] == 1


def test_the_hugging_face_cache_is_listed(tmp_path):
    repo = tmp_path / "hub" / "models--owner--tiny-GGUF"
    blob = repo / "blobs" / ("ab" * 20)
    blob.parent.mkdir(parents=True)
    blob.write_bytes(EMBEDDED.read_bytes()[:4096])
    snapshot = repo / "snapshots" / ("cd" * 20)
    snapshot.mkdir(parents=True)
    (snapshot / "tiny-q4.gguf").symlink_to(os.path.relpath(blob, snapshot))
    (snapshot / "README.md").write_text("hi", encoding="utf-8")
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("cd" * 20, encoding="utf-8")
    (listed,) = list(huggingface_models(tmp_path / "hub"))
    assert listed.spec == "hf:owner/tiny-GGUF/tiny-q4.gguf" and listed.store == "huggingface"
    assert listed.path == snapshot / "tiny-q4.gguf" and listed.size == 4096
    assert list(huggingface_models(tmp_path / "nothing-here")) == []
