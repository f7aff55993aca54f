"""The summary by outline (issue 52): structure, kind, people, parts, length; the CLI's and the
library's --kind and --length. Small texts written here, no model."""

from __future__ import annotations

import re

import pytest

import prism_edge
from prism_edge.backends import factory
from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.methods.outline import Length, LengthError, outline, parse_length, read
from prism_edge.text.kinds import kind_of, signs
from prism_edge.text.passages import mid_thought, quotable, sentences
from prism_edge.text.people import describe, names_ranked, not_a_name
from prism_edge.text.structure import blocks, front_matter, heading_of, parts
from tests.cli_harness import invoke

SPEECHES = [
    ("ORSINO", "The music of the sea comes over the island like a slow and patient tide."),
    ("VIOLA", "My brother Sebastian was lost at sea when the ship broke upon the rocks."),
    ("MALVOLIO", "I am steward to the Countess Olivia, and I keep her house in order."),
    ("OLIVIA", "Malvolio, my steward, will see the stranger at the gate before evening."),
]


def play() -> str:
    acts = []
    for n in range(1, 4):
        scene = [f"ACT {n}.", "", f"SCENE I. Illyria. A garden by the sea number {n}.", ""]
        scene += ["[Enter ORSINO, VIOLA, MALVOLIO, and OLIVIA]", ""]
        for k in range(6):
            who, said = SPEECHES[(n + k) % len(SPEECHES)]
            scene += [f"{who}.", f"{said[:-1]}, and the day goes on {k} times.", ""]
        acts.append("\n".join(scene))
    head = "THE ISLAND OF ILLYRIA\n\nby A. Writer\n\n\nPersons Represented\n\n"
    head += "ORSINO, Duke of Illyria.\nVIOLA, a lady, sister to Sebastian.\n"
    head += "MALVOLIO, steward to Olivia.\nOLIVIA, a rich countess.\n\n\n"
    return head + "\n\n".join(acts)


def story() -> str:
    chapters = []
    for n in range(1, 5):
        paragraph = (
            f"Anna Brook, the miller's daughter, walked to the river in the morning of day {n}. "
            f'"Come here," said Tom Reed to her. "Five geese are in the English meadow." '
            f"Tom Reed was a young fisherman who lived by the mill and sold fish at the market. "
            f"Every morning Tom Reed met Anna Brook at the bridge over the river. "
            f"The mill stood by the river, and the river ran past the old bridge to the sea."
        )
        chapters.append(f"CHAPTER {n}\n\n" + "\n\n".join([paragraph] * 3))
    return "THE MILL ON THE RIVER\n\nby Jane Doe\n\n\n" + "\n\n\n".join(chapters)


def manual() -> str:
    sections = []
    for n, title in enumerate(["Installing the tool", "Using the tool", "Removing it"], 1):
        body = (
            f"A package is a file that holds a program and the data it needs. "
            f"You install the package with the install command shown below in step {n}. "
            f"The tool reads your configuration file and writes the result to your folder."
        )
        code = "    $ sudo tool install --all\n    $ tool run --verbose"
        sections.append(f"{n}. {title}\n\n{body}\n\n{code}\n\n{body}")
    return "The Tool Manual\n\n\n" + "\n\n\n".join(sections)


def test_headings_are_told_from_sentences():
    assert heading_of("ACT II.").family == "act"  # type: ignore[union-attr]
    assert heading_of("CHAPTER 12").family == "chapter"  # type: ignore[union-attr]
    assert heading_of("THE FIRST BOOK").family == "book"  # type: ignore[union-attr]
    numbered = heading_of("2.1. Debian package building workflow")
    assert numbered is not None and numbered.number == "2.1"
    assert heading_of("Act well your part, and there all the honour lies.") is None
    assert heading_of("1. The first thing to do is to read the manual.") is None


def test_a_play_is_read_as_acts_speeches_and_directions():
    text = play()
    found = blocks(text)
    kinds = {b.kind for b in found}
    assert {"heading", "speech", "direction"} <= kinds
    assert {b.speaker for b in found if b.kind == "speech"} == {
        "ORSINO",
        "VIOLA",
        "MALVOLIO",
        "OLIVIA",
    }
    cut = parts(found, len(text))
    assert [p.label for p in cut] == ["Act 1", "Act 2", "Act 3"]
    assert all(p.inner for p in cut)  # each act's scene


def test_indented_prose_is_no_code_and_a_shell_session_is():
    found = blocks("    This is a sentence of a manual, indented.\n    It goes on here.\n\n"
                   "    $ tool run\n    $ tool stop\n")  # fmt: skip
    assert [b.kind for b in found] == ["prose", "code"]


def test_the_title_page_says_the_title_and_the_author():
    found = blocks(story())
    front = front_matter(found)
    assert front.title == "The Mill on the River" and front.author == "Jane Doe"
    rst = blocks("Regular Expression HOWTO\n************************\n\n:Author: A.M. Kuchling\n\n"
                 "Text of the howto goes here.")  # fmt: skip
    assert front_matter(rst).title == "Regular Expression HOWTO"


