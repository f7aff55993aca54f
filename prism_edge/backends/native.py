"""The installed llama.cpp build, and the guard that keeps its AMX kernels from crashing a run.

llama-cpp-python compiles llama.cpp with ``-march=native``. On a CPU with Intel AMX (every Xeon
since Sapphire Rapids, most cloud VMs) that compiles in the AMX matrix kernels, llama.cpp then
repacks quantized weights into an AMX buffer, and every batch of more than one token can
segfault in ``ggml_backend_amx_mul_mat`` (llama.cpp issue #20824). A crash in C cannot be
caught, so the guard decides before the model is loaded:

* a build without AMX kernels (``AMX_INT8`` absent from ``llama_print_system_info``): nothing to
  guard, the model loads as llama.cpp would load it (no probe, no cost);
* a build with them: once per (build, model), a child process loads the model the default way
  and evaluates a short batch. If it exits cleanly, the default stays; if it dies (a signal) or
  hangs, the model is loaded without llama.cpp's extra buffer types (``--no-repack``: no AMX
  buffer, no CPU weight repacking), which is slower for some quantizations but correct. The
  verdict is cached in the user's cache folder, so the probe runs once.

``PRISM_EDGE_REPACK=on|off`` skips the guard: ``on`` always loads with extra buffer types,
``off`` never does.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPACK_ENV = "PRISM_EDGE_REPACK"
PROBE_TIMEOUT = 600.0
"""Seconds the probe may take (loading a large model on 2 cores included) before it counts as
hung."""
PROBE_TOKENS = 32
CACHE_FILE = "native-probe.json"


@dataclass(frozen=True)
class BuildInfo:
    """What llama-cpp-python and the llama.cpp it was built with say of themselves."""

    package_version: str
    system_info: str
    library_version: str
    """llama.cpp's and ggml's own versions and ggml's commit, as far as the build tells."""
    library_files: tuple[tuple[str, int, int], ...]
    """(name, size, mtime in ns) of the shared libraries: a rebuild changes them."""

    @property
    def features(self) -> dict[str, str]:
        """The CPU features llama.cpp was compiled for (``AVX2``, ``AMX_INT8``...)."""
        found: dict[str, str] = {}
        for item in self.system_info.replace("\n", "|").split("|"):
            name, sep, value = item.partition("=")
            if sep:  # "CPU : SSE3 = 1 | AVX = 1 | ..."
                found[name.split(":")[-1].strip()] = value.strip()
        return found

    @property
    def has_amx_kernels(self) -> bool:
        return self.features.get("AMX_INT8") == "1"


@functools.cache
def build_info() -> BuildInfo:
    import llama_cpp

    lib = Path(llama_cpp.__file__).parent / "lib"
    files: list[tuple[str, int, int]] = []
    with contextlib.suppress(OSError):
        for path in sorted(lib.iterdir()):
            if path.is_file() and not path.is_symlink():
                stat = path.stat()
                files.append((path.name, stat.st_size, stat.st_mtime_ns))
    info = llama_cpp.llama_print_system_info()
    text = info.decode("utf-8", "replace") if isinstance(info, bytes) else str(info)
    return BuildInfo(str(llama_cpp.__version__), text.strip(), _library_version(lib), tuple(files))


def _library_version(lib: Path) -> str:
    """``llama 0.5.0, ggml 0.25.3 (commit 0c1e570)`` from the libraries' exported functions."""
    import ctypes

    def call(library: str, name: str) -> str:
        files = sorted(lib.glob(f"{library}.*")) + sorted(
            lib.glob(f"{library.removeprefix('lib')}.dll")
        )
        with contextlib.suppress(OSError, AttributeError, IndexError):
            function = getattr(ctypes.CDLL(str(files[0])), name)
            function.restype = ctypes.c_char_p
            value = function()
            return value.decode("utf-8", "replace") if isinstance(value, bytes) else ""
        return ""

    llama = call("libllama", "llama_version")
    ggml = call("libggml-base", "ggml_version")
    commit = call("libggml-base", "ggml_commit")
    parts = [f"llama {llama}" if llama else "", f"ggml {ggml}" if ggml else ""]
    text = ", ".join(p for p in parts if p) or "unknown"
    return text + (f" (commit {commit})" if commit else "")


@dataclass(frozen=True)
class RepackDecision:
    """How to load a model: with llama.cpp's extra buffer types (the default) or without."""

    extra_buffers: bool
    reason: str

    @property
    def guarded(self) -> bool:
        """Whether the guard turned the extra buffer types off."""
        return not self.extra_buffers


@dataclass(frozen=True)
class ProbeOutcome:
    returncode: int | None
    """The child's exit code (negative: killed by that signal); None when it hung."""
    detail: str = ""

    @property
    def safe(self) -> bool:
        return self.returncode == 0

    def describe(self) -> str:
        if self.returncode is None:
            return "the probe hung"
        if self.returncode < 0:
            try:
                name = signal.Signals(-self.returncode).name
            except ValueError:
                name = f"signal {-self.returncode}"
            return f"the probe crashed ({name})"
        if self.returncode:
            detail = f": {self.detail}" if self.detail else ""
            return f"the probe failed (exit {self.returncode}{detail})"
        return "the probe ran cleanly"


Probe = Callable[[Path], ProbeOutcome]


def probe_in_child(
    model: Path, timeout: float = PROBE_TIMEOUT, command: list[str] | None = None
) -> ProbeOutcome:
    """Load ``model`` the default way in a child process and evaluate a short batch.

    ``command`` replaces the child's command line (tests simulate a crash with it).
    """
    command = command or [sys.executable, "-m", "prism_edge.backends.native", str(model)]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
        )
    except subprocess.TimeoutExpired:
        return ProbeOutcome(None)
    tail = done.stderr.strip().splitlines()[-1:] if done.stderr else []
    return ProbeOutcome(done.returncode, tail[0][:200] if tail else "")


