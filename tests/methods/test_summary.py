"""The summary a reader keeps, composed from a summary's memory (no model)."""

from __future__ import annotations

from prism_edge.eval.quality import junk_of
from prism_edge.methods.summary import compose, main_names


def words(text: str) -> int:
    return len(text.split())


ENTRIES = {
    "Akela": [
        "At last they all went down the hill, and only Akela was left on the rock.",
        "Akela, the great gray Lone Wolf, led all the Pack by strength and cunning.",
    ],
    "Bagheera": ["Bagheera, the Black Panther, was inky black all over."],
    "Mowgli": ["Mowgli ran to the rock where the wolves were waiting for him."],
    "Wolf": ["Father Wolf listened to the wolves on the hill that night."],
    "I'm": ["I'm tired of all this talk about the cub, said the wolf."],
    "school": ["The school was closed all through the long hot summer."],
}
MENTIONS = {"Akela": 30, "Bagheera": 20, "Mowgli": 50, "Wolf": 9, "Father Wolf": 8,
            "Mother Wolf": 4, "I'm": 40, "school": 12}  # fmt: skip
EVENTS = [
    (
        0,
        "Father Wolf waited till his cubs could run a little, and then took them to the rock.",
        3.0,
    ),
    (0, "The night was warm and the wolves were out.", 1.0),
    (1, "Kaa the python glided out into the center of the terrace.", 2.5),
    (2, "Mowgli struck right and left round the circle with the burning branch.", 2.8),
]


def test_main_names_leave_out_what_is_no_name_and_names_said_inside_longer_ones():
    assert main_names(ENTRIES, MENTIONS) == ["Mowgli", "Akela", "Bagheera"]
    subjects = {"list": ["x"], "tuple": ["y"], "Python": ["z"]}
    counts = {"list": 9, "tuple": 5, "Python": 7}
    assert main_names(subjects, counts) == ["list", "Python", "tuple"]  # a manual's subjects


def test_the_summary_has_the_title_who_is_who_and_what_happens_in_order():
    answer = compose(ENTRIES, MENTIONS, EVENTS, 200, words, title="THE JUNGLE BOOK")
    title, cast, happens = answer.split("\n\n")
    assert title == "THE JUNGLE BOOK"
    assert cast.splitlines()[0] == "Who and what:"
    assert (
        "- Akela: Akela, the great gray Lone Wolf, led all the Pack by strength and cunning."
        in cast
    )
    assert "- Bagheera: Bagheera, the Black Panther, was inky black all over." in cast
    lines = happens.splitlines()
    assert lines[0] == "What happens:"
    assert lines[1].startswith("Father Wolf waited")  # the best of its part, parts in order
    assert lines[-1].startswith("Mowgli struck")
    assert junk_of(answer) == []
    every = " ".join(s for ss in ENTRIES.values() for s in ss) + " ".join(e[1] for e in EVENTS)
    for line in answer.splitlines()[1:]:
        said = line.split(": ", 1)[-1]
        assert (
            said in every
            or said in ("Who and what:", "What happens:")
            or line.startswith(("Also named", "What happens", "Who and what"))
        )


def test_a_small_budget_keeps_fewer_lines_and_never_exceeds_it():
    for budget in (20, 40, 80):
        answer = compose(ENTRIES, MENTIONS, EVENTS, budget, words, title="THE JUNGLE BOOK")
        assert words(answer) <= budget + 4  # the section labels are the program's few words
    assert compose({}, {}, [], 100, words) == ""


def test_junk_in_an_answer_is_found():
    bad = "Main names: school (8), I'm (6), Kiyo (4).\n\n[Footnote 5: Tankei is a place.]"
    found = junk_of(bad)
    assert "name 'school'" in found and 'name "I\'m"' in found
    assert any(f.startswith("footnote") for f in found)
    assert junk_of("Who and what:\n- Akela: Akela led the Pack.\nAlso named: Kaa, Baloo.") == []
    assert junk_of("Also named: Baloo, Thy, July.") == ["name 'Thy'", "name 'July'"]
