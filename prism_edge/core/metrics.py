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
    prefill_seconds: float | None = None
    """Of ``seconds``, the prompt's evaluation; None when the backend cannot tell."""
    forced_tokens: int = 0
    """Of ``decoded_tokens``, those jump-forward evaluated in a batch (grammar-forced)."""

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

    @property
    def forced_tokens(self) -> int:
        return sum(c.forced_tokens for c in self.calls)

    def rates(self) -> tuple[float | None, float | None]:
        """(prefill, decode) tokens per second over the calls that report their prefill time:
        evaluated prompt tokens per prefill second, decoded tokens per remaining second."""
        timed = [c for c in self.calls if c.prefill_seconds is not None]
        prefill_s = sum(c.prefill_seconds or 0.0 for c in timed)
        decode_s = sum(c.seconds - (c.prefill_seconds or 0.0) for c in timed)
        net = sum(c.net_tokens for c in timed)
        decoded = sum(c.decoded_tokens for c in timed)
        return (
            net / prefill_s if prefill_s > 0 and net else None,
            decoded / decode_s if decode_s > 0 and decoded else None,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "calls": len(self.calls),
            "prompt_tokens": self.prompt_tokens,
            "reused_tokens": self.reused_tokens if self.reuse_known else None,
            "net_tokens": self.net_tokens,
            "decoded_tokens": self.decoded_tokens,
            "cache_hit": round(self.cache_hit, 4) if self.reuse_known else None,
            "cost_index": round(self.cost_index, 6),
            "forced_tokens": self.forced_tokens,
            "wall_s": round(self.wall_s, 3),
        }

    def state(self) -> dict[str, Any]:
        return {"wall_s": self.wall_s, "calls": [c.__dict__ for c in self.calls]}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> RunMetrics:
        return cls([CallMetrics(**c) for c in state["calls"]], float(state["wall_s"]))


@dataclass(frozen=True)
class SpeedProfile:
    """Seconds per token of one model on one machine, by KV depth (the physical bound's rates).

    Attention makes every token dearer the deeper it sits: on a 135M model, prefill runs 2.2x
    and decode 2.8x slower at depth 4096 than at 0 (``benchmarks/speed/depth_rates.py``), and
    PRISM's prompts run 2-6k tokens deep. So the bound charges each token at its own depth, linearly
    interpolated between the measured points (clamped beyond them).
    """

    prefill: tuple[tuple[float, float], ...]
    """(depth, seconds per token) measured by prefilling at that depth, by depth."""
    decode: tuple[tuple[float, float], ...]
    """(depth, seconds per token) measured by decoding at that depth, by depth."""

    def __post_init__(self) -> None:
        if not self.prefill or not self.decode:
            raise ValueError("a speed profile needs at least one prefill and one decode point")

    @classmethod
    def flat(cls, prefill_tok_s: float, decode_tok_s: float) -> SpeedProfile:
        """One rate at every depth."""
        return cls(((0.0, 1 / prefill_tok_s),), ((0.0, 1 / decode_tok_s),))

    @staticmethod
    def _seconds(points: tuple[tuple[float, float], ...], start: int, end: int) -> float:
        if end <= start:
            return 0.0
        import numpy as np

        depths = np.arange(start, end, dtype=np.float64)
        xs, ys = zip(*points, strict=True)
        return float(np.interp(depths, xs, ys).sum())

    def prefill_seconds(self, start: int, end: int) -> float:
        """Evaluating the prompt tokens at depths start..end-1."""
        return self._seconds(self.prefill, start, end)

    def decode_seconds(self, start: int, end: int) -> float:
        """Generating the tokens at depths start..end-1."""
        return self._seconds(self.decode, start, end)

    def call_seconds(self, call: CallMetrics) -> float:
        """The least time this machine needs for the call's work: the net prompt tokens from the
        reused prefix on, then the output tokens after the prompt, those the grammar forced
        (evaluated in batches, :attr:`CallMetrics.forced_tokens`) at the prefill rate and the
        rest at the decode rate."""
        start = call.reused_tokens or 0
        forced = min(call.forced_tokens, call.decoded_tokens)
        end = call.prompt_tokens + call.decoded_tokens
        return self.prefill_seconds(start, call.prompt_tokens + forced) + self.decode_seconds(
            call.prompt_tokens + forced, end
        )

    def bound_s(self, run: RunMetrics) -> float:
        return sum(self.call_seconds(c) for c in run.calls)

    @property
    def prefill_tok_s(self) -> float:
        """At the shallowest measured depth."""
        return 1 / self.prefill[0][1]

    @property
    def decode_tok_s(self) -> float:
        return 1 / self.decode[0][1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "prefill_tok_s": round(self.prefill_tok_s, 1),
            "decode_tok_s": round(self.decode_tok_s, 1),
            "prefill_by_depth": [[round(d), round(1 / s, 1)] for d, s in self.prefill],
            "decode_by_depth": [[round(d), round(1 / s, 1)] for d, s in self.decode],
        }

    def describe(self) -> str:
        deep_p, deep_d = self.prefill[-1], self.decode[-1]
        return (
            f"prefill {self.prefill_tok_s:.0f} tok/s (at depth {deep_p[0]:.0f}: "
            f"{1 / deep_p[1]:.0f}), decode {self.decode_tok_s:.0f} tok/s (at depth "
            f"{deep_d[0]:.0f}: {1 / deep_d[1]:.0f})"
        )
