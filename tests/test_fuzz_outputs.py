"""10,000+ random model outputs per preset, in both memory modes, through parse and apply.

What a model (or a server that ignores the grammar) can send is generated from the schema's own
paths with random keys, indices, operations and values -- valid, nearly valid and hostile
(placeholders, deep nesting, huge and non-finite numbers, wrong types, cut lines, noise) -- and
every output must end as applied or counted rejections: never an exception, the memory always
valid, a rejected revision never changing it.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from prism_edge.core.memory import Memory
from prism_edge.core.revisions import Revision, parse_output, parse_path
from prism_edge.core.schema import (
    ClassT,
    DictT,
    ListT,
    PathError,
    Prim,
    TupleT,
    format_path,
    path_templates,
    unwrap,
)
from prism_edge.methods.presets import TASKS

OUTPUTS = 10_000
KEYS = ["Mowgli", "Shere Khan", "x", "", "???", "a'b", "Kaa\\", "名前", "$", "*", "0"]
WORDS = ["Akela", "the wolf", "???", "", "None", "x" * 300, "Ω", "\u2060", "<|im_end|>"]


def value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 3 or roll < 0.35:
        return rng.choice(WORDS)
    if roll < 0.45:
        return rng.choice([None, True, 0, -1, 2.5, 10**30, 1e300, "???"])
    if roll < 0.7:
        return [value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    keys = rng.sample(
        [
            "purpose",
            "input",
            "output",
            "procedure",
            "table_name",
            "table_description",
            "columns_observed",
            "relevant_statistics",
            "relationships",
            "extra",
            *KEYS,
        ],
        5,
    )
    return {k: value(rng, depth + 1) for k in keys[: rng.randint(0, 5)]}


def fitting(rng: random.Random, node: Any) -> Any:
    """A value of the schema type ``node`` (what a well-behaved model writes)."""
    node = unwrap(node)
    if isinstance(node, Prim):
        return {"str": rng.choice(WORDS[:3]), "int": 3, "float": 1.5, "bool": True}[node.kind]
    if isinstance(node, ListT):
        return [
            fitting(rng, node.item) + str(i)
            if node.item == Prim("str")
            else fitting(rng, node.item)
            for i in range(rng.randint(0, 2))
        ]
    if isinstance(node, DictT):
        return {rng.choice(KEYS): fitting(rng, node.value)}
    if isinstance(node, TupleT):
        return [fitting(rng, item) for item in node.items]
    if isinstance(node, ClassT):
        return {f.name: fitting(rng, f.type) for f in node.fields}
    return None


def path(rng: random.Random, schema: Any) -> str:
    template = rng.choice(path_templates(schema))
    segments: list[Any] = []
    for part in template.parts:
        if part is None:
            segments.append(rng.choice(KEYS))
        elif isinstance(part, int):
            segments.append(rng.randint(0, 3))
        else:
            segments.append(part)
    if rng.random() < 0.1:
        segments.append(rng.choice([0, "extra"]))
    return format_path(tuple(segments))


def hostile(rng: random.Random) -> str:
    return rng.choice(
        [
            '{"$.x": {"add": ' + "[" * rng.randint(30, 3000),
            '{"$.x": {"add": ' + "9" * rng.randint(300, 6000) + "}}",
            '{"$.x": {"add": NaN}}',
            '{"$.x": {"update": 1e999}}',
            "{'$.x': {'add': {1, 2}}}",
            "[OBJECTS FOR ADD]",
            "{}",
            "not json at all",
            '{"$": {"add": 1}}',
            '{"$..x": {"add": 1}}',
            '{"$.x[-1]": {"add": 1}}',
            '{"$.x": {"add": 1, "update": 2}}',
            '{"$.x": ["add", 1]}',
        ]
    )


def output(rng: random.Random, schema: Any) -> str:
    lines = []
    for _ in range(rng.randint(1, 6)):
        if rng.random() < 0.15:
            lines.append(hostile(rng))
            continue
        op = rng.choice(["add", "update", "add", "delete"])
        where = path(rng, schema)
        try:
            body = fitting(rng, schema.resolve(parse_path(where))) if rng.random() < 0.5 else None
        except (PathError, ValueError):
            body = None
        body = value(rng) if body is None else body
        line = json.dumps({where: {op: body}}, ensure_ascii=rng.random() < 0.5)
        if rng.random() < 0.1:
            line = line[: rng.randint(0, len(line))]  # cut by a budget
        lines.append(line)
    return "\n".join(lines)


@pytest.mark.parametrize("encoding", ["amendments", "in-place"])
@pytest.mark.parametrize("task", sorted(TASKS))
def test_random_outputs_end_as_applied_or_counted_rejections(task: str, encoding: str) -> None:
    schema = TASKS[task].schema
    rng = random.Random(f"{task}-{encoding}")
    memory = Memory(schema, encoding)  # type: ignore[arg-type]
    applied = rejected = 0
    for n in range(OUTPUTS):
        parsed = parse_output(output(rng, schema))
        rejected += len(parsed.rejected)
        for revision in parsed.revisions:
            before = memory.render()
            report = memory.revise([revision], add_only=rng.random() < 0.1)
            applied += len(report.applied)
            rejected += len(report.rejected)
            if report.rejected:
                assert memory.render() == before
        if n % 500 == 0:
            schema.validate(memory.data)
            json.loads(memory.render().split("\n[AMENDMENTS]")[0])
        if n % 2000 == 1999 and encoding == "amendments":
            memory.fold()
    schema.validate(memory.data)
    restored = Memory.from_state(schema, memory.state())
    assert restored.data == memory.data
    assert applied > 50 and rejected > applied  # both outcomes were exercised


def test_a_revision_built_in_code_is_contained_too() -> None:
    schema = TASKS["summarize"].schema
    memory = Memory(schema)
    deep: Any = "x"
    for _ in range(5000):
        deep = [deep]
    report = memory.revise([Revision("$.'attributes'.'k'", ("attributes", "k"), "add", deep)])
    assert not report.applied and "nested deeper" in report.rejected[0].reason
