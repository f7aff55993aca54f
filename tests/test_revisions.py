from __future__ import annotations

import contextlib
import copy
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prism_edge.core.errors import RevisionError
from prism_edge.core.revisions import (
    MAX_DEPTH,
    Revision,
    apply,
    apply_all,
    parse_output,
    parse_path,
)

PERSON = {"name": "Baloo", "age": 40, "height": 2.1, "alive": True, "nickname": None}
MEMORY = {
    "title": "The Jungle Book",
    "people": {"Baloo": PERSON, "Mowgli's wolf": {**PERSON, "name": "Akela"}},
    "events": ["Mowgli is found"],
    "scores": {},
}


@pytest.mark.parametrize(
    ("path", "segments"),
    [
        ("$.'attributes'.'Noise Level'", ("attributes", "Noise Level")),
        ("$.'a'.'x.y'", ("a", "x.y")),
        ("$.'a'.'Mowgli\\'s cave'", ("a", "Mowgli's cave")),
        ("$.'a'.'Ça va — Шер-Хан'", ("a", "Ça va — Шер-Хан")),
        ('$."a"."b c"', ("a", "b c")),
        ("$.'t'[3]", ("t", 3)),
        ("$.plain.names", ("plain", "names")),
    ],
)
def test_parse_path(path, segments):
    assert parse_path(path) == segments


@pytest.mark.parametrize("path", ["attributes", "$", "$.'a'[*]", "$..x", "$.'a'[1:2]", "$.'a"])
def test_parse_path_rejects(path):
    with pytest.raises(ValueError):
        parse_path(path)


def test_parse_output_sections_and_lenient_literals():
    text = """[OBJECTS FOR UPDATE]
{"$.'values'.'flexibility'": {"update": ("allows iPhone to orientate freely", "very flexible")}}

[OBJECTS FOR ADD]
{"$.'values'.'material'": {"add": ("aluminum structure", "???")}}
{"$.'a'": {"add": [1, 2,]},}
{}
{"$.'b'": {"add": 1}, "$.'c'": {"update": None}}
"""
    parsed = parse_output(text)
    assert not parsed.rejected
    assert [(r.op, r.segments) for r in parsed.revisions] == [
        ("update", ("values", "flexibility")),
        ("add", ("values", "material")),
        ("add", ("a",)),
        ("add", ("b",)),
        ("update", ("c",)),
    ]
    assert parsed.revisions[0].value == ["allows iPhone to orientate freely", "very flexible"]
    assert parsed.revisions[3].line == 8


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ('{"$.\'a\'": {"add": [1, 2}', "malformed JSON"),
        ('["not", "an", "object"]', "malformed JSON"),
        ('{"$.\'a\'": {"insert": 1}}', "malformed revision"),
        ('{"$.\'a\'": {"add": 1, "update": 2}}', "malformed revision"),
        ("{\"$.'a'\": 5}", "malformed revision"),
        ('{"attributes.x": {"add": 1}}', "bad path"),
    ],
)
def test_parse_output_rejects_malformed_lines(line, reason):
    parsed = parse_output("[OBJECTS FOR ADD]\n" + line)
    assert not parsed.revisions
    assert len(parsed.rejected) == 1
    assert reason in parsed.rejected[0].reason


