"""Write docs/cli.md: every command's --help, as the command line prints it (run by hand after
changing an option; tests/test_docs.py fails while the page is stale).

    python docs/make_cli_reference.py
"""

from __future__ import annotations

import os
from pathlib import Path

PAGE = Path(__file__).resolve().parent / "cli.md"
COMMANDS = (
    [],
    ["run"],
    ["bench"],
    ["inspect"],
    ["logs"],
    ["logs", "show"],
    ["ask"],
    ["models"],
    ["models", "pull"],
    ["models", "default"],
    ["schema", "generate"],
)


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
    ]
    for command in COMMANDS:
        shown = " ".join(["prism-edge", *command])
        result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "100", "NO_COLOR": "1"})
        text = "\n".join(line.rstrip() for line in result.output.splitlines()).strip()
        parts.append(f"## `{shown}`\n\n```text\n{text}\n```\n")
    return "\n".join(parts)


if __name__ == "__main__":
    PAGE.write_text(reference(), encoding="utf-8")
    print(f"wrote {PAGE}")
