"""``prism-edge runs``: the run states saved in the user's state folder, with their size and
age, and their removal.

A run saves its state (the memory, its place in the input, the method's own state) after every
step, so ``--resume`` can continue it. By default those files live in the user's state folder
(``~/.local/state/prism-edge/runs`` on Linux, ``~/Library/Application Support/prism-edge`` on
macOS, ``%LOCALAPPDATA%\\prism-edge`` on Windows; ``PRISM_EDGE_STATE`` moves it), never in the
folder a command is run from: a code search inside a repository leaves no excerpt of it there.
"""

from __future__ import annotations

import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Annotated

import typer

from prism_edge.app.common import command_app, err_console, reporting_errors
from prism_edge.app.output import JsonlOption, JsonOption, Output
from prism_edge.core.paths import user_path
from prism_edge.engine.checkpoint import read_state
from prism_edge.engine.index import cache_folder

STATE_ENV = "PRISM_EDGE_STATE"

runs_app = command_app(
    help="Saved run states (what --resume continues) and code-search indexes: list and remove."
)


def state_folder() -> Path:
    """Where runs keep their states by default: ``PRISM_EDGE_STATE``, else the user's state
    folder's ``runs``."""
    return user_path(STATE_ENV, "state", "runs")


def _saved(folder: Path) -> list[tuple[str, int, float, str]]:
    """Each saved run: its key, its files' bytes, the time of its last write, and a word of
    what it is (finished, or how far it got)."""
    runs: dict[str, list[Path]] = {}
    for path in sorted(folder.glob("state-*")):
        key = path.name.removeprefix("state-").split(".", 1)[0]
        runs.setdefault(key, []).append(path)
    out = []
    for key, files in runs.items():
        size = sum(f.stat().st_size for f in files if f.is_file())
        when = max(f.stat().st_mtime for f in files if f.is_file())
        what = "set aside" if "-" in key else "?"
        base = folder / f"state-{key}.json"
        try:
            raw = read_state(base)  # its base with its journal applied
            steps = raw.get("counts", {}).get("steps")
            what = "finished" if raw.get("finished") else f"after step {steps}"
        except (OSError, ValueError, AttributeError, RecursionError):
            pass
        out.append((key, size, when, what))
    return out


def _indexes(folder: Path) -> list[tuple[str, int, float, str]]:
    """Each code-search index in the cache folder: its key, bytes, last write and files."""
    out = []
    for path in sorted(folder.glob("index-*.jsonl")):
        key = path.name.removeprefix("index-").removesuffix(".jsonl")
        try:
            with path.open("rb") as lines:
                files = sum(1 for _ in lines)
            out.append((key, path.stat().st_size, path.stat().st_mtime, f"index ({files} lines)"))
        except OSError:
            continue
    return out


def _everything() -> list[tuple[Path, str, int, float, str]]:
    """Run states and indexes: (folder, key, bytes, last write, what)."""
    states = [(state_folder(), *row) for row in _saved(state_folder())]
    return states + [(cache_folder(), *row) for row in _indexes(cache_folder())]


@runs_app.callback(invoke_without_command=True)
def runs_list(
    ctx: typer.Context,
    as_json: JsonOption = False,
    as_jsonl: JsonlOption = False,
) -> None:
    """The saved run states, newest first, with their size and age."""
    if ctx.invoked_subcommand is not None:
        return
    with reporting_errors(False):
        output = Output(as_json, as_jsonl)
        output.several()
        saved = sorted(_everything(), key=lambda r: -r[3])
        where = f"{state_folder()} and {cache_folder()}"
        now = time.time()
        for folder, key, size, when, what in saved:
            hours = (now - when) / 3600
            age = f"{hours:.1f} h" if hours < 48 else f"{hours / 24:.0f} d"
            payload = {
                "key": key,
                "kind": "index" if what.startswith("index") else "state",
                "folder": str(folder),
                "bytes": size,
                "modified": datetime.fromtimestamp(when, timezone.utc).isoformat(
                    timespec="seconds"
                ),
                "what": what,
            }
            output.add(payload, f"{key:<34} {size / 1024:>9.1f} KB  {age:>7} ago  {what}")
        output.close()
        if output.text:
            said = f"in {where}" if saved else f"no run states or indexes saved in {where}"
            err_console().print(said, markup=False)


@runs_app.command("rm", short_help="Remove saved run states and indexes.")
def runs_rm(
    keys: Annotated[list[str] | None, typer.Argument(help="Keys as `runs` lists them.")] = None,
    all_: Annotated[bool, typer.Option("--all", help="Every saved state.")] = False,
    older: Annotated[
        float | None, typer.Option("--older-than", min=0, help="Those older than N days.")
    ] = None,
) -> None:
    """Remove saved run states (a run removed cannot be resumed) and indexes (the next code
    search over those files parses them again)."""
    with reporting_errors(False):
        if not keys and not all_ and older is None:
            raise ValueError("say which: KEY..., --all or --older-than DAYS")
        now = time.time()
        removed = 0
        for folder, key, _, when, what in _everything():
            chosen = (
                all_ or (keys and key in keys) or (older is not None and now - when > older * 86400)
            )
            if not chosen:
                continue
            prefix = "index" if what.startswith("index") else "state"
            for path in folder.glob(f"{prefix}-{key}.*"):
                path.unlink(missing_ok=True)
            removed += 1
        err_console().print(
            f"removed {removed} saved run states and indexes from {state_folder()} and "
            f"{cache_folder()}",
            markup=False,
        )
