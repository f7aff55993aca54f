"""The audit of issue 44, one test per defect (numbered as the issue numbers them): a value
from outside the program (a server reply, a history row, a table's names and numbers) cannot
turn against the user. No model: the scripted backend and fake servers in process."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from prism_edge.backends import factory
from prism_edge.backends.server import ServerBackend
from tests.cli_harness import invoke
from tests.fake_server import FakeServer

TALE = (
    "The wolf cub slept. Then Mowgli ran to Akela at the rock. Later Mowgli spoke to Akela "
    "again. Baloo watched Mowgli and said nothing. Then Baloo slept.\n\n"
) * 4


def _serve(monkeypatch, fake: FakeServer, opened: list[dict[str, Any]]) -> None:
    def connect(model: str | None = None, *, server: str, **options: Any) -> ServerBackend:
        opened.append({"server": server, **options})
        return ServerBackend(
            server,
            transport=httpx.MockTransport(fake),
            n_ctx=4096,
            retries=0,
            api_key=options.get("api_key"),
        )

    monkeypatch.setattr(factory, "open_backend", connect)


def test_12_a_server_password_is_never_stored_and_16_ask_passes_the_api_key(monkeypatch, tmp_path):
    opened: list[dict[str, Any]] = []
    _serve(monkeypatch, FakeServer("vllm"), opened)
    story = tmp_path / "story.txt"
    story.write_text(TALE, encoding="utf-8")
    url = "http://reader:hunter2@vllm:8000"
    out = invoke("run", str(story), "--server", url, "--method", "names", "--run-dir",
                 str(tmp_path / "r"))  # fmt: skip
    assert out.exit_code == 0, out.output
    listed = invoke("logs", "--json")
    assert listed.exit_code == 0 and "hunter2" not in listed.stdout
    shown = invoke("logs", "show", "1", "--json")
    assert "hunter2" not in shown.stdout and "http://vllm:8000" in shown.stdout
    monkeypatch.setenv("PRISM_API_KEY", "k-123")
    asked = invoke("ask", "1", "Who is Akela?", "--no-log")
    assert asked.exit_code == 0, asked.output
    assert opened[-1]["server"] == "http://vllm:8000" and opened[-1]["api_key"] == "k-123"


def _tampered(fake: FakeServer, change) -> httpx.MockTransport:
    """``fake``, whose scoring replies pass through ``change`` (a reply's JSON in and out)."""

    def handle(request: httpx.Request) -> httpx.Response:
        response = fake(request)
        if request.url.path != "/v1/completions":
            return response
        body = json.dumps(change(response.json()))  # NaN as JavaScript writes it, too
        return httpx.Response(
            response.status_code, content=body, headers={"content-type": "application/json"}
        )

    return httpx.MockTransport(handle)


def _nan(reply: dict[str, Any]) -> dict[str, Any]:
    for choice in reply["choices"]:
        choice["logprobs"]["token_logprobs"] = [
            None if v is None else float("nan") for v in choice["logprobs"]["token_logprobs"]
        ]
    return reply


def _positive(reply: dict[str, Any]) -> dict[str, Any]:
    for choice in reply["choices"]:
        choice["logprobs"]["token_logprobs"] = [
            None if v is None else 2.5 for v in choice["logprobs"]["token_logprobs"]
        ]
    return reply


def test_13_a_non_finite_or_positive_log_probability_is_refused_naming_the_server():
    import pytest

    from prism_edge.core.errors import BackendError
    from prism_edge.prompts import Part, Prompt

    for change, said in ((_nan, "nan"), (_positive, "2.5")):
        backend = ServerBackend(
            "http://vllm:8000", transport=_tampered(FakeServer("vllm"), change), n_ctx=4096,
            retries=0,
        )  # fmt: skip
        with pytest.raises(BackendError, match=r"server at http://vllm:8000 sent a log-prob"):
            backend.score(Prompt((Part("Passage: "), Part("Mowgli ran.", "document"))), [" Mowgli"])
        try:
            backend.score(Prompt((Part("x"),)), [" y"])
        except BackendError as exc:
            assert said in str(exc) and len(str(exc)) < 400


def test_14_a_reply_without_choices_is_quoted_in_one_short_line():
    import pytest

    from prism_edge.core.errors import BackendError
    from prism_edge.prompts import Part, Prompt

    huge = {"error": "x" * 2_000_000}
    backend = ServerBackend(
        "http://vllm:8000", transport=_tampered(FakeServer("vllm"), lambda r: huge), n_ctx=4096,
        retries=0,
    )  # fmt: skip
    with pytest.raises(BackendError) as caught:
        backend.score(Prompt((Part("x"),)), [" y"])
    message = str(caught.value)
    assert "/v1/completions" in message and len(message) < 400 and "\n" not in message


def test_19_a_fifo_as_the_config_or_the_history_is_refused_not_waited_on(tmp_path):
    import os
    import subprocess
    import sys

    config, logs = tmp_path / "config.toml", tmp_path / "logs.db"
    os.mkfifo(config)
    os.mkfifo(logs)
    env = {**os.environ, "PRISM_EDGE_CONFIG": str(config), "PRISM_EDGE_LOGS": str(logs)}
    for args in (["inspect", "--help"], ["logs"], ["models", "default"]):
        done = subprocess.run(
            [sys.executable, "-m", "prism_edge", *args],
            env=env, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        said = done.stdout + done.stderr
        assert "Traceback" not in said, (args, said)
        if args[0] == "logs":
            assert done.returncode == 2 and "not a regular file" in done.stderr


def test_20_the_cpu_lock_never_follows_a_link_nor_fails_on_a_strange_byte(tmp_path):
    import subprocess
    import sys

    from prism_edge.backends.cpu_share import Claims

    class Model:
        pass

    target = tmp_path / "precious.txt"
    target.write_text("the user's own file", encoding="utf-8")
    link = tmp_path / "local-model.lock"
    link.symlink_to(target)
    claims = Claims(link)
    model = Model()
    assert claims.claim(model) is None and not claims.held  # no lock, and no harm
    assert target.read_text(encoding="utf-8") == "the user's own file"
    # a lock held by another process whose file has a non-ASCII byte: noted, not a crash
    lock = tmp_path / "other.lock"
    holder = (
        "import fcntl, sys\n"
        f"f = open({str(lock)!r}, 'wb'); f.write(b'12\\xff'); f.flush()\n"
        "fcntl.lockf(f, fcntl.LOCK_EX); print('held', flush=True); sys.stdin.read()\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", holder], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None and child.stdout.readline().strip() == "held"
    try:
        assert Claims(lock).claim(Model()) == 0  # held by someone it cannot name
    finally:
        assert child.stdin is not None
        child.stdin.close()
        child.wait(timeout=60)
        child.stdout.close()


def test_18_input_or_schema_nested_past_the_parser_is_refused_in_one_line(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    table = tmp_path / "deep.jsonl"
    table.write_text('{"a": 1}\n{"a": ' + deep + "}\n", encoding="utf-8")
    schema = tmp_path / "deep.json"
    nested = '{"a": ' * 50_000 + "1" + "}" * 50_000
    schema.write_text('{"type": "object", "properties": {"a": ' + nested + "}}", encoding="utf-8")
    for args in (
        ["inspect", str(table), "--task", "table-qa"],
        ["inspect", "--schema", str(schema), str(table)],
        ["run", "--schema", str(schema), "--query", "q", str(table)],
    ):
        out = invoke(*args)
        assert out.exit_code != 0 or "deep" not in out.stdout, args
        assert "RecursionError" not in out.output and "Traceback" not in out.output, args
        if out.exit_code:
            assert "nested too deeply" in out.stderr, (args, out.stderr)


def test_17_damaged_history_rows_are_listed_as_damaged_and_the_others_as_usual(tmp_path):
    import sqlite3

    from prism_edge.app.history import History

    story = tmp_path / "story.txt"
    story.write_text(TALE, encoding="utf-8")
    history = History()
    from prism_edge.app.history import Entry

    read = [{"name": "story.txt", "sha256": "ab" * 32, "chars": 9}]
    for _ in range(9):
        history.record(Entry("run", "summarize", "Summarize.", "smol", status="done",
                             answer="Mowgli ran.", memory={"attributes": {"Mowgli": ["x"]}},
                             inputs=read))  # fmt: skip
    damage = [
        ("inputs", "[5]"),
        ("inputs", '[{"name": 5}]'),
        ("calls", '["x"]'),
        ("settings", '{"n_ctx": "big"}'),
        ("settings", '{"config": [1]}'),
        ("metrics", "[1, 2]"),
        ("memory", '"text"'),
        ("parent", "abc"),
    ]
    with sqlite3.connect(history.path) as db:
        for row, (column, value) in enumerate(damage, start=1):
            db.execute(f"UPDATE runs SET {column} = ? WHERE id = ?", (value, row))
    listed = invoke("logs")
    assert listed.exit_code == 0, listed.output
    lines = listed.stdout.splitlines()
    assert sum("damaged" in line for line in lines) == 8 and len(lines) == 10
    assert "Mowgli ran." in lines[1]  # run 9, untouched (its question and answer: a line)
    for args in (["logs", "--json"], ["logs", "show", "3"], ["logs", "show", "3", "--json"],
                 ["logs", "show", "9"], ["logs", "show", "2", "--html", str(tmp_path / "r.html")],
                 ["ask", "4", "Who is Mowgli?"]):  # fmt: skip
        out = invoke(*args)
        assert "Traceback" not in out.output, (args, out.output)
        if args[0] == "ask":
            assert out.exit_code == 2 and "damaged" in out.stderr
        else:
            assert out.exit_code == 0, (args, out.output)


NAMES_CHUNKS = [
    f"Then Mowgli ran to Akela at the rock number {i}. Later Mowgli spoke to Akela again "
    f"about the hunt {i}. Then Baloo watched Mowgli and said nothing at all {i}."
    for i in range(40)
]


def _names_runner():
    from prism_edge.backends.scripted import ScriptedBackend
    from prism_edge.engine.runner import PrismRunner
    from prism_edge.methods import make
    from prism_edge.methods.presets import TASKS

    task = TASKS["summarize"]
    config = task.configure(None, answer_max_tokens=200)
    method = make("names", task.schema, config, scoring="frequency")
    return PrismRunner(ScriptedBackend(), task.schema, config, method=method)


def test_9_two_writers_never_share_a_temporary_file_and_a_run_is_held_by_one(tmp_path):
    import threading

    import pytest

    from prism_edge.engine.checkpoint import RunFolder, RunLocked, write_atomic

    target = tmp_path / "state.json"
    write_atomic(target, "{}")
    errors: list[BaseException] = []

    def write(n: int) -> None:
        try:
            for i in range(200):
                write_atomic(target, json.dumps({"writer": n, "i": i, "pad": "x" * 2000}))
        except BaseException as exc:  # pragma: no cover - the defect
            errors.append(exc)

    writers = [threading.Thread(target=write, args=(n,)) for n in range(2)]
    for w in writers:
        w.start()
    torn = 0
    while any(w.is_alive() for w in writers):
        try:
            json.loads(target.read_text())
        except (ValueError, FileNotFoundError):
            torn += 1
    for w in writers:
        w.join()
    assert errors == [] and torn == 0
    assert not list(tmp_path.glob("*.tmp"))
    first = RunFolder(tmp_path / "run", "s", "i")
    runner = _names_runner()
    for event in runner.run(NAMES_CHUNKS[:2]):
        if event.kind == "step":
            first.save(runner)
    second = RunFolder(tmp_path / "run", "s", "i")  # as another process opens it
    with pytest.raises(RunLocked, match="another prism-edge process is running this run"):
        second.save(runner)
    first.unlock()
    second.save(runner)  # once the first lets go


@pytest.mark.parametrize(
    "damage",
    [
        {"mentions": {"Mowgli": "many"}},
        {"events": [[0, "Mowgli ran."]]},
        {"prior": {"Mowgli": float("nan")}},
        {"decided": [1]},
        {"surprise": 1},
    ],
)
def test_10_a_damaged_method_state_is_refused_naming_the_file(tmp_path, damage):
    from prism_edge.engine.checkpoint import ResumeError, RunFolder, read_state

    folder = RunFolder(tmp_path / "run", "s", "i")
    runner = _names_runner()
    for event in runner.run(NAMES_CHUNKS[:3]):
        if event.kind == "step":
            folder.save(runner)
    folder.unlock()
    state = read_state(folder.state_file)
    state["method"]["state"].update(damage)
    folder.state_file.write_text(json.dumps(state))
    folder.journal_file.unlink(missing_ok=True)
    with pytest.raises(ResumeError, match=r"state-.*\.json: the saved state of --method names"):
        folder.restore(_names_runner(), _names_runner().schema, folder.load())


def _book_chunks(size: int = 2000, count: int = 40) -> list[str]:
    """The Jungle Book's first pages in chunks of about ``size`` characters (at paragraphs)."""
    from tests.conftest import DATA

    text = (DATA / "jungle-book.txt").read_text(encoding="utf-8")[5000 : 5000 + size * count]
    chunks, current = [], ""
    for paragraph in text.split("\n\n"):
        current += paragraph + "\n\n"
        if len(current) >= size:
            chunks.append(current)
            current = ""
    return chunks


def test_11_checkpoint_bytes_grow_linearly_and_any_step_resumes_to_the_same_answer(tmp_path):
    import shutil

    from prism_edge.engine.checkpoint import RunFolder

    chunks = _book_chunks()
    folder = RunFolder(tmp_path / "run", "s", "i")
    runner = _names_runner()
    copies = []
    for event in runner.run(chunks):
        if event.kind == "step":
            folder.save(runner)
            copy = tmp_path / f"after-{len(copies)}"
            shutil.copytree(folder.path, copy, ignore=shutil.ignore_patterns("*.lock"))
            copies.append(copy)
    folder.save(runner, finished=True)
    folder.unlock()
    final = folder.state_file.stat().st_size
    assert folder.bytes_written <= 3 * final + sum(len(c) for c in chunks)
    whole = (runner.result.answer, runner.memory.data)
    for copy in copies[:: max(1, len(copies) // 8)]:  # a kill after one step or another
        again = RunFolder(copy, "s", "i")
        fresh = _names_runner()
        again.restore(fresh, fresh.schema, again.load())
        for _ in fresh.run(chunks):
            pass
        again.unlock()
        assert (fresh.result.answer, fresh.memory.data) == whole, copy.name
    # a crash while a journal line was written: the line is the step that was not saved
    torn = RunFolder(copies[5], "s", "i")
    data = torn.journal_file.read_bytes()
    if data:
        torn.journal_file.write_bytes(data[:-7])
        state = torn.load()
        assert state.counts.steps == 5


def _replying(flavor: str, path: str, reply: httpx.Response) -> httpx.MockTransport:
    """A fake server of ``flavor`` that answers ``path`` with ``reply`` (whatever it is)."""
    fake = FakeServer(flavor)

    def handle(request: httpx.Request) -> httpx.Response:
        return reply if request.url.path == path else fake(request)

    return httpx.MockTransport(handle)


@pytest.mark.parametrize(
    ("flavor", "path", "reply", "said"),
    [
        ("vllm", "/v1/models", httpx.Response(200, json=[{"id": "x"}]), "/v1/models"),
        ("vllm", "/v1/models", httpx.Response(200, json={"data": ["x", "y"]}), "data.0"),
        (
            "llama.cpp",
            "/props",
            httpx.Response(200, json={"default_generation_settings": {"n_ctx": "big"}}),
            "/props",
        ),
        ("llama.cpp", "/tokenize", httpx.Response(200, json={"ids": [1]}), "/tokenize"),
        (
            "vllm",
            "/v1/chat/completions",
            httpx.Response(200, json={"choices": [{"message": {"content": "x"}}], "usage": [1]}),
            "usage",
        ),
        ("vllm", "/v1/models", httpx.Response(200, text="<html>Moved</html>"), "no JSON"),
        ("vllm", "/v1/models", httpx.Response(200, text='{"data": ['), "no JSON"),
    ],
)
def test_14_a_reply_of_another_shape_is_one_error_naming_the_endpoint(flavor, path, reply, said):
    from prism_edge.backends import Sampling
    from prism_edge.core.errors import BackendError
    from prism_edge.prompts import Part, Prompt

    with pytest.raises(BackendError) as caught:
        backend = ServerBackend(
            "http://srv:8000", transport=_replying(flavor, path, reply), n_ctx=4096, retries=0
        )
        backend.tokenize("Mowgli ran to the rock.")
        backend.generate(Prompt((Part("x"),)), Sampling(8), None)
    message = str(caught.value)
    assert "server at http://srv:8000" in message and path in message and said in message
    assert "\n" not in message and len(message) < 500


def test_15_a_server_that_sends_a_byte_a_second_is_cut_at_the_deadline():
    import time

    from prism_edge.core.errors import BackendError

    fake = FakeServer("vllm")

    class Dribble(httpx.SyncByteStream):
        def __iter__(self):
            for _ in range(1000):
                time.sleep(0.05)
                yield b" "

    def handle(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/tokenize":
            return httpx.Response(200, stream=Dribble())
        return fake(request)

    start = time.monotonic()
    with pytest.raises(BackendError, match="timed out after 2 attempts"):
        backend = ServerBackend("http://srv:8000", transport=httpx.MockTransport(handle),
                                n_ctx=4096, retries=1, timeout=0.3, backoff=0.01)  # fmt: skip
        backend.tokenize("Mowgli ran.")
    assert time.monotonic() - start < 5  # two attempts of 0.3 s, not 2 x 50 s


def _ask_table(monkeypatch, path, question: str):
    from prism_edge.backends.scripted import ScriptedBackend

    backend = ScriptedBackend(parameters=135_000_000)
    monkeypatch.setattr(factory, "open_backend", lambda model=None, **kw: backend)
    return invoke("run", str(path), "--task", "table-qa", "--query", question, "--no-model",
                  "--no-log")  # fmt: skip


def test_1_sums_past_64_bit_integers_do_not_fail_a_run(monkeypatch, tmp_path):
    table = tmp_path / "messages.jsonl"
    # 19-digit integers are ids (text, never summed); numbers this large are written as floats
    rows = [{"author": f"user{i}", "views": 9.1e18 + i * 1e16} for i in range(30)]
    table.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    for question, answer in (("What is the total of the views?", "277350000000000000000"),):
        out = _ask_table(monkeypatch, table, question)
        assert out.exit_code == 0, out.output
        assert out.stdout.strip() == answer


def test_4_repeated_column_names_are_made_unique_as_sqlite_compares_them(monkeypatch, tmp_path):
    table = tmp_path / "dup.csv"
    table.write_text("a,a 2,a,A\n1,2,3,4\n5,6,7,8\n", encoding="utf-8")
    out = _ask_table(monkeypatch, table, "What is the largest a 3?")
    assert out.exit_code == 0, out.output
    assert "duplicate column name" not in out.output
    keys = tmp_path / "dup.jsonl"
    keys.write_text('{"x": 1, "x 2": 2, "X": 3}\n{"x": 4, "x 2": 5, "X": 6}\n', encoding="utf-8")
    # answered, or "not in the table" (exit 1): no error either way
    assert _ask_table(monkeypatch, keys, "What is the total x?").exit_code in (0, 1)


def test_8_the_table_database_leaves_nothing_in_the_temporary_folder(monkeypatch, tmp_path):
    import os
    import tempfile

    from prism_edge.methods.tables.db import Database

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setenv("SQLITE_TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    store = Database()
    store.db.execute("CREATE TABLE t (x)")
    store.db.executemany("INSERT INTO t VALUES (?)", [(str(i) * 50,) for i in range(20000)])
    assert os.listdir(scratch) == []  # unlinked as soon as opened: no Ctrl-C can leave it
    del store  # no close: as after an interrupt
    assert os.listdir(scratch) == []


def test_3_names_beginning_with_a_non_ascii_capital_are_matched(monkeypatch, tmp_path):
    table = tmp_path / "cities.csv"
    table.write_text(
        "city,population\nÖrebro,156381\nКазань,1308660\nParis,2102650\n", encoding="utf-8"
    )
    for question, answer in (
        ("What is the population of Örebro?", "156381"),
        ("What is the population of Казань?", "1308660"),
        ("What is the population of örebro?", "156381"),
    ):
        out = _ask_table(monkeypatch, table, question)
        assert out.exit_code == 0, out.output
        assert out.stdout.strip() == answer, (question, out.stdout)
    missing = _ask_table(monkeypatch, table, "What is the population of Östersund?")
    assert missing.stdout.startswith("not in the table")


def test_6_an_sqlite_input_is_read_without_side_files_and_a_change_in_its_log_is_caught(
    tmp_path,
):
    import os
    import sqlite3

    from prism_edge.core.errors import PrismError
    from prism_edge.text.inputs import collect

    path = tmp_path / "shop.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE items (name TEXT, price INTEGER)")
        db.executemany("INSERT INTO items VALUES (?, ?)", [("pen", 2), ("ink", 5)])
    (document,) = collect([str(path)]).documents
    assert "pen" in document.text
    assert sorted(os.listdir(tmp_path)) == ["shop.db"]  # no -wal, no -shm beside it
    os.chmod(path, 0o444)
    os.chmod(tmp_path, 0o555)  # read-only media
    try:
        (again,) = collect([str(path)]).documents
        assert "ink" in again.text
    finally:
        os.chmod(tmp_path, 0o755)
        os.chmod(path, 0o644)
    # in WAL mode, a write that lands in the log during the run is caught
    writer = sqlite3.connect(path)
    writer.execute("PRAGMA journal_mode = WAL")
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("INSERT INTO items VALUES ('nib', 1)")
    writer.commit()
    (live,) = collect([str(path)]).documents
    assert "nib" in live.text  # the log's rows are read
    writer.execute("INSERT INTO items VALUES ('cap', 3)")
    writer.commit()
    with pytest.raises(PrismError, match="changed while it was being read"):
        _ = live.text
    writer.close()


def test_7_unreadable_virtual_tables_are_skipped_and_every_table_keeps_its_identity(tmp_path):
    import sqlite3

    from prism_edge.text.inputs import collect

    path = tmp_path / "mixed.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE cities (name TEXT, size INTEGER)")
        db.execute('CREATE TABLE "cities " (name TEXT, size INTEGER)')
        db.execute("INSERT INTO cities VALUES ('Oslo', 1)")
        db.execute("""INSERT INTO "cities " VALUES ('Bergen', 2)""")
        db.execute("CREATE VIRTUAL TABLE notes USING fts5(body)")
        db.execute("INSERT INTO notes VALUES ('a note')")
        # a virtual table whose module this Python lacks, as SpatiaLite's are elsewhere
        db.execute("PRAGMA writable_schema = ON")
        db.execute(
            "INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql) VALUES "
            "('table', 'geo', 'geo', 0, 'CREATE VIRTUAL TABLE geo USING NoSuchModule()')"
        )
    collected = collect([str(path)])
    labels = [d.label for d in collected.documents]
    assert labels == ["cities", '"cities "', "notes"]  # no FTS5 shadow tables, no merge
    assert any("geo" in w and "unreadable here" in w for w in collected.warnings)


def test_5_nul_in_a_name_too_many_columns_or_a_cell_that_computes_to_megabytes(
    monkeypatch, tmp_path
):
    import sqlite3

    keys = tmp_path / "nul.jsonl"
    keys.write_text(
        json.dumps({"score\u0000x": 1, "name": "a"}) + "\n" + json.dumps({"score\u0000x": 7,
                                                                         "name": "b"}) + "\n",
        encoding="utf-8",
    )  # fmt: skip
    out = _ask_table(monkeypatch, keys, "What is the largest score�x?")
    assert out.exit_code == 0 and "Traceback" not in out.output, out.output
    wide = tmp_path / "wide.csv"
    wide.write_text(",".join(f"c{i}" for i in range(2100)) + "\n" + "1," * 2099 + "1\n",
                    encoding="utf-8")  # fmt: skip
    out = invoke("run", str(wide), "--task", "table-qa", "--query", "q", "--no-model")
    assert out.exit_code == 2 and "Traceback" not in out.output
    grown = tmp_path / "grown.db"
    with sqlite3.connect(grown) as db:
        db.execute("CREATE TABLE t (n INTEGER, big TEXT GENERATED ALWAYS AS "
                   "(printf('%.*c', n, 'x')) VIRTUAL)")  # fmt: skip
        db.executemany("INSERT INTO t (n) VALUES (?)", [(5,), (3_000_000,)])
    out = _ask_table(monkeypatch, grown, "What is the largest n?")
    assert out.exit_code == 2 and "more than 1,000,000 characters" in out.stderr, out.output
    assert len(out.stderr.strip().splitlines()) == 1


def test_16_the_api_key_is_taken_from_its_prefixed_variable_too(monkeypatch, tmp_path):
    opened: list[dict[str, Any]] = []
    _serve(monkeypatch, FakeServer("vllm"), opened)
    story = tmp_path / "story.txt"
    story.write_text(TALE, encoding="utf-8")
    monkeypatch.delenv("PRISM_API_KEY", raising=False)
    monkeypatch.setenv("PRISM_EDGE_API_KEY", "k-456")
    out = invoke("run", str(story), "--server", "http://vllm:8000", "--method", "names",
                 "--run-dir", str(tmp_path / "r"))  # fmt: skip
    assert out.exit_code == 0, out.output
    assert opened[-1]["api_key"] == "k-456"


def test_2_a_cell_longer_than_any_chunk_is_read_as_csv_whole(monkeypatch, tmp_path):
    """A 300,000-character cell full of quoted commas: the table's records are read by csv
    straight into the database (no chunk to cut it in), so no column shifts."""
    table = tmp_path / "posts.csv"
    long = ("a, b, c, " * 40_000)[:300_000]
    lines = ["title,body,score"] + [f'post {i},"{long if i == 3 else "short"}",{i * 7}'
                                    for i in range(10)]  # fmt: skip
    table.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = _ask_table(monkeypatch, table, "What is the total score?")
    assert out.exit_code == 0, out.output
    assert out.stdout.strip() == "315"  # 7 x (0 + 1 + ... + 9): no score shifted
    out = _ask_table(monkeypatch, table, "What is the score of post 3?")
    assert out.stdout.strip() == "21"
