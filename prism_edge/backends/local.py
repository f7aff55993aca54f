"""The GGUF models a user already has: the Hugging Face cache, ollama's store, LM Studio's
folder and prism-edge's own catalog, each read where it lies, never copied.

``-m ollama:NAME[:TAG]`` and ``-m lmstudio:NAME`` resolve to the file itself. What a model is
(architecture, quantization, context length) comes from its GGUF header, read up to the end of
its metadata: the tokenizer's arrays are skipped, not parsed, so listing a store of large models
takes milliseconds per model (the ``gguf`` package's reader parses every array and tensor:
2.5 s for the 100 MB embedded model here).
"""

from __future__ import annotations

import json
import os
import re
import stat
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from prism_edge.core.errors import BackendError

OLLAMA_ENV = "OLLAMA_MODELS"
OLLAMA_MODEL_LAYER = "application/vnd.ollama.image.model"
OLLAMA_REGISTRY = "registry.ollama.ai"
GGUF_MAGIC = b"GGUF"
GGUF_VERSIONS = (2, 3)
MAX_STRING = 1 << 24
"""A metadata string longer than this is a corrupt header, not a model."""


class LocalModelError(BackendError):
    hint = "prism-edge models lists the models found on this machine"


@dataclass(frozen=True)
class GGUFInfo:
    architecture: str
    name: str
    quantization: str
    context_length: int | None
    parameters: str
    """The size label (``135M``) when the header has one."""


@dataclass(frozen=True)
class LocalModel:
    spec: str
    """What ``-m`` takes to use it: ``ollama:NAME:TAG``, ``lmstudio:NAME``, a catalog name or a
    path."""
    store: str
    """``ollama``, ``lmstudio``, ``huggingface`` or ``prism-edge``."""
    path: Path
    size: int
    problem: str | None = None
    """Why the entry cannot be a model (a broken link, not a regular file); None: a file."""


# --- the GGUF header ------------------------------------------------------------------------

_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q"}
_SCALARS |= {11: "<q", 12: "<d"}
_STRING, _ARRAY = 8, 9


def _read(stream: BinaryIO, size: int) -> bytes:
    data = stream.read(size)
    if len(data) != size:
        raise ValueError("the header ends early")
    return data


def _unpack(stream: BinaryIO, fmt: str) -> Any:
    return struct.unpack(fmt, _read(stream, struct.calcsize(fmt)))[0]


def _string(stream: BinaryIO) -> str:
    length = _unpack(stream, "<Q")
    if length > MAX_STRING:
        raise ValueError("a metadata string is implausibly long")
    return _read(stream, length).decode("utf-8", errors="replace")


def _value(stream: BinaryIO, kind: int, size: int) -> Any:
    """A metadata value; arrays (of arrays, as deep as a file nests them) are skipped with an
    explicit stack, never by recursion, and never past the file's ``size``."""
    if kind in _SCALARS:
        return _unpack(stream, _SCALARS[kind])
    if kind == _STRING:
        return _string(stream)
    if kind != _ARRAY:
        raise ValueError(f"unknown metadata type {kind}")
    pending = [(_unpack(stream, "<I"), _unpack(stream, "<Q"))]  # (item type, items left)
    while pending:
        item, count = pending.pop()
        if item in _SCALARS:  # skipped whole: one seek
            stream.seek(struct.calcsize(_SCALARS[item]) * count, os.SEEK_CUR)
        elif item == _STRING:
            for _ in range(count):
                stream.seek(_unpack(stream, "<Q"), os.SEEK_CUR)
                if stream.tell() > size:
                    raise ValueError("the header ends early")
        elif item == _ARRAY:
            if count:
                pending.append((item, count - 1))
                pending.append((_unpack(stream, "<I"), _unpack(stream, "<Q")))
        else:
            raise ValueError(f"unknown metadata type {item}")
        if stream.tell() > size:
            raise ValueError("the header ends early")
    return None


def _regular_size(path: Path) -> int:
    """The size of a regular file (links followed); ValueError for anything else (a FIFO
    would block the reader, a device never ends)."""
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        raise ValueError("not a regular file")
    return info.st_size


