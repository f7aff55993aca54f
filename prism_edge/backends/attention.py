"""Which attention llama.cpp should run for a given run: measured once per model and machine.

llama.cpp's flash attention is a context setting (the KV cache's layout depends on it), so it
is chosen before a run's first call and holds for the whole run. Which one is faster depends on
the model, the build and the machine, and on what the run does: on SmolLM2-135M (30 layers of
9 heads of 64 dimensions) flash attention prefills 1.1-1.3x as fast but decodes 1.4-2.5x as
slow at depths 0-4096 on this 2-core Intel host; on Gemma 3 270M (mostly sliding-window layers
of 256 dimensions) it is as fast or faster at both (``benchmarks/results/attention_choice.txt``).
A run that only prefills and scores (names, definitions, tables) wants the faster prefill; a
run whose steps write (the paper's revisions, the baselines) pays for every decoded token at
depth.

So the choice is a cost: per prompt token prefilled, one prefill plus ``decode_share`` decoded
tokens (what the run's method decodes per prompt token, measured on the development set), each
at the rate measured here with that setting, at a depth where PRISM's steps run. The rates are
measured in process once per (llama.cpp build, model file, threads, batch) and kept in the
user's cache folder beside the AMX guard's verdicts (:mod:`native`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prism_edge.backends import native

CACHE_FILE = "attention-probe.json"
DEPTH = 1024
"""The depth the probe decodes at: a written step's prompt (prefix, memory, chunk) sits 1-4k
tokens deep, and the ordering of the two settings is the same across that range."""
DECODED = 32
"""Tokens the probe decodes with each setting."""


@dataclass(frozen=True)
class Rates:
    """One attention setting's speed on this machine: prefilling ``depth`` tokens from an
    empty cache, then decoding at that depth (tokens per second)."""

    prefill: float
    decode: float

    def seconds(self, decode_share: float) -> float:
        """Seconds per prompt token of a run that decodes ``decode_share`` tokens for each
        prompt token it prefills."""
        return 1 / self.prefill + decode_share / self.decode


@dataclass(frozen=True)
class Verdict:
    """Both settings' rates, measured side by side in one process."""

    flash: Rates
    plain: Rates
    depth: int = DEPTH

    def flash_for(self, decode_share: float) -> bool:
        """Whether flash attention is the faster setting for a run of this decode share (a
        tie keeps flash attention, llama.cpp's own default)."""
        return self.flash.seconds(decode_share) <= self.plain.seconds(decode_share)

    def describe(self, decode_share: float) -> str:
        """What was chosen and the measured rates behind it, for the plan line."""
        chosen = self.flash_for(decode_share)
        on, off = self.flash, self.plain
        return (
            f"flash attention {'on' if chosen else 'off'} (measured here at depth {self.depth}:"
            f" decoding {on.decode:.0f} tok/s with it, {off.decode:.0f} without; prefill"
            f" {on.prefill:.0f} and {off.prefill:.0f})"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "depth": self.depth,
            "flash": [self.flash.prefill, self.flash.decode],
            "plain": [self.plain.prefill, self.plain.decode],
        }

    @classmethod
    def from_dict(cls, data: Any) -> Verdict | None:
        """The verdict a cache entry holds (None: the entry is not one)."""
        try:
            flash = Rates(*(float(x) for x in data["flash"]))
            plain = Rates(*(float(x) for x in data["plain"]))
            depth = int(data["depth"])
        except (KeyError, TypeError, ValueError):
            return None
        if min(flash.prefill, flash.decode, plain.prefill, plain.decode) <= 0:
            return None
        return cls(flash, plain, depth)


def cache_key(model: Path, settings: dict[str, Any]) -> str:
    """The verdict's key: the llama.cpp build, the model file and the engine settings that
    change the rates (threads, batch sizes, KV cache type)."""
    info = native.build_info()
    return native.model_key(info, model, [f"{k}={settings[k]}" for k in sorted(settings)])


def cached(key: str, cache: Path | None = None) -> Verdict | None:
    entry = native.read_cache(cache or native.cache_path(CACHE_FILE)).get(key)
    return Verdict.from_dict(entry) if isinstance(entry, dict) else None


def save(key: str, verdict: Verdict, model: Path, cache: Path | None = None) -> None:
    entry = {"model": str(model), **verdict.to_dict(), "at": time.strftime("%Y-%m-%dT%H:%M:%S")}
    native.write_cache(cache or native.cache_path(CACHE_FILE), key, entry)
