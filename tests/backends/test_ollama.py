"""ollama's server through its own API, against an in-process fake of it (exact, no model):
found by ``/api/version``, ``num_ctx`` on every request, the server's token counts."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from prism_edge.backends.factory import open_server
from prism_edge.backends.ollama import DEFAULT_CTX, OllamaBackend
from prism_edge.backends.server import ServerBackend
from prism_edge.core.errors import BackendError
from prism_edge.engine.runner import PrismConfig, run_prism
from prism_edge.prompts import Part, Prompt
from tests.fake_server import FakeServer


@pytest.fixture(autouse=True)
def no_local_store(tmp_path, monkeypatch):
    """ollama's store here is empty unless a test fills it (the estimate serves)."""
    monkeypatch.setenv("OLLAMA_MODELS", str(tmp_path / "ollama"))


CODE = "def f(a, b):\n    return {k: (a[k], b[k]) for k in a if k in b}  # pairs\n" * 3


def connect(server: FakeServer, **options: Any) -> ServerBackend:
    return open_server(
        "http://localhost:11434/v1", transport=httpx.MockTransport(server), backoff=0.0, **options
    )


def chats(server: FakeServer) -> list[dict[str, Any]]:
    return [body for path, body in server.requests if path == "/api/chat"]


def test_ollama_is_found_by_its_version_and_sized_by_its_model():
    server = FakeServer("ollama")
    backend = connect(server)
    assert isinstance(backend, OllamaBackend)
    assert (backend.flavor, backend.model, backend.url) == (
        "ollama",
        "llama3.2:3b",
        "http://localhost:11434",
    )
    assert backend.parameters == 3_212_749_888  # what the method choice reads
    assert backend.n_ctx == DEFAULT_CTX  # not the trained 131,072: its KV cache would be huge
    assert connect(server, n_ctx=2048).n_ctx == 2048
    assert connect(server, n_ctx=500_000).n_ctx == 131_072
    assert not backend.can_score and backend.grammar_field == "none"
    # the OpenAI endpoint it also serves is never used: it takes no num_ctx
    assert not [p for p, _ in server.requests if p.startswith("/v1/")]


def test_any_other_server_keeps_the_openai_api():
    backend = connect(FakeServer("llama.cpp"))
    assert not isinstance(backend, OllamaBackend) and backend.flavor == "llama.cpp"


def test_the_model_is_the_one_named_or_the_only_one():
    server = FakeServer("ollama")
    server.models = ["llama3.2:3b", "qwen2.5:7b", "gemma3:latest"]
    with pytest.raises(BackendError, match="several models; name one with --server-model"):
        connect(server)
    assert connect(server, model="gemma3").model == "gemma3:latest"  # as `ollama run gemma3`
    assert connect(server, model="qwen2.5:7b").model == "qwen2.5:7b"
    with pytest.raises(BackendError, match=r"no model 'mistral'.*ollama pull mistral"):
        connect(server, model="mistral")


def test_every_request_carries_num_ctx_and_the_count_is_the_servers():
    server = FakeServer("ollama")
    backend = connect(server, n_ctx=2048)
    for text in ("A short note about the budget.", CODE):
        prompt = Prompt((Part("Instructions. "), Part(text, "document")))
        out = backend.complete(prompt, max_tokens=64, seed=1, repeat_penalty=1.1)
        counted = 3 + len(server.tokens(prompt.text))
        assert out.prompt_tokens == counted  # the server's count, not the estimate
        options = chats(server)[-1]["options"]
        assert options == {
            "num_ctx": 2048,
            "num_predict": 64,
            "temperature": 0.0,
            "seed": 1,
            "repeat_penalty": 1.1,
        }
        assert out.prefill_seconds == pytest.approx(counted / 1000)
        # what the budgets use is never below what the server counts, after this reply
        assert backend.count_tokens(prompt) >= counted
    assert not server.cut


def test_a_text_denser_than_prose_raises_the_rate():
    server = FakeServer("ollama")
    backend = connect(server)
    dense = Prompt((Part(";" * 400, "document"),))  # a token a character on the fake
    before = backend.count_tokens(dense)
    assert before < 3 + 400  # the prose rate underestimates it
    assert backend.complete(dense).prompt_tokens == 403
    assert backend.count_tokens(dense) >= 403


