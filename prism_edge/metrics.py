"""The paper's token accounting (section 4.2, Table 2), as small dataclasses.

Per call: prompt tokens, reused (cached) prompt tokens, net encoded = prompt - reused, and
decoded tokens. Per run: totals; cache hit = reused / prompt; cost index =
(net + 3 x decoded) / 10^6. Derived figures are properties, never stored twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

DECODE_WEIGHT = 3
"""Output tokens cost three input tokens in the paper's cost index (typical API pricing)."""


def cost_index(net_tokens: int, decoded_tokens: int) -> float:
    return (net_tokens + DECODE_WEIGHT * decoded_tokens) / 1e6


@dataclass(frozen=True)
class CallMetrics:
    kind: str
    """What the call was for: ``revise``, ``answer``, ``summarize``, ``merge`` ..."""
    prompt_tokens: int
    reused_tokens: int | None
    """Prompt tokens whose KV activations were reused; None when the backend cannot tell."""
    decoded_tokens: int
    seconds: float

    @property
    def net_tokens(self) -> int:
        return self.prompt_tokens - (self.reused_tokens or 0)

    @property
    def cache_hit(self) -> float:
        return (self.reused_tokens or 0) / self.prompt_tokens if self.prompt_tokens else 0.0


@dataclass
class RunMetrics:
    calls: list[CallMetrics] = field(default_factory=list)
    wall_s: float = 0.0
    """Wall-clock seconds of the run (calls plus everything around them)."""

    def add(self, call: CallMetrics) -> None:
        self.calls.append(call)

    @property
    def prompt_tokens(self) -> int:
        return sum(c.prompt_tokens for c in self.calls)

    @property
    def reused_tokens(self) -> int:
        return sum(c.reused_tokens or 0 for c in self.calls)

    @property
    def reuse_known(self) -> bool:
        return all(c.reused_tokens is not None for c in self.calls)

    @property
    def net_tokens(self) -> int:
        return self.prompt_tokens - self.reused_tokens

    @property
    def decoded_tokens(self) -> int:
        return sum(c.decoded_tokens for c in self.calls)

    @property
    def cache_hit(self) -> float:
        return self.reused_tokens / self.prompt_tokens if self.prompt_tokens else 0.0

    @property
    def cost_index(self) -> float:
        return cost_index(self.net_tokens, self.decoded_tokens)

    def to_dict(self) -> dict[str, Any]:
        return {
            "calls": len(self.calls),
            "prompt_tokens": self.prompt_tokens,
            "reused_tokens": self.reused_tokens if self.reuse_known else None,
            "net_tokens": self.net_tokens,
            "decoded_tokens": self.decoded_tokens,
            "cache_hit": round(self.cache_hit, 4) if self.reuse_known else None,
            "cost_index": round(self.cost_index, 6),
            "wall_s": round(self.wall_s, 3),
        }

    def state(self) -> dict[str, Any]:
        return {"wall_s": self.wall_s, "calls": [c.__dict__ for c in self.calls]}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> RunMetrics:
        return cls([CallMetrics(**c) for c in state["calls"]], float(state["wall_s"]))