def check_magic(path: Path) -> None:
    """:class:`LocalModelError` unless ``path`` is a regular file that starts like a GGUF
    model."""
    try:
        _regular_size(path)
        with path.open("rb") as stream:
            magic = stream.read(4)
    except (OSError, ValueError) as exc:
        raise LocalModelError(f"{path}: cannot be read as a model ({exc})") from None
    if magic != GGUF_MAGIC:
        raise LocalModelError(f"{path}: not a GGUF model file (it starts with {magic!r})")


def _entry(spec: str, store: str, path: Path) -> LocalModel:
    """A store's entry: its size, or why it is no model file (a broken link, a FIFO)."""
    try:
        return LocalModel(spec, store, path, _regular_size(path))
    except FileNotFoundError:
        return LocalModel(spec, store, path, 0, "a broken link")
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return LocalModel(spec, store, path, 0, reason)


def read_gguf(path: Path) -> GGUFInfo:
    """What a GGUF file is, from its header; :class:`LocalModelError` when it is not GGUF."""
    try:
        size = _regular_size(path)
        with path.open("rb") as stream:
            if stream.read(4) != GGUF_MAGIC:
                raise ValueError("not a GGUF file")
            version = _unpack(stream, "<I")
            if version not in GGUF_VERSIONS:
                raise ValueError(f"GGUF version {version} is not one this reader knows (2, 3)")
            _unpack(stream, "<Q")  # tensor count
            count = _unpack(stream, "<Q")
            meta: dict[str, Any] = {}
            for _ in range(count):
                key = _string(stream)
                meta[key] = _value(stream, _unpack(stream, "<I"), size)
    except (OSError, ValueError, struct.error, OverflowError) as exc:
        raise LocalModelError(f"{path}: cannot read its GGUF header ({exc})") from None
    arch = str(meta.get("general.architecture") or "?")
    context = meta.get(f"{arch}.context_length")
    return GGUFInfo(
        arch,
        str(meta.get("general.name") or path.stem),
        _file_type(meta.get("general.file_type")),
        int(context) if isinstance(context, int) else None,
        str(meta.get("general.size_label") or ""),
    )


