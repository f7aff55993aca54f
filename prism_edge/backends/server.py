"""An OpenAI-compatible inference server as the backend: llama.cpp's server, vLLM, SGLang.

The same prompts as the local backend go out as one user message to ``/v1/chat/completions``
(the server applies the model's chat template), ``cache_prompt`` on, so every server that
caches prefixes (llama.cpp slots, vLLM automatic prefix caching, SGLang RadixAttention) reuses
the static prefix and the memory. What the server is, is found out once at connect time:

* **llama.cpp server** (``GET /props``): context per slot from ``/props``, tokens from
  ``/tokenize``, reused prompt tokens from ``timings.cache_n``, grammar as ``grammar`` (GBNF).
* **llama-cpp-python's server** (``/extras/tokenize``): grammar as ``grammar``; it reports no
  reused tokens and no context size (pass ``n_ctx``).
* **vLLM** (``max_model_len`` in ``/v1/models``): tokens from ``/tokenize``, grammar as
  ``structured_outputs.grammar``, reused tokens from ``usage.prompt_tokens_details``
  (``--enable-prompt-tokens-details``).
* **SGLang** (``GET /get_model_info``): grammar as ``ebnf``.

Anything else gets no grammar unless one is named, and "unknown" reused tokens unless the usage
block reports them. Servers cannot switch grammars mid-output, so a per-line grammar sends its
first grammar for the whole output; the runner validates every revision regardless.

Transport errors, timeouts, 429 and 5xx are retried with exponential backoff, then reported as
one :class:`~prism_edge.core.errors.BackendError`; a 4xx is reported at once with the server's
message. The backend is thread-safe (one ``httpx.Client``), so documents can share it.

Every reply, the start-up probes' included, is read by one reader (:func:`read_reply`): within a
deadline however slowly it drips (a probe's is :data:`PROBE_DEADLINE_S`), at most
:data:`MAX_REPLY_BYTES`, and parsed by one parser (:func:`parsed`) for which JSON nested past
Python's recursion limit is no JSON. A probe whose reply is none of these counts as unanswered.
"""

from __future__ import annotations

import contextlib
import email.utils
import math
import random
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from typing import Annotated, Any, ClassVar, Literal, TypeVar
from urllib.parse import urlsplit, urlunsplit

import httpx
from pydantic import BaseModel, Field, ValidationError

from prism_edge.backends import Backend, Completion, Grammar, Sampling, Scored
from prism_edge.core.errors import BackendError, first_problem
from prism_edge.prompts import Prompt

GrammarField = Literal["auto", "grammar", "structured_outputs", "guided_grammar", "ebnf", "none"]
Flavor = Literal["llama.cpp", "llama-cpp-python", "vllm", "sglang", "ollama", "openai"]
_GRAMMAR_OF: dict[Flavor, GrammarField] = {
    "llama.cpp": "grammar",
    "llama-cpp-python": "grammar",
    "vllm": "structured_outputs",
    "sglang": "ebnf",
    "ollama": "none",
    "openai": "none",
}
_RETRY_STATUS = {408, 429, 500, 502, 503, 504}
_TOKEN_CACHE = 4096
MAX_RETRY_AFTER = 300.0
"""Seconds a server's ``Retry-After`` may make a retry wait at most."""

_SPECIAL = re.compile(
    r"<\|[^\s|<>]{1,64}\|>"  # ChatML, Llama 3, Phi: <|im_start|>, <|eot_id|> ...
    r"|</?s>|<(?:bos|eos|pad|unk|mask)>"  # SentencePiece-style markers
    r"|<(?:start|end)_of_turn>"  # Gemma
    r"|\[/?INST\]|<</?SYS>>"  # Llama 2, Mistral
    r"|<\|?(?:endoftext|fim_[a-z]+)\|?>",
    re.IGNORECASE,
)
_JOINER = "\u2060"
"""WORD JOINER: invisible, and inside a marker it makes the marker plain text."""


