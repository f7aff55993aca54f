from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prism_edge.core.revisions import Revision, apply_all
from prism_edge.core.schema import ClassT, DictT, ListT, OptionalT, Prim, Schema, TupleT, unwrap
from prism_edge.grammar.gbnf import Rules, choice, identifier, literal
from prism_edge.grammar.revision import (
    GrammarLimits,
    answer_grammar,
    outline_grammar,
    prose_grammar,
    revision_grammar,
)
from prism_edge.methods.presets import TASKS, preset_grammars
from prism_edge.text.grounding import Grounding

GRAMMARS = Path(__file__).resolve().parents[1] / "grammars"

KEY_CHARS = st.characters(
    codec="utf-8", exclude_categories=("Cs", "Cc", "Co", "Cn"), exclude_characters="'\"\\{}[]$"
)
keys = st.text(KEY_CHARS, min_size=1, max_size=12).filter(lambda k: not k.startswith(" "))
texts = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs", "Co", "Cn")), min_size=1, max_size=30
)


def values(node: Any, schema: Schema, root: bool = False) -> st.SearchStrategy[Any]:
    """Valid JSON values of a schema type."""
    if isinstance(node, Prim):
        return {
            "str": texts,
            "int": st.integers(-(10**12), 10**12),
            "float": st.floats(allow_nan=False, allow_infinity=False, width=32),
            "bool": st.booleans(),
        }[node.kind]
    if isinstance(node, OptionalT):
        return st.one_of(st.none(), values(node.inner, schema))
    if isinstance(node, ListT):
        # no repeated item: the applier refuses a looping list
        return st.lists(
            values(node.item, schema), max_size=3, unique_by=lambda v: json.dumps(v, sort_keys=True)
        )
    if isinstance(node, TupleT):
        return st.tuples(*(values(i, schema) for i in node.items)).map(list)
    if isinstance(node, DictT):
        return st.dictionaries(keys, values(node.value, schema), max_size=3)
    assert isinstance(node, ClassT)
    fields = {}
    for f in node.fields:
        plain = values(f.type, schema)
        fields[f.name] = (
            st.one_of(plain, st.just("???"), st.none())
            if (schema.allow_missing and not root)
            else plain
        )
    order = [f.name for f in node.fields]  # the grammar writes fields in declared order
    return st.fixed_dictionaries(fields).map(lambda d: {k: d[k] for k in order})


def memories(schema: Schema) -> st.SearchStrategy[dict[str, Any]]:
    return values(schema.root, schema, root=True).map(
        lambda full: {**schema.empty_memory(), **full}
    )


def wire(update: list[Revision], add: list[Revision]) -> str:
    lines = [
        "[OBJECTS FOR UPDATE]",
        *(r.to_wire() for r in update),
        "[OBJECTS FOR ADD]",
        *(r.to_wire() for r in add),
    ]
    return "\n".join(lines) + "\n"


SCHEMAS = {name: TASKS[name].schema for name in TASKS}


@st.composite
def memory_and_revisions(draw: st.DrawFn, schema: Schema):
    data = draw(memories(schema))
    dict_field = next(f for f in schema.root.fields if isinstance(unwrap(f.type), (DictT, ListT)))
    container = unwrap(dict_field.type)
    item_type = container.value if isinstance(container, DictT) else container.item
    adds, updates = [], []
    if isinstance(container, DictT):
        existing = data[dict_field.name]
        new_key = draw(keys.filter(lambda k: k not in existing))
        adds.append(
            Revision("p", (dict_field.name, new_key), "add", draw(values(item_type, schema)))
        )
        if existing:
            key = draw(st.sampled_from(sorted(existing)))
            new_value = draw(values(item_type, schema).filter(lambda v: v != existing[key]))
            updates.append(Revision("p", (dict_field.name, key), "update", new_value))
    else:
        present = data[dict_field.name]  # an equal item is refused by the applier, not the grammar
        item = draw(values(item_type, schema).filter(lambda v: v not in present))
        adds.append(Revision("p", (dict_field.name,), "add", item))
    return data, updates, adds


