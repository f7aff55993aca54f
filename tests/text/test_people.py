"""Who is who: the words of the text that say who someone is, read the right way round."""

from __future__ import annotations

from prism_edge.methods.outline.compose import DESCRIBED
from prism_edge.text.passages import sentences
from prism_edge.text.people import Named, define, describe, not_a_name, places_apart
from prism_edge.text.people.describe import relation
from prism_edge.text.people.refer import referents
from prism_edge.text.structure import blocks


def test_an_apposition_says_who_the_name_is():
    r = relation(
        "Tell him that Cassio, Lieutenant to the warlike Moor, is come on shore.", "Cassio"
    )
    assert r is not None and r.phrase == "Lieutenant to the warlike Moor"
    r = relation("And here is his daughter, Miranda, who knows nothing of it.", "Miranda")
    assert r is not None and "daughter" in r.phrase
    r = relation("Bagheera the Black Panther came down from the hill.", "Bagheera")
    assert r is not None and r.phrase == "the Black Panther"


def test_a_role_that_belongs_to_someone_else_is_not_the_names():
    assert relation("He is Othello's ancient, and a man of honesty and trust.", "Othello") is None
    # a line that names someone after another's words: not an apposition of the name
    assert (
        relation("I am, in my condition, A prince, Miranda; I do think, a king.", "Miranda") is None
    )


def test_a_state_is_not_who_someone_is():
    assert (
        relation("Elizabeth was far from suspecting that she was herself watched.", "Elizabeth")
        is None
    )
    assert (
        relation("Emma was aware that great must be the difference between them.", "Emma") is None
    )
    r = relation(
        "Mr. Weston was a man of unexceptionable character and easy fortune.", "Mr. Weston"
    )
    assert r is not None and r.phrase.startswith("a man of unexceptionable character")


def test_a_place_is_said_by_what_the_text_calls_it():
    r = relation("They returned to Longbourn, the village where they lived.", "Longbourn")
    assert r is not None and r.phrase == "the village where they lived"
    r = relation("The village of Longbourn was only one mile from the town.", "Longbourn")
    assert r is not None and r.phrase == "the village of Longbourn"


def test_a_plays_line_is_its_speakers_words_about_someone_else():
    text = (
        "KING.\nBut now, my cousin Hamlet, and my son, the day is long and cold.\n\n"
        "HAMLET.\nA little more than kin, and less than kind, my lord and uncle.\n"
    )
    said = sentences(blocks(text))
    d = describe("Hamlet", said, story=False, speaker_of={"KING": "King", "HAMLET": "Hamlet"})
    assert d is not None and d.clause == "my cousin" and d.said_by == "King"


def test_places_are_told_from_people():
    text = "Anna Brook said she would go. " * 4 + "They lived in Highbury. " * 3
    text += "Mrs. Goddard was kind. They stayed at Mrs. Goddard's for tea. " * 3
    named = [Named("Anna Brook", 4), Named("Highbury", 3), Named("Mrs. Goddard", 6)]
    kept = {n.name: n.place for n in places_apart(text, named)}
    assert kept == {"Anna Brook": False, "Highbury": True, "Mrs. Goddard": False}


def test_a_term_is_given_with_the_words_that_define_it():
    said = sentences(blocks("You install the package first. A package is a file that holds a "
                            "program and the data it needs. The package is then run."))  # fmt: skip
    d = define("package", said)
    assert d is not None and d.clause == "a file that holds a program and the data it needs"
    said = sentences(blocks("We fit it by ordinary least squares (OLS) on the whole sample."))
    d = define("OLS", said)
    assert d is not None and d.clause == "ordinary least squares"
    assert define("tool", sentences(blocks("The tool is run every day by the users."))) is None


def test_a_language_is_no_name():
    assert not_a_name("English") and not_a_name("Latin")


def test_a_role_set_before_a_name_goes_on_with_what_describes_him_not_his_deeds():
    r = relation("On entering, her dear friend Jane received some help from her.", "Jane")
    assert r is not None and r.phrase == "her dear friend Jane"
    r = relation("The report says the merchant Antonio of Venice is ruined.", "Antonio")
    assert r is not None and r.phrase == "the merchant Antonio of Venice"


def test_a_speaker_calling_the_one_addressed_by_their_kinship_says_who_they_are():
    r = relation("Fear it, Ophelia, fear it, my dear sister.", "Ophelia", narration=False)
    assert r is not None and "my dear sister" in r.phrase
    assert relation("Farewell, Horatio, my good lord.", "Horatio", narration=False) is None