def neutralize(text: str) -> str:
    """``text`` with every chat-control marker broken by an invisible joiner after its first
    character, so a server that parses special tokens in the rendered prompt reads text."""
    return _SPECIAL.sub(lambda m: m.group(0)[0] + _JOINER + m.group(0)[1:], text)


RETRY_BUDGET_S = 900.0
"""Seconds all attempts of one call may take together, waits included."""
LOGPROB_SLACK = 1e-3
"""A log-probability above this is no log-probability (rounding may lift a 0 a little)."""
QUOTED_CHARS = 160
"""Of a reply a server should not have sent, what an error quotes at most."""
MAX_REPLY_BYTES = 32 << 20
"""Bytes of one reply read at most (a scoring reply of eight long prompts is about a megabyte):
a reply that goes on is refused, never held in memory to its end."""
PROBE_DEADLINE_S = 30.0
"""Seconds a start-up probe's reply may take in all (the main calls have the backend's
deadline)."""


class ReplyTooLarge(BackendError):
    hint = "check that --server is the inference server's address"


def _quote(value: object) -> str:
    """At most :data:`QUOTED_CHARS` of ``value`` on one line, for an error message."""
    try:
        text = " ".join(str(value).split())
    except RecursionError:
        return "(nested too deep to quote)"
    return text if len(text) <= QUOTED_CHARS else text[:QUOTED_CHARS] + "..."


def parsed(response: httpx.Response) -> Any:
    """A reply's JSON; a ``ValueError`` for a reply that is none, or nested deeper than the
    parser goes (never a ``RecursionError``)."""
    try:
        return response.json()
    except RecursionError:
        raise ValueError("JSON nested too deep") from None


def read_reply(
    client: httpx.Client, request: httpx.Request, deadline: float, what: str
) -> httpx.Response:
    """The response to ``request``, read to its end within ``deadline`` seconds in all
    (httpx's own timeout bounds each read, so a server that sends a byte a second would hold
    a call forever) and at most :data:`MAX_REPLY_BYTES` (:class:`ReplyTooLarge`, naming
    ``what`` sent it)."""
    ends = time.monotonic() + deadline
    response = client.send(request, stream=True)
    try:
        data = bytearray()
        for piece in response.iter_bytes():
            data += piece
            if len(data) > MAX_REPLY_BYTES:
                raise ReplyTooLarge(
                    f"{what} sent a reply larger than {MAX_REPLY_BYTES >> 20} MB to "
                    f"{request.url.path}; refused"
                )
            if time.monotonic() > ends:
                raise httpx.ReadTimeout(f"no whole reply within {deadline:.0f} s", request=request)
    finally:
        response.close()
    # the body as read is decoded already: the headers that described its transfer go
    headers = {
        k: v
        for k, v in response.headers.items()
        if k.lower() not in ("content-encoding", "content-length", "transfer-encoding")
    }
    return httpx.Response(
        response.status_code, headers=headers, content=bytes(data), request=request
    )


class _Logprobs(BaseModel):
    token_logprobs: list[float | None]


class _ScoredChoice(BaseModel):
    index: int = 0
    logprobs: _Logprobs


class _ScoresReply(BaseModel):
    """What ``/v1/completions`` with ``echo`` and ``logprobs`` must send back."""

    choices: list[_ScoredChoice]


class _ModelInfo(BaseModel):
    id: str | None = None
    meta: dict[str, Any] | None = None
    max_model_len: int | None = None


class _ModelsReply(BaseModel):
    """``/v1/models``: the served models (the first is used)."""

    data: list[_ModelInfo] = []


class _Generation(BaseModel):
    n_ctx: int | None = None


class _PropsReply(BaseModel):
    """llama.cpp's ``/props``."""

    default_generation_settings: _Generation
    n_ctx: int | None = None
    total_slots: int | None = None


class _TokensReply(BaseModel):
    """A tokenizer endpoint's reply."""

    tokens: list[int]


class _Usage(BaseModel):
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    prompt_tokens_details: dict[str, Any] | None = None


class _Message(BaseModel):
    content: str | None = None


