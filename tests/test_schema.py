from __future__ import annotations

from typing import Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field

from prism_edge.core.errors import SchemaError
from prism_edge.core.schema import (
    ClassT,
    DictT,
    ListT,
    OptionalT,
    PathError,
    Prim,
    Schema,
    TupleT,
    ValidationError,
    format_path,
    from_json_schema,
    from_model,
    from_source,
    json_schema,
    path_templates,
    prompt_text,
    type_label,
)

# The paper's appendix B (generated schemas), verbatim.
GENERATED_BOOK = '''
class BookSummary:
  """Summarizes a book with potentially non-linear narratives by storing information chronologically."""
  class Event:
    """Represents a single event in the story. Events are stored in chronological order."""
    description: str
    """Description of the event."""
    time: str
    """Explicit time information provided in the text for this event, if any."""
    location: str
    """Location of the event, if specified."""
    characters: list[str]
    """Characters involved in the event."""

  class Character:
    """Represents a character in the story."""
    name: str
    """Name of the character."""
    description: str
    """Description or background information about the character."""
    motivations: list[str]
    """Known or speculated motivations of the character."""

  class Location:
    """Represents a location in the story."""
    name: str
    """Name of the location."""
    description: str
    """Description of the location."""

  events: list[Event]
  """List of events in the story, ordered chronologically."""
  characters: dict[str, Character]
  """Dictionary of characters encountered in the story, keyed by character name."""
  locations: dict[str, Location]
  """Dictionary of locations encountered in the story, keyed by location name."""
'''

GENERATED_SQL = '''
class SQLQueryInformation:
    """This schema stores information relevant to a SQL query.
    It focuses on the entities and attributes mentioned in the query,
    rather than storing entire tables.
    """

    class EntityInformation:
        """Represents information about a specific entity mentioned in the query.
        For instance, if the query asks about 'singers', this would store
        information related to singers.
        """
        name: str  # Entity name (e.g., "singers")
        relevant_columns: list[str]  # Columns relevant to the query for this entity
        relevant_rows: list[dict[str, str]] # Rows containing information related to the query, as dictionaries

    entities: list[EntityInformation]

    # Additional fields for aggregate queries (COUNT, SUM, AVG, etc.):
    aggregate_results: dict[str, float] # e.g., {"count": 123}
'''

GENERATED_SMALL = [
    """
@dataclasses.dataclass
class NarrativeSummary:
  @dataclasses.dataclass
  class SummaryEvent:
    events: str
    characters: str
    places: str
    elements: str
  summary_events: dict[str, SummaryEvent]
""",
    """
@dataclasses.dataclass
class FunctionMatch:
  matches: dict[str, float]
""",
    """
@dataclasses.dataclass
class QueryPartialSolution(pg.Object):
  attributes: dict[str, list[str]]
""",
    '''
class FunctionMatch:
  """Stores information about functions found in code."""
  class FunctionInfo:
    """name is the exact name of the function and matches is a list of strings describing which parts of the function description in the query were matched to the function."""
    name: str
    matches: list[str]


  functions: list[FunctionInfo]
''',
    """
class Comparison:
  product_names: tuple[str, str]
  Facet = str
  values: dict[Facet, tuple[str, str]]
""",
]


def test_paper_handcrafted_schemas_parse(book_schema, code_schema, table_schema):
    assert book_schema.root.name == "BookSummary"
    assert book_schema.root.fields[0].type == DictT(ListT(Prim("str")))
    assert "main characters" in book_schema.root.doc
    desc = code_schema.root.field("candidate_functions").type
    assert isinstance(desc, DictT) and isinstance(desc.value, ClassT)
    assert [f.name for f in desc.value.fields] == ["purpose", "input", "output", "procedure"]
    assert "Do not repeat the description" in desc.value.doc
    tables = table_schema.root.field("table_descriptions").type
    assert isinstance(tables, ListT) and tables.item.name == "TableDescription"


def test_generated_schemas_parse_with_docs_and_comments():
    book = from_source(GENERATED_BOOK)
    assert [f.name for f in book.root.fields] == ["events", "characters", "locations"]
    event = book.root.fields[0].type.item
    assert event.field("time").doc.startswith("Explicit time information")
    assert book.root.field("characters").doc.startswith("Dictionary of characters")
    sql = from_source(GENERATED_SQL)
    entity = sql.root.field("entities").type.item
    assert entity.field("name").comment == 'Entity name (e.g., "singers")'
    assert entity.field("relevant_rows").type == ListT(DictT(Prim("str")))
    assert sql.root.field("aggregate_results").comment == 'e.g., {"count": 123}'
    text = prompt_text(sql)
    assert '# Entity name (e.g., "singers")' in text
    assert "For instance, if the query asks about 'singers'" in text


