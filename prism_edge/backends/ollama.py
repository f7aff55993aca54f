"""ollama's server as the backend, through its own API (``/api/chat``), not its OpenAI one.

ollama sizes the context per request: ``options.num_ctx``, by default 2,048 or 4,096 tokens
whatever the model could hold, and a longer prompt is cut without an error (ollama issues
#8099, #17889). Its OpenAI endpoint takes no ``num_ctx``, so a prompt prism-edge believes fits
could be cut there. Here every request carries ``num_ctx`` = this backend's context, the same on
every call (a change makes ollama load the model again), and the runner's budgets keep prompt
and output within it.

ollama has no tokenizer endpoint. When the server runs on this machine and its model file is
in ollama's store here (``~/.ollama/models``, ``OLLAMA_MODELS``), prompts are tokenized exactly
by that file's own vocabulary (loaded alone, no weights) and one short call gives the chat
template's tokens. Otherwise a prompt's tokens are measured as the server counts them: at
connect, two short calls (a sample text twice, then once) give the chat template's tokens and
the tokens per character, and budgets use the rate with :data:`SAFETY` to spare. Either way
every reply's ``prompt_eval_count`` (the whole prompt, cached tokens included, in current
ollama) is the prompt's count in the run's metrics, and a count above the estimate raises it
for what follows; a reply whose count shows the prompt filled the context is refused, naming
``--ctx``.

What ollama does not do: a grammar (its ``format`` is JSON only; the runner validates every
revision regardless), prompt log-probabilities (scored methods are refused, as on llama.cpp's
server), and reused-token counts unless the reply carries ``prompt_eval_cached_count``.
"""

from __future__ import annotations

import math
import time
from typing import Any
from urllib.parse import urlsplit

import httpx
from pydantic import BaseModel

from prism_edge.backends import Completion, Grammar, Sampling
from prism_edge.backends.server import (
    PROBE_DEADLINE_S,
    Flavor,
    ReplyTooLarge,
    ServerBackend,
    _sent_parts,
    parsed,
    read_reply,
)
from prism_edge.core.errors import BackendError, PrismError
from prism_edge.prompts import Prompt

LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1"}
"""Hosts that are this machine: ollama's store here holds the server's model files."""
DEFAULT_CTX = 8192
"""The context when none is given: a run's own derived one is smaller (``fit``); a model's
trained context (often 128k) would take gigabytes of KV cache on a laptop."""
SAFETY = 1.15
"""Estimated tokens per character over the measured rate: code and names take more tokens a
character than the calibration's prose."""
SAMPLE = (
    "The committee met on Tuesday to review the budget for the coming year. After a long "
    "discussion of the library's opening hours, the members agreed to keep the reading room "
    "open until nine in the evening, and asked the treasurer to report on the cost in March. "
)
"""The calibration text: plain prose, as most inputs are."""


class _Tag(BaseModel):
    name: str


class _Tags(BaseModel):
    """``/api/tags``: the models the server has."""

    models: list[_Tag] = []


class _Show(BaseModel):
    """``/api/show``: the model's GGUF metadata (``model_info``)."""

    model_info: dict[str, Any] = {}


class _ChatMessage(BaseModel):
    content: str = ""


class _OllamaReply(BaseModel):
    """``/api/chat`` with ``stream`` off: the message and the counts."""

    message: _ChatMessage
    done_reason: str | None = None
    prompt_eval_count: int | None = None
    prompt_eval_cached_count: int | None = None
    prompt_eval_duration: int | None = None
    eval_count: int | None = None


