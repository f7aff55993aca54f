"""The AMX guard: when a model loads with llama.cpp's extra buffer types, and when not.

No test here needs an AMX machine: the probe's child process is replaced by commands that
exit cleanly, die of SIGSEGV (what the AMX kernels do) or hang, and the build's features are
given, so every branch of the decision runs on any x86-64 host.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import pytest

from prism_edge.backends import native
from prism_edge.backends.native import BuildInfo, ProbeOutcome, decide, probe_in_child

AMX_INFO = "CPU : SSE3 = 1 | AVX2 = 1 | AVX512 = 1 | AMX_INT8 = 1 | REPACK = 1 |"
PLAIN_INFO = "CPU : SSE3 = 1 | AVX2 = 1 | REPACK = 1 |"
SEGFAULT = [sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"]
CLEAN = [sys.executable, "-c", "pass"]
HANG = [sys.executable, "-c", "import time; time.sleep(30)"]


def build(system_info: str) -> BuildInfo:
    return BuildInfo("0.3.test", system_info, "llama test", (("libggml-cpu.so", 1, 2),))


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(native.REPACK_ENV, raising=False)
    monkeypatch.setattr(native, "_decisions", {})
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


@pytest.fixture
def model(tmp_path: Path) -> Path:
    path = tmp_path / "model.gguf"
    path.write_bytes(b"GGUF" + bytes(64))
    return path


class Counting:
    """A probe that runs ``command`` as the real probe would, counting calls."""

    def __init__(self, command: list[str], timeout: float = 60.0) -> None:
        self.calls = 0
        self._probe = functools.partial(probe_in_child, command=command, timeout=timeout)

    def __call__(self, model: Path) -> ProbeOutcome:
        self.calls += 1
        return self._probe(model)


def test_features_are_read_from_the_system_info() -> None:
    info = build(AMX_INFO)
    assert info.features["AVX2"] == "1"
    assert info.features["SSE3"] == "1"
    assert info.has_amx_kernels
    assert not build(PLAIN_INFO).has_amx_kernels


def test_a_build_without_amx_kernels_is_not_probed(model: Path) -> None:
    probe = Counting(SEGFAULT)
    decision = decide(model, info=build(PLAIN_INFO), probe=probe)
    assert decision.extra_buffers and not decision.guarded
    assert probe.calls == 0
    assert "no AMX kernels" in decision.reason


def test_a_crashing_probe_turns_repacking_off_and_is_remembered(model: Path) -> None:
    probe = Counting(SEGFAULT)
    decision = decide(model, info=build(AMX_INFO), probe=probe)
    assert decision.guarded
    assert "SIGSEGV" in decision.reason
    assert probe.calls == 1
    native._decisions.clear()  # a new process: the verdict comes from the cache file
    again = decide(model, info=build(AMX_INFO), probe=probe)
    assert again == decision
    assert probe.calls == 1
    listed = native.cached_decisions(build(AMX_INFO))
    assert listed == [(str(model), decision)]
    assert native.cached_decisions(build(AMX_INFO + " X = 1 |")) == []  # another build


def test_a_clean_probe_keeps_repacking_on(model: Path) -> None:
    probe = Counting(CLEAN)
    decision = decide(model, info=build(AMX_INFO), probe=probe)
    assert decision.extra_buffers
    assert "cleanly" in decision.reason


def test_a_hanging_probe_counts_as_a_crash(model: Path) -> None:
    decision = decide(model, info=build(AMX_INFO), probe=Counting(HANG, timeout=0.5))
    assert decision.guarded
    assert "hung" in decision.reason


def test_a_rebuilt_library_or_a_changed_model_is_probed_again(model: Path) -> None:
    probe = Counting(CLEAN)
    decide(model, info=build(AMX_INFO), probe=probe)
    rebuilt = BuildInfo("0.3.test", AMX_INFO, "llama test", (("libggml-cpu.so", 9, 9),))
    decide(model, info=rebuilt, probe=probe)
    assert probe.calls == 2
    model.write_bytes(b"GGUF" + bytes(65))
    decide(model, info=rebuilt, probe=probe)
    assert probe.calls == 3


def test_an_unwritable_cache_still_decides(model: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = model.parent / "not-a-folder"
    blocker.write_text("x")
    decision = decide(
        model, info=build(AMX_INFO), probe=Counting(SEGFAULT), cache=blocker / "probe.json"
    )
    assert decision.guarded


@pytest.mark.parametrize(("setting", "extra"), [("off", False), ("on", True)])
def test_the_environment_overrides_the_guard(
    model: Path, monkeypatch: pytest.MonkeyPatch, setting: str, extra: bool
) -> None:
    monkeypatch.setenv(native.REPACK_ENV, setting)
    probe = Counting(SEGFAULT)
    assert decide(model, info=build(AMX_INFO), probe=probe).extra_buffers is extra
    assert probe.calls == 0


def test_model_params_carry_the_fields_only_inside_the_block() -> None:
    import llama_cpp.llama_cpp as lib

    assert lib.llama_model_default_params().use_extra_bufts is True
    with native.model_params(use_extra_bufts=False):
        assert lib.llama_model_default_params().use_extra_bufts is False
    assert lib.llama_model_default_params().use_extra_bufts is True


def test_the_installed_build_describes_itself() -> None:
    info = native.build_info()
    assert info.package_version
    assert "AVX" in info.system_info or info.features  # x86-64 or any other CPU llama.cpp knows
    assert info.library_version


@pytest.mark.model
def test_the_real_probe_and_a_guarded_load_of_the_embedded_model() -> None:
    """The probe's child loads the model and evaluates a batch; where the build has AMX
    kernels it may crash (that is what it is for), and the guarded load must then work."""
    from prism_edge.backends.llama_cpp import LlamaCppBackend, embedded_model_path

    outcome = probe_in_child(embedded_model_path())
    if not native.build_info().has_amx_kernels:
        assert outcome.safe, outcome.describe()
    backend = LlamaCppBackend(n_ctx=512)
    assert backend.repack.extra_buffers is (outcome.safe or not native.build_info().has_amx_kernels)
    tokens = backend.tokenize("The quick brown fox jumps over the lazy dog. " * 4)
    backend._prefill(tokens)  # a multi-token batch: what crashes in the AMX kernels
