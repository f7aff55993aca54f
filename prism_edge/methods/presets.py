"""Task presets built on the paper's hand-crafted schemas (appendix A), kept as source text."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from prism_edge.backends import Backend
from prism_edge.core.config import GroundingKind, PrismConfig
from prism_edge.core.schema import Schema, from_source
from prism_edge.grammar.revision import revision_grammar
from prism_edge.methods import AUTO, Choice, Method, choose, make, own_options
from prism_edge.methods.definitions import ScoredDefinitions
from prism_edge.methods.outline.method import Outlined
from prism_edge.methods.tables import TableFacts

BOOK_SUMMARY = '''
@dataclasses.dataclass
class BookSummary:
    """Keys may be whatever you want them to be. Values should summarize in sentences only the most important attributes of the book which should include absolutely essential details such as the main characters and their motivations, the main plot, the main events, background information, and the main theme."""
    attributes: dict[str, list[str]]
'''

FUNCTION_DESCRIPTOR = '''
@dataclasses.dataclass
class FunctionNaturalDescriptor:
    """candidate_functions is keyed by the exact name of the function and stores FunctionDescription objects. Each entry should represent a unique function, class method, property, getter, or setter (or anything defined with a def keyword) present in [TEXT] that potentially matches the description given in [QUESTION]. Never add the same function more than once and only add functions that appear similar to the description given in [QUESTION]. If two functions are very similar to each other, you should make sure to distinguish them in their FunctionDescription objects."""
  @dataclasses.dataclass
  class FunctionDescription:
    """purpose describes the purpose of the function i.e. what it does. input describes what the parameters of the function are. output describes what the function returns. procedure describes how the function is implemented (i.e. how it does what it does). Do not repeat the description given in [QUESTION]. You must describe the function based on what you see in [TEXT]."""
    purpose: str
    input: str
    output: str
    procedure: str
  candidate_functions: dict[str, FunctionDescription]
'''

RELEVANT_TABLE_INFO = '''
@dataclasses.dataclass
class RelevantTableInfo(pg.Object):
  """table_descriptions is a list of TableDescription objects. One for each table."""

  @dataclasses.dataclass
  class TableDescription(pg.Object):
    """Each element in columns_observed should provide the precise name and data type of a column in the table. In relevant_statistics you should calculate and provide statistics relevant to answering the query. relationships should provide the names of other tables that are related to this table and relevant to answering the query."""
    table_name: str
    table_description: str
    columns_observed: list[str]
    relevant_statistics: list[str]
    relationships: list[str]

  table_descriptions: list[TableDescription]
'''


SUMMARY_EXAMPLE = """[MEMORY]
{"attributes": {"Mara": ["Mara is a young baker in the port town of Velsk."]}}
[TEXT]
A fire destroyed Mara's bakery in the night. Her rival, the merchant Oskar, offered to buy the land, but she swore to rebuild.
[OBJECTS FOR UPDATE]
{"$.'attributes'.'Mara'": {"update": ["Mara is a young baker in the port town of Velsk.", "A fire destroys her bakery; she refuses to sell the land and swears to rebuild."]}}
[OBJECTS FOR ADD]
{"$.'attributes'.'Oskar'": {"add": ["Oskar, a merchant and Mara's rival, tries to buy her land after the fire."]}}"""

CODE_EXAMPLE = """[MEMORY]
{"candidate_functions": {}}
[TEXT]
File path: util/num.py
Content:
def clamp(value, low, high):
    return max(low, min(value, high))