def test_an_address_said_to_the_name_is_shown_as_said_with_a_friend_only_as_my_own():
    # what the speaker calls the one addressed, in his words (not the whole line)
    r = relation("Fear it, Ophelia, fear it, my dear sister.", "Ophelia", narration=False)
    assert r is not None and r.phrase == "my dear sister"
    line = "Sir, my good friend; I'll change that name with you: what make you here, Horatio?"
    r = relation(line, "Horatio", narration=False)
    assert r is not None and r.phrase == "my good friend"
    # "good friend" alone, or a friend said to someone else, says nothing of the name
    assert relation("Good friend, go to, Horatio, be gone.", "Horatio", narration=False) is None
    assert relation("Horatio is here, my good friend.", "Horatio", narration=False) is None
    said = sentences(blocks("HAMLET. Sir, my good friend; what make you from Wittenberg, Horatio?"))
    d = describe("Horatio", said, speaker_of={"HAMLET": "Hamlet"})
    assert d is not None and (d.clause, d.said_by) == ("my good friend", "Hamlet")
    # an address is not what a question asks: it is shown (compose's DESCRIBED) all the same
    assert d.score >= DESCRIBED


def test_the_narrator_saying_what_someone_is_outranks_a_name_another_calls_him():
    text = (
        '"Beware, for that is Old Gorran the Grey Shadow," said the miller.\n\n'
        "Old Gorran was the heron who fished below the weir, and the mill folk feared him.\n"
    )
    d = describe("Old Gorran", sentences(blocks(text)))
    assert d is not None and d.clause == "the heron who fished below the weir"


def test_a_place_written_with_its_kind_says_what_it_is():
    r = relation("They drove out to look at Ashcombe Hall before dinner.", "Ashcombe")
    assert r is not None and r.phrase == "Ashcombe Hall before dinner"
    assert relation("They drove out to look at Ashcombe Smith before dinner.", "Ashcombe") is None


def test_a_definition_says_enough_and_defines_the_term_itself():
    # "means to" is the noun "means", not "best" being defined
    said = sentences(blocks("The best means to learn the tool is to practise with it daily."))
    assert define("best", said) is None
    # two words of apposition say too little; an abbreviation's long form of two is enough
    said = sentences(
        blocks(
            "In a filing with the Trade Commission, the group, led by the Ames fund, said it sold."
        )
    )
    assert define("Commission", said) is None
    said = sentences(blocks("Such uploads are called Non-Maintainer Uploads (NMU) by the team."))
    d = define("NMU", said)
    assert d is not None and d.clause == "Non-Maintainer Uploads"


def test_the_latter_is_no_apposition_of_a_name():
    assert relation("If set to TRUE, the latter leads essentially to an update.", "TRUE") is None


def test_what_someone_is_not_says_less_than_what_another_calls_him():
    text = (
        '"Beware, for that is Old Gorran the Grey Shadow," said the miller.\n\n'
        "Old Gorran was not a bird that hunted by day, whatever the mill folk said.\n"
    )
    d = describe("Old Gorran", sentences(blocks(text)))
    assert d is not None and d.clause == "the Grey Shadow"
    r = relation("He spoke of Anne and James, the former of whom had gone.", "James")
    assert r is None


def test_a_state_word_is_read_as_a_whole_word():
    # "for", "no" at the head of a state: not the start of "formerly" or "noble"
    r = relation("Sir Robert had been formerly a trader in the town, and grew rich.", "Sir Robert")
    assert r is not None and r.phrase.startswith("formerly a trader")
    r = relation("Mr. Grey was noble and generous to all his tenants.", "Mr. Grey")
    assert r is not None and r.phrase.startswith("noble and generous")
    assert relation("Mr. Grey was for a moment silent.", "Mr. Grey") is None


def test_a_clause_cut_at_a_comma_keeps_the_noun_its_adjectives_go_with():
    r = relation("Lydia was a stout, well-grown girl of fifteen, with a fine complexion.", "Lydia")
    assert r is not None and r.phrase == "a stout, well-grown girl of fifteen"


def test_a_role_compared_with_is_not_the_names():
    # "like her brother": Miss Morland is compared with him, she is not him
    said = sentences(blocks('"How excessively like her brother Miss Morland is!" said one.'))
    d = describe("Miss Morland", said)
    assert d is None or d.clause != "her brother Miss Morland"
    assert relation("How like her brother Miss Morland is!", "Miss Morland") is None


def test_an_apposition_after_two_names_is_not_one_of_theirs():
    text = "The village received a Mr. and Miss Crawford, the children of her mother."
    assert relation(text, "Miss Crawford") is None
    # an apposition that is itself names: no description
    assert relation(text.replace("a Mr.", "Mrs. Grant, a Mr."), "Mrs. Grant") is None


