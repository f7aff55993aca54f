"""Where prism-edge keeps what it keeps: a variable that moves it, else the user's folder of
that kind (platformdirs: XDG on Linux, ``~/Library`` on macOS, ``%LOCALAPPDATA%`` on Windows),
never the folder a command runs from."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

Kind = Literal["data", "config", "state", "cache"]


def user_path(variable: str, kind: Kind, *parts: str) -> Path:
    """``$variable`` when it is set (``~`` expanded), else ``parts`` under the user's
    ``kind`` folder of prism-edge."""
    moved = os.environ.get(variable)
    if moved:
        return Path(moved).expanduser()
    import platformdirs

    folder = {
        "data": platformdirs.user_data_path,
        "config": platformdirs.user_config_path,
        "state": platformdirs.user_state_path,
        "cache": platformdirs.user_cache_path,
    }[kind]("prism-edge", appauthor=False)
    return folder.joinpath(*parts)
