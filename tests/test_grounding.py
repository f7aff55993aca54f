from __future__ import annotations

from prism_edge.text.grounding import (
    FUNCTION_WORDS,
    MIN_SENTENCE_WORDS,
    SPAN_WORDS,
    Grounding,
    case_variants,
    names_of,
    sentences_of,
    words_of,
)

TEXT = """Mowgli ran to Father Wolf's cave; Shere Khan, the tiger, followed him.

Baloo taught the Law."""


def test_words_keep_apostrophes_and_get_case_variants():
    assert words_of("Father Wolf's cave, don't") == ["Father", "Wolf's", "cave", "don't"]
    assert case_variants(["tiger", "Law"]) == {"tiger", "Tiger", "Law", "law"}
    g = Grounding.of(TEXT)
    assert {"Mowgli", "mowgli", "tiger", "Tiger", "Wolf's", "Law", "law"} <= g.words
    assert "Bagheera" not in g.words


def test_spans_are_consecutive_words_within_punctuation_and_paragraphs():
    g = Grounding.of(TEXT)
    assert {"Mowgli", "Mowgli ran", "Father Wolf's", "Shere Khan", "Law"} <= g.spans
    assert "Mowgli ran to Father" not in g.spans  # longer than SPAN_WORDS
    # no span starts or ends with a function word
    assert not {"Mowgli ran to", "to Father", "the tiger", "the", "him"} & g.spans
    assert SPAN_WORDS == 3
    assert "cave Shere" not in g.spans  # across a semicolon
    assert "Khan the" not in g.spans  # across a comma
    assert "him Baloo" not in g.spans  # across a paragraph
    assert "Baloo taught" in g.spans and "Baloo taught the" not in g.spans
    assert "mowgli" not in g.spans  # spans as written


def test_extra_words_join_the_strings_vocabulary():
    g = Grounding.of("Kaa", extra_words=FUNCTION_WORDS)
    assert {"Kaa", "the", "and"} <= g.words and g.spans == frozenset({"Kaa"})


STORY = """"Mowgli," said Bagheera, "go to Father Wolf's cave." Then Mowgli ran to
Father Wolf. The Seeonee Hills were dark; Rikki-tikki-tavi saw Nag.

LIMITED WARRANTY. O Chief, hear me!"""


def test_names_are_capitalised_runs_seen_mid_sentence():
    names = names_of(STORY)
    assert names[:3] == ["Mowgli", "Bagheera", "Father Wolf"]  # first seen first
    assert {"Seeonee Hills", "Rikki-tikki-tavi", "Nag"} <= set(names)
    # sentence openers, single letters, shouting, parts of a run and possessives are no names
    assert not {"Then", "The", "O", "LIMITED", "WARRANTY", "Father", "Wolf's", "O Chief"} & set(
        names
    ), names
    assert "Chief" in names  # capitalised after "O ", mid-sentence: a title is a name here
    # a wrapped line goes on: "Father\nWolf" is one name; a paragraph break ends a sentence
    assert names_of("He saw Father\nWolf.") == ["Father Wolf"]
    assert names_of("the end\n\nKaa ate. Kaa slept.") == []  # never seen mid-sentence


def test_long_title_cased_runs_give_their_shorter_runs():
    names = names_of("a Free Plain Vanilla Electronic text")
    assert {"Free Plain Vanilla", "Plain Vanilla Electronic", "Free"} <= set(names)
    assert "Free Plain Vanilla Electronic" not in names


def test_sentences_are_whole_joined_and_cut_at_a_word():
    sentences = sentences_of(STORY, max_chars=400)
    assert sentences[0] == '"Mowgli," said Bagheera, "go to Father Wolf\'s cave."'
    assert "Then Mowgli ran to Father Wolf." in sentences  # the wrapped line joined
    assert "O Chief, hear me!" in sentences
    assert "LIMITED WARRANTY." not in sentences  # fewer than MIN_SENTENCE_WORDS words
    assert MIN_SENTENCE_WORDS == 3
    # a quote opened in another sentence is dropped; a long sentence is cut at a word
    assert sentences_of('"Go. It is the Law."', 400) == ["It is the Law."]
    assert sentences_of("Kaa the rock python slid down.", 14) == ["Kaa the rock"]