@pytest.mark.parametrize("name", sorted(SCHEMAS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_valid_revisions_are_accepted_by_llama_cpp(grammar_checker, name, data):
    schema = SCHEMAS[name]
    memory, updates, adds = data.draw(memory_and_revisions(schema))
    grammar = revision_grammar(schema, memory, limits=GrammarLimits(max_string=2000))
    text = wire(updates, adds)
    assert grammar_checker(grammar, text), text
    # and what the grammar accepts, the applier applies
    report = apply_all(schema, json.loads(json.dumps(memory)), [*updates, *adds])
    assert not report.rejected


BOOK = TASKS["summarize"].schema
MEMORY = {"attributes": {"Mowgli": ["a man-cub"], "Baloo": ["a bear"]}}
ADD = "[OBJECTS FOR UPDATE]\n[OBJECTS FOR ADD]\n"


@pytest.mark.parametrize(
    ("text", "accepted"),
    [
        (ADD, True),
        (ADD + '{"$.\'attributes\'.\'Kaa\'": {"add": ["a python"]}}\n', True),
        (ADD + '{"$.\'attributes\'.\'Mowglis\'": {"add": ["x"]}}\n', True),
        (ADD + '{"$.\'attributes\'.\'Mowg\'": {"add": ["x"]}}\n', True),
        (ADD + '{"$.\'attributes\'.\'Baloo\'": {"add": "teaches the Law"}}\n', True),
        (
            '[OBJECTS FOR UPDATE]\n{"$.\'attributes\'.\'Baloo\'": {"update": ["a sleepy bear"]}}'
            "\n[OBJECTS FOR ADD]\n",
            True,
        ),
        (
            '[OBJECTS FOR UPDATE]\n{"$.\'attributes\'.\'Baloo\'[0]": {"update": "a sleepy bear"}}'
            "\n[OBJECTS FOR ADD]\n",
            True,
        ),
        # add of an existing key
        (ADD + '{"$.\'attributes\'.\'Mowgli\'": {"add": ["x"]}}\n', False),
        # update of a missing path
        (
            '[OBJECTS FOR UPDATE]\n{"$.\'attributes\'.\'Kaa\'": {"update": ["x"]}}\n'
            "[OBJECTS FOR ADD]\n",
            False,
        ),
        # wrong type
        (ADD + '{"$.\'attributes\'.\'Kaa\'": {"add": "a python"}}\n', False),
        (ADD + "{\"$.'attributes'.'Kaa'\": {\"add\": [1]}}\n", False),
        # path outside the schema
        (ADD + '{"$.\'characters\'.\'Kaa\'": {"add": ["x"]}}\n', False),
        # empty strings and keys, malformed lines
        (ADD + '{"$.\'attributes\'.\'Kaa\'": {"add": [""]}}\n', False),
        (ADD + '{"$.\'attributes\'.\'\'": {"add": ["x"]}}\n', False),
        (ADD + '{"$.\'attributes\'.\'Kaa\'": {"add": ["x"]}\n', False),
        ("Sure! Here are the revisions:\n" + ADD, False),
    ],
)
def test_grammar_accepts_exactly_what_applies(grammar_checker, text, accepted):
    grammar = revision_grammar(BOOK, MEMORY)
    assert grammar_checker(grammar, text) is accepted


def test_add_only_drops_the_update_section(grammar_checker):
    grammar = revision_grammar(BOOK, MEMORY, add_only=True)
    assert "update" not in grammar
    assert grammar_checker(grammar, "[OBJECTS FOR ADD]\n{\"$.'attributes'.'K'\": {\"add\": []}}\n")
    assert not grammar_checker(grammar, ADD)


def test_revisions_per_step_are_bounded(grammar_checker):
    line = '{"$.\'attributes\'.\'K%d\'": {"add": ["x"]}}\n'
    limits = GrammarLimits(max_revisions=3)
    grammar = revision_grammar(BOOK, {"attributes": {}}, limits=limits)
    assert grammar_checker(grammar, ADD + "".join(line % i for i in range(3)))
    assert not grammar_checker(grammar, ADD + "".join(line % i for i in range(4)))


def test_class_values_and_missing_placeholder(grammar_checker):
    schema = TASKS["code-search"].schema
    memory = {
        "candidate_functions": {
            "clamp": {"purpose": "p", "input": "i", "output": "o", "procedure": "???"}
        }
    }
    grammar = revision_grammar(schema, memory)
    ok = (
        "[OBJECTS FOR UPDATE]\n{\"$.'candidate_functions'.'clamp'.'procedure'\": "
        '{"update": "min then max"}}\n[OBJECTS FOR ADD]\n{"$.\'candidate_functions\'.\'lerp\'"'
        ': {"add": {"purpose": "interpolates", "input": "???", "output": null, '
        '"procedure": "a + t * (b - a)"}}}\n'
    )
    assert grammar_checker(grammar, ok)
    missing_field = ok.replace(', "procedure": "a + t * (b - a)"', "")
    assert not grammar_checker(grammar, missing_field)


def test_numbers_and_booleans(grammar_checker):
    from prism_edge.core.schema import from_source

    schema = from_source(
        "class M:\n  score: dict[str, float]\n  flags: dict[str, bool]\n  count: int\n"
    )
    grammar = revision_grammar(schema, {"score": {}, "flags": {}})
    for value, path, ok in [
        ("-1.5e3", "score", True),
        ("2", "score", True),
        ("true", "flags", True),
        ('"yes"', "flags", False),
        ("1.", "score", False),
    ]:
        text = ADD + f"{{\"$.'{path}'.'k'\": {{\"add\": {value}}}}}\n"
        assert grammar_checker(grammar, text) is ok, (value, path)
    assert grammar_checker(grammar, ADD + '{"$.\'count\'": {"add": 7}}\n')
    assert not grammar_checker(grammar, ADD + '{"$.\'count\'": {"add": 7.5}}\n')
    assert math.isfinite(float("-1.5e3"))


def test_answer_grammar(grammar_checker):
    grammar = answer_grammar(["clamp", "lerp"])
    assert grammar is not None
    assert grammar_checker(grammar, "lerp")
    assert not grammar_checker(grammar, "lerp2")
    assert answer_grammar([]) is None


def test_literal_escaping():
    assert literal('a"b\\c\n') == '"a\\"b\\\\c\\n"'


def test_grammar_output_is_deterministic():
    memory = {"attributes": {"b": ["1"], "a": ["2"]}}
    assert revision_grammar(BOOK, memory) == revision_grammar(BOOK, json.loads(json.dumps(memory)))


@pytest.mark.parametrize(("name", "text"), sorted(preset_grammars().items()))
def test_checked_in_grammars_do_not_drift(name, text):
    path = GRAMMARS / name
    assert path.exists(), f"regenerate with: prism-edge inspect --write-grammars {GRAMMARS}"
    assert path.read_text(encoding="utf-8") == text, (
        f"{path} drifted from the generator; regenerate with "
        f"prism-edge inspect --write-grammars grammars"
    )


def test_step_grammar_follows_the_lines_of_its_step(grammar_checker):
    from prism_edge.grammar.step import StepGrammar

    step = StepGrammar(BOOK, {"attributes": {}})
    first = step.initial()
    add = '{"$.\'attributes\'.\'Kaa\'": {"add": ["a python"]}}\n'
    assert grammar_checker(first, ADD + add + add)  # a fixed grammar cannot see line 1
    assert step.after_line("[OBJECTS FOR UPDATE]\n", 6, 400) is not None
    rest = step.after_line("[OBJECTS FOR ADD]\n", 6, 400)
    assert rest is not None and grammar_checker(rest, add)
    after = step.after_line(add, 14, 400)
    assert after is not None
    assert not grammar_checker(after, add)  # Kaa exists now: no second add
    assert grammar_checker(after, add.replace("Kaa", "Baloo"))
    assert step.data == {"attributes": {"Kaa": ["a python"]}}
    assert BOOK.is_valid(step.data)


def test_step_grammar_ends_on_repeats_and_low_budget():
    from prism_edge.grammar.step import StepGrammar

    memory = {"attributes": {"Kaa": ["a python"]}}
    step = StepGrammar(BOOK, memory)
    step.after_line("[OBJECTS FOR UPDATE]\n", 6, 400)
    update = '{"$.\'attributes\'.\'Kaa\'": {"update": ["a python"]}}\n'
    assert step.after_line(update, 14, 400) is None and step.stopped == "repeat"
    assert memory == {"attributes": {"Kaa": ["a python"]}}  # the caller's memory is untouched
    low = StepGrammar(BOOK, {"attributes": {}})
    low.after_line("[OBJECTS FOR UPDATE]\n", 6, 400)
    low.after_line("[OBJECTS FOR ADD]\n", 6, 400)
    line = '{"$.\'attributes\'.\'K\'": {"add": ["x"]}}\n'
    assert low.after_line(line, 30, 20) is None and low.stopped == "budget"


def test_repeats_of_stored_strings_are_not_in_the_grammar(grammar_checker):
    memory = {"attributes": {"Kaa": ["a python", "old"]}}
    grammar = revision_grammar(BOOK, memory)
    append = ADD + "{\"$.'attributes'.'Kaa'\": {\"add\": %s}}\n"
    assert not grammar_checker(grammar, append % '"a python"')
    assert not grammar_checker(grammar, append % '"old"')
    for fresh in ('"a pythons"', '"a pyth"', '"old python"', '"o"', '"\\u00e9"'):
        assert grammar_checker(grammar, append % fresh), fresh
    update = (
        "[OBJECTS FOR UPDATE]\n{\"$.'attributes'.'Kaa'[1]\": {\"update\": %s}}\n[OBJECTS FOR ADD]\n"
    )
    assert not grammar_checker(grammar, update % '"old"')
    assert grammar_checker(grammar, update % '"older"')


def test_long_stored_strings_keep_the_grammar_bounded(grammar_checker):
    from prism_edge.grammar.revision import TRIE_DEPTH

    long = "y" * 500
    memory = {"attributes": {"k" * 300: [long]}}
    grammar = revision_grammar(BOOK, memory)
    assert grammar.count("\n") < 4 * TRIE_DEPTH + 300  # strings capped; the 300-char key in full
    append = ADD + "{\"$.'attributes'.'" + "k" * 300 + '\'": {"add": "%s"}}\n'
    assert grammar_checker(grammar, append % "a new item")
    assert grammar_checker(grammar, append % ("y" * 20))  # a prefix of the stored item is new


def test_long_existing_keys_are_excluded_exactly(grammar_checker):
    key = "cant_to_the_world_and_the_world_and_the_world_and"  # 50 characters
    grammar = revision_grammar(BOOK, {"attributes": {key: ["x"], key + "_more": ["y"]}})
    line = ADD + '{"$.\'attributes\'.\'%s\'": {"add": ["z"]}}\n'
    assert not grammar_checker(grammar, line % key)
    assert grammar_checker(grammar, line % key[:-1])
    assert grammar_checker(grammar, line % (key + "_x"))


def test_keys_as_long_as_the_limit_are_still_excluded(grammar_checker):
    limits = GrammarLimits(max_key=10)
    key = "k" * 11  # the longest key the grammar can write
    grammar = revision_grammar(BOOK, {"attributes": {key: ["x"]}}, limits=limits)
    line = ADD + '{"$.\'attributes\'.\'%s\'": {"add": ["z"]}}\n'
    assert not grammar_checker(grammar, line % key)
    assert grammar_checker(grammar, line % key[:-1])


def test_new_keys_are_bounded_on_every_path_so_keys_cannot_grow_step_by_step(grammar_checker):
    limits = GrammarLimits(max_key=10)  # new keys of 1 to 11 characters
    stored = {"k" * 25: ["x"], "kkkk": ["y"]}  # one too long to be written again
    grammar = revision_grammar(BOOK, {"attributes": stored}, limits=limits)
    line = ADD + '{"$.\'attributes\'.\'%s\'": {"add": ["z"]}}\n'
    assert not grammar_checker(grammar, line % "kkkk")  # exists
    assert grammar_checker(grammar, line % "kkk")
    assert grammar_checker(grammar, line % ("k" * 11))  # extends a stored key, within bound
    assert not grammar_checker(grammar, line % ("k" * 12))  # past the bound through the trie
    assert not grammar_checker(grammar, line % ("a" * 12))  # past the bound off the trie
    assert not grammar_checker(grammar, line % ("k" * 25))
    assert grammar_checker(grammar, line % "kkkka")


def test_identifier_is_an_exact_bounded_complement(grammar_checker):
    rules = Rules()
    lower = "abcdefghijklmnopqrstuvwxyz"
    root = identifier(rules, "name", ["def", "x1", "x_"], lower, lower + "0123456789_", 6)
    grammar = rules.text(root)
    for word, ok in [
        ("def", False),
        ("de", True),
        ("define", True),
        ("x1", False),
        ("x_", False),
        ("x2", True),
        ("x_1", True),
        ("1a", False),
        ("abcdef", True),
        ("abcdefg", False),
    ]:
        assert grammar_checker(grammar, word) is ok, word


CHUNK = "Kaa the rock python coiled; Bagheera watched. Mowgli's friends: Kaa, Baloo."


@pytest.mark.parametrize(
    ("text", "accepted"),
    [
        (ADD + '{"$.\'attributes\'.\'Kaa\'": {"add": ["the rock python coiled."]}}\n', True),
        (ADD + '{"$.\'attributes\'.\'Bagheera\'": {"add": ["Bagheera watched Kaa"]}}\n', True),
        # a key is a span of 1-3 consecutive words of the chunk, as written
        (ADD + '{"$.\'attributes\'.\'Kaa the rock\'": {"add": ["Kaa"]}}\n', True),
        (ADD + '{"$.\'attributes\'.\'Kaa the rock python\'": {"add": ["Kaa"]}}\n', False),
        (ADD + '{"$.\'attributes\'.\'Bagheera watched\'": {"add": ["Kaa"]}}\n', True),
        (ADD + '{"$.\'attributes\'.\'coiled Bagheera\'": {"add": ["Kaa"]}}\n', False),
        (ADD + '{"$.\'attributes\'.\'kaa\'": {"add": ["Kaa"]}}\n', False),
        (ADD + '{"$.\'attributes\'.\'Shere Khan\'": {"add": ["Kaa"]}}\n', False),
        # not a key already there, nor one with a quote in it
        (ADD + '{"$.\'attributes\'.\'Baloo\'": {"add": ["Kaa"]}}\n', False),
        (ADD + '{"$.\'attributes\'.\'Mowgli\'s\'": {"add": ["Kaa"]}}\n', False),
        # strings are words of the chunk (any case) joined by spaces and punctuation
        (ADD + '{"$.\'attributes\'.\'Kaa\'": {"add": ["Mowgli\'s friends: Baloo, Kaa!"]}}\n', True),
        (ADD + '{"$.\'attributes\'.\'Kaa\'": {"add": ["Rock python"]}}\n', True),
        (ADD + '{"$.\'attributes\'.\'Kaa\'": {"add": ["a tiger"]}}\n', False),
        (ADD + '{"$.\'attributes\'.\'Kaa\'": {"add": ["}}}}"]}}\n', False),
        (ADD + '{"$.\'attributes\'.\'Kaa\'": {"add": ["Kaa  "]}}\n', False),
        # an existing list is appended to with grounded words too
        (ADD + '{"$.\'attributes\'.\'Baloo\'": {"add": "Baloo watched"}}\n', True),
        (ADD + '{"$.\'attributes\'.\'Baloo\'": {"add": "a bear"}}\n', False),
    ],
)
def test_grounded_grammar_stores_only_what_the_chunk_says(grammar_checker, text, accepted):
    memory = {"attributes": {"Baloo": ["a bear"]}}
    grammar = revision_grammar(BOOK, memory, grounding=Grounding.of(CHUNK))
    assert grammar_checker(grammar, text) is accepted


def test_grounded_grammar_has_no_new_key_when_every_span_is_taken(grammar_checker):
    grammar = revision_grammar(BOOK, {"attributes": {"Kaa": []}}, grounding=Grounding.of("Kaa"))
    assert not grammar_checker(grammar, ADD + "{\"$.'attributes'.'Kaa'\": {\"add\": []}}\n")
    assert grammar_checker(grammar, ADD + '{"$.\'attributes\'.\'Kaa\'": {"add": "Kaa"}}\n')


def test_choice_is_exactly_one_of_its_options(grammar_checker):
    rules = Rules()
    root = choice(rules, "w", ["tiger", "tigers", "tag", "wolf", "t"])
    grammar = rules.text(root or '""')
    for word in ("tiger", "tigers", "tag", "wolf", "t"):
        assert grammar_checker(grammar, word), word
    for word in ("tige", "tigerss", "ta", "wol", "x", ""):
        assert not grammar_checker(grammar, word), word
    assert choice(Rules(), "w", []) is None


def test_prose_grammar_uses_only_its_words(grammar_checker):
    grammar = prose_grammar({"Mowgli", "met", "Kaa", "the", "python"}, 6)
    assert grammar is not None
    assert grammar_checker(grammar, "Mowgli met Kaa, the python.")
    assert grammar_checker(grammar, "Mowgli met Kaa.\n\nKaa met Mowgli")
    assert not grammar_checker(grammar, "Mowgli met Shere Khan.")
    assert not grammar_checker(grammar, "Mowgli met Kaa the python the python")  # 7 words
    assert prose_grammar([], 5) is None


SAGA = """Then Kaa the rock python coiled, and Bagheera watched him. "Kaa is hungry," said Baloo.
The night was long and dark."""
UPDATE_ONLY = "[OBJECTS FOR UPDATE]\n"
FIRST = "Then Kaa the rock python coiled, and Bagheera watched him."


def _line(key: str, op: str, value: str) -> str:
    path = f"$.'attributes'.'{key}'"
    return f'{{"{path}": {{"{op}": {value}}}}}\n'


@pytest.mark.parametrize(
    ("text", "accepted"),
    [
        # a new key is a name of the chunk, with whole sentences that name it
        (
            ADD + _line("Bagheera", "add", f'["{FIRST}"]'),
            True,
        ),
        (ADD + _line("Kaa", "add", '["\\"Kaa is hungry,\\" said Baloo."]'), True),
        (
            ADD + _line("Kaa", "add", f'["{FIRST}", "\\"Kaa is hungry,\\" said Baloo."]'),
            True,
        ),
        # a sentence that does not name the key, a sentence's part, or a span that is no name
        (ADD + _line("Kaa", "add", '["The night was long and dark."]'), False),
        (ADD + _line("Kaa", "add", '["Kaa the rock python coiled"]'), False),
        (
            ADD
            + _line(
                "rock python",
                "add",
                f'["{FIRST}"]',
            ),
            False,
        ),
        # an existing key the chunk names: appended to with its sentences, never updated
        # (the chunk's sentences in place of the stored ones would lose those)
        (ADD + _line("Baloo", "add", '"\\"Kaa is hungry,\\" said Baloo."'), True),
        (
            UPDATE_ONLY
            + _line("Baloo", "update", '["\\"Kaa is hungry,\\" said Baloo."]')
            + ADD.split("\n", 1)[1],
            False,
        ),
        (UPDATE_ONLY + _line("Baloo", "update", "[]") + ADD.split("\n", 1)[1], False),
        (ADD + _line("Baloo", "add", '"The night was long and dark."'), False),
        # an existing key the chunk does not name gets no line at all
        (ADD + _line("Akela", "add", '"The night was long and dark."'), False),
        (
            UPDATE_ONLY
            + _line("Akela", "update", '["The night was long and dark."]')
            + ADD.split("\n", 1)[1],
            False,
        ),
    ],
)
def test_extractive_grammar_files_sentences_under_the_names_they_name(
    grammar_checker, text, accepted
):
    memory = {"attributes": {"Baloo": ["a bear"], "Akela": ["the wolf"]}}
    grammar = revision_grammar(BOOK, memory, grounding=Grounding.of(SAGA, kind="extractive"))
    assert grammar_checker(grammar, text) is accepted, text


KAA = '\\"Kaa is hungry,\\" said Baloo.'


@pytest.mark.parametrize(
    ("value", "accepted"),
    [
        (f'["{FIRST}", "{KAA}"]', True),
        (f'["{KAA}", "{FIRST}"]', True),
        # the applier refuses a list that repeats an item, and the line with it
        (f'["{FIRST}", "{FIRST}"]', False),
        (f'["{FIRST}", "{KAA}", "{FIRST}"]', False),
        (f'["{KAA}", "{FIRST}", "{KAA}"]', False),
    ],
)
def test_repeat_free_lists_never_repeat_a_sentence(grammar_checker, value, accepted):
    grounding = Grounding.of(SAGA, kind="extractive")
    strict = revision_grammar(BOOK, {"attributes": {}}, grounding=grounding, repeats=False)
    grammar = revision_grammar(BOOK, {"attributes": {}}, grounding=grounding)
    line = ADD + _line("Kaa", "add", value)
    assert grammar_checker(strict, line) is accepted, value
    # the grammar decoded under lets the repeat through, to the applier, which refuses it
    assert grammar_checker(grammar, line)
    memory = {"attributes": {}}
    report = apply_all(BOOK, memory, [_revision(line)])
    assert bool(report.applied) is accepted


COLOURS = ["red", "blue", "green", "gold", "grey", "pale"]


@pytest.mark.parametrize("repeats", [True, False])
def test_extractive_lists_of_many_sentences_are_bounded_by_the_item_limit(grammar_checker, repeats):
    # six sentences about Kaa: more than the repeat-free form spells out set by set
    saga = " ".join(f"Kaa saw the {w} rock." for w in COLOURS)
    grammar = revision_grammar(
        BOOK,
        {"attributes": {}},
        grounding=Grounding.of(saga, kind="extractive"),
        limits=GrammarLimits(max_items=4),
        repeats=repeats,
    )
    said = [f'"Kaa saw the {w} rock."' for w in COLOURS[:5]]
    assert grammar_checker(grammar, ADD + _line("Kaa", "add", f"[{', '.join(said[:4])}]"))
    assert not grammar_checker(grammar, ADD + _line("Kaa", "add", f"[{', '.join(said)}]"))


def test_repeat_free_grammar_leaves_out_the_sentences_stored_under_a_key(grammar_checker):
    stored = {"attributes": {"Kaa": [FIRST], "Baloo": ['"Kaa is hungry," said Baloo.']}}
    grounding = Grounding.of(SAGA, kind="extractive")
    strict = revision_grammar(BOOK, stored, grounding=grounding, repeats=False)
    grammar = revision_grammar(BOOK, stored, grounding=grounding)
    assert grammar_checker(strict, ADD + _line("Kaa", "add", f'"{KAA}"'))
    assert not grammar_checker(strict, ADD + _line("Kaa", "add", f'"{FIRST}"'))
    # Baloo's only sentence is stored: no line appends to Baloo at all
    assert not grammar_checker(strict, ADD + _line("Baloo", "add", f'"{KAA}"'))
    for key, sentence in (("Kaa", FIRST), ("Baloo", KAA)):
        line = ADD + _line(key, "add", f'"{sentence}"')
        assert grammar_checker(grammar, line)
        report = apply_all(BOOK, json.loads(json.dumps(stored)), [_revision(line)])
        assert not report.applied and report.rejected[0].kind == "duplicate"


def test_repeat_free_grammar_never_updates_a_string_to_the_sentence_it_holds(grammar_checker):
    stored = {"attributes": {"Kaa": [FIRST]}}
    grounding = Grounding.of(SAGA, kind="extractive")
    strict = revision_grammar(BOOK, stored, grounding=grounding, repeats=False)
    grammar = revision_grammar(BOOK, stored, grounding=grounding)
    path = "$.'attributes'.'Kaa'[0]"

    def update(sentence: str) -> str:
        line = json.dumps({path: {"update": sentence}}, ensure_ascii=False)
        return UPDATE_ONLY + line + "\n" + ADD.split("\n", 1)[1]

    same, other = update(FIRST), update('"Kaa is hungry," said Baloo.')
    assert grammar_checker(strict, other) and grammar_checker(grammar, other)
    assert not grammar_checker(strict, same)
    # the grammar decoded under lets it through, to the applier, which refuses it
    assert grammar_checker(grammar, same)
    line = same.split("\n")[1]
    report = apply_all(BOOK, json.loads(json.dumps(stored)), [_revision(line)])
    assert not report.applied and report.rejected[0].kind == "duplicate"


def test_a_steps_repeat_free_grammar_leaves_out_what_its_own_lines_stored(grammar_checker):
    from prism_edge.grammar.step import StepGrammar

    step = StepGrammar(BOOK, {"attributes": {}}, grounding=Grounding.of(SAGA, kind="extractive"))
    step.after_line("[OBJECTS FOR UPDATE]", 4, 500)
    step.after_line("[OBJECTS FOR ADD]", 4, 500)
    assert step.after_line(_line("Kaa", "add", f'["{FIRST}"]'), 30, 500) is not None
    strict = step.repeat_free()
    assert strict is not None
    assert grammar_checker(strict, _line("Kaa", "add", f'"{KAA}"'))
    assert not grammar_checker(strict, _line("Kaa", "add", f'"{FIRST}"'))
    assert StepGrammar(BOOK, {"attributes": {}}).repeat_free() is None  # free text: no form


def _revision(text: str) -> Revision:
    """The one revision line of an output."""
    from prism_edge.core.revisions import parse_output

    (revision,) = parse_output(text).revisions
    return revision


def test_outline_grammar_gives_every_key_its_paragraph_in_order(grammar_checker):
    words = {"met", "the", "python", "slept", "Kaa", "Mowgli"}
    grammar = outline_grammar(["Mowgli", "Kaa", "Baloo"], words, 200)
    assert grammar is not None
    assert grammar_checker(grammar, "Mowgli met the python.\n\nKaa slept.\n\nBaloo slept.")
    assert not grammar_checker(grammar, "Baloo slept.")  # no key is skipped
    assert not grammar_checker(grammar, "Mowgli met Kaa.\n\nBaloo slept.")
    assert not grammar_checker(grammar, "Kaa slept.\n\nMowgli met Kaa.\n\nBaloo met Kaa.")
    assert not grammar_checker(grammar, "The python slept.")  # a paragraph opens with a key
    assert not grammar_checker(grammar, "Mowgli met.\n\nKaa met.\n\nBaloo met Bagheera.")
    # 200 tokens hold 70 words: 23 a paragraph, less the key and one for its end
    full = "Mowgli" + " met" * 21 + ".\n\nKaa slept.\n\nBaloo slept."
    assert grammar_checker(grammar, full)
    assert not grammar_checker(grammar, full.replace(" met" * 21, " met" * 22))


def test_a_small_answer_budget_keeps_the_first_keys_it_can(grammar_checker):
    words = {"slept"}
    grammar = outline_grammar([f"K{i}" for i in range(20)], words, 24)  # 8 words: 2 keys
    assert grammar is not None
    assert grammar_checker(grammar, "K0 slept.\n\nK1 slept.")
    assert not grammar_checker(grammar, "K0 slept.\n\nK1 slept.\n\nK2 slept.")


def test_outline_grammar_without_keys_or_words_is_none():
    words = {"met"}
    assert outline_grammar([], words, 10) is None and outline_grammar(["Kaa"], [], 10) is None