def rev(path: str, op: str, value) -> Revision:
    return Revision(path, parse_path(path), op, value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("path", "op", "value", "expect"),
    [
        # accepted
        ("$.'people'.'Bagheera'", "add", {**PERSON, "name": "Bagheera"}, None),
        ("$.'people'.'Baloo'.'age'", "update", 41, None),
        ("$.'people'.'Baloo'", "update", {**PERSON, "age": 41}, None),
        ("$.'people'.'Baloo'.'nickname'", "update", "old bear", None),
        ("$.'people'.'Baloo'.'height'", "update", 3, None),  # an int is a valid float
        ("$.'events'", "add", "Shere Khan returns", None),  # append to a list
        ("$.'events'[1]", "add", "Shere Khan returns", None),
        ("$.'events'[0]", "update", "Mowgli is found by wolves", None),
        ("$.'scores'.'Baloo'", "add", [1.5, 2], None),
        ("$.'pair'", "add", ["a", 1], None),
        ("$.'people'.'Кая'", "add", {**PERSON, "name": "Kaa", "nickname": "???"}, None),
        ("$.'people'.'Mowgli\\'s wolf'.'age'", "update", 9, None),
        ("$.'people'.'x.y z'", "add", PERSON, None),
        # rejected
        ("$.'people'.'Baloo'", "add", PERSON, "already exists"),
        ("$.'people'.'Kaa'.'age'", "update", 3, "parent $.'people'.'Kaa' does not exist"),
        ("$.'people'.'Kaa'", "update", PERSON, "does not exist"),
        ("$.'people'.'Baloo'.'age'", "update", "forty", "expected int"),
        ("$.'people'.'Baloo'.'alive'", "update", 1, "expected bool"),
        ("$.'people'.'Bagheera'", "add", {"name": "Bagheera"}, "missing field"),
        ("$.'people'.'Baloo'.'wings'", "update", 2, "path outside the schema"),
        ("$.'villains'", "add", [], "path outside the schema"),
        ("$.'events'[5]", "add", "x", "at index 1"),
        ("$.'events'", "add", ["a list", "of lists"], "path already exists"),
        ("$.'events'", "add", [1], "expected str"),
        ("$.'people'.'Baloo'.'age'", "update", 40, "no change"),
        ("$.'title'", "add", "Again", "already exists"),
        ("$.'events'", "add", "Mowgli is found", "already in the list"),
        ("$.'pair'", "add", ["a"], "exactly 2"),
        # a looping model: a list that repeats an item, at any depth
        ("$.'scores'.'Kaa'", "add", [1.5, 1.5], "repeats an item"),
        ("$.'events'[0]", "update", "more", None),
    ],
)
def test_apply_table(mixed_schema, path, op, value, expect):
    data = copy.deepcopy(MEMORY)
    before = copy.deepcopy(data)
    report = apply_all(mixed_schema, data, [rev(path, op, value)])
    if expect is None:
        assert len(report.applied) == 1 and not report.rejected
        mixed_schema.validate(data)
        assert data != before
    else:
        assert not report.applied and len(report.rejected) == 1
        error = report.rejected[0]
        assert expect in error.reason
        assert error.path == path and error.op == op
        assert data == before  # memory untouched


def test_add_only_rejects_updates(mixed_schema):
    data = copy.deepcopy(MEMORY)
    report = apply_all(
        mixed_schema,
        data,
        [rev("$.'people'.'Baloo'.'age'", "update", 3), rev("$.'scores'.'x'", "add", [1.0])],
        add_only=True,
    )
    assert [r.path for r in report.applied] == ["$.'scores'.'x'"]
    assert "add-only" in report.rejected[0].reason


def test_same_add_twice_in_one_step_applies_once(book_schema):
    data = book_schema.empty_memory()
    r = rev("$.'attributes'.'Mowgli'", "add", ["a man-cub"])
    report = apply_all(book_schema, data, [r, r])
    assert len(report.applied) == 1 and len(report.rejected) == 1


def test_a_list_that_repeats_an_item_is_a_counted_duplicate(book_schema):
    data = book_schema.empty_memory()
    looping = rev("$.'attributes'.'Internet'", "add", ["more", "addition", "more"])
    report = apply_all(book_schema, data, [looping])
    assert not report.applied and report.rejected[0].kind == "duplicate"
    assert data == book_schema.empty_memory()
    nested = rev("$.'attributes'", "update", {"Kaa": ["x", "y"], "Nag": ["z", "z"]})
    assert apply_all(book_schema, data, [nested]).rejected[0].kind == "duplicate"


def test_list_append_is_recorded_with_its_index(mixed_schema):
    data = copy.deepcopy(MEMORY)
    applied = apply(mixed_schema, data, rev("$.'events'", "add", "x"))
    assert applied.segments == ("events", 1)
    assert applied.canonical_path == "$.'events'[1]"


def test_applied_values_are_copies(book_schema):
    data = book_schema.empty_memory()
    value = ["a"]
    apply(book_schema, data, rev("$.'attributes'.'k'", "add", value))
    value.append("b")
    assert data["attributes"]["k"] == ["a"]


def test_a_key_named_star_is_a_key_not_the_wildcard():
    assert parse_path("$.'a'.'*'") == ("a", "*")
    assert parse_path("$['*']") == ("*",)
    with pytest.raises(ValueError, match="only plain names"):
        parse_path("$.a.*")


# --- the containment boundary (nothing a model writes escapes as an exception) ---------------


