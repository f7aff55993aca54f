"""What a text's structure says: its title page's authors, its parts' headings."""

from __future__ import annotations

from prism_edge.text.structure import blocks, front_matter, parts

PAPER = (
    "A Class for Ordered Observations\n\nAnna Berger\nWirtschaftsuniversität Wien\n\n"
    "Tom Reed\nReed Associates\n\n\nAbstract\n\n"
    "A class for ordered observations is described here in some detail for the reader.\n"
)


def test_a_byline_of_several_authors_names_them_all_and_no_affiliation():
    front = front_matter(blocks(PAPER))
    assert front.title == "A Class for Ordered Observations"
    assert front.author == "Anna Berger and Tom Reed"


def test_a_title_in_capitals_keeps_its_apostrophe_lower_case():
    text = "THE MILLER'S TALE\n\nby Jane Doe\n\n\nCHAPTER 1\n\nThe mill stood by the river.\n"
    assert front_matter(blocks(text)).title == "The Miller's Tale"


def test_a_comment_in_indented_code_is_no_heading():
    text = "1. Using it\n\nThe tool is run like this.\n\n"
    text += "    # Create a sample collection\n    x = 1\n"
    assert [b.text for b in blocks(text) if b.kind == "heading"] == ["1. Using it"]


def test_an_act_heading_with_its_first_scene_on_one_line_gives_both():
    speech = "VIOLA.\nThe day is long and the sea is wide and grey beyond the rocks.\n\n"
    text = "ACT I. SCENE I. A garden.\n\n" + speech * 5 + "SCENE II. The shore.\n\n" + speech * 5
    text += "ACT II. SCENE I. A hall.\n\n" + speech * 5
    cut = parts(blocks(text), len(text))
    assert [p.label for p in cut] == ["Act I", "Act II"]
    assert cut[0].inner[0].startswith("SCENE I") and "SCENE II" in cut[0].inner[1]


def test_an_appendix_numbered_by_a_letter_is_a_part_of_its_own():
    body = "The tool builds the package from its source in a clean tree every time.\n\n" * 6
    text = "Chapter 1. Starting\n\n" + body + "Chapter 2. Building\n\n" + body
    text += "Appendix A. Packaging in detail\n\n" + body + "APPENDIX B\n\n" + body
    assert [p.label for p in parts(blocks(text), len(text))][-2:] == [
        "Appendix A. Packaging in detail",
        "Appendix B",
    ]
    # a sentence that opens with the word is no heading
    said = "Appendix A lists every file you will need, and where to find them, and why, at length."
    assert not [b for b in blocks(said + "\n") if b.kind == "heading"]