@pytest.mark.parametrize("source", GENERATED_SMALL)
def test_more_paper_schemas_parse(source):
    schema = from_source(source)
    assert schema.root.fields


def test_type_aliases_and_tuples():
    schema = from_source(GENERATED_SMALL[-1])
    assert schema.root.field("values").type == DictT(TupleT((Prim("str"), Prim("str"))))


def test_all_types_and_optional_spellings():
    schema = from_source("""
from typing import Optional, List, Dict
class A:
    a: Optional[int]
    b: int | None
    c: List[str]
    d: Dict[str, bool]
    e: "float"
    f: typing.Optional[str]
""")
    types_ = [f.type for f in schema.root.fields]
    assert types_ == [
        OptionalT(Prim("int")),
        OptionalT(Prim("int")),
        ListT(Prim("str")),
        DictT(Prim("bool")),
        Prim("float"),
        OptionalT(Prim("str")),
    ]


@pytest.mark.parametrize(
    ("source", "line", "fragment"),
    [
        ("class A:\n    x: set[str]\n", 2, "unsupported generic type set"),
        ("class A:\n    x: str\n    y: Union[int, str]\n", 3, "only supported as Optional"),
        ("class A:\n    x: str\n\n    def f(self):\n        pass\n", 4, "unsupported statement"),
        ("class A:\n    x: dict[int, str]\n", 2, "dict keys must be str"),
        ("class A:\n    x: Any\n", 2, "Any is too loose"),
        ("class A:\n    x: Missing\n", 2, "unknown or unsupported type 'Missing'"),
        ("x = 1\nclass A:\n    x: str\n", 1, "only imports and class definitions"),
        ("class A:\n    '''doc only'''\n", 1, "declares no typed fields"),
        ("class A:\n    x: str\n    x: int\n", 1, "declared twice"),
        ("class A:\n    x: list[A]\n", 1, "contains itself"),
        ("class A:\n  x: str\nclass B:\n  y: int\n", 1, "cannot tell the root class"),
        ("class A(:\n", 1, "not valid Python"),
    ],
)
def test_unsupported_constructs_name_the_line(source, line, fragment):
    with pytest.raises(SchemaError) as info:
        from_source(source)
    assert info.value.line == line
    assert fragment in info.value.message


def test_root_can_be_named_among_several_classes():
    schema = from_source("class A:\n  x: str\nclass B:\n  y: int\n", root="B")
    assert schema.root.name == "B"


def test_path_templates(code_schema, mixed_schema):
    templates = {t.template: type_label(t.type) for t in path_templates(code_schema)}
    assert templates["$.'candidate_functions'.<key>"] == "FunctionDescription"
    assert templates["$.'candidate_functions'.<key>.'procedure'"] == "str"
    mixed = {t.template: type_label(t.type) for t in path_templates(mixed_schema)}
    assert mixed["$.'people'.<key>.'nickname'"] == "Optional[str]"
    assert mixed["$.'scores'.<key>[<index>]"] == "float"
    assert mixed["$.'pair'[1]"] == "int"


def test_resolve_concrete_paths(mixed_schema):
    assert mixed_schema.resolve(("people", "Bagheera", "age")) == Prim("int")
    assert mixed_schema.resolve(("events", 3)) == Prim("str")
    with pytest.raises(PathError, match="has no field 'wings'"):
        mixed_schema.resolve(("people", "Baloo", "wings"))
    with pytest.raises(PathError, match="indexed by"):
        mixed_schema.resolve(("events", "first"))
    with pytest.raises(PathError, match="no parts"):
        mixed_schema.resolve(("title", "x"))


def test_validator_is_strict_and_names_the_path(mixed_schema):
    person = {"name": "Baloo", "age": 40, "height": 2, "alive": True, "nickname": None}
    mixed_schema.validate(person, mixed_schema.resolve(("people", "x")))
    with pytest.raises(ValidationError) as info:
        mixed_schema.validate({"people": {"Baloo": {**person, "age": "40"}}})
    assert info.value.at == "$.'people'.'Baloo'.'age'"
    with pytest.raises(ValidationError, match="expected int, got bool"):
        mixed_schema.validate({"people": {"B": {**person, "age": True}}})
    with pytest.raises(ValidationError, match="missing field 'alive'"):
        mixed_schema.validate(
            {"people": {"B": {"name": "B", "age": 1, "height": 1.0, "nickname": None}}}
        )
    with pytest.raises(ValidationError, match="has no field 'wings'"):
        mixed_schema.validate({"people": {"B": {**person, "wings": 2}}})
    with pytest.raises(ValidationError, match="exactly 2"):
        mixed_schema.validate({"pair": ["a"]})
    # root fields may be absent: a memory fills in over time
    mixed_schema.validate({})