def test_an_add_under_a_placeholder_is_a_rejection_not_a_crash(table_schema):
    from prism_edge.core.memory import Memory

    memory = Memory(table_schema, "amendments")
    output = (
        '{"$.\'table_descriptions\'": {"add": {"table_name": "t", "table_description": '
        '"d", "columns_observed": "???", "relevant_statistics": [], "relationships": []}}}\n'
        '{"$.\'table_descriptions\'[0].\'columns_observed\'[0]": {"add": "x"}}\n'
        "{\"$.'table_descriptions'[0].'table_name'.'x'\": {\"add\": \"x\"}}"
    )
    before_second = None
    report = memory.revise(parse_output(output).revisions[:1])
    assert len(report.applied) == 1
    before_second = memory.render()
    report = memory.revise(parse_output(output).revisions[1:])
    assert not report.applied and len(report.rejected) == 2
    assert "placeholder" in report.rejected[0].reason
    assert memory.render() == before_second


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ('{"$.title": {"add": ' + "[" * 400 + "]" * 400 + "}}", "nested deeper"),
        ("[" * 5000, "nested deeper"),
        ('{"$.title": {"add": ' + "[" * 2000, "nested deeper"),
        ('{"$.title": {"add": ' + "7" * 5000 + "}}", "malformed"),
        ('{"$.title": {"add": NaN}}', "malformed"),
        ('{"$.title": {"add": -Infinity}}', "malformed"),
        ('{"$.title": {"add": 1e999}}', "not finite"),
        ('{"$.title": {"add": 123456789012345678901234567890}}', "64-bit"),
        ("{'$.title': {'add': {1, 2}}}", "not a JSON value"),
        ("{'$.title': {'add': b'x'}}", "not a JSON value"),
        ('{"$.title": {"add": "' + "x" * 300_000 + '"}}', "longer than"),
    ],
)
def test_hostile_values_are_refused_with_a_reason(line, reason):
    parsed = parse_output(line)
    assert not parsed.revisions
    assert len(parsed.rejected) == 1 and reason in parsed.rejected[0].reason


def test_a_non_finite_number_never_reaches_a_float_field(mixed_schema):
    data = copy.deepcopy(MEMORY)
    for value in (float("nan"), float("inf"), -float("inf")):
        rev = Revision(
            "$.'people'.'Baloo'.'height'", ("people", "Baloo", "height"), "update", value
        )
        with pytest.raises(RevisionError, match="not finite"):
            apply(mixed_schema, data, rev)
    assert data == MEMORY
    assert not mixed_schema.is_valid({**MEMORY, "people": {"B": {**PERSON, "height": math.nan}}})


@given(depth=st.integers(min_value=0, max_value=3000), kind=st.sampled_from("[{("))
@settings(max_examples=60, deadline=None)
def test_any_nesting_depth_is_parsed_or_refused(depth, kind):
    close = {"[": "]", "{": "}", "(": ")"}[kind]
    inner = kind * depth + close * depth if kind != "{" else '{"a": ' * depth + "1" + "}" * depth
    for line in (
        '{"$.title": {"add": ' + inner + "}}",
        '{"$.title": {"add": ' + kind * depth,  # unterminated
        '{"$.\'events\'": {"add": ' + inner + "}}",
    ):
        parsed = parse_output(line)  # never raises
        if parsed.revisions:
            assert depth <= MAX_DEPTH + 1


@given(number=st.one_of(st.integers(), st.floats(allow_nan=True, allow_infinity=True)))
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_any_number_is_stored_finite_or_refused(mixed_schema, number):
    import json

    data = copy.deepcopy(MEMORY)
    text = json.dumps({"$.'people'.'Baloo'.'height'": {"update": number}})
    for rev in parse_output(text).revisions:
        with contextlib.suppress(RevisionError):
            apply(mixed_schema, data, rev)
    height = data["people"]["Baloo"]["height"]
    assert isinstance(height, int | float) and math.isfinite(height)
    json.loads(json.dumps(data, allow_nan=False))  # the memory still renders as valid JSON


def test_a_string_holding_a_unicode_line_separator_stays_one_line():
    from prism_edge.core.revisions import parse_output

    line = '{"$.\'attributes\'.\'Mowgli\'": {"add": ["a\u2028b\x85c\x0cd"]}}'
    parsed = parse_output("[OBJECTS FOR UPDATE]\n[OBJECTS FOR ADD]\n" + line + "\n")
    assert not parsed.rejected and parsed.revisions[0].value == ["a\u2028b\x85c\x0cd"]