def parse_size(label: str) -> int | None:
    """Parameters from a size label: ``135M`` -> 135e6, ``7B``, ``1.5B``, ``8x7B`` (None when
    it is not one)."""
    match = re.fullmatch(r"\s*(?:(\d+)x)?(\d+(?:\.\d+)?)\s*([KMBT])\s*", label, re.IGNORECASE)
    if match is None:
        return None
    experts, number, unit = match.groups()
    scale = {"K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}[unit.upper()]
    return round(float(number) * scale * (int(experts) if experts else 1))


def _file_type(value: Any) -> str:
    if not isinstance(value, int):
        return "?"
    import llama_cpp

    for name in dir(llama_cpp):
        if name.startswith("LLAMA_FTYPE_") and getattr(llama_cpp, name) == value:
            return name.removeprefix("LLAMA_FTYPE_").removeprefix("MOSTLY_")
    return str(value)


# --- the stores -----------------------------------------------------------------------------


def ollama_root() -> Path:
    moved = os.environ.get(OLLAMA_ENV)
    return Path(moved).expanduser() if moved else Path.home() / ".ollama" / "models"


def lmstudio_roots() -> list[Path]:
    home = Path.home()
    return [home / ".lmstudio" / "models", home / ".cache" / "lm-studio" / "models"]


def ollama_models(root: Path | None = None) -> Iterator[LocalModel]:
    """Every ollama manifest whose model layer is a blob on disk, as ``ollama:NAME:TAG``."""
    root = root or ollama_root()
    manifests = root / "manifests"
    if not manifests.is_dir():
        return
    for manifest in sorted(p for p in manifests.rglob("*") if p.is_file()):
        parts = manifest.relative_to(manifests).parts
        if len(parts) < 3:
            continue
        host, *names, tag = parts
        if host == OLLAMA_REGISTRY and names[:1] == ["library"]:
            names = names[1:]
        elif host != OLLAMA_REGISTRY:
            names = [host, *names]
        blob = _ollama_blob(root, manifest)
        if blob is not None:
            yield _entry(f"ollama:{'/'.join(names)}:{tag}", "ollama", blob)


def _ollama_blob(root: Path, manifest: Path) -> Path | None:
    try:
        layers = json.loads(manifest.read_text(encoding="utf-8")).get("layers", [])
    except (OSError, ValueError, AttributeError):
        return None
    for layer in layers if isinstance(layers, list) else []:
        if isinstance(layer, dict) and layer.get("mediaType") == OLLAMA_MODEL_LAYER:
            digest = str(layer.get("digest", ""))
            blob = root / "blobs" / digest.replace(":", "-")
            if "/" not in digest and (blob.exists() or blob.is_symlink()):
                return blob
    return None


def lmstudio_models(roots: list[Path] | None = None) -> Iterator[LocalModel]:
    """Every GGUF under LM Studio's folders (``publisher/repo/file.gguf``) as
    ``lmstudio:publisher/repo/file``."""
    for root in roots or lmstudio_roots():
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*.gguf")):
            if path.name.startswith("mmproj"):
                continue  # vision projectors are not language models
            name = path.relative_to(root).with_suffix("").as_posix()
            yield _entry(f"lmstudio:{name}", "lmstudio", path)


def huggingface_models(cache_dir: Path | None = None) -> Iterator[LocalModel]:
    """Every GGUF file in the Hugging Face cache as ``hf:OWNER/REPO/FILE`` (found there by
    ``-m`` with no download)."""
    from huggingface_hub import scan_cache_dir
    from huggingface_hub.errors import CacheNotFound

    try:
        info = scan_cache_dir(cache_dir)
    except (CacheNotFound, OSError, ValueError):
        return
    for repo in sorted(info.repos, key=lambda r: r.repo_id):
        for revision in repo.revisions:
            for file in sorted(revision.files, key=lambda f: f.file_name):
                if file.file_name.endswith(".gguf"):
                    spec = f"hf:{repo.repo_id}/{file.file_path.relative_to(revision.snapshot_path)}"
                    yield LocalModel(spec, "huggingface", file.file_path, file.size_on_disk)


def found() -> list[LocalModel]:
    """The models of every store, each file once."""
    seen: set[Path] = set()
    models = []
    for source in (ollama_models(), lmstudio_models(), huggingface_models()):
        for model in source:
            real = model.path.resolve()
            if real not in seen:
                seen.add(real)
                models.append(model)
    return models


def resolve_store_spec(spec: str) -> Path:
    """The file of ``ollama:NAME[:TAG]`` (tag ``latest`` by default) or ``lmstudio:NAME``
    (a path under LM Studio's folder, or a unique part of one)."""
    store, _, name = spec.partition(":")
    if not name:
        raise LocalModelError(f"{spec!r} names no model")
    if store == "ollama":
        wanted = name if ":" in name.rsplit("/", 1)[-1] else f"{name}:latest"
        candidates = list(ollama_models())
        for model in candidates:
            if model.spec == f"ollama:{wanted}":
                if model.problem:
                    raise LocalModelError(f"{model.path} cannot be read: {model.problem}")
                return model.path
        have = ", ".join(m.spec.removeprefix("ollama:") for m in candidates) or "none"
        raise LocalModelError(f"no ollama model {wanted!r} in {ollama_root()} (have: {have})")
    candidates = list(lmstudio_models())
    exact = [m for m in candidates if m.spec == f"lmstudio:{name}"]
    partial = [m for m in candidates if name.casefold() in m.spec.casefold()]
    chosen = exact or partial
    if len(chosen) == 1:
        if chosen[0].problem:
            raise LocalModelError(f"{chosen[0].path} cannot be read: {chosen[0].problem}")
        return chosen[0].path
    if not chosen:
        raise LocalModelError(f"no LM Studio model matches {name!r}")
    names = ", ".join(m.spec for m in chosen[:5])
    raise LocalModelError(f"{name!r} matches several LM Studio models: {names}")
