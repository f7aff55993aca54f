"""sumy's LexRank at a word count, for side-by-side comparisons with the default summary.

sumy's own tokenizer needs NLTK's downloaded Punkt data, which is not here: the document is
cut into sentences by the same rule the summarizer reads with
(:func:`prism_edge.text.passages.split`, paragraph by paragraph) and into words by a regular
expression; sumy's English stop words and its null stemmer are used. LexRank ranks every
sentence; the best are kept, in the text's order, until the next would pass the word count.
"""

from __future__ import annotations

import re

from sumy.models.dom import ObjectDocumentModel, Paragraph, Sentence
from sumy.nlp.stemmers import null_stemmer
from sumy.summarizers.lex_rank import LexRankSummarizer
from sumy.utils import get_stop_words

from prism_edge.text.passages import split

MAX_SENTENCES = 3000
"""Sentences LexRank reads at most (its similarity matrix is quadratic): the first ones."""


class _Words:
    """What sumy asks of a tokenizer."""

    language = "english"

    def to_sentences(self, paragraph: str) -> list[str]:
        return split(" ".join(paragraph.split()))

    def to_words(self, sentence: str) -> list[str]:
        return re.findall(r"\w+(?:['’]\w+)*", sentence)


def lexrank_summary(text: str, words: int) -> str:
    tokenizer = _Words()
    paragraphs = []
    count = 0
    for block in re.split(r"\n\s*\n", text):
        sentences = [
            Sentence(s, tokenizer) for s in tokenizer.to_sentences(block) if len(s.split()) >= 4
        ]
        if sentences and count < MAX_SENTENCES:
            paragraphs.append(Paragraph(sentences))
            count += len(sentences)
    document = ObjectDocumentModel(paragraphs)
    summarizer = LexRankSummarizer(null_stemmer)
    summarizer.stop_words = get_stop_words("english")
    order = list(document.sentences)
    # LexRank's own ratings (what its __call__ ranks by), then the best within the words
    words_of = [summarizer._to_words_set(s) for s in order]
    tf = summarizer._compute_tf(words_of)
    idf = summarizer._compute_idf(words_of)
    matrix = summarizer._create_matrix(words_of, summarizer.threshold, tf, idf)
    scores = summarizer.power_method(matrix, summarizer.epsilon)
    best = sorted(range(len(order)), key=lambda i: -scores[i])
    chosen: set[int] = set()
    used = 0
    for i in best:
        n = len(str(order[i]).split())
        if used + n > words:
            continue
        chosen.add(i)
        used += n
    return " ".join(str(order[i]) for i in sorted(chosen))