def test_a_contents_list_names_the_parts_and_is_no_part():
    text = (
        "THE BOOK\n\nContents\n\nThe Wolf\nThe Bear\n\n\nThe Wolf\n\n"
        + "The wolf ran through the dark wood all night long. " * 20
        + "\n\nThe Bear\n\n"
        + "The bear slept in the cave until the spring came. " * 20
    )
    found = blocks(text)
    assert any(b.kind == "contents" for b in found)
    cut = parts(found, len(text))
    assert [p.title for p in cut] == ["The Wolf", "The Bear"]
    assert cut[0].start > text.index("The Bear\n\n\n")  # the list itself is no part


def test_the_kind_is_read_from_the_text():
    for text, kind in ((play(), "play"), (story(), "story"), (manual(), "manual")):
        found = blocks(text)
        assert kind_of(signs(text, found, sentences(found))) == kind


SHORT_STORIES = (
    # dialogue in single quotes, "you" inside it: not a manual
    "\u2018Where are you going?\u2019 asked the miller's daughter.\n\n"
    "\u2018To the city,\u2019 answered Tom, shouldering his pack. \u2018There is work at the "
    "docks.\u2019\n\nThe road ran down through the beech woods to the river. Tom walked all "
    "day, and at dusk he reached the ferry. The ferryman took his last coin and rowed him across "
    "in silence.",
    # told in the present tense
    "The bell rings at noon. Anna runs down the stairs and opens the door. A boy stands on the "
    "step with a parcel. Anna carries it to the kitchen and cuts the string. Inside lies a clock "
    "with a note in her father's hand. She winds the clock. It ticks, then stops.",
    # a named man, few pronouns
    "Old Peter kept the lighthouse on the point for forty years. Every night Peter climbed the "
    "tower and lit the lamp. One stormy night a ship struck the rocks below. Peter rowed out "
    "alone through the waves. Peter brought three sailors ashore one by one. The village gave "
    "Peter a silver watch.",
    # told in the first person
    "I came to the town late in the autumn. The inn was full, so I took a room above the baker's "
    "shop. I walked the cliffs, I watched the boats, I wrote nothing. One day a letter came for "
    "me. I never opened it. When spring came I left the town.",
)


def test_a_short_narrative_is_a_story_not_a_treatise():
    for text in SHORT_STORIES:
        found = blocks(text)
        assert kind_of(signs(text, found, sentences(found))) == "story", text[:40]
    argued = (
        "Liberty of the press is the first of liberties. A law that licenses books before they "
        "are printed presumes every reader a fool and every writer a criminal. Such a law "
        "cannot stand, for it is contrary to reason and to the custom of free nations."
    )
    found = blocks(argued)
    assert kind_of(signs(argued, found, sentences(found))) == "treatise"
    dated = (
        "In 1986 the ministers agreed a quota of 15.8 million barrels. In 1987 Kuwait said it "
        "produced more than its share. Prices fell in 1988, and Saudi Arabia cut its output in "
        "1989 to hold them."
    )
    found = blocks(dated)
    assert kind_of(signs(dated, found, sentences(found))) == "report"


def test_non_names_are_not_names():
    for word in ("Come", "Look", "Five", "Overview", "Sure"):
        assert not_a_name(word)
    text = story()
    ranked = [n.name for n in names_ranked(text, [(0, len(text))])]
    assert "Tom Reed" in ranked and "Anna Brook" in ranked
    assert not {"Come", "Five", "English"} & set(ranked)


def test_a_name_is_described_by_the_clause_that_says_who_it_is():
    said = sentences(blocks(story()))
    tom = describe("Tom Reed", said)
    assert tom is not None and "fisherman" in tom.clause
    anna = describe("Anna Brook", said)
    assert anna is not None and "daughter" in anna.clause


def test_a_sentence_that_starts_mid_thought_is_told():
    assert mid_thought("and then he went home.") and mid_thought("But it rained all day.")
    assert not mid_thought("Anna went home before the rain came down.")


def test_a_reference_list_entry_is_no_sentence_to_quote():
    said = sentences(blocks("Zeileis A (2004). Journal of Statistical Software, 11, 1–17. "
                            "doi:10.18637/jss.v011.i10."))  # fmt: skip
    assert not any(quotable(s) for s in said)


def test_the_outline_of_a_play_says_what_it_is_who_is_who_and_every_act_in_order():
    o = outline(play())
    text = o.render()
    assert text.splitlines()[0].startswith("The Island of Illyria, by A. Writer: a play in 3 acts")
    assert "- Malvolio: MALVOLIO, steward to Olivia." in text  # the play's own cast list
    acts = [line for line in text.splitlines() if line.startswith("Act ")]
    assert [a.split(" (")[0] for a in acts] == ["Act 1", "Act 2", "Act 3"]
    assert "Illyria" in acts[0]  # where the scene is