def answers_as_ollama(
    url: str,
    *,
    headers: dict[str, str] | None = None,
    auth: httpx.Auth | None = None,
    transport: httpx.BaseTransport | None = None,
) -> bool:
    """Whether the server at ``url`` (credentials removed) is ollama: ``GET /api/version``
    answers with a version."""
    base = url.rstrip("/").removesuffix("/v1")
    try:
        with httpx.Client(
            base_url=base, headers=headers, auth=auth, timeout=10.0, transport=transport
        ) as client:
            request = client.build_request("GET", "/api/version")
            response = read_reply(client, request, PROBE_DEADLINE_S, f"the server at {url}")
            body = parsed(response) if response.status_code == 200 else None
    except (httpx.HTTPError, ValueError, ReplyTooLarge):
        return False
    return isinstance(body, dict) and isinstance(body.get("version"), str)


class OllamaBackend(ServerBackend):
    """PRISM's calls against ollama's server at ``url``: the model is ``model``, or the one
    the server has (or has loaded) when it has several."""

    def __init__(self, url: str, *, model: str | None = None, **kwargs: Any) -> None:
        self._per_char = 1 / 3  # until calibrated: about 3 characters a token
        self._vocabulary: Any | None = None
        """The served model's tokenizer, when its file is here (:meth:`_local_vocabulary`)."""
        self._wanted = model
        self.trained_ctx: int | None = None
        kwargs.pop("grammar_field", None)  # ollama takes no grammar
        super().__init__(url, **kwargs)  # the model: the one _probe chose

    # -- discovery

    def _probe(self) -> tuple[Flavor, str, int | None, int]:
        names = [t.name for t in self._reply("GET", "/api/tags", _Tags).models]
        model = self._choose(names, self._wanted)
        info = self._reply("POST", "/api/show", _Show, json={"model": model}).model_info
        count = info.get("general.parameter_count")
        self.parameters = count if isinstance(count, int) and count > 0 else None
        lengths = [v for k, v in info.items() if k.endswith(".context_length")]
        self.trained_ctx = next((v for v in lengths if isinstance(v, int) and v > 0), None)
        return "ollama", model, self.trained_ctx, 1

    def _context(self, asked: int | None, served: int | None) -> int:
        """The context asked for (at most the model's trained one), else
        :data:`DEFAULT_CTX`: ollama sizes its KV cache by what each request asks."""
        return min(asked or DEFAULT_CTX, served or asked or DEFAULT_CTX)

    def _choose(self, names: list[str], wanted: str | None) -> str:
        """The model asked for (``NAME`` means ``NAME:latest``, as for ``ollama run``), or the
        server's only model, or its only loaded one."""
        if wanted:
            for name in (wanted, f"{wanted}:latest"):
                if name in names:
                    return name
            have = ", ".join(names) or "none"
            raise BackendError(
                f"ollama at {self.url} has no model {wanted!r} (it has: {have}); "
                f"pull it with: ollama pull {wanted}"
            )
        if len(names) == 1:
            return names[0]
        running = self._optional("GET", "/api/ps")
        loaded = [m.get("name") for m in (running or {}).get("models", []) if isinstance(m, dict)]
        if len(loaded) == 1 and isinstance(loaded[0], str):
            return loaded[0]
        have = ", ".join(names) or "none: pull one with ollama pull NAME"
        raise BackendError(
            f"ollama at {self.url} has several models; name one with --server-model ({have})"
        )

    def _measure_template(self) -> int:
        """The template's tokens (and, without the model file here, the tokens per
        character), from the server's counts of :data:`SAMPLE` twice, then once."""
        self._vocabulary = self._local_vocabulary()
        # Each sample opens differently, so neither is a prefix of a prompt cached before (an
        # ollama older than 0.30 counts only the tokens it did not find in its cache).
        once_text = "1. " + SAMPLE
        if self._vocabulary is not None:
            once = self._count_remote(once_text)
            if once is not None:
                return max(0, once - len(self._vocabulary.tokenize(once_text)))
            return 16  # a server that sent no count: the guess stands
        twice = self._count_remote("2. " + SAMPLE * 2)
        once = self._count_remote(once_text)
        if once is None or twice is None or twice <= once:
            return 16  # an old server that sent no counts: the guesses stand
        self._per_char = (twice - once) / len(SAMPLE)
        return max(0, once - math.ceil(len(once_text) * self._per_char))

    def _local_vocabulary(self) -> Any | None:
        """The served model's own tokenizer when the server is on this machine and the model's
        file is in ollama's store here (None otherwise: the calibrated estimate serves)."""
        if urlsplit(self.url).hostname not in LOCAL_HOSTS:
            return None
        from prism_edge.backends.local import ollama_models

        wanted = {f"ollama:{self.model}", f"ollama:{self.model}:latest"}
        found = next((m for m in ollama_models() if m.spec in wanted and not m.problem), None)
        if found is None:
            return None
        try:
            from prism_edge.backends.llama_cpp import LlamaTokenizer

            return LlamaTokenizer(found.path)
        except (ImportError, OSError, ValueError, PrismError):
            return None  # a file llama.cpp cannot read: the estimate serves

    def _count_remote(self, text: str) -> int | None:
        body = self._body(text, Sampling(1, 0.0))
        return self._reply("POST", "/api/chat", _OllamaReply, json=body).prompt_eval_count

    # -- tokens and context

    def tokenize(self, text: str) -> list[int]:
        """The model file's own tokens when it is here; else placeholders as many as the
        tokens the server is expected to count, on the safe side (budgets need counts)."""
        if self._vocabulary is not None:
            return list(self._vocabulary.tokenize(text))
        return list(range(math.ceil(len(text) * self._per_char * SAFETY)))

    def fit(self, n_ctx: int) -> None:
        """A smaller ``num_ctx`` where the run needs less: ollama's KV cache is sized by it."""
        self.n_ctx = min(self.n_ctx, n_ctx)

    # -- generation

    def _body(self, text: str, sampling: Sampling) -> dict[str, Any]:
        options: dict[str, Any] = {
            "num_ctx": self.n_ctx,
            "num_predict": sampling.max_tokens,
            "temperature": sampling.temperature,
        }
        if sampling.seed is not None:
            options["seed"] = sampling.seed
        if sampling.repeat_penalty != 1.0:
            options["repeat_penalty"] = sampling.repeat_penalty
        return {
            "model": self.model,
            "messages": [{"role": "user", "content": text}],
            "stream": False,
            "options": options,
        }

    def generate(self, prompt: Prompt, sampling: Sampling, grammar: Grammar | None) -> Completion:
        del grammar  # ollama takes none; the runner validates what comes back
        estimate = self.count_tokens(prompt)
        body = self._body("".join(_sent_parts(prompt)), sampling)
        start = time.perf_counter()
        reply = self._reply("POST", "/api/chat", _OllamaReply, json=body)
        seconds = time.perf_counter() - start
        counted = reply.prompt_eval_count
        if counted is None or counted <= 0:
            counted = estimate  # a cached prompt on an old server: no count sent
        elif counted > estimate and self._vocabulary is not None:
            self._template_tokens += counted - estimate  # the server's template says more
        elif counted > estimate:  # this kind of text takes more tokens a character
            text_tokens = max(1, estimate - self._template_tokens)
            self._per_char *= (counted - self._template_tokens) / text_tokens * 1.02
        if counted + sampling.max_tokens > self.n_ctx and counted >= self.n_ctx - 1:
            error = BackendError(
                f"ollama counted {counted} prompt tokens, all of its num_ctx {self.n_ctx}: "
                "it cut the prompt"
            )
            error.hint = "pass a larger --ctx or a smaller --chunk-tokens, then --resume"
            raise error
        decoded = (
            reply.eval_count
            if reply.eval_count is not None
            else len(self.tokenize(reply.message.content))
        )
        prefill = reply.prompt_eval_duration / 1e9 if reply.prompt_eval_duration else None
        finish = "length" if reply.done_reason == "length" else "stop"
        return Completion(
            reply.message.content,
            counted,
            reply.prompt_eval_cached_count,
            decoded,
            seconds,
            finish,
            prefill,
        )
