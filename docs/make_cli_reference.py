"""Write docs/cli.md: every command's --help, as the command line prints it (run by hand after
changing an option; tests/test_docs.py fails while the page is stale).

    python docs/make_cli_reference.py
"""

from __future__ import annotations

import os
from pathlib import Path

PAGE = Path(__file__).resolve().parent / "cli.md"


EXIT_STATUS = """## Exit status

As grep's and ripgrep's, for every command, so a script can branch on it:

- **0**: an answer (a result) was printed.
- **1**: no answer: nothing found (a code search over code that defines nothing), not in the
  table, nothing to summarize, a question the run's memory holds nothing about (`ask`), a
  `logs --search` that matches no run, a `models rm` of a model that was not downloaded.
- **2**: an error: a usage or input error (an option the method would ignore, a path that
  does not exist, a code search over files none of which is code), or a model or server
  that failed.
- **130**: interrupted (Ctrl-C); a run's state is kept for `--resume`.

`--json` prints one JSON document (several answers: one array), `--jsonl` one JSON object a
line, each with its question, as each answer comes; the plan, progress and notes go to stderr.
"""


def commands() -> list[list[str]]:
    """Every command and sub-command, in the order ``--help`` lists them."""
    from typer.main import get_command

    from prism_edge.app.cli import app

    def walk(command: object, path: list[str]) -> list[list[str]]:
        found = [path]
        for name, sub in getattr(command, "commands", {}).items():
            found += walk(sub, [*path, name])
        return found

    return walk(get_command(app), [])


def reference() -> str:
    """The page: each command's help, rendered 100 columns wide without colour."""
    os.environ.update(COLUMNS="100", NO_COLOR="1", TERM="dumb")
    from typer.testing import CliRunner

    from prism_edge.app.cli import app

    runner = CliRunner()
    parts = [
        "# Command-line reference\n",
        "Generated from `--help` by `python docs/make_cli_reference.py`; "
        "`tests/test_docs.py` fails when it is stale.\n",
        EXIT_STATUS,
    ]
    for command in commands():
        shown = " ".join(["prism-edge", *command])
        result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "100", "NO_COLOR": "1"})
        text = "\n".join(line.rstrip() for line in result.output.splitlines()).strip()
        parts.append(f"## `{shown}`\n\n```text\n{text}\n```\n")
    return "\n".join(parts)


if __name__ == "__main__":
    PAGE.write_text(reference(), encoding="utf-8")
    print(f"wrote {PAGE}")
