"""A user's defaults: a TOML file in the user config folder and ``PRISM_EDGE_*`` variables.

Precedence, highest first: the command-line flag, the environment variable, the config file,
the built-in default. The command line hands the file's values to click as its ``default_map``
(which click ranks below flags and environment variables), so every command that has the
option takes the default, and ``--help`` shows the variables.

The file holds flat keys only::

    model = "gemma3-270m"
    task = "code-search"
    chunk_tokens = 1024
    ctx = 8192
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Any

from prism_edge.core.errors import PrismError
from prism_edge.core.paths import user_path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

CONFIG_ENV = "PRISM_EDGE_CONFIG"
KEYS: dict[str, type] = {"model": str, "task": str, "chunk_tokens": int, "ctx": int}
"""The keys a config file may set, with their types; each has a ``PRISM_EDGE_<KEY>``
variable."""
MINIMUM = {"chunk_tokens": 32, "ctx": 256}
"""The smallest value of a number key (the options' own floor)."""
TASKS = ("summarize", "code-search", "table-qa", "auto")
MAX_BYTES = 65536
"""A config file larger than this is not a config file (``PRISM_EDGE_CONFIG=/dev/zero``)."""
COMMANDS = ("run", "bench", "inspect", "schema")
"""The commands the defaults apply to (``schema``: its ``generate``, the model and context)."""


class ConfigError(PrismError):
    hint = f"fix or remove the file; {CONFIG_ENV} points to another"


def env_name(key: str) -> str:
    return f"PRISM_EDGE_{key.upper()}"


def config_path() -> Path:
    return user_path(CONFIG_ENV, "config", "config.toml")


def load(path: Path | None = None) -> dict[str, Any]:
    """The config file's values ({} when there is none); :class:`ConfigError` names the file
    and what is wrong with it."""
    path = path or config_path()
    try:
        data: dict[str, Any] = tomllib.loads(_read(path))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ConfigError(f"cannot read the config file {path}: {reason}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"the config file {path} is not valid TOML: {exc}") from None
    for key, value in data.items():
        if key not in KEYS:
            known = ", ".join(KEYS)
            raise ConfigError(f"the config file {path} sets unknown key {key!r} (known: {known})")
        kind = KEYS[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise ConfigError(
                f"the config file {path}: {key} must be a {kind.__name__}, not {value!r}"
            )
        if key in MINIMUM and isinstance(value, int) and value < MINIMUM[key]:
            raise ConfigError(
                f"the config file {path}: {key} must be at least {MINIMUM[key]}, not {value}"
            )
        if key == "task" and value not in TASKS:
            raise ConfigError(
                f"the config file {path}: task must be one of {', '.join(TASKS)}, not {value!r}"
            )
    return data


def _read(path: Path) -> str:
    """The file's text: a regular file of at most MAX_BYTES (OSError otherwise)."""
    # opened without waiting: a FIFO in its place would block an ordinary open until a
    # writer came (``inspect --help`` would hang); a regular file reads as usual
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(handle, "rb") as stream:
        if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
            raise OSError(0, "not a regular file")
        data = stream.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise OSError(0, f"larger than {MAX_BYTES} bytes")
    return data.decode("utf-8")


def save(key: str, value: Any, path: Path | None = None) -> tuple[Path, Path | None]:
    """Set one key in the config file (None removes it), keeping the others; returns the file
    and, when the file was broken, where it was set aside (the command that repairs a broken
    file must not be blocked by it). Written to a temporary file and renamed over the old
    one."""
    import tomli_w

    if key not in KEYS:
        raise ConfigError(f"unknown key {key!r}")
    path = path or config_path()
    aside = None
    try:
        data = load(path)
    except ConfigError:
        aside = path.with_name(path.name + ".broken")
        if path.is_file():
            os.replace(path, aside)
        else:
            raise
        data = {}
    if value is None:
        data.pop(key, None)
    else:
        data[key] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(tomli_w.dumps(data), encoding="utf-8")
    os.replace(temporary, path)
    return path, aside


def default_map(values: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """click's ``default_map`` for the commands the keys apply to."""
    if not values:
        return {}
    maps: dict[str, dict[str, Any]] = {c: dict(values) for c in COMMANDS if c != "schema"}
    maps["schema"] = {"generate": dict(values)}  # a group: its sub-command's defaults
    return maps


def help_text() -> str:
    variables = ", ".join(env_name(k) for k in KEYS)
    return (
        f"Defaults: flags, then {variables}, then the config file (config.toml in the user "
        f"config folder, or {CONFIG_ENV}: {', '.join(KEYS)}; `prism-edge models default NAME` "
        "sets the model). Also: "
        f"PRISM_EDGE_LOGS (the run history's file), PRISM_EDGE_MODELS (download folder), "
        f"PRISM_EDGE_REPACK (on|off: llama.cpp weight repacking), PRISM_EDGE_API_KEY (or "
        f"PRISM_API_KEY)."
    )
