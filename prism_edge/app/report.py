"""One recorded run as a self-contained HTML page: its answer, its memory as a collapsible tree,
and a bar chart of prompt / reused / net / decoded tokens per model call.

The page needs nothing but itself: no script, no stylesheet or font from elsewhere; the tree is
HTML's own ``<details>``, the chart inline SVG.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from prism_edge.app.history import Entry

SERIES = (("prompt", "#8da0cb"), ("reused", "#66c2a5"), ("net", "#fc8d62"), ("decoded", "#e78ac3"))
_BAR = 7
_GAP = 10
_HEIGHT = 220


def entry_html(entry: Entry) -> str:
    title = f"prism-edge run {entry.id}: {entry.task}"
    inputs = ", ".join(f"{i.get('name')} ({i.get('chars')} chars)" for i in entry.inputs)
    metrics = entry.metrics
    facts = [
        ("status", entry.status + (f": {entry.error}" if entry.error else "")),
        ("question", entry.question),
        ("model", entry.model),
        ("method", entry.method),
        ("inputs", inputs or "none"),
        ("started", entry.started),
        ("ended", entry.ended or ""),
    ]
    if entry.parent is not None:
        facts.append(("memory of run", str(entry.parent)))
    for key in ("prompt_tokens", "reused_tokens", "net_tokens", "decoded_tokens", "cost_index"):
        if key in metrics:
            facts.append((key.replace("_", " "), str(metrics[key])))
    rows = "\n".join(f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in facts)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<style>
body {{ font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }}
th {{ text-align: left; padding-right: 1em; vertical-align: top; color: #555; }}
.answer {{ white-space: pre-wrap; background: #f6f6f6; padding: 1em; border-radius: 4px; }}
details {{ margin-left: 1.2em; }} summary {{ cursor: pointer; }}
.key {{ font-weight: 600; }} .leaf {{ margin-left: 1.2em; }} .count {{ color: #777; }}
.legend span {{ display: inline-block; margin-right: 1.2em; }}
.swatch {{ display: inline-block; width: .9em; height: .9em; margin-right: .3em; }}
</style></head>
<body>
<h1>{escape(title)}</h1>
<table>{rows}</table>
<h2>Answer</h2>
<div class="answer" id="answer">{escape(entry.answer or "(no answer)")}</div>
<h2>Memory</h2>
<div id="memory-tree">{_tree(entry.memory, "memory", depth=0)}</div>
<h2>Tokens per call</h2>
{_chart(entry.calls)}
</body></html>
"""


OPEN_LEVELS = 2
"""The memory and its fields start open; the entries under them start closed."""


def _tree(value: Any, label: str, depth: int) -> str:
    open_ = depth < OPEN_LEVELS
    if isinstance(value, dict):
        inner = "".join(_tree(v, str(k), depth + 1) for k, v in value.items())
        return _node(label, f"{len(value)} entries", inner, open_)
    if isinstance(value, list):
        inner = "".join(_tree(v, f"[{i}]", depth + 1) for i, v in enumerate(value))
        return _node(label, f"{len(value)} items", inner, open_)
    shown = value if isinstance(value, str) else json.dumps(value)
    return f'<div class="leaf"><span class="key">{escape(label)}</span>: {escape(shown)}</div>'


def _node(label: str, count: str, inner: str, open_: bool) -> str:
    state = " open" if open_ else ""
    return (
        f'<details class="node"{state}><summary><span class="key">{escape(label)}</span> '
        f'<span class="count">({count})</span></summary>{inner}</details>'
    )


def _chart(calls: list[dict[str, Any]]) -> str:
    if not calls:
        return '<p id="chart">No model calls were recorded.</p>'
    top = max(max(int(c.get(name) or 0) for name, _ in SERIES) for c in calls) or 1
    group = _BAR * len(SERIES) + _GAP
    width = 50 + group * len(calls)
    bars = []
    every = max(1, len(calls) // 20)  # at most about 20 call labels
    for i, call in enumerate(calls):
        x0 = 50 + i * group
        if i % every == 0:
            bars.append(f'<text x="{x0}" y="{_HEIGHT + 24}" font-size="10">{i + 1}</text>')
        for j, (name, color) in enumerate(SERIES):
            value = int(call.get(name) or 0)
            height = value / top * _HEIGHT
            y = 10 + _HEIGHT - height
            bars.append(
                f'<rect class="bar {name}" x="{x0 + j * _BAR}" y="{y:.1f}" width="{_BAR - 1}" '
                f'height="{height:.1f}" fill="{color}"><title>call {i + 1} '
                f"({escape(str(call.get('kind', '')))}): {name} {value}</title></rect>"
            )
    axis = (
        f'<line x1="48" y1="10" x2="48" y2="{10 + _HEIGHT}" stroke="#999"/>'
        f'<text x="44" y="18" text-anchor="end" font-size="11">{top}</text>'
        f'<text x="44" y="{10 + _HEIGHT}" text-anchor="end" font-size="11">0</text>'
    )
    legend = "".join(
        f'<span><span class="swatch" style="background:{color}"></span>{name}</span>'
        for name, color in SERIES
    )
    return (
        f'<svg id="chart" role="img" aria-label="tokens per call" width="{width}" '
        f'height="{_HEIGHT + 30}" xmlns="http://www.w3.org/2000/svg">{axis}{"".join(bars)}</svg>'
        f'<div class="legend">{legend}</div>'
    )
