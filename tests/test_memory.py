from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prism_edge.core.memory import AMENDMENTS_HEADER, Memory, dumps
from prism_edge.core.revisions import Revision, parse_path
from prism_edge.methods.presets import TASKS

SCHEMA = TASKS["summarize"].schema  # attributes: dict[str, list[str]]

keys = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
values = st.lists(st.text(max_size=20), max_size=3)


@st.composite
def revisions(draw: st.DrawFn) -> list[Revision]:
    out: list[Revision] = []
    known: list[str] = []
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(["add", "update", "append", "item"]))
        key = draw(st.sampled_from(known)) if known and kind != "add" else draw(keys)
        segments: tuple[str | int, ...] = ("attributes", key)
        value: object = draw(values)
        op = "update" if kind == "update" else "add"
        if kind == "append":
            value = draw(st.text(max_size=10))
        if kind == "item":
            segments, op, value = (*segments, 0), "update", draw(st.text(max_size=10))
        out.append(Revision("p", segments, op, value))  # type: ignore[arg-type]
        known.append(key)
    return out


def replay(encoding: str, revs: list[Revision], steps: int = 3) -> tuple[Memory, list[str]]:
    memory = Memory(SCHEMA, encoding)  # type: ignore[arg-type]
    renderings = [memory.render()]
    size = max(1, len(revs) // steps)
    for start in range(0, len(revs), size):
        memory.revise(revs[start : start + size])
        renderings.append(memory.render())
    return memory, renderings


@settings(max_examples=150, deadline=None)
@given(revisions())
def test_amendments_renderings_are_prefix_monotone(revs):
    memory, renderings = replay("amendments", revs)
    for before, after in itertools.pairwise(renderings):
        assert after.startswith(before)
        assert (after == before) == (len(after) == len(before))
    # the parts concatenate to the rendering
    assert "".join(memory.render_parts()) == memory.render()


@settings(max_examples=150, deadline=None)
@given(revisions())
def test_both_encodings_resolve_to_the_same_memory(revs):
    in_place, _ = replay("in-place", revs)
    amended, _ = replay("amendments", revs)
    assert in_place.data == amended.data
    SCHEMA.validate(amended.data)
    # the amendments text alone is enough to rebuild the memory
    state = {
        "encoding": "amendments",
        "base": json.loads(amended.render_parts()[0]),
        "records": amended.amendments,
    }
    assert Memory.from_state(SCHEMA, state).data == in_place.data
    assert json.loads(in_place.render()) == in_place.data


@settings(max_examples=60, deadline=None)
@given(revisions())
def test_state_round_trip(revs):
    for encoding in ("in-place", "amendments"):
        memory, _ = replay(encoding, revs)
        again = Memory.from_state(SCHEMA, json.loads(json.dumps(memory.state())))
        assert again.render() == memory.render()
        assert again.data == memory.data


def test_in_place_keeps_unchanged_leading_text():
    memory = Memory(SCHEMA, "in-place")
    memory.revise(
        [
            Revision("p", ("attributes", "Mowgli"), "add", ["a man-cub"]),
            Revision("p", ("attributes", "Baloo"), "add", ["a bear"]),
        ]
    )
    before = memory.render()
    memory.revise([Revision("p", ("attributes", "Baloo"), "update", ["a sleepy bear"])])
    after = memory.render()
    cut = before.index('"a bear"')
    assert after[:cut] == before[:cut]
    assert not after.startswith(before)


def test_amendments_rendering_and_fold():
    memory = Memory(SCHEMA, "amendments")
    assert memory.render() == dumps({"attributes": {}})
    memory.revise([Revision("p", parse_path("$.'attributes'.'Mowgli'"), "add", ["a man-cub"])])
    memory.revise([Revision("p", ("attributes", "Mowgli"), "update", ["raised by wolves"])])
    text = memory.render()
    assert AMENDMENTS_HEADER in text
    assert text.endswith('\n{"$.\'attributes\'.\'Mowgli\'": {"update": ["raised by wolves"]}}')
    assert memory.data == {"attributes": {"Mowgli": ["raised by wolves"]}}
    memory.fold()
    assert memory.render() == dumps({"attributes": {"Mowgli": ["raised by wolves"]}})
    assert memory.folds == 1 and memory.amendments == []


def test_rejected_revisions_leave_no_amendment():
    memory = Memory(SCHEMA, "amendments")
    report = memory.revise([Revision("p", ("attributes", "x"), "add", "not a list")])
    assert report.rejected and memory.amendments == []


def test_bad_encoding_and_invalid_start():
    with pytest.raises(ValueError, match="unknown memory encoding"):
        Memory(SCHEMA, "diff")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Memory(SCHEMA, "in-place", {"attributes": {"x": "no list"}})