class _ChatChoice(BaseModel):
    message: _Message
    finish_reason: str | None = None


class _Timings(BaseModel):
    prompt_ms: float | None = None
    cache_n: int | None = None


class _ChatReply(BaseModel):
    """``/v1/chat/completions``: one choice, usage and (llama.cpp) timings."""

    choices: Annotated[list[_ChatChoice], Field(min_length=1)]
    usage: _Usage | None = None
    timings: _Timings | None = None


Reply = TypeVar("Reply", bound=BaseModel)


def split_credentials(url: str) -> tuple[str, str, httpx.BasicAuth | None]:
    """(url without credentials, url to show with the password redacted, basic auth)."""
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url, url, None
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = host + (f":{parts.port}" if parts.port else "")
    bare = urlunsplit(parts._replace(netloc=netloc))
    user = parts.username or ""
    shown = urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}" if user else f"***@{netloc}"))
    return bare, shown, httpx.BasicAuth(user, parts.password or "")


def retry_after(response: httpx.Response) -> float | None:
    """The seconds a ``Retry-After`` header asks for (a number or an HTTP date), if any."""
    value = response.headers.get("retry-after", "").strip()
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        seconds = when.timestamp() - time.time()
    return max(0.0, min(MAX_RETRY_AFTER, seconds))


