"""The grammar of one revision step, rebuilt after every line the step writes."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from prism_edge.core.revisions import ADD_HEADER, UPDATE_HEADER, apply_all, parse_output
from prism_edge.core.schema import Schema
from prism_edge.grammar.revision import (
    GrammarLimits,
    Section,
    closing_reserve,
    revision_grammar,
)
from prism_edge.text.grounding import Grounding


@dataclass
class StepGrammar:
    """The grammar of one revision step, rebuilt after every line it lets through.

    A grammar fixed for the whole step cannot see what the step's own earlier lines did: a key
    added on line 1 may not be added again on line 2, and may now be updated. This object keeps
    a scratch copy of the memory, applies each finished line to it, and hands the backend the
    grammar of the rest of the output. It ends the step (returns None) when a line repeats what
    is stored (a model caught in a loop) or when the tokens left could not hold another line.
    """

    schema: Schema
    data: dict[str, Any]
    add_only: bool = False
    limits: GrammarLimits = field(default_factory=GrammarLimits)
    section: Section = "start"
    used: int = 0
    longest_line: int = 0
    stopped: str | None = None
    """Why the step was ended early: ``repeat`` or ``budget`` (None: it was not)."""
    closing_reserve: int = 0
    """Tokens kept to close an open line (0: derived from the schema)."""
    grounding: Grounding | None = None
    """The chunk's words and spans, when what is stored must come from it."""
    cut_repeat: bool = False
    """The backend ended the output inside a line that could only be a repeat (dropped)."""

    def __post_init__(self) -> None:
        self.data = json.loads(json.dumps(self.data))  # a scratch copy
        self.closing_reserve = self.closing_reserve or closing_reserve(self.schema)

    def initial(self) -> str:
        return self._grammar()

    def after_line(self, line: str, line_tokens: int, tokens_left: int) -> str | None:
        text = line.strip()
        if text == UPDATE_HEADER:
            self.section, self.used = "update", 0
        elif text == ADD_HEADER:
            self.section, self.used = "add", 0
        else:
            parsed = parse_output(text)
            report = apply_all(self.schema, self.data, parsed.revisions, add_only=self.add_only)
            if parsed.rejected or report.rejected:
                self.stopped = "repeat"
                return None
            self.used += 1
            self.longest_line = max(self.longest_line, line_tokens)
        header = 16 if self.section == "update" else 0
        if tokens_left < max(self.longest_line, 24, self.closing_reserve) + header:
            self.stopped = "budget"
            return None
        return self._grammar()

    def repeat_free(self) -> str | None:
        """The grammar of the rest without the lines the applier refuses as repeats: with an
        extractive grounding, a sentence a list holds appended again or a sentence twice in
        one list (None: without one, the grammar already leaves repeats out where it can)."""
        if self.grounding is None or not self.grounding.sentences:
            return None
        return self._grammar(repeats=False)

    def repeated(self) -> None:
        self.stopped = "repeat"
        self.cut_repeat = True

    def _grammar(self, *, repeats: bool = True) -> str:
        return revision_grammar(
            self.schema,
            self.data,
            add_only=self.add_only,
            limits=self.limits,
            section=self.section,
            used=self.used,
            grounding=self.grounding,
            repeats=repeats,
        )
