"""The settings of one PRISM run, as one validated object (``extra="forbid"``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from prism_edge.core.memory import Encoding

GroundingKind = Literal["words", "extractive"]
"""In a grounded run, what new keys and strings are: ``words``: new keys are word spans of the
chunk, strings its words in any order; ``extractive``: new keys are the chunk's names, strings
its sentences as written (for prose, where a tiny model's own sentences are its weakest
part)."""
Style = Literal["compact", "paper"]
"""The revision prompt: ``compact`` for small models, ``paper`` the paper's appendix E."""

GROUNDED_REPEAT_PENALTY = 1.15
"""Revision calls' repeat penalty in a grounded run unless set: measured on the Jungle Book's
first 4 chunks, SmolLM2-135M stores nothing at 1.0 and 5 revisions at 1.15, all faithful."""


class PrismConfig(BaseModel):
    """Settings of one PRISM run."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    question: str = Field(min_length=1)
    encoding: Encoding = "amendments"
    add_only: bool = False
    style: Style = "compact"
    answer_instruction: str = ""
    answer_choices: str | None = Field(
        None, description="a root dict field whose keys are the only allowed answers"
    )
    answer_outline: str | None = Field(
        None,
        description="in a grounded run, a root dict field whose keys open the paragraphs of "
        "the answer, in memory order",
    )
    example: str = ""
    max_tokens: int = Field(512, ge=16, description="output budget of a revision call")
    answer_max_tokens: int = Field(512, ge=1, description="output budget of the final answer")
    max_revisions: int | None = Field(
        None, ge=1, description="revisions applied per step at most; the rest are rejected"
    )
    min_chunk_tokens: int = Field(
        128, ge=1, description="chunks are not cut below this; fold or stop instead"
    )
    temperature: float = Field(0.0, ge=0.0)
    seed: int | None = None
    repeat_penalty: float | None = Field(
        None,
        ge=1.0,
        description="on revision calls; by default 1.15 in a grounded run (a grounded small "
        "model otherwise writes empty sections: benchmarks/summaries/quality_settings.py), "
        "else 1.0",
    )
    answer_repeat_penalty: float = Field(1.15, ge=1.0, description="on the final answer")
    reasks: int = Field(
        1,
        ge=0,
        description="re-asks per step when revisions fail validation (a backend that "
        "ignores the grammar); what still fails is rejected",
    )
    grammar: bool = Field(
        True, description="constrain revisions with a grammar when the backend supports it"
    )
    grounded: bool = Field(
        False,
        description="with a grammar: new keys are word spans of the chunk, strings are made of "
        "its words, and a prose answer only uses words of the memory, the question and English "
        "function words",
    )
    grounding: GroundingKind = Field(
        "words",
        description="in a grounded run, what new keys and strings are: word spans and words of "
        "the chunk, or (extractive) its names and whole sentences",
    )
