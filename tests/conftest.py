from __future__ import annotations

from pathlib import Path

import pytest

from prism_edge.core.schema import Schema, from_source
from prism_edge.methods.presets import TASKS
from tests.cli_harness import harness, story

__all__ = ["harness", "story"]  # fixtures for the CLI tests

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.fixture(autouse=True)
def _own_user_folders(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Tests never read or write the user's history or config, nor follow their defaults, nor
    write in the folder they are run from, nor keep run states or indexes in the user's
    state and cache folders."""
    home = tmp_path_factory.mktemp("user")
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))
    monkeypatch.setenv("PRISM_EDGE_LOGS", str(home / "logs.db"))
    monkeypatch.setenv("PRISM_EDGE_CONFIG", str(home / "config.toml"))
    monkeypatch.setenv("PRISM_EDGE_STATE", str(home / "state"))
    monkeypatch.setenv("PRISM_EDGE_CACHE", str(home / "cache"))
    for name in ("MODEL", "TASK", "CHUNK_TOKENS", "CTX"):
        monkeypatch.delenv(f"PRISM_EDGE_{name}", raising=False)
    return home


@pytest.fixture
def book_schema() -> Schema:
    return TASKS["summarize"].schema


@pytest.fixture
def code_schema() -> Schema:
    return TASKS["code-search"].schema


@pytest.fixture
def table_schema() -> Schema:
    return TASKS["table-qa"].schema


@pytest.fixture
def mixed_schema() -> Schema:
    return from_source('''
class Doc:
    """A schema that uses every supported type."""
    class Person:
        name: str
        age: int
        height: float
        alive: bool
        nickname: Optional[str]  # may be absent
    title: str
    people: dict[str, Person]
    events: list[str]
    scores: dict[str, list[float]]
    pair: tuple[str, int]
''')


@pytest.fixture
def jungle_book() -> str:
    path = DATA / "jungle-book.txt"
    if not path.exists():
        pytest.skip(f"{path} not found (shared data sits beside the checkout)")
    return path.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def grammar_checker():
    """Checks a text against a GBNF grammar with llama.cpp's own grammar engine."""
    import llama_cpp

    from prism_edge.backends.llama_cpp import _load, embedded_model_path
    from prism_edge.backends.llama_grammar import accepts

    vocab_model = _load(embedded_model_path(), vocab_only=True)
    vocab = llama_cpp.llama_model_get_vocab(vocab_model.model)
    eos = vocab_model.token_eos()

    def check(grammar: str, text: str) -> bool:
        tokens = list(vocab_model.tokenize(text.encode("utf-8"), add_bos=False, special=False))
        return accepts(vocab, grammar, tokens, eos)

    return check
