"""What the command line imports before it knows what a run needs (issue 53 point 5: a
table question answered in half a second, imports included): no server client, no progress
bar, no llama.cpp; each is imported where it is used."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from rich.console import Console

from prism_edge.app.render import Still, reading_progress

ROOT = Path(__file__).resolve().parents[1]


def test_the_command_line_imports_no_server_client_progress_bar_or_llama_cpp():
    code = (
        "import sys, prism_edge.app.cli; print(sorted(m for m in sys.modules if m in "
        "('httpx', 'rich.progress', 'llama_cpp', 'prism_edge.backends.server')))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_reading_shows_no_bar_where_none_can_be_drawn(tmp_path):
    with open(tmp_path / "log", "w", encoding="utf-8") as log:
        console = Console(file=log)  # no terminal: plain lines instead
        progress, plain = reading_progress(console, quiet=False)
        assert isinstance(progress, Still) and plain
        progress, plain = reading_progress(console, quiet=True)
        assert isinstance(progress, Still) and not plain
        with progress:
            progress.update(progress.add_task("reading", total=None), description="1 record")
    terminal = Console(force_terminal=True)
    progress, plain = reading_progress(terminal, quiet=False)
    assert not isinstance(progress, Still) and not plain


def test_importing_pauses_the_collector_and_leaves_it_as_it_found_it():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    code = (
        "import gc, sys; was = sys.argv[1] == 'on'; gc.enable() if was else gc.disable(); "
        "import prism_edge.app.cli; print(gc.isenabled() == was)"
    )
    for state in ("on", "off"):
        done = subprocess.run(
            [sys.executable, "-c", code, state], capture_output=True, text=True, env=env
        )
        assert done.stdout.strip() == "True", done.stderr


def test_the_command_leaves_what_its_imports_made_out_of_the_collectors_passes():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    code = (
        "import gc, sys; import prism_edge.app.cli as cli; before = gc.get_freeze_count(); "
        "sys.argv = ['prism-edge', '--help']\n"
        "try:\n    cli.main()\nexcept SystemExit:\n    pass\n"
        "print(before, gc.get_freeze_count() > 10_000, file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.stderr.strip().splitlines()[-1] == "0 True", done.stderr


def test_a_table_question_imports_no_template_engine_and_no_ignore_patterns(tmp_path):
    """A table question renders no prompt template and reads no folder: Jinja2 and pathspec
    are imported where those are needed, not by every command (issue 53 point 5)."""
    table = tmp_path / "t.csv"
    table.write_text("name,score\na,1\nb,2\n", encoding="utf-8")
    code = (
        "import atexit, sys; atexit.register(lambda: print(sorted(m for m in ('jinja2', "
        "'pathspec') if m in sys.modules))); from prism_edge.app.cli import main; main()"
    )
    command = [sys.executable, "-c", code, "run", str(table), "--task", "table-qa", "--query",
               "How many rows are there?", "--no-model", "--no-log", "-q"]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]" and done.stdout.splitlines()[0] == "2"
