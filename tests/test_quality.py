from __future__ import annotations

import pytest

from prism_edge.core.errors import PrismError
from prism_edge.core.revisions import Revision
from prism_edge.eval.quality import (
    Entity,
    Faithfulness,
    content_words,
    entity_recall,
    load_entities,
    load_needles,
    names_function,
    repeated_ngrams,
    role_accuracy,
    stored_strings,
    supported,
)

ENTITIES = [Entity("Mowgli"), Entity("Shere Khan", ("Lungri",)), Entity("Nag"), Entity("Kaa")]


def test_entity_recall_counts_whole_words_and_aliases():
    recall = entity_recall("mowgli meets LUNGRI; the Nagas and Kaaba are not entities.", ENTITIES)
    assert recall.found == ("Mowgli", "Shere Khan")
    assert recall.missed == ("Nag", "Kaa")
    assert recall.value == 0.5
    assert entity_recall(None, ENTITIES).value == 0.0
    assert entity_recall("Rikki-tikki", [Entity("Rikki")]).value == 1.0  # hyphen bounds a word


def test_a_longer_entity_s_mention_does_not_count_for_a_shorter_one_inside_it():
    entities = [Entity("Nag"), Entity("Kala Nag"), Entity("Toomai", ("Little Toomai",))]
    assert entity_recall("Kala Nag carried Little Toomai.", entities).found == (
        "Kala Nag",
        "Toomai",
    )
    assert entity_recall("Kala Nag met Nag.", entities).found == ("Nag", "Kala Nag")
    assert entity_recall("kala nag", entities).missed == ("Nag", "Toomai")


def test_entity_file_format(tmp_path):
    path = tmp_path / "e.txt"
    path.write_text("# characters\nMowgli\n\nShere Khan | Lungri  # the tiger\n", encoding="utf-8")
    assert load_entities(path) == [Entity("Mowgli"), Entity("Shere Khan", ("Lungri",))]
    path.write_text("# nothing\n", encoding="utf-8")
    with pytest.raises(PrismError, match="names no entity"):
        load_entities(path)
    with pytest.raises(PrismError, match="cannot read"):
        load_entities(tmp_path / "missing.txt")


def test_needles_file_and_matching(tmp_path):
    path = tmp_path / "n.jsonl"
    path.write_text('{"query": "q1", "expected": "do_round"}\n\n', encoding="utf-8")
    assert [(n.query, n.expected) for n in load_needles(path)] == [("q1", "do_round")]
    path.write_text('{"query": "q1"}\n', encoding="utf-8")
    with pytest.raises(PrismError, match=r"n.jsonl:1: expected"):
        load_needles(path)
    assert names_function("The function is `do_round`.", "do_round")
    assert names_function("filters.do_round", "do_round")
    assert names_function("do_round", "Filters.do_round")
    assert not names_function("do_round_half", "do_round")
    assert not names_function(None, "do_round")


def test_content_words_skip_function_words_and_short_words():
    assert content_words("The wolf and the Man-cub ran to it.") == ["wolf", "man", "cub", "ran"]


def rev(path: tuple[str | int, ...], value: object, op: str = "add") -> Revision:
    return Revision("p", path, op, value)  # type: ignore[arg-type]


def test_stored_strings_take_leaves_and_new_keys_not_placeholders():
    r = rev(("characters", "Mowgli"), {"role": "a boy", "traits": ["brave", "???"], "age": 10})
    assert stored_strings(r) == ["Mowgli", "a boy", "brave"]
    assert stored_strings(rev(("summary",), "Wolves adopt a child", "update")) == [
        "Wolves adopt a child"
    ]


def test_support_needs_most_content_words_in_the_chunk():
    chunk = set(content_words("Father Wolf hunted near the Waingunga river with the cubs."))
    assert supported("wolves hunting by the Waingunga", chunk) is False  # wolves != wolf
    assert supported("Father Wolf sat near the Waingunga", chunk) is True  # 4 of 5 words
    assert supported("Father Wolf sat on a rock", chunk) is False  # 2 of 4
    assert supported("the cubs were hunting", chunk) is True  # hunting ~ hunted (4 letters)
    assert supported("the a of", chunk) is None


def test_faithfulness_share_over_steps():
    f = Faithfulness()
    chunk = "Mowgli lived with the wolves of the Seeonee pack."
    f.add_step(chunk, [rev(("characters", "Mowgli"), "lived with the wolves")])
    f.add_step(chunk, [rev(("places", "Paris"), "capital of France")])
    assert (f.supported, f.total) == (2, 4)
    assert f.value == 0.5
    assert f.unsupported == ["Paris", "capital of France"]
    assert Faithfulness().value is None


def test_repeated_ngrams_catch_loops_within_a_text():
    assert repeated_ngrams(["the cub is the cub is the cub"]) == (3, 6)
    assert repeated_ngrams(["Mowgli met Kaa by the river"]) == (0, 4)
    # across texts nothing counts: two values may share a phrase
    assert repeated_ngrams(["a b c", "a b c"]) == (0, 2)
    assert repeated_ngrams(["too short", ""]) == (0, 0)


def test_a_table_answer_holds_its_value():
    from prism_edge.eval.quality import holds_answer

    assert holds_answer("It was 4,451 megawatt hours.", "4451")
    assert holds_answer("4451.0", "4451") and not holds_answer("44510", "4451")
    assert holds_answer("Mostly fossil fuels.", "Fossil Fuels")
    assert not holds_answer("Fossil", "Fossil Fuels") and not holds_answer(None, "63")
    assert holds_answer("on 1992-05-23", "1992-05-23") and not holds_answer(
        "1992-05-24", "1992-05-23"
    )


def test_a_role_stated_beside_a_name_with_an_abbreviated_title_counts():
    # "Mr." ends no sentence: neither in a labelled line nor inside a sentence
    bennet = [Entity("Mr. Bennet", (), ("sarcastic",)), Entity("Mrs. Bennet", (), ("wife",))]
    answer = (
        "Who is who:\n- Mr. Bennet: so odd a mixture of quick parts, sarcastic humour\n"
        "Chapter 1: Mrs. Bennet was his wife."
    )
    assert role_accuracy(answer, bennet).found == ("Mr. Bennet", "Mrs. Bennet")
    # a real sentence end still parts two sentences
    assert role_accuracy("Mr. Bennet spoke. Humour was sarcastic.", bennet).found == ()


def test_a_labelled_part_line_is_a_sentence_apiece_its_label_going_with_the_first():
    # a part line holds several sentences: a name in one and a role word in another state
    # nothing ("Polonius" in the scene's heading, "my lord" said by someone else)
    polonius = [Entity("Polonius", (), ("lord",))]
    line = (
        "Act II (A room in Polonius's house): Queen: “Thanks, Rosencrantz.” "
        "Pol: “If you call me Jephthah, my lord, I have a daughter.”"
    )
    assert role_accuracy(line, polonius).found == ()
    # the label belongs to its first sentence: a who-is-who line states its role
    assert role_accuracy("- Polonius: the Lord Chamberlain.", polonius).found == ("Polonius",)
    assert role_accuracy("Act I: Polonius is a lord. He speaks.", polonius).found == ("Polonius",)
    # and the sentences after the first stand alone
    sentences = role_accuracy("Act I (Elsinore): He waits. Polonius, a lord, speaks.", polonius)
    assert sentences.found == ("Polonius",)
