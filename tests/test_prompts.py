from __future__ import annotations

import pytest

from prism_edge.core.errors import TemplateError
from prism_edge.prompts import PromptBuilder, render


@pytest.mark.parametrize("style", ["compact", "paper"])
def test_revise_prompt_layout(style):
    builder = PromptBuilder("Who is Mowgli?", "class S:\n  x: str", style)  # type: ignore[arg-type]
    prompt = builder.revise(["{}", "\n{rec}"], "CHUNK TEXT")
    text = prompt.text
    # (T, q, S, m, d): static first, memory before the chunk
    assert (
        text.index("Who is Mowgli?")
        < text.index("class S:")
        < text.index("{rec}")
        < text.index("CHUNK TEXT")
    )
    assert [p.kind for p in prompt.parts][:3] == ["static", "memory", "memory"]
    assert prompt.of_kind("document") == "CHUNK TEXT"
    assert text.startswith(builder.static_prefix)
    # the static prefix does not depend on memory or chunk
    other = builder.revise(["{...}"], "other")
    assert other.parts[0] == prompt.parts[0]


def test_paper_prompt_is_appendix_e():
    text = PromptBuilder("q", "S", "paper").revise(["{}"], "d").text
    assert text.startswith("I will provide a class definition [CLASS]")
    assert "Here is an example of code retrieval:" in text
    assert "make_simple_prefix" in text
    assert "{% raw %}" not in text and "{{" not in text


def test_final_prompt_shares_the_prefix_and_memory():
    builder = PromptBuilder("q?", "S", "compact", "Answer briefly.")
    revise = builder.revise(["{m}"], "chunk").text
    final = builder.final(["{m}"]).text
    shared = revise[: revise.index("{m}") + 3]
    assert final.startswith(shared)
    assert final.rstrip().endswith("[ANSWER]")
    assert "Answer briefly." in final
    assert "[MEMORY]" in final


def test_rendering_is_strict():
    with pytest.raises(TemplateError, match="question"):
        render("final.j2", memory_label="x", answer_instruction="")
    with pytest.raises(TemplateError, match="no prompt template"):
        render("nope.j2")
    with pytest.raises(TemplateError, match="unknown prompt style"):
        PromptBuilder("q", "S", "chatty").revise([], "x")  # type: ignore[arg-type]