class ServerBackend(Backend):
    """PRISM's calls against an OpenAI-compatible server at ``url``."""

    supports_grammar: ClassVar[bool] = True

    def __init__(
        self,
        url: str,
        *,
        api_key: str | None = None,
        model: str | None = None,
        n_ctx: int | None = None,
        grammar_field: GrammarField = "auto",
        timeout: float = 600.0,
        retries: int = 4,
        backoff: float = 1.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        bare, shown, auth = split_credentials(url)
        if auth is not None and api_key:
            raise BackendError(
                "the server URL carries a user and password and an API key is given too; "
                "use one of them"
            )
        self.url = shown.rstrip("/").removesuffix("/v1")
        """The server's address as shown to a user (a password in it is redacted)."""
        self.retries = retries
        self.backoff = backoff
        self.deadline = timeout
        """Seconds one attempt of a call may take in all, reply read to its end."""
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(
            base_url=bare.rstrip("/").removesuffix("/v1"),
            headers=headers,
            auth=auth,
            timeout=httpx.Timeout(timeout, connect=10.0),
            transport=transport,
        )
        self._tokens: OrderedDict[str, list[int]] = OrderedDict()
        self._lock = threading.Lock()
        self._pins = threading.local()
        self._bos: int | None = None
        self.flavor, served, server_ctx, self.slots = self._probe()
        self.model = model or served
        self.name = f"{self.model} @ {self.url}"
        self.n_ctx = self._context(n_ctx, server_ctx)
        self.grammar_field: GrammarField = (
            _GRAMMAR_OF[self.flavor] if grammar_field == "auto" else grammar_field
        )
        self.reports_reused_tokens = self.flavor in ("llama.cpp", "vllm")
        self.can_score = self.flavor == "vllm"
        """vLLM returns the prompt's log-probabilities (``echo`` with ``logprobs``); llama.cpp's
        server refuses ``echo`` (llama.cpp issues #8942, #27174), so scored methods are
        refused there, naming --method revisions."""
        self._template_tokens = self._measure_template()

    # -- discovery

    def _probe(self) -> tuple[Flavor, str, int | None, int]:
        models = self._reply("GET", "/v1/models", _ModelsReply)
        first = models.data[0] if models.data else _ModelInfo()
        served = first.id or "default"
        n_params = (first.meta or {}).get("n_params")
        self.parameters = n_params if isinstance(n_params, int) and n_params > 0 else None
        max_len = first.max_model_len
        props = self._optional("GET", "/props")
        if isinstance(props, dict) and "default_generation_settings" in props:
            checked = self._checked("/props", props, _PropsReply)
            n_ctx = checked.default_generation_settings.n_ctx or checked.n_ctx
            return "llama.cpp", served, n_ctx, checked.total_slots or 1
        if max_len:
            return "vllm", served, max_len, 1
        if self._optional("GET", "/get_model_info") is not None:
            return "sglang", served, None, 1
        if self._optional("POST", "/extras/tokenize", json={"input": "x"}) is not None:
            return "llama-cpp-python", served, None, 1
        return "openai", served, None, 1

    def _context(self, asked: int | None, served: int | None) -> int:
        """The context of every call: the one asked for, at most the server's."""
        if asked is None and served is None:
            raise BackendError(
                f"the server at {self.url} does not report its context size; pass --ctx"
            )
        return min(asked, served) if asked and served else (asked or served or 0)

    def _measure_template(self) -> int:
        """Tokens the chat template adds around a message: one tiny call, exact from usage."""
        body = self._chat_body("Hi", max_tokens=1, temperature=0.0)
        reply = self._reply("POST", "/v1/chat/completions", _ChatReply, json=body)
        prompt_tokens = reply.usage.prompt_tokens if reply.usage else None
        if prompt_tokens is None:
            return 16  # a safe guess for the common templates
        return max(0, prompt_tokens - len(self.tokenize("Hi")))

    # -- tokens

    def tokenize(self, text: str) -> list[int]:
        with self._lock:
            hit = self._tokens.get(text)
            if hit is not None:
                self._tokens.move_to_end(text)
                return hit
        tokens = self._tokenize_remote(text)
        with self._lock:
            self._tokens[text] = tokens
            if len(self._tokens) > _TOKEN_CACHE:
                self._tokens.popitem(last=False)
        return tokens

    def _tokenize_remote(self, text: str) -> list[int]:
        if not text:
            return []
        if self.flavor == "llama.cpp":
            body: dict[str, Any] = {"content": text, "add_special": False, "parse_special": False}
            return self._reply("POST", "/tokenize", _TokensReply, json=body).tokens
        if self.flavor == "vllm":
            body = {"model": self.model, "prompt": text, "add_special_tokens": False}
            return self._reply("POST", "/tokenize", _TokensReply, json=body).tokens
        if self.flavor == "llama-cpp-python":
            # it always adds BOS: drop as many tokens as the empty text gets
            if self._bos is None:
                empty = self._reply("POST", "/extras/tokenize", _TokensReply, json={"input": ""})
                self._bos = len(empty.tokens)
            tokens = self._reply("POST", "/extras/tokenize", _TokensReply, json={"input": text})
            return tokens.tokens[self._bos :]
        # no tokenizer endpoint: about 3 characters a token, on the safe side for budgets
        return list(range(len(text) // 3 + 1))

    def count_tokens(self, prompt: Prompt) -> int:
        """Tokens of the prompt as the server receives it (documents neutralized)."""
        return self._template_tokens + sum(len(self.tokenize(t)) for t in _sent_parts(prompt))

    # -- generation

    def _chat_body(self, text: str, *, max_tokens: int, temperature: float) -> dict[str, Any]:
        body: dict[str, Any] = {
            "messages": [{"role": "user", "content": text}],
            "max_tokens": max_tokens,
            "temperature": temperature,
            "stream": False,
        }
        if self.model:
            body["model"] = self.model
        if self.flavor == "llama.cpp":
            body["cache_prompt"] = True
            slot = getattr(self._pins, "slot", None)
            if slot is not None:
                body["id_slot"] = slot
        return body

    @contextlib.contextmanager
    def pinned(self, slot: int | None) -> Iterator[None]:
        """llama.cpp's server: this thread's calls go to slot ``slot`` (``id_slot``), so a
        document's prefix is never evicted by another's or moved to an idle slot when its
        prompt has grown (the server picks slots by prompt similarity otherwise)."""
        before = getattr(self._pins, "slot", None)
        self._pins.slot = None if slot is None else slot % max(1, self.slots)
        try:
            yield
        finally:
            self._pins.slot = before

    def generate(self, prompt: Prompt, sampling: Sampling, grammar: Grammar | None) -> Completion:
        text = "".join(_sent_parts(prompt))
        body = self._chat_body(
            text, max_tokens=sampling.max_tokens, temperature=sampling.temperature
        )
        if sampling.seed is not None:
            body["seed"] = sampling.seed
        if sampling.repeat_penalty != 1.0:
            key = "repeat_penalty" if self.flavor.startswith("llama") else "repetition_penalty"
            body[key] = sampling.repeat_penalty
        if grammar is not None and self.grammar_field != "none":
            rules = grammar if isinstance(grammar, str) else grammar.initial()
            if self.grammar_field == "structured_outputs":
                body["structured_outputs"] = {"grammar": rules}
            else:
                body[self.grammar_field] = rules
        start = time.perf_counter()
        reply = self._reply("POST", "/v1/chat/completions", _ChatReply, json=body)
        seconds = time.perf_counter() - start
        choice = reply.choices[0]
        text_out = choice.message.content or ""
        finish = "length" if choice.finish_reason == "length" else "stop"
        usage = reply.usage or _Usage()
        prompt_tokens = usage.prompt_tokens
        if prompt_tokens is None:
            prompt_tokens = self.count_tokens(prompt)
        decoded = usage.completion_tokens
        if decoded is None:
            decoded = len(self.tokenize(text_out))
        timings = reply.timings or _Timings()
        # llama.cpp's server reports its own split
        prefill = timings.prompt_ms / 1000 if timings.prompt_ms is not None else None
        return Completion(
            text_out, prompt_tokens, _reused(usage, timings), decoded, seconds, finish, prefill
        )

    # -- scoring

    def score(self, prompt: Prompt, continuations: Sequence[str]) -> list[Scored]:
        """Each continuation's log-probability after ``prompt`` (vLLM): the prompt as the
        chat template renders it, each continuation after it, sent as token ids in one
        ``/v1/completions`` request with ``echo`` and ``logprobs``; the continuation's
        tokens' log-probabilities are summed."""
        if not self.can_score:
            return super().score(prompt, continuations)
        text = "".join(_sent_parts(prompt))
        body: dict[str, Any] = {"model": self.model, "add_generation_prompt": True}
        body["messages"] = [{"role": "user", "content": text}]
        head = self._reply("POST", "/tokenize", _TokensReply, json=body).tokens
        wanted = [self.tokenize(c) for c in continuations]
        request = {
            "model": self.model,
            "prompt": [head + w for w in wanted],
            "max_tokens": 1,
            "temperature": 0.0,
            "echo": True,
            "logprobs": 0,
        }
        start = time.perf_counter()
        scores = self._reply("POST", "/v1/completions", _ScoresReply, json=request)
        seconds = (time.perf_counter() - start) / max(1, len(continuations))
        choices = sorted(scores.choices, key=lambda c: c.index)
        rows = [c.logprobs.token_logprobs for c in choices]
        if len(rows) != len(wanted):
            raise BackendError(f"the server at {self.url} scored {len(rows)} of {len(wanted)}")
        out = []
        for row, tokens in zip(rows, wanted, strict=True):
            values = row[len(head) : len(head) + len(tokens)]
            if len(values) != len(tokens) or any(v is None for v in values):
                raise BackendError(f"the server at {self.url} sent incomplete log-probabilities")
            if any(not math.isfinite(v) or v > LOGPROB_SLACK for v in values if v is not None):
                raise BackendError(
                    f"the server at {self.url} sent a log-probability that is not one "
                    f"(not finite, or above 0): {_quote(values)}"
                )
            total = sum(v for v in values if v is not None)
            out.append(Scored(float(total), len(tokens), len(head), None, seconds))
        return out

    # -- transport

    def _optional(self, method: str, path: str, **kwargs: Any) -> Any:
        """A probe: the JSON body, or None when the endpoint is missing, not JSON, or not
        answered within :data:`PROBE_DEADLINE_S` and :data:`MAX_REPLY_BYTES`."""
        try:
            request = self._client.build_request(method, path, **kwargs)
            deadline = min(self.deadline, PROBE_DEADLINE_S)
            response = read_reply(self._client, request, deadline, f"the server at {self.url}")
        except (httpx.HTTPError, ReplyTooLarge):
            return None
        if response.status_code >= 400:
            return None
        try:
            return parsed(response)
        except ValueError:
            return None

    def _reply(self, method: str, path: str, shape: type[Reply], **kwargs: Any) -> Reply:
        """The endpoint's reply, parsed and checked against ``shape``: a reply that is no
        JSON (an HTML page, a redirect's body) or of another shape is one error naming the
        server and the endpoint and quoting at most a line of it."""
        response = self._request(method, path, **kwargs)
        try:
            body = parsed(response)
        except ValueError:
            raise BackendError(
                f"the server at {self.url} sent no JSON from {path} "
                f"(HTTP {response.status_code}): {_quote(response.text)}"
            ) from None
        return self._checked(path, body, shape)

    def _checked(self, path: str, body: Any, shape: type[Reply]) -> Reply:
        try:
            return shape.model_validate(body)
        except (ValidationError, RecursionError) as exc:
            if isinstance(exc, RecursionError):
                raise BackendError(
                    f"the server at {self.url} sent JSON nested too deep from {path}"
                ) from None
            raise BackendError(
                f"the server at {self.url} sent an unexpected reply from {path} "
                f"({first_problem(exc, 'the reply')}): {_quote(body)}"
            ) from None

    def _request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """The response of a call, retried on timeouts, lost connections, 429 and 503 (at
        most ``retries`` times, waiting exponentially longer with jitter, or what
        ``Retry-After`` asks), each attempt bounded by a total deadline however slowly the
        server sends, and all attempts together by :data:`RETRY_BUDGET_S`."""
        attempts = self.retries + 1
        problem = ""
        wait: float | None = None
        began = time.monotonic()
        for attempt in range(attempts):
            if attempt:
                backoff = min(30.0, self.backoff * 2 ** (attempt - 1))
                pause = backoff * random.uniform(0.5, 1.5) if wait is None else wait
                if time.monotonic() - began + pause > RETRY_BUDGET_S:
                    break
                time.sleep(pause)
            wait = None
            try:
                response = self._within_deadline(method, path, **kwargs)
            except httpx.TimeoutException:
                problem = "timed out"
                continue
            except httpx.TransportError as exc:
                problem = f"unreachable ({type(exc).__name__})"
                continue
            if response.status_code in _RETRY_STATUS:
                problem = f"HTTP {response.status_code}"
                wait = retry_after(response)
                continue
            if response.status_code >= 400:
                raise BackendError(
                    f"the server at {self.url} refused {path}: HTTP {response.status_code} "
                    f"{_message(response)}"
                )
            return response
        error = BackendError(f"the server at {self.url} is {problem} after {attempt + 1} attempts")
        error.hint = "start the server again, then continue with --resume"
        raise error

    def _within_deadline(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """One attempt, read to its end within ``deadline`` seconds in all (:func:`read_reply`)."""
        request = self._client.build_request(method, path, **kwargs)
        return read_reply(self._client, request, self.deadline, f"the server at {self.url}")

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> ServerBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _sent_parts(prompt: Prompt) -> list[str]:
    """The prompt's parts as sent: what came from documents (the text, the memory built from
    it, a model's own output) with chat-control markers neutralized; the template's own text
    as it is."""
    return [p.text if p.kind == "static" else neutralize(p.text) for p in prompt.parts]


def _reused(usage: _Usage, timings: _Timings) -> int | None:
    cached = (usage.prompt_tokens_details or {}).get("cached_tokens")
    if isinstance(cached, int) and not isinstance(cached, bool):
        return cached
    return timings.cache_n


def _message(response: httpx.Response) -> str:
    try:
        body = parsed(response)
    except ValueError:
        return _quote(response.text)
    error = body.get("error", body) if isinstance(body, dict) else body
    if isinstance(error, dict):
        return _quote(error.get("message") or error)
    return _quote(error)