def test_the_outline_of_a_manual_gives_its_parts_then_its_terms():
    text = outline(manual()).render()
    assert "a manual in 3 sections" in text.splitlines()[0]
    assert text.index("Its parts:") < text.index("Key terms:")
    assert "- package: a file that holds a program and the data it needs" in text


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (None, Length(words=350)),
        ("200w", Length(words=200)),
        ("200 words", Length(words=200)),
        ("12", Length(words=None, sentences=12)),
        ("12s", Length(words=None, sentences=12)),
        (12, Length(words=None, sentences=12)),
        ("5%", Length(words=None, share=0.05)),
        (0.05, Length(words=None, share=0.05)),
    ],
)
def test_length_takes_words_sentences_or_a_share(given, expected):
    assert parse_length(given) == expected


@pytest.mark.parametrize("given", ["", "ten", "0", "-3", "120%", "3.5", True, 0, 1.5])
def test_a_length_that_says_nothing_is_refused(given):
    with pytest.raises(LengthError):
        parse_length(given)


def test_the_length_bounds_the_summary():
    text = story()
    for words in (60, 120, 350):
        assert len(outline(text, Length(words=words)).render().split()) <= words
    short = outline(text, Length(words=None, sentences=3))
    assert sum(len(said) for _, said in short.parts) + len(short.people) <= 3


def test_the_kind_can_be_set():
    r = read(story(), "report")
    assert r.kind == "report" and r.kind_reason == "as asked"
    with pytest.raises(ValueError, match="unknown kind"):
        read(story(), "novel")  # type: ignore[arg-type]


def test_length_and_kind_in_the_cli_and_the_library(monkeypatch, tmp_path):
    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: ScriptedBackend())
    path = tmp_path / "mill.txt"
    path.write_text(story(), encoding="utf-8")
    out = invoke("run", str(path), "--length", "80w", "--kind", "report", "--no-log")
    assert out.exit_code == 0, out.output
    assert "a report (as asked)" in out.stderr and ", 80 words" in out.stderr
    assert len(out.stdout.split()) <= 80 and "a report" in out.stdout
    answer = prism_edge.summarize(path, length="80w", kind="report", run_dir=None)
    assert answer.answer == out.stdout.rstrip("\n")
    text = prism_edge.summarize_text(story(), length=3)
    assert text.method == "outline" and text.answer
    bad = invoke("run", str(path), "--length", "lots", "--no-log")
    assert bad.exit_code == 2 and "--length 'lots'" in bad.stderr
    wrong = invoke("run", str(path), "--kind", "novel", "--no-log")
    assert wrong.exit_code == 2 and "--kind 'novel'" in wrong.stderr


def test_who_is_who_gives_each_the_words_that_say_who_they_are():
    text = outline(story()).render()
    assert "- Anna Brook: the miller's daughter" in text
    assert "- Tom Reed: a young fisherman who lived by the mill" in text


def test_a_text_that_stops_short_says_so():
    head = outline(story() + "\n\n\nCHAPTER 5\n").render().splitlines()[0]
    assert head.endswith("the text given stops where Chapter 5 begins.")
    assert "stops" not in outline(story()).render().splitlines()[0]


def test_a_sentence_said_again_is_told_once_in_a_part():
    for line in outline(story()).render().splitlines():
        if line.startswith("Chapter "):
            told = re.split(r"(?<=\.) ", line.split(": ", 1)[1])
            assert len(told) == len(set(told))


def test_a_stage_direction_that_shows_a_deed_is_an_event():
    text = play().replace(
        "ACT 2.\n", "ACT 2.\n\n[Olivia strikes Malvolio with her fan and weeps.]\n", 1
    )
    acts = [line for line in outline(text).render().splitlines() if line.startswith("Act 2")]
    assert "Olivia strikes Malvolio with her fan and weeps." in acts[0]


def test_who_is_who_reads_an_apposition_in_a_long_line_and_skips_bare_mentions():
    # without the cast list: Malvolio is "my steward", Orsino only speaks of the sea
    text = play().split("Persons Represented")[0] + "\n\n" + play().split("countess.\n\n\n")[1]
    shown = outline(text).render()
    assert "- Malvolio: my steward" in shown
    assert "- Orsino:" not in shown


def test_a_defined_term_is_found_among_many_more_frequent_names():
    # twenty names each said more often than the one term a sentence defines: the term is
    # still read (the terms read go beyond the eighteen names read for a story)
    names = [
        f"{a}{b}" for a in ("Bar", "Cor", "Dun", "Fel", "Gar") for b in ("ton", "wick", "by", "ley")
    ]
    body = " ".join(f"The team met with {n} and the others at noon." for n in names * 8)
    body += " A gasket is a ring of rubber that seals the joint between two pipes."
    body += " Fit the gasket before the pipes are joined. Check the gasket every year."
    text = outline(body, kind="manual").render()
    assert "- gasket: a ring of rubber that seals the joint between two pipes" in text