def test_missing_information_placeholder(mixed_schema):
    person = {"name": "???", "age": "???", "height": None, "alive": "???", "nickname": "???"}
    mixed_schema.validate(person, mixed_schema.resolve(("people", "x")))
    strict = Schema(mixed_schema.root, allow_missing=False)
    with pytest.raises(ValidationError):
        strict.validate(person, strict.resolve(("people", "x")))
    ok = {"name": "B", "age": 1, "height": 1.0, "alive": False, "nickname": None}
    strict.validate(ok, strict.resolve(("people", "x")))


def test_json_schema(code_schema, mixed_schema):
    js = json_schema(code_schema)
    fd = js["$defs"]["FunctionDescription"]
    assert fd["required"] == ["purpose", "input", "output", "procedure"]
    assert js["properties"]["candidate_functions"]["anyOf"][0]["additionalProperties"] == {
        "$ref": "#/$defs/FunctionDescription"
    }
    strict = json_schema(Schema(mixed_schema.root, allow_missing=False))
    assert strict["properties"]["pair"]["prefixItems"] == [{"type": "string"}, {"type": "integer"}]


def test_prompt_text_round_trips(code_schema, mixed_schema):
    for schema in (code_schema, mixed_schema):
        again = from_source(prompt_text(schema))
        assert again.root == schema.root


def test_format_path_quotes_any_key():
    assert format_path(("a", "Mowgli's cave", 0)) == "$.'a'.'Mowgli\\'s cave'[0]"


class Person(BaseModel):
    """Someone in the story."""

    name: str = Field(description="their name")
    friends: list[str]
    age: Optional[int] = None  # noqa: UP045 -- the old spelling must work too


class Story(BaseModel):
    people: dict[str, Person]
    title: str | None


def test_from_pydantic_model():
    schema = from_model(Story)
    person = schema.root.field("people").type.value
    assert person.doc == "Someone in the story."
    assert person.field("name").doc == "their name"
    assert person.field("age").type == OptionalT(Prim("int"))
    assert schema.root.field("title").type == OptionalT(Prim("str"))
    assert "class Person:" in prompt_text(schema)


# --- malformed JSON Schemas: always the schema error, never a traceback ----------------------

_JS_KEYS = [
    "type",
    "properties",
    "items",
    "prefixItems",
    "anyOf",
    "oneOf",
    "$ref",
    "$defs",
    "definitions",
    "additionalProperties",
    "description",
    "title",
]
_js_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.sampled_from(
        ["object", "array", "string", "integer", "number", "boolean", "null", "#/$defs/A", "A", ""]
    ),
)
_js_values = st.recursive(
    _js_scalar,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from([*_JS_KEYS, "a", "b", "A"]), inner, max_size=4),
    ),
    max_leaves=25,
)


@pytest.mark.parametrize(
    "document",
    [
        {"type": "object", "properties": {"a": {"type": "array", "items": True}}},
        {"type": "object", "properties": {"a": {"anyOf": ["string"]}}},
        {"type": "object", "properties": {"a": 3}},
        [{"type": "object"}],
        {"type": "object", "properties": {"a": {"type": 5}}},
        {"type": "object", "properties": {"a": {"type": ["string", 1]}}},
        {"type": "object", "properties": []},
        {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": []},
        {"type": "object", "properties": {"a": {"type": "array", "prefixItems": 1}}},
    ],
)
def test_malformed_json_schemas_are_schema_errors(document):
    with pytest.raises(SchemaError):
        from_json_schema(document)


@given(document=_js_values)
@settings(max_examples=400, deadline=None)
def test_any_json_is_a_schema_or_a_schema_error(document):
    try:
        schema = from_json_schema(document)
    except SchemaError:
        return
    schema.validate(schema.empty_memory())


def test_a_deeply_nested_json_schema_is_a_schema_error():
    node: dict = {"type": "string"}
    for _ in range(3000):
        node = {"type": "array", "items": node}
    with pytest.raises(SchemaError, match="nested too deeply"):
        from_json_schema({"type": "object", "properties": {"a": node}})
