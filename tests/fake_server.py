"""A fake inference server for httpx: OpenAI-compatible (llama.cpp's, vLLM's,
llama-cpp-python's) or ollama's own API."""

from __future__ import annotations

import json
import re
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

import httpx

_TOKEN = re.compile(r"\w+|[^\w\s]|\s+")


class FakeServer:
    """Enough of llama.cpp's server (or vLLM's, llama-cpp-python's) to drive the backend."""

    def __init__(
        self,
        flavor: str = "llama.cpp",
        outputs: list[str] | None = None,
        responder: Callable[[str], str | None] | None = None,
    ) -> None:
        """Replies come from ``outputs`` in turn, else ``responder(prompt text)`` (None: the
        server answers 503), else a fixed answer."""
        self.flavor = flavor
        self.outputs: deque[str] = deque(outputs or [])
        self.responder = responder
        self.lock = threading.Lock()
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.failures: deque[int | httpx.Response | type[Exception]] = deque()
        self.cached: list[int] = []
        self.vocab: dict[str, int] = {}
        self.models = ["llama3.2:3b"]
        """ollama: the models it has (``/api/tags``)."""
        self.cut: list[int] = []
        """ollama: the prompts it cut to its ``num_ctx`` (their whole lengths), silently."""
        self.counter: Callable[[str], int] | None = None
        """ollama: how it counts a message's prompt tokens (default: 3 + the fake's tokens)."""

    def tokens(self, text: str) -> list[int]:
        with self.lock:
            return [self.vocab.setdefault(t, len(self.vocab)) for t in _TOKEN.findall(text)]

    def __call__(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content) if request.content else {}
        path = request.url.path
        self.requests.append((path, body))
        if self.failures and path == "/v1/chat/completions":
            failure = self.failures.popleft()
            if isinstance(failure, httpx.Response):
                return failure
            if isinstance(failure, int):
                return httpx.Response(failure, json={"error": {"message": "busy"}})
            raise failure("boom", request=request)
        if self.flavor == "ollama" and path.startswith("/api/"):
            return self.ollama(path, body)
        if path == "/v1/models":
            model: dict[str, Any] = {"id": "smol.gguf"}
            if self.flavor == "vllm":
                model["max_model_len"] = 4096
            return httpx.Response(200, json={"data": [model]})
        if path == "/props" and self.flavor == "llama.cpp":
            return httpx.Response(
                200, json={"default_generation_settings": {"n_ctx": 2048}, "total_slots": 4}
            )
        if path == "/tokenize" and self.flavor in ("llama.cpp", "vllm"):
            if "messages" in body:  # vLLM: the chat template applied (three tokens here)
                text = body["messages"][0]["content"]
                return httpx.Response(200, json={"tokens": [-1, -2, *self.tokens(text), -3]})
            text = body.get("content", body.get("prompt", ""))
            return httpx.Response(200, json={"tokens": self.tokens(text)})
        if path == "/v1/completions" and self.flavor == "vllm" and body.get("echo"):
            return self.echo(body)
        if path == "/extras/tokenize" and self.flavor == "llama-cpp-python":
            return httpx.Response(200, json={"tokens": [1, *self.tokens(body["input"])]})
        if path == "/v1/chat/completions":
            return self.chat(body)
        return httpx.Response(404, json={"error": {"message": "not found"}})

    def chat(self, body: dict[str, Any]) -> httpx.Response:
        text = body["messages"][0]["content"]
        prompt = [-1, -2, *self.tokens(text), -3]  # a three-token chat template
        if body["max_tokens"] == 1:
            out = "Hi"
        elif self.outputs:
            out = self.outputs.popleft()
        elif self.responder is not None:
            reply_text = self.responder(text)
            if reply_text is None:
                return httpx.Response(503, json={"error": {"message": "unavailable"}})
            out = reply_text
        else:
            out = "The answer."
        reused = 0
        for a, b in zip(self.cached, prompt):  # noqa: B905
            if a != b:
                break
            reused += 1
        self.cached = prompt + self.tokens(out)
        reply: dict[str, Any] = {
            "choices": [{"message": {"content": out}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": len(prompt), "completion_tokens": len(self.tokens(out))},
        }
        if self.flavor == "llama.cpp":
            reply["timings"] = {"cache_n": reused}
        if self.flavor == "vllm":
            reply["usage"]["prompt_tokens_details"] = {"cached_tokens": reused}
        return httpx.Response(200, json=reply)

    def echo(self, body: dict[str, Any]) -> httpx.Response:
        """vLLM's completions with ``echo`` and ``logprobs``: every prompt token's
        log-probability (None for the first), then one generated token. A token already seen
        earlier in the prompt is likely (-1), any other unlikely (-5)."""
        choices = []
        for index, ids in enumerate(body["prompt"]):
            logprobs: list[float | None] = [None]
            logprobs += [-1.0 if t in ids[:i] else -5.0 for i, t in enumerate(ids) if i]
            logprobs.append(-0.1)
            choices.append({"index": index, "text": "x", "logprobs": {"token_logprobs": logprobs}})
        return httpx.Response(200, json={"choices": choices})

    def ollama(self, path: str, body: dict[str, Any]) -> httpx.Response:
        """ollama's own API: version, models, a model's metadata, and chat that cuts a prompt
        longer than ``options.num_ctx`` (4,096 when none is sent) without an error."""
        if path == "/api/version":
            return httpx.Response(200, json={"version": "0.13.0"})
        if path == "/api/tags":
            return httpx.Response(200, json={"models": [{"name": m} for m in self.models]})
        if path == "/api/ps":
            return httpx.Response(200, json={"models": []})
        if path == "/api/show":
            if body.get("model") not in self.models:
                return httpx.Response(404, json={"error": f"model '{body.get('model')}' not found"})
            info = {"general.parameter_count": 3_212_749_888, "llama.context_length": 131_072}
            return httpx.Response(200, json={"model_info": info})
        if path != "/api/chat":
            return httpx.Response(404, json={"error": "not found"})
        options = body.get("options", {})
        text = body["messages"][0]["content"]
        prompt = self.counter(text) if self.counter else 3 + len(self.tokens(text))
        limit = options.get("num_ctx", 4096)
        if prompt > limit:
            self.cut.append(prompt)
            prompt = limit
        if options.get("num_predict") == 1:
            out = "Hi"
        elif self.outputs:
            out = self.outputs.popleft()
        elif self.responder is not None:
            out = self.responder(body["messages"][0]["content"]) or ""
        else:
            out = "The answer."
        reply = {
            "model": body["model"],
            "message": {"role": "assistant", "content": out},
            "done": True,
            "done_reason": "stop",
            "prompt_eval_count": prompt,
            "prompt_eval_duration": 1_000_000 * prompt,
            "eval_count": len(self.tokens(out)),
        }
        return httpx.Response(200, json=reply)
