"""Exceptions that carry data, so the CLI and tests read fields instead of parsing messages."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import ValidationError


class PrismError(Exception):
    """Base class of every error prism-edge reports to a user; ``hint`` says what to do."""

    hint: str = ""


class NoAnswer(PrismError):
    """The input holds no answer to the question (nothing to summarize, nothing found): not a
    failure of the program, and the command line's exit status 1 (as grep's "no match"), where
    an error's is 2."""


class SchemaError(PrismError):
    """A schema cannot be used; ``line`` is the 1-based source line when there is one."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.message = message
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


class RevisionError(PrismError):
    """A proposed revision was rejected; the memory was not changed.

    ``kind`` sorts rejections: ``invalid`` (does not fit the schema or the memory),
    ``duplicate`` (repeats what is stored: a model looping), ``cut`` (the last line of an
    output left incomplete: it hit its token budget, or the model fell into a loop in it).
    """

    def __init__(self, path: str, op: str, reason: str, kind: str = "invalid") -> None:
        self.path = path
        self.op = op
        self.reason = reason
        self.kind = kind
        super().__init__(f"{op} {path}: {reason}")


class ContextOverflow(PrismError):
    """A prompt cannot fit the model's context window."""

    hint = "raise --ctx, lower --chunk-tokens or the output budget, or use a smaller schema"

    def __init__(self, needed: int, n_ctx: int, what: str) -> None:
        self.needed = needed
        self.n_ctx = n_ctx
        self.what = what
        super().__init__(f"{what} needs {needed} tokens but the context holds {n_ctx}")


class BackendError(PrismError):
    """The model backend failed (load error, server error, ...)."""


class TemplateError(PrismError):
    """A prompt template could not be rendered (e.g. a missing variable)."""


def first_problem(exc: ValidationError, top: str = "the top level") -> str:
    """Where a value failed its model first, and why (``choices.0.logprobs: Field
    required``): what a one-line error about a whole reply, row or state quotes."""
    first = exc.errors()[0]
    place = ".".join(str(p) for p in first["loc"]) or top
    return f"{place}: {first['msg']}"
