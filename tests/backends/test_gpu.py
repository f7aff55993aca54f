"""GPU offload: every layer on a llama.cpp built with a GPU backend, none on a CPU build, as
the plan line says. No GPU is needed: llama.cpp's capability is faked."""

from __future__ import annotations

import pytest

from prism_edge.app.common import gpu_layers_of
from prism_edge.backends import llama_cpp as backend_module
from prism_edge.backends.llama_cpp import loading  # where the context is opened


def test_gpu_layers_are_read_as_llama_cpp_takes_them():
    assert gpu_layers_of(None) is None and gpu_layers_of("auto") is None
    assert gpu_layers_of("all") == -1 and gpu_layers_of("12") == 12 and gpu_layers_of("0") == 0
    with pytest.raises(ValueError, match="--gpu-layers takes auto, all or a number"):
        gpu_layers_of("many")


def test_auto_offloads_every_layer_only_where_a_gpu_backend_is_built(monkeypatch):
    import llama_cpp

    monkeypatch.setattr(llama_cpp, "llama_supports_gpu_offload", lambda: True, raising=False)
    assert backend_module.offloaded_layers(None) == -1 and backend_module.offloaded_layers(8) == 8
    monkeypatch.setattr(llama_cpp, "llama_supports_gpu_offload", lambda: False, raising=False)
    assert backend_module.offloaded_layers(None) == 0
    assert backend_module.offloaded_layers(-1) == -1  # asked: as asked


@pytest.mark.model
@pytest.mark.parametrize(("gpu", "device"), [(True, "GPU (all layers)"), (False, "CPU")])
def test_run_opens_the_model_offloaded_and_the_plan_says_where(monkeypatch, tmp_path, gpu, device):
    import llama_cpp

    from tests.cli_harness import invoke

    monkeypatch.setattr(llama_cpp, "llama_supports_gpu_offload", lambda: gpu, raising=False)
    opened: list[dict[str, object]] = []
    real = loading._load

    def load(path, **settings):  # type: ignore[no-untyped-def]
        opened.append(settings)
        return real(path, **settings)

    monkeypatch.setattr(loading, "_load", load)
    story = tmp_path / "story.txt"
    story.write_text("Then Mowgli ran to Akela at the rock. Later Mowgli spoke to Akela.\n")
    out = invoke("run", str(story), "--no-log", "--run-dir", str(tmp_path / "r"))
    assert out.exit_code == 0, out.output
    assert f"on {device}, method " in out.stderr
    assert all(s["n_gpu_layers"] == (-1 if gpu else 0) for s in opened if "n_ctx" in s)
    assert any("n_ctx" in s for s in opened)  # the context was opened through the patched load


def test_version_says_whether_this_build_offloads_to_a_gpu(monkeypatch):
    import llama_cpp

    from prism_edge.app.cli import version_report

    monkeypatch.setattr(llama_cpp, "llama_supports_gpu_offload", lambda: True, raising=False)
    assert "GPU offload: built in" in version_report()
    monkeypatch.setattr(llama_cpp, "llama_supports_gpu_offload", lambda: False, raising=False)
    assert "GPU offload: not in this build" in version_report()