def cache_path(name: str = CACHE_FILE) -> Path:
    """A probe's cache file in the user's cache folder."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("prism-edge", appauthor=False)) / name


def _digest(parts: list[str]) -> str:
    return hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()


def _build_key(info: BuildInfo) -> str:
    return _digest([info.package_version, info.system_info, json.dumps(info.library_files)])


def model_key(info: BuildInfo, model: Path, extra: list[str] | None = None) -> str:
    """A probe's key: this build, the model file (path, size, modification time) and
    ``extra`` settings; a rebuild or a changed file is probed again."""
    stat = model.stat()
    return _digest(
        [
            _build_key(info),
            str(model.resolve()),
            str(stat.st_size),
            str(stat.st_mtime_ns),
            *(extra or []),
        ]
    )


def cpu_flags() -> set[str]:
    """The CPU's feature flags as the kernel lists them (Linux; empty elsewhere)."""
    with contextlib.suppress(OSError):
        for line in (
            Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines()
        ):
            key, _, value = line.partition(":")
            if key.strip() in ("flags", "Features"):
                return set(value.split())
    return set()


def cached_decisions(
    info: BuildInfo, cache: Path | None = None
) -> list[tuple[str, RepackDecision]]:
    """(model path, decision) the probe recorded for this build, without probing."""
    build = _build_key(info)
    found = []
    for entry in read_cache(cache or cache_path()).values():
        if isinstance(entry, dict) and entry.get("build") == build:
            decision = RepackDecision(
                bool(entry.get("extra_buffers")), str(entry.get("reason", ""))
            )
            found.append((str(entry.get("model", "?")), decision))
    return found


def read_cache(path: Path) -> dict[str, Any]:
    """A probe cache's entries by key (none when the file is missing or not JSON)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_cache(path: Path, key: str, entry: dict[str, Any]) -> None:
    """Add or replace one entry, the file replaced whole (never left half written); without
    a writable cache folder nothing is kept and the probe runs again next time."""
    entries = read_cache(path)
    entries[key] = entry
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(entries, indent=1), encoding="utf-8")
        os.replace(tmp, path)


def _save_decision(
    path: Path, key: str, decision: RepackDecision, info: BuildInfo, model: Path
) -> None:
    entry = {
        "build": _build_key(info),
        "model": str(model),
        "extra_buffers": decision.extra_buffers,
        "reason": decision.reason,
        "at": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }
    write_cache(path, key, entry)


_decisions: dict[str, RepackDecision] = {}
_lock = threading.Lock()


def decide(
    model: Path,
    *,
    info: BuildInfo | None = None,
    probe: Probe = probe_in_child,
    cache: Path | None = None,
) -> RepackDecision:
    """Whether ``model`` may load with llama.cpp's extra buffer types on this build."""
    setting = os.environ.get(REPACK_ENV, "auto").strip().lower()
    if setting in ("on", "1", "true"):
        return RepackDecision(True, f"{REPACK_ENV}={setting}")
    if setting in ("off", "0", "false"):
        return RepackDecision(False, f"{REPACK_ENV}={setting}")
    info = info or build_info()
    if not info.has_amx_kernels:
        return RepackDecision(True, "this llama.cpp build has no AMX kernels")
    key = model_key(info, model)
    with _lock:
        if key in _decisions:
            return _decisions[key]
        cache = cache or cache_path()
        saved = read_cache(cache).get(key)
        if isinstance(saved, dict) and isinstance(saved.get("extra_buffers"), bool):
            decision = RepackDecision(saved["extra_buffers"], str(saved.get("reason", "")))
        else:
            outcome = probe(model)
            if outcome.safe:
                decision = RepackDecision(True, "AMX kernels: " + outcome.describe())
            else:
                decision = RepackDecision(
                    False, f"AMX kernels: {outcome.describe()}; weight repacking turned off"
                )
            if outcome.returncode is None or outcome.returncode <= 0:
                _save_decision(cache, key, decision, info, model)  # a clean run or a crash
        _decisions[key] = decision
        return decision


_params_lock = threading.Lock()


@contextlib.contextmanager
def model_params(**fields: Any) -> Iterator[None]:
    """Inside the block, llama.cpp's default model parameters carry ``fields``.

    llama-cpp-python's ``Llama`` takes no ``use_extra_bufts`` argument; it starts from
    ``llama_model_default_params()``, so that function is wrapped while the model loads.
    """
    import llama_cpp.llama_cpp as lib

    if not fields:
        yield
        return
    original = lib.llama_model_default_params

    def with_fields() -> Any:
        params = original()
        for name, value in fields.items():
            setattr(params, name, value)
        return params

    with _params_lock:
        lib.llama_model_default_params = with_fields
        try:
            yield
        finally:
            lib.llama_model_default_params = original


def _probe_main(path: str) -> int:
    """The child: load the model as llama.cpp would, evaluate one batch of several tokens."""
    from llama_cpp import Llama

    llama = Llama(path, n_ctx=256, n_batch=64, verbose=False)
    tokens = llama.tokenize(b"The quick brown fox jumps over the lazy dog. " * 8, add_bos=True)
    llama.eval(tokens[:PROBE_TOKENS])
    return 0


if __name__ == "__main__":  # pragma: no cover - run in the probe's child process
    sys.exit(_probe_main(sys.argv[1]))
