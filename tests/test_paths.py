"""Where prism-edge keeps things (core/paths.py): a variable moves it, else the user's folder."""

from __future__ import annotations

from pathlib import Path

import platformdirs

from prism_edge.core.paths import user_path


def test_a_variable_moves_it_with_home_expanded(monkeypatch):
    monkeypatch.setenv("PRISM_EDGE_SOMEWHERE", "~/elsewhere/logs.db")
    assert (
        user_path("PRISM_EDGE_SOMEWHERE", "data", "logs.db")
        == Path.home() / "elsewhere" / "logs.db"
    )


def test_else_the_user_folder_of_its_kind(monkeypatch):
    monkeypatch.delenv("PRISM_EDGE_SOMEWHERE", raising=False)
    cache = platformdirs.user_cache_path("prism-edge", appauthor=False)
    assert user_path("PRISM_EDGE_SOMEWHERE", "cache", "index") == cache / "index"
    state = platformdirs.user_state_path("prism-edge", appauthor=False)
    assert user_path("PRISM_EDGE_SOMEWHERE", "state", "runs") == state / "runs"
