"""``prism-edge runs``: the run states saved in the user's state folder, with their size and
age, and their removal.

A run saves its state (the memory, its place in the input, the method's own state) after every
step, so ``--resume`` can continue it. By default those files live in the user's state folder
(``~/.local/state/prism-edge/runs`` on Linux, ``~/Library/Application Support/prism-edge`` on
macOS, ``%LOCALAPPDATA%\\prism-edge`` on Windows; ``PRISM_EDGE_STATE`` moves it), never in the
folder a command is run from: a code search inside a repository leaves no excerpt of it there.

Only what the program wrote is listed and removed: a state whose name's key is the digest of
the hashes it holds, an index whose header names inputs of its key (issue 54), so a state or
cache folder moved onto a folder the user shares keeps every file of theirs, whatever its name.
Each is labelled by what it is of: its task and inputs.
"""

from __future__ import annotations

import contextlib
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from prism_edge.app.common import echo, err_console, reporting_errors
from prism_edge.core.paths import user_path
from prism_edge.engine.checkpoint import own_state, state_files
from prism_edge.engine.index import cache_folder, own_index
from prism_edge.text.inputs import shown

STATE_ENV = "PRISM_EDGE_STATE"

runs_app = typer.Typer(
    help="Saved run states (what --resume continues) and code-search indexes: list and remove."
)


def state_folder() -> Path:
    """Where runs keep their states by default: ``PRISM_EDGE_STATE``, else the user's state
    folder's ``runs``."""
    return user_path(STATE_ENV, "state", "runs")


@dataclass(frozen=True)
class Saved:
    """A run state or an index the program wrote: its key, the files that make it (what
    ``runs rm`` removes, a journal before its base), their bytes and last write, what it is
    and what it is of."""

    folder: Path
    key: str
    files: tuple[Path, ...]
    size: int
    when: float
    what: str
    label: str


def _saved(folder: Path) -> list[Saved]:
    """Each run state in ``folder`` that the program wrote (:func:`own_state`), with its
    journal and lock; anything else there (a user's file, a folder, a link) is not looked at
    further."""
    out = []
    for path in sorted(_listed(folder, "state-*.json")):
        raw = own_state(path)
        if raw is None:
            continue
        key = path.name.removeprefix("state-").removesuffix(".json")
        files = tuple(state_files(path)) if "-" not in key else (path,)
        steps = raw.get("counts", {}).get("steps") if isinstance(raw.get("counts"), dict) else None
        what = "finished" if raw.get("finished") else f"after step {steps}"
        if "-" in key:
            what = f"set aside, {what}"  # by an earlier version
        label = raw.get("label") if isinstance(raw.get("label"), str) else ""
        out.append(Saved(folder, key, files, *_sized(files), what, str(label)))
    return out


def _indexes(folder: Path) -> list[Saved]:
    """Each code-search index in the cache folder that the program wrote (:func:`own_index`),
    labelled by its inputs."""
    out = []
    for path in sorted(_listed(folder, "index-*.jsonl")):
        inputs = own_index(path)
        if inputs is None:
            continue
        try:
            with path.open("rb") as lines:
                count = sum(1 for _ in lines) - (1 if inputs else 0)  # less the header
        except OSError:
            continue
        key = path.name.removeprefix("index-").removesuffix(".jsonl")
        files = (path, path.with_suffix(".lock"))
        more = f" +{len(inputs) - 2}" if len(inputs) > 2 else ""
        label = f"code-search: {', '.join(shown(i) for i in inputs[:2])}{more}" if inputs else ""
        out.append(Saved(folder, key, files, *_sized(files), f"index ({count} lines)", label))
    return out


def _listed(folder: Path, pattern: str) -> list[Path]:
    """The entries of ``folder`` named by ``pattern`` (none when it is no readable folder)."""
    try:
        return list(folder.glob(pattern)) if folder.is_dir() else []
    except OSError:
        return []


def _sized(files: tuple[Path, ...]) -> tuple[int, float]:
    """The bytes of those of ``files`` that are regular files, and their last write."""
    size, when = 0, 0.0
    for path in files:
        try:
            info = path.lstat()
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):
            size += info.st_size
            when = max(when, info.st_mtime)
    return size, when


def _everything() -> list[Saved]:
    """Run states and indexes."""
    return _saved(state_folder()) + _indexes(cache_folder())


@runs_app.callback(invoke_without_command=True)
def runs_list(ctx: typer.Context) -> None:
    """The saved run states, newest first, with their size and age."""
    if ctx.invoked_subcommand is not None:
        return
    with reporting_errors(False):
        saved = sorted(_everything(), key=lambda r: -r.when)
        where = f"{state_folder()} and {cache_folder()}"
        if not saved:
            err_console().print(f"no run states or indexes saved in {where}", markup=False)
            return
        now = time.time()
        for one in saved:
            hours = (now - one.when) / 3600
            age = f"{hours:.1f} h" if hours < 48 else f"{hours / 24:.0f} d"
            echo(
                f"{one.key:<34} {one.size / 1024:>9.1f} KB  {age:>7} ago  {one.what:<16}  "
                f"{one.label}".rstrip()
            )
        err_console().print(f"in {where}", markup=False)


@runs_app.command("rm")
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
        for one in _everything():
            chosen = (
                all_
                or (keys and one.key in keys)
                or (older is not None and now - one.when > older * 86400)
            )
            if not chosen:
                continue
            for path in one.files:  # the program's own files only, a journal before its base
                with contextlib.suppress(FileNotFoundError, IsADirectoryError):
                    if not path.is_symlink() and not path.is_dir():
                        path.unlink()
            removed += 1
        err_console().print(
            f"removed {removed} saved run states and indexes from {state_folder()} and "
            f"{cache_folder()}",
            markup=False,
        )