def test_an_extractive_grounding_keys_names_and_stores_sentences():
    g = Grounding.of(STORY, kind="extractive")
    assert g.spans == frozenset(names_of(STORY, min_mentions=2))
    assert names_of(STORY, min_mentions=2) and set(names_of(STORY, min_mentions=2)) < set(
        names_of(STORY)
    )
    assert g.sentences == tuple(sentences_of(STORY, 400))
    assert g.about("Father Wolf") == (
        '"Mowgli," said Bagheera, "go to Father Wolf\'s cave."',
        "Then Mowgli ran to Father Wolf.",
    )
    assert g.about("Nag") == ("The Seeonee Hills were dark; Rikki-tikki-tavi saw Nag.",)
    assert g.about("Wolf") != () and g.about("Wol") == ()  # whole words only
    # no names: keys fall back to word spans, strings are still sentences
    plain = Grounding.of("the rain fell on the hills all night.", kind="extractive")
    assert "rain fell" in plain.spans and plain.sentences == (
        "the rain fell on the hills all night.",
    )
    assert Grounding.of(STORY).sentences == ()  # a words grounding has none


def test_names_seen_once_mid_sentence_give_way_to_names_seen_twice():
    text = "Then Mowgli ran, and Oh the night fell. Later Mowgli and Akela sat, and Akela slept."
    assert names_of(text) == ["Mowgli", "Oh", "Akela"]
    assert names_of(text, min_mentions=2) == ["Mowgli", "Akela"]
    assert Grounding.of(text, kind="extractive").spans == frozenset({"Mowgli", "Akela"})
    once = "He saw Father Wolf."
    assert Grounding.of(once, kind="extractive").spans == frozenset({"Father Wolf"})


def test_quoted_speech_starts_a_sentence():
    text = (
        'The wolves gave the call: "Look well, O Wolves!" and Akela cried, "Look--look well!" '
        "Then Mowgli sat by Akela, and Mowgli said to Baloo: “Come here.”"
    )
    assert names_of(text) == ["Wolves", "Akela", "Mowgli", "Baloo"]  # no "Look", no "Come"
    # a name that opens a quotation is still a name where it is written mid-sentence too
    assert names_of('He said, "Akela is old," and Akela slept.') == ["Akela"]


def test_terms_are_the_repeated_content_words_most_written_first():
    from prism_edge.text.grounding import terms_of

    text = (
        "the parser reads the token stream; each token has a kind. the parser builds a tree "
        "of nodes from each token, and nodes hold their children. a tree is walked once."
    )
    assert terms_of(text) == ["token", "parser", "tree", "nodes"]
    assert terms_of(text, min_mentions=3) == ["token"]
    assert terms_of("!?.,;: 42 42 ok ok") == []  # no word of four letters or more


def test_lower_case_text_is_cut_into_its_sentences_where_it_is_long():
    from prism_edge.text.grounding import sentences_of

    text = "the cache keeps every prefix. it grows with each call. old entries are dropped first. "
    assert sentences_of(text * 3, 60) == [
        "the cache keeps every prefix.",
        "it grows with each call.",
        "old entries are dropped first.",
    ]
    # short enough to be one sentence: left whole, as before ("e.g. this" is no end)
    assert sentences_of("use a short key, e.g. the file name and its size.", 200) == [
        "use a short key, e.g. the file name and its size."
    ]


def test_a_title_or_an_initial_ends_no_sentence_and_belongs_to_the_name():
    from prism_edge.text.grounding import names_of, sentences_of

    text = (
        '"My dear Mr. Bennet," said his lady one day. Then Mr. Bennet replied that he had '
        "not. Later Mr. Bennet and Dr. Jones met J. R. Smith, and Mr. Darcy came too."
    )
    assert sentences_of(text, 300) == [
        '"My dear Mr. Bennet," said his lady one day.',
        "Then Mr. Bennet replied that he had not.",
        "Later Mr. Bennet and Dr. Jones met J. R. Smith, and Mr. Darcy came too.",
    ]
    names = names_of(text, min_mentions=2)
    assert "Mr. Bennet" in names and "Mr" not in names and "Mr." not in names
    # a sentence that really ends in a title's letters still ends: "He met the Dr." is rare;
    # a plain word before the full stop always ends one
    assert sentences_of("They sat in the hall. Mowgli ran off.", 300) == [
        "They sat in the hall.",
        "Mowgli ran off.",
    ]
