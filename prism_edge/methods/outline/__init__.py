"""The summary of a long text by its outline: what it is, who or what it is about, its parts
in order (:mod:`.compose`), within a length as people ask for it (:mod:`.length`)."""

from prism_edge.methods.outline.compose import Outline, outline, read
from prism_edge.methods.outline.length import DEFAULT_WORDS, Length, LengthError, parse_length

__all__ = ["DEFAULT_WORDS", "Length", "LengthError", "Outline", "outline", "parse_length", "read"]