def test_a_who_is_who_clause_says_something_besides_the_name():
    said = sentences(blocks("If my lady have not called up her steward Malvolio, go now."))
    d = describe("Malvolio", said, story=False)
    assert d is not None and d.clause == "her steward"
    said = sentences(blocks("Miss Bertram was the one, and they all knew it very well."))
    d = describe("Miss Bertram", said)
    assert d is None or d.clause.split()[-1] not in {"one", "the", "a"}


def test_a_name_spoken_to_has_no_apposition_without_a_role_word():
    assert (
        relation("You see, Miss Morland, the injustice of your suspicions.", "Miss Morland") is None
    )
    r = relation("Mr. Elton, a young man living alone, was liked by all.", "Mr. Elton")
    assert r is not None and r.phrase.startswith("a young man")


def test_god_is_no_title_before_a_name():
    assert relation("O God, Bassanio, what a day!", "Bassanio") is None
    assert relation("God Bassanio keep you.", "Bassanio") is None


def test_a_relative_clause_says_what_the_name_is():
    r = relation("They met Sir Harold, who was the brother of the king, at the gate.", "Sir Harold")
    assert r is not None and r.phrase == "the brother of the king"
    assert relation("They met Sir Harold, who was at the gate.", "Sir Harold") is None


NARRATED_POEM = """THE LAY OF ALDRIC

I

From the far hills rode Aldric to the hall,
And Edric, lord of that high place, was glad;
Aldric, a knight of Wessex, bowed to all,
And told the news that every rider had.

II

Then Edric's daughter, Elfrida, came down,
Fair as the morning on the river's face;
And Aldric loved her, though he had no crown,
And Edric swore to keep him from the place.
"""


def test_a_poems_own_verse_is_narration_that_says_who_is_who():
    said = sentences(blocks(NARRATED_POEM))
    found = {n: describe(n, said) for n in ("Aldric", "Edric", "Elfrida")}
    assert {n: d.clause if d else None for n, d in found.items()} == {
        "Aldric": "a knight of Wessex",
        "Edric": "lord of that high place",
        "Elfrida": "Edric's daughter",
    }


def test_a_clause_left_open_says_nothing():
    said = sentences(blocks("Speak of Bianca, A housewife that, by selling her desires, eats."))
    d = describe("Bianca", said)
    assert d is None or not d.clause.endswith("that")


def test_he_or_she_stands_for_the_last_subject_of_that_gender_named_before():
    text = (
        "Mr. Grey came in with Anna Brook, and she sat down. Anna Brook smiled at him; she "
        "was tired, and she said so.\n\n"
        "She was the youngest of the three daughters of the miller.\n\n"
        '"Look at Anna Brook," said Mr. Grey. She was a little surprised that he spoke.\n'
    )
    said = sentences(blocks(text))
    found = referents(said, ["Mr. Grey", "Anna Brook"])
    # the last: after a line naming Anna Brook as an object only, "she" is not certainly hers
    assert [said[i].text[:20] for i in found] == ["She was the youngest"]
    assert set(found.values()) == {"Anna Brook"}
    d = describe("Anna Brook", said, referred=found)
    assert d is not None and d.clause == "the youngest of the three daughters of the miller"
    # "she" after a man's name only: nobody's
    said = sentences(blocks("Mr. Grey came in late. She was the eldest of the sisters."))
    assert referents(said, ["Mr. Grey"]) == {}


WHOSE = """Mr. Alder was tall and easy; he had a pleasant manner, and everyone liked him. His
sisters were fine women. His brother-in-law, Mr. Hurlow, merely looked the gentleman; but his
friend Mr. Dorne soon drew the attention of the room.

Lady Crane said little that evening. But her daughter Kitty laughed at everyone, and her maid
Sally laughed with her; and his son Tom looked on from the door.
"""


def test_his_or_her_in_narration_is_the_paragraphs_subject():
    said = sentences(blocks(WHOSE))
    people = ["Mr. Alder", "Mr. Hurlow", "Mr. Dorne", "Lady Crane", "Kitty", "Sally", "Tom"]
    for name, clause in (("Mr. Dorne", "Mr. Alder’s friend"), ("Kitty", "Lady Crane’s daughter")):
        d = describe(name, said, people=people)
        assert d is not None and d.clause == clause, (name, d)
    # "his" where the paragraph's subject is a woman: nobody the text names; left as written
    d = describe("Tom", said, people=people)
    assert d is None or "’s" not in d.clause


def test_his_or_her_in_speech_is_not_resolved_and_weighs_less():
    text = (
        "ANTON.\nSo please my lord the Duke to quit the fine, and let the gentleman have the "
        "rest, unto his son Lorel and his daughter.\n\nGRAT.\nLorel, a soldier of "
        "the town, is at the door.\n"
    )
    said = sentences(blocks(text))
    d = describe("Lorel", said, story=False, people=["Duke", "Lorel"])
    assert d is not None and d.clause == "a soldier of the town"