[OBJECTS FOR UPDATE]
[OBJECTS FOR ADD]
{"$.'candidate_functions'.'clamp'": {"add": {"purpose": "Limits a number to a range.", "input": "value, and the bounds low and high.", "output": "value, or the nearest bound when value lies outside the range.", "procedure": "Takes the minimum of value and high, then the maximum of that and low."}}}"""

TABLE_EXAMPLE = """[MEMORY]
{"table_descriptions": []}
[TEXT]
Table: ship
ship_id,name,tonnage
1,Aurora,5200
2,Borealis,3100
[OBJECTS FOR UPDATE]
[OBJECTS FOR ADD]
{"$.'table_descriptions'": {"add": {"table_name": "ship", "table_description": "Ships with their tonnage.", "columns_observed": ["ship_id (int)", "name (text)", "tonnage (int)"], "relevant_statistics": ["2 ships", "total tonnage 8300"], "relationships": []}}}"""


@dataclass(frozen=True)
class Task:
    """A kind of question over long inputs: its memory schema and how a run answers it."""

    name: str
    schema_source: str
    default_question: str | None
    """None when the user must supply the question (``--query``)."""
    answer_instruction: str
    example: str = ""
    """A short worked example for the compact prompt, on invented text."""
    answer_choices: str | None = None
    """A root dict field whose keys are the only allowed answers (answer grammar)."""
    answer_outline: str | None = None
    """A root dict field whose keys open the paragraphs of a grounded answer."""
    grounding: GroundingKind = "words"
    """What a grounded run may store: a summary keeps the chunk's sentences under its names
    (characters and places), so what is stored reads well and the answer can name them."""
    given_schema: Schema | None = None
    """A schema given as an object (a user's file, a generated one) instead of source."""
    reads_tables: bool = False
    """A text file's Markdown and fixed-width tables are read as tables (``inputs``)."""
    scored_method: str | None = None
    """The PRISM variant in which the model chooses by scores (``definitions``, ``names``):
    the measured best for this task on a backend that can score, which ``--method auto``
    runs."""

    @cached_property
    def schema(self) -> Schema:
        return self.given_schema or from_source(self.schema_source)

    @classmethod
    def for_schema(cls, schema: Schema) -> Task:
        """A user's (or a generated) schema: the question is theirs, no preset's example,
        answer choices or kind of keys."""
        return cls("custom", "", None, "Answer the question.", given_schema=schema)

    def question(self, query: str | None) -> str:
        """The question a run answers: ``query``, else the preset's; a ValueError when the
        task needs one."""
        question = query or self.default_question
        if not question:
            flag = "--query" if self.name != "custom" else "--query (what to ask of the schema)"
            raise ValueError(f"--task {self.name} needs {flag}")
        return question

    def configure(self, query: str | None = None, **settings: Any) -> PrismConfig:
        """The run's config: the question, answering instruction, worked example, answer
        grammar (choices or outline) and kind of grounding this task brings, with ``settings``
        (memory encoding, budgets, sampling...) on top."""
        return PrismConfig(
            question=self.question(query),
            answer_instruction=self.answer_instruction,
            example=self.example,
            answer_choices=self.answer_choices,
            answer_outline=self.answer_outline,
            grounding=self.grounding,
            **settings,
        )

    def method_for(
        self,
        backend: Backend,
        config: PrismConfig,
        asked: str = AUTO,
        no_model: bool = False,
        **options: Any,
    ) -> tuple[Method, Choice]:
        """The method of a run of this task on ``backend`` (``auto``: by what the model is,
        :func:`prism_edge.methods.choose`; ``no_model``: its model-free ranking) and why;
        ``options`` the chosen method does not take are left out (a command refuses those the
        user typed)."""
        choice = choose(asked, self.scored_method, backend, no_model)
        return self.method_of(choice, config, **options), choice

    def method_of(self, choice: Choice, config: PrismConfig, **options: Any) -> Method:
        """A fresh method as ``choice`` says (its implied options over ``options``)."""
        given = {**own_options(choice.name, options), **dict(choice.options)}
        return make(choice.name, self.schema, config, **given)


TASKS: dict[str, Task] = {
    "summarize": Task(
        "summarize",
        BOOK_SUMMARY,
        "Summarize this text: its main characters and their motivations, the main plot and "
        "events, the setting and background, and the main theme.",
        "Write the summary as a few paragraphs of prose that follow the story in order.",
        SUMMARY_EXAMPLE,
        answer_outline="attributes",
        grounding="extractive",
        scored_method=Outlined.name,
    ),
    "code-search": Task(
        "code-search",
        FUNCTION_DESCRIPTOR,
        None,
        "Reply with the exact name of the one function in the memory that best matches the "
        "description, and nothing else.",
        CODE_EXAMPLE,
        "candidate_functions",
        scored_method=ScoredDefinitions.name,
    ),
    "table-qa": Task(
        "table-qa",
        RELEVANT_TABLE_INFO,
        None,
        "Reply with the answer only: a number, a name or a short list, without explanation.",
        TABLE_EXAMPLE,
        reads_tables=True,
        scored_method=TableFacts.name,
    ),
}


def preset_grammars() -> dict[str, str]:
    """The revision grammars of the built-in presets on an empty memory, by file name."""
    out: dict[str, str] = {}
    for name, task in TASKS.items():
        empty = task.schema.empty_memory()
        out[f"{name}.gbnf"] = revision_grammar(task.schema, empty)
        out[f"{name}.add-only.gbnf"] = revision_grammar(task.schema, empty, add_only=True)
    return out
