from __future__ import annotations

import hashlib
import http.server
import os
import subprocess
import sys
import threading
import typing
from collections.abc import Iterator
from pathlib import Path

import pytest

from prism_edge.backends.catalog import ModelNotFound, catalog, file_sha256, resolve_model

PAYLOAD = b"GGUF" + bytes(range(256)) * 40


class FakeHub(http.server.BaseHTTPRequestHandler):
    """Serves one file at /<repo>/resolve/main/<file> the way the Hub does (ETag = sha256)."""

    etag = hashlib.sha256(PAYLOAD).hexdigest()
    requests: typing.ClassVar[list[str]] = []

    def _headers(self) -> None:
        self.send_header("X-Repo-Commit", "a" * 40)
        self.send_header("ETag", f'"{self.etag}"')
        self.send_header("Content-Length", str(len(PAYLOAD)))

    def do_HEAD(self) -> None:
        self.requests.append(f"HEAD {self.path}")
        if "/resolve/" not in self.path:
            self.send_response(404)
            self.end_headers()
            return
        self.send_response(200)
        self._headers()
        self.end_headers()

    def do_GET(self) -> None:
        self.requests.append(f"GET {self.path}")
        if "/resolve/" not in self.path:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self._headers()
        self.end_headers()
        self.wfile.write(PAYLOAD)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def hub() -> Iterator[str]:
    FakeHub.requests = []
    FakeHub.etag = hashlib.sha256(PAYLOAD).hexdigest()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FakeHub)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


def pull(spec: str, endpoint: str, models: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "HF_ENDPOINT": endpoint,
        "PRISM_EDGE_MODELS": str(models),
        "HF_HUB_DISABLE_TELEMETRY": "1",
        "HF_HOME": str(models / ".hf-home"),
    }
    return subprocess.run(
        [sys.executable, "-m", "prism_edge", "models", "pull", spec],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_download_verify_and_reuse_offline(hub, tmp_path):
    done = pull("hf:owner/repo/tiny.gguf", hub, tmp_path)
    assert done.returncode == 0, done.stderr
    path = Path(done.stdout.strip())
    assert path.read_bytes() == PAYLOAD
    assert path.is_relative_to(tmp_path)
    assert (path.parent / "tiny.gguf.verified").read_text().strip() == file_sha256(path)
    assert any("resolve/main/tiny.gguf" in r for r in FakeHub.requests)
    # a second pull is served from disk: no request reaches the (now dead) endpoint
    again = pull("hf:owner/repo/tiny.gguf", "http://127.0.0.1:9", tmp_path)
    assert again.returncode == 0 and again.stdout.strip() == str(path)


def test_checksum_mismatch_deletes_the_file(hub, tmp_path):
    FakeHub.etag = "0" * 64
    done = pull("hf:owner/repo/bad.gguf", hub, tmp_path)
    assert done.returncode == 2
    assert "checksum mismatch" in done.stderr and "Traceback" not in done.stderr
    assert not list(tmp_path.rglob("bad.gguf"))


def test_offline_gives_a_clear_error(tmp_path):
    done = pull("hf:owner/repo/x.gguf", "http://127.0.0.1:9", tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("error: cannot download owner/repo/x.gguf")
    assert "hint:" in done.stderr and "Traceback" not in done.stderr


def test_resolution_rules(tmp_path):
    local = tmp_path / "m.gguf"
    local.write_bytes(PAYLOAD)
    assert resolve_model(str(local)) == local
    assert resolve_model(None).name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert resolve_model("smollm2-135m") == resolve_model(None)
    with pytest.raises(ModelNotFound, match="model file not found"):
        resolve_model(str(tmp_path / "missing.gguf"))
    with pytest.raises(ModelNotFound, match="unknown model 'llama9'"):
        resolve_model("llama9")
    with pytest.raises(ModelNotFound, match=r"expected hf:OWNER/REPO/FILE\.gguf"):
        resolve_model("hf:owner/file.gguf")


def test_catalog_spans_135m_to_8b():
    entries = catalog()
    assert {"smollm2-135m", "gemma3-270m", "llama3.1-8b"} <= set(entries)
    for entry in entries.values():
        assert entry.file.endswith(".gguf") and entry.context >= 8192 and entry.license
        assert entry.source in ("pypi", "hf")


@pytest.mark.parametrize(
    "spec",
    [
        "hf:a/b/../../x.gguf",
        "hf:../b/x.gguf",
        "hf:a/b//x.gguf",
        "hf:a/b/./x.gguf",
        "hf:a/b/c\\..\\x.gguf",
    ],
)
def test_hf_paths_stay_inside_the_models_folder(spec, tmp_path):
    with pytest.raises(ModelNotFound, match=r"not a plain name|expected"):
        resolve_model(spec, tmp_path)


def _hub_cache(root: Path) -> Path:
    """A model laid out in the Hugging Face cache as huggingface_hub leaves it."""
    repo = root / "models--owner--repo"
    snapshot = repo / "snapshots" / ("c" * 40)
    snapshot.mkdir(parents=True)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("c" * 40)
    (snapshot / "cached.gguf").write_bytes(PAYLOAD)
    return snapshot / "cached.gguf"


@pytest.mark.parametrize("with_models_folder", [False, True])
def test_a_model_in_the_hub_cache_works_offline(tmp_path, with_models_folder):
    """huggingface_hub reads its cache location once per process: each case runs in its own."""
    cached = _hub_cache(tmp_path / "hub")
    (tmp_path / "work").mkdir()
    folder = tmp_path / "models" if with_models_folder else None
    if folder is not None:
        folder.mkdir()
    models = "None" if folder is None else f"pathlib.Path({str(folder)!r})"
    code = (
        "import pathlib, prism_edge.backends.catalog as m; "
        f"m.default_models_dir = lambda: {models}; "
        "print(m.resolve_model('hf:owner/repo/cached.gguf'))"
    )
    env = {
        **os.environ,
        "HF_HUB_CACHE": str(tmp_path / "hub"),
        "HF_HUB_OFFLINE": "1",
        "HF_ENDPOINT": "http://127.0.0.1:9",
    }
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=tmp_path / "work",
    )
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()).resolve() == cached.resolve()
    assert not any((tmp_path / "work").iterdir())  # nothing written where it was run


def test_a_failed_checksum_lookup_is_tried_again_on_next_use(hub, tmp_path):
    FakeHub.etag = "not-a-sha256"  # the lookup gives no checksum to compare
    first = pull("hf:owner/repo/later.gguf", hub, tmp_path)
    assert first.returncode == 0, first.stderr
    path = Path(first.stdout.strip())
    assert not (path.parent / "later.gguf.verified").exists()
    FakeHub.etag = hashlib.sha256(PAYLOAD).hexdigest()
    second = pull("hf:owner/repo/later.gguf", hub, tmp_path)
    assert second.returncode == 0 and second.stdout.strip() == str(path)
    assert (path.parent / "later.gguf.verified").read_text().strip() == FakeHub.etag
