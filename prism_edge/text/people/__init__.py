"""Who and what a long text is about, and the words of the text that say what each is.

* :func:`speakers_named`: a play's people, from its speakers' names as the text writes them
  ("OTHELLO.", "Ham." for Hamlet), the most speeches first;
* :func:`names_ranked`: a story's or a poem's people and places, from the names it writes
  mid-sentence, without what is no name (an interjection or an imperative at the head of
  speech, a number word, a language, a heading word, a common noun, a word said mostly inside
  a longer name);
* :func:`terms_ranked`: a report's, manual's or paper's subjects: the names and terms its
  sentences define ("X is a ...", "X, a ...", "called X");
* :func:`referents`: whom a sentence opening with "He was" or "She was" speaks of (the last
  person of that gender named before it in its paragraph);
* :func:`describe`: for one of them, the clause of the text that says what it is (an
  apposition, a definition, a role word beside the name, an introduction), not a sentence that
  merely mentions it.
"""

from __future__ import annotations

from prism_edge.text.people.cast import cast_list
from prism_edge.text.people.describe import Described, clause_of, describe
from prism_edge.text.people.names import Index, Named, names_ranked, places_apart, speakers_named
from prism_edge.text.people.refer import referents
from prism_edge.text.people.terms import define, terms_ranked
from prism_edge.text.people.words import ROLE_WORDS, WEAK_ROLES, not_a_name

__all__ = [
    "ROLE_WORDS",
    "WEAK_ROLES",
    "Described",
    "Index",
    "Named",
    "cast_list",
    "clause_of",
    "define",
    "describe",
    "names_ranked",
    "not_a_name",
    "places_apart",
    "referents",
    "speakers_named",
    "terms_ranked",
]