def test_a_prompt_ollama_cut_is_an_error_not_an_answer():
    server = FakeServer("ollama")
    backend = connect(server, n_ctx=256)
    backend._per_char = 0.01  # a rate far too low: the prompt looks as if it fits
    with pytest.raises(BackendError, match="cut the prompt") as caught:
        backend.complete(Prompt((Part("word " * 400, "document"),)), max_tokens=16)
    assert server.cut and "--ctx" in (caught.value.hint or "")


def test_fit_sizes_num_ctx_down_before_a_run():
    server = FakeServer("ollama")
    backend = connect(server)
    backend.fit(3072)
    backend.fit(100_000)  # never up
    backend.complete(Prompt((Part("x"),)))
    assert chats(server)[-1]["options"]["num_ctx"] == 3072


def test_a_run_through_ollama_fits_every_prompt(book_schema):
    """A written-revision run over a text of many chunks: every request's num_ctx covers the
    prompt and its output as the server counts them; nothing is cut."""
    server = FakeServer(
        "ollama",
        responder=lambda text: (
            json.dumps({"$.'attributes'.'Mowgli'": {"add": ["seen"]}})
            if "[OBJECTS" in text or "revis" in text.lower()
            else "Mowgli."
        ),
    )
    backend = connect(server, n_ctx=2048)
    chunk = "Mowgli ran through the jungle with Baloo, and the wolves watched him go. " * 12
    config = PrismConfig(question="Who?", max_tokens=128, answer_max_tokens=64)
    result = run_prism(backend, book_schema, config, [chunk] * 6)
    sent = chats(server)[2:]  # after the two calibration calls
    assert len(sent) >= 4 and not server.cut
    assert len(sent) == len(result.metrics.calls)
    for body, call in zip(sent, result.metrics.calls, strict=True):
        counted = 3 + len(server.tokens(body["messages"][0]["content"]))
        assert body["options"]["num_ctx"] == 2048
        assert counted + body["options"]["num_predict"] <= 2048
        assert call.prompt_tokens == counted


@pytest.mark.model
def test_a_local_server_with_its_model_file_here_counts_exactly(tmp_path, monkeypatch):
    """The server on this machine and its model in ollama's store here: prompts are counted
    by the file's own vocabulary, as the server counts them; one calibration call."""
    import hashlib

    from prism_edge.backends.llama_cpp import LlamaTokenizer, embedded_model_path

    model = embedded_model_path()
    root = tmp_path / "ollama"
    digest = hashlib.sha256(model.name.encode()).hexdigest()  # any digest names the blob
    (root / "blobs").mkdir(parents=True)
    (root / "blobs" / f"sha256-{digest}").symlink_to(model)
    manifest = root / "manifests" / "registry.ollama.ai" / "library" / "smol" / "latest"
    manifest.parent.mkdir(parents=True)
    layer = {"mediaType": "application/vnd.ollama.image.model", "digest": f"sha256:{digest}"}
    manifest.write_text(json.dumps({"layers": [layer]}), encoding="utf-8")
    vocabulary = LlamaTokenizer(model)
    server = FakeServer("ollama")
    server.models = ["smol:latest"]
    server.counter = lambda text: 5 + len(vocabulary.tokenize(text))  # a 5-token template
    backend = connect(server)
    assert len(chats(server)) == 1  # the template's count only: no rate to measure
    prompt = Prompt((Part("Instructions. "), Part(CODE, "document")))
    exact = 5 + len(vocabulary.tokenize("Instructions. ")) + len(vocabulary.tokenize(CODE))
    assert backend.count_tokens(prompt) == exact
    assert backend.complete(prompt).prompt_tokens == 5 + len(vocabulary.tokenize(prompt.text))
    remote = open_server(
        "http://gpu-box:11434", transport=httpx.MockTransport(server), backoff=0.0
    )  # another machine: its files are not these
    assert remote.count_tokens(prompt) != exact and len(chats(server)) == 4
