"""The documentation stays true: the CLI reference is the commands' own --help, the README
stays short and every page it links to exists."""

from __future__ import annotations

import importlib.util
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_cli_reference_is_the_current_help():
    spec = importlib.util.spec_from_file_location("make", ROOT / "docs" / "make_cli_reference.py")
    assert spec is not None and spec.loader is not None
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    written = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert written == make.reference(), "docs/cli.md is stale: python docs/make_cli_reference.py"


def _every_help(columns: str) -> dict[str, str]:
    from typer.testing import CliRunner

    from prism_edge.app.cli import app

    spec = importlib.util.spec_from_file_location("make", ROOT / "docs" / "make_cli_reference.py")
    assert spec is not None and spec.loader is not None
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    runner = CliRunner()
    return {
        " ".join(command): runner.invoke(
            app, [*command, "--help"], env={"COLUMNS": columns, "NO_COLOR": "1"}
        ).output
        for command in make.commands()
    }


def test_help_says_what_a_user_needs_in_plain_words():
    """Issue 55: no <bool> on every flag, no id ranges up to 9223372036854775807, no path cut
    short at any width, no path of the repository (a pip-installed user has none)."""
    helps = _every_help("60")
    assert len(helps) >= 18 and all(text.startswith("Usage: ") for text in helps.values())
    for command, text in helps.items():
        for wrong in ("<bool>", "9223372036854775807", "…", "benchmarks/", "Traceback"):
            assert wrong not in text, (command, wrong)
    assert "hf:OWNER/REPO/FILE.gguf" in helps["run"].replace("\n", " ")  # whole, wrapped
    for command, text in _every_help("80").items():  # each command's line in its listing
        cut = [line for line in text.splitlines() if line.endswith("...") and "Usage" not in line]
        assert not cut, (command, cut)
    assert "Exit status: 0 an answer, 1 no answer" in " ".join(helps["run"].split())


def test_the_readme_is_short_and_its_links_lead_somewhere():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 150
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme)
    local = [link for link in links if not link.startswith("http")]
    assert local and all((ROOT / link).exists() for link in local), local
    for page in sorted((ROOT / "docs").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for link in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
            if not link.startswith("http"):
                assert (page.parent / link).exists(), f"{page.name}: {link}"


def _commands(text: str) -> list[list[str]]:
    """Every ``prism-edge ...`` command in the page's code (fenced blocks and indented ones;
    continuations joined, a comment and a ``$`` prompt left out, ``&&`` chains split), as its
    arguments."""
    found = []
    fenced = False
    for raw in re.sub(r"\\\n\s*", " ", text).splitlines():
        if raw.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not (fenced or raw.startswith("    ")):
            continue
        line = re.sub(r"\s+#\s.*$", "", raw.strip().removeprefix("$ "))
        for part in line.split("&&"):
            if part.strip().startswith("prism-edge "):
                found.append(shlex.split(part.strip())[1:])
    return found


def _parse(root: Any, args: list[str]) -> None:
    """Parse ``prism-edge ARGS`` as the CLI would, down to its last sub-command (nothing
    runs): a click error when a command, option or value is not one it takes."""
    command = root
    context = command.make_context("prism-edge", list(args), resilient_parsing=False)
    rest = [*context._protected_args, *context.args]
    while hasattr(command, "resolve_command") and rest:  # a group: its sub-command
        name, found, rest = command.resolve_command(context, rest)
        assert found is not None
        command = found
        context = command.make_context(name or "", rest, parent=context)
        rest = [*getattr(context, "_protected_args", []), *context.args]


def test_every_command_in_the_docs_is_one_the_cli_takes():
    """The README's and every docs page's prism-edge commands parse as the CLI parses them:
    each command, sub-command and option exists and each value is of its type."""
    import typer
    from typer.main import get_command

    from prism_edge.app import cli

    root = get_command(cli.app)
    # click's, as typer carries it
    usage_error = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")
    with pytest.raises(usage_error):  # the check can fail
        _parse(root, ["run", "a.txt", "--no-such-option"])
    with pytest.raises(usage_error):
        _parse(root, ["logs", "-n", "many"])
    with pytest.raises(usage_error):
        _parse(root, ["no-such-command"])
    commands = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        if page.name != "cli.md":  # the --help text itself
            commands += [(page.name, args) for args in _commands(page.read_text("utf-8"))]
    for name, args in commands:
        try:
            _parse(root, args)
        except usage_error as exc:
            raise AssertionError(f"{name}: prism-edge {shlex.join(args)}: {exc}") from None
    assert len(commands) >= 10, commands  # the README alone has four


def test_every_command_in_the_docs_runs_as_written_on_a_fresh_clone(tmp_path, monkeypatch):
    """Issue 55: the README's and the docs' prism-edge commands run as written from the
    clone's root, in each page's order (the README's ask 1 asks its run 1), each exiting 0. A
    scripted model of the embedded one's size stands in for the model (and for a server, where
    a command names one): the methods choose as they would; tests/test_readme.py runs the
    README's sessions on the real model. A command that reads data beside the checkout
    (../shared/data: the benchmark texts) runs where that data is."""
    from prism_edge.backends import factory
    from prism_edge.backends.scripted import ScriptedBackend
    from tests.cli_harness import invoke

    def scorer(prompt: Any, text: str) -> float:
        return float(sum(word in prompt.text.lower() for word in text.lower().split()))

    monkeypatch.setattr(
        factory,
        "open_backend",
        lambda model=None, **options: ScriptedBackend(scorer=scorer, parameters=135_000_000),
    )
    monkeypatch.chdir(ROOT)
    before = _untracked()
    ran, beside = 0, []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        if page.name == "cli.md":
            continue
        monkeypatch.setenv("PRISM_EDGE_LOGS", str(tmp_path / f"{page.stem}.db"))
        for args in _commands(page.read_text("utf-8")):
            outside = [a for a in args if a.startswith("../") and not (ROOT / a).exists()]
            if outside:
                beside.append((page.name, args))
                continue
            out = invoke(*args)
            assert out.exit_code == 0, f"{page.name}: prism-edge {shlex.join(args)}\n{out.output}"
            ran += 1
    assert ran >= 15, ran
    assert all("../shared/data/" in " ".join(args) for _, args in beside), beside
    assert _untracked() == before  # nothing written into the clone


def _untracked() -> set[str]:
    import subprocess

    done = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    return set(done.stdout.splitlines())
