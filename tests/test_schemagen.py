from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from prism_edge.app import cli
from prism_edge.backends import factory
from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.core.schema import from_source
from prism_edge.grammar.revision import revision_grammar
from prism_edge.methods.schemagen import (
    SCHEMA_GRAMMAR,
    SchemaGenerationError,
    SchemaLineGrammar,
    generate_schema,
    generation_prompt,
    strip_fences,
)
from prism_edge.prompts import Prompt

GOOD = '''```python
class CharacterMap:
  """characters is keyed by name."""
  class Character:
    """Who they are and what they do."""
    description: str
    deeds: list[str]  # in story order

  characters: dict[str, Character]
  places: list[str]
```'''


def test_prompt_is_the_papers_few_shot_prompt():
    text = generation_prompt("Books about animals.", "Who are Mowgli's friends?").text
    assert text.startswith("I have a system in which a user enters a query")
    for example in ("class Comparison:", "class Summary(TypedDict):", "class TopKList:"):
        assert example in text
    assert "RepoQA" not in text  # the paper's sample generations are not part of the prompt
    assert text.endswith(
        "[Query domain]\nBooks about animals.\n\n[Example query]\n"
        "Who are Mowgli's friends?\n\n[Schema]\n"
    )
    with pytest.raises(ValueError):
        generation_prompt(" ", "q")


@pytest.mark.parametrize(
    ("text", "accepted"),
    [
        (GOOD, True),
        ("```python\nclass A:\n  items: list[dict[str, Optional[int]]]\n```", True),
        ("```python\nclass A:\n  items: set[str]\n```", False),
        ("```python\nclass A:\n  def f(self):\n    pass\n```", False),
        ('```python\nclass A:\n  x: str = "none"\n```', False),
        ("Here is a schema:\nclass A:\n  x: str\n", False),
    ],
)
def test_schema_grammar(grammar_checker, text, accepted):
    assert grammar_checker(SCHEMA_GRAMMAR, text) is accepted


def test_generated_schema_parses_and_gives_a_revision_grammar():
    backend = ScriptedBackend([GOOD])
    generated = generate_schema(backend, "Books.", "Who?")
    assert generated.attempts == 1 and generated.source == strip_fences(GOOD)
    assert generated.schema.root.name == "CharacterMap"
    grammar = revision_grammar(generated.schema, generated.schema.empty_memory())
    assert "$.'characters'.'" in grammar
    assert backend.calls[0].max_tokens == 600


def test_unparsable_generation_retries_then_fails_clearly():
    bad = "```python\nclass A:\n  hero: Hero\n```"  # Hero was never declared
    backend = ScriptedBackend([bad, GOOD])
    assert generate_schema(backend, "d", "q").attempts == 2
    backend = ScriptedBackend([bad, bad])
    with pytest.raises(SchemaGenerationError, match="unknown or unsupported type 'Hero'") as info:
        generate_schema(backend, "d", "q")
    assert info.value.text == bad


def auto_responder(prompt: Prompt) -> str:
    if prompt.text.startswith("I have a system"):
        return GOOD
    if "[ANSWER]" in prompt.text:
        return "Baloo and Bagheera."
    return json.dumps(
        {"$.'characters'.'Baloo'": {"add": {"description": "a bear", "deeds": ["teaches the Law"]}}}
    )


def test_task_auto_generates_shows_saves_and_runs(monkeypatch, tmp_path):
    backend = ScriptedBackend(responder=auto_responder)
    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: backend)
    story = tmp_path / "story.txt"
    story.write_text("Baloo the bear taught Mowgli the Law of the Jungle. " * 20)
    run_dir = tmp_path / "run"
    result = CliRunner().invoke(
        cli.app,
        [
            "run",
            str(story),
            "--task",
            "auto",
            "--query",
            "Who are Mowgli's friends?",
            "--domain",
            "Stories about animals.",
            "--json",
            "--run-dir",
            str(run_dir),
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    assert "generated schema" in result.stderr and "class CharacterMap:" in result.stderr
    (saved,) = run_dir.glob("schema-*.py")
    assert saved.read_text() == strip_fences(GOOD) and str(saved) in result.stderr
    again = ["run", str(story), "--task", "auto", "--query", "Who is Baloo?"]
    other = CliRunner().invoke(cli.app, [*again, "--run-dir", str(run_dir)])
    assert other.exit_code == 0, other.output
    assert len(list(run_dir.glob("schema-*.py"))) == 2  # each query's run keeps its own
    payload = json.loads(result.stdout)
    assert payload["memory"]["characters"]["Baloo"]["description"] == "a bear"
    assert "Stories about animals." in backend.calls[0].prompt.text
    missing = CliRunner().invoke(cli.app, ["run", str(story), "--task", "auto"])
    assert missing.exit_code == 2 and "--task auto needs --query" in missing.stderr


def test_schema_generate_command(monkeypatch, tmp_path: Path):
    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: ScriptedBackend([GOOD]))
    out = tmp_path / "s.py"
    result = CliRunner().invoke(
        cli.app,
        ["schema", "generate", "--example-query", "Who?", "-o", str(out)],
        catch_exceptions=False,
    )
    assert result.exit_code == 0 and result.stdout == strip_fences(GOOD)
    assert out.read_text() == strip_fences(GOOD)


def line_by_line(grammar_checker, text: str) -> bool:
    """Whether every line after the opening fence passes the line grammar in force."""
    grammar = SchemaLineGrammar()
    first, *rest = text.splitlines(keepends=True)
    assert first == "```python\n"  # the whole-output grammar's first line
    current = grammar.after_line(first, 4, 500)
    for line in rest:
        if current is None or not grammar_checker(current, line):
            return False
        current = grammar.after_line(line, 8, 500)
    return True


@pytest.mark.parametrize(
    ("text", "accepted"),
    [
        (GOOD, True),
        (GOOD.replace("  places: list[str]\n", "  places: list[Character]\n\n"), False),
        (GOOD.replace("places: list[str]", "places: list[Character]"), True),
        (GOOD.replace("deeds: list[str]", "deeds: list[Character]"), False),  # itself
        (GOOD.replace("places: list[str]", "places: None"), False),
        (GOOD.replace("places: list[str]", "places: PASSWORD"), False),  # never declared
        (GOOD.replace("places: list[str]", "def: list[str]"), False),  # a keyword
        (GOOD.replace("places: list[str]", "characters: list[str]"), False),  # repeated
        (GOOD.replace("class Character:", "class Optional:"), False),
        ("```python\nclass A:\n  class B:\n  x: str\n```", False),  # B has no field
        ("```python\nclass A:\n  class B:\n    y: int\n\n\n  x: B\n```", True),
        ("```python\nclass A:\n```", False),  # no field
        ("```python\nclass A:\n  x: str\n  class B:\n    y: int\n  z: B\n```", False),
    ],
)
def test_schema_line_grammar_admits_only_valid_schemas(grammar_checker, text, accepted):
    assert line_by_line(grammar_checker, text) is accepted
    if accepted:
        from_source(strip_fences(text))  # and what it admits parses


def test_schema_line_grammar_closes_when_tokens_run_low():
    grammar = SchemaLineGrammar()
    for line in ("```python\n", "class A:\n", "  x: str\n"):
        following = grammar.after_line(line, 4, 10)
    assert following is not None and following.startswith('root ::= ( "```" )')
