from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prism_edge.backends.scripted import ScriptedBackend
from prism_edge.text.chunking import chunk_document, chunk_text, record_ends, split_to_fit

COUNT = ScriptedBackend().tokenize


def count(text: str) -> int:
    return len(COUNT(text))


def test_paragraphs_are_preferred():
    text = "One two three. Four five.\n\nSix seven eight nine.\n\nTen."
    head, rest = split_to_fit(text, 14, count)
    assert head == "One two three. Four five.\n\n"
    assert head + rest == text


def test_sentences_before_words():
    text = "Alpha beta gamma. Delta epsilon zeta eta theta iota kappa lambda."
    head, _ = split_to_fit(text, 12, count)
    assert head == "Alpha beta gamma. "


def test_no_newline_giant_input_never_exceeds_budget():
    text = "x" * 5000 + " y" * 3000
    chunks = list(chunk_text(text, 50, count))
    assert "".join(chunks) == text
    assert all(count(c) <= 50 for c in chunks)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=400), st.integers(1, 40))
def test_chunks_cover_the_text_within_budget(text, budget):
    chunks = list(chunk_text(text, budget, count))
    assert "".join(chunks) == text
    assert all(c and count(c) <= budget for c in chunks)


@pytest.mark.parametrize("one_line", [False, True])
def test_chunking_work_grows_linearly_with_the_text(one_line):
    """The characters handed to the tokenizer grow in proportion to the input, not its square
    (each cut looks at a window of about two chunks, never the whole rest)."""
    paragraph = (
        "Mowgli ran with the wolves. Bagheera watched from a tree; Baloo taught the Law.\n\n"
    )

    def work(size: int) -> int:
        text = (paragraph * (size // len(paragraph) + 1))[:size]
        if one_line:
            text = text.replace("\n", " ")
        seen = [0]

        def count(piece: str) -> int:
            seen[0] += len(piece)
            return len(piece.split())

        chunks = list(chunk_text(text, 256, count))
        assert "".join(chunks) == text and all(count(c) <= 256 for c in chunks)
        return seen[0]

    small, large = work(50_000), work(500_000)
    counted = [small, large]
    assert large < 12 * small, counted


def words(text: str) -> int:
    return len(text.split())


C_SOURCE = """#include <stdio.h>

/* Adds two numbers. */
static int add(int a, int b)
{
    int sum = a + b;
    return sum;
}

char *
name_of(struct person *p)
{
    if (p == NULL)
        return "";
    return p->name;
}

int main(void)
{
    printf("%d\\n", add(1, 2));
    return 0;
}
"""

JAVA_SOURCE = """package shop;

/** A basket of items. */
public class Basket {
    private final List<Item> items = new ArrayList<>();

    /** Adds an item. */
    @Override
    public void add(Item item) {
        items.add(item);
        total += item.price();
    }

    public int total() {
        int sum = 0;
        for (Item item : items) { sum += item.price(); }
        return sum;
    }
}
"""


def _bodies(chunks: list[str]) -> list[str]:
    return [c.split("Content:\n", 1)[1] for c in chunks]


def test_c_code_is_cut_where_functions_start() -> None:
    for budget in (26, 30, 40):
        chunks = list(chunk_document("src/add.c", C_SOURCE, "code", budget, words))
        bodies = _bodies(chunks)
        assert len(chunks) >= 2 and "".join(bodies) == C_SOURCE
        assert all(words(c) <= budget for c in chunks)
        # every cut falls where a function (with its comment) starts, never inside one
        starts = {b.splitlines()[0] for b in bodies[1:]}
        assert starts <= {"/* Adds two numbers. */", "char *", "int main(void)"}, starts


def test_java_methods_are_cut_at_their_comments_and_annotations() -> None:
    chunks = list(chunk_document("shop/Basket.java", JAVA_SOURCE, "code", 30, words))
    bodies = _bodies(chunks)
    assert "".join(bodies) == JAVA_SOURCE
    starts = [b.splitlines()[0].strip() for b in bodies[1:]]
    allowed = {"/** A basket of items. */", "/** Adds an item. */", "public int total() {"}
    assert starts and set(starts) <= allowed, starts


def test_code_without_a_grammar_keeps_the_pattern_rules() -> None:
    ruby = "def a\n  1\nend\n\ndef b\n  2\nend\n" * 4
    chunks = list(chunk_document("lib/x.rb", ruby, "code", 20, words))
    assert "".join(_bodies(chunks)) == ruby


def test_a_quoted_csv_field_with_newlines_stays_whole() -> None:
    note = '"line one\nline two\nline three of a long note"'
    rows = [f"{i},name {i},{note}\n" for i in range(12)]
    text = "id,name,note\n" + "".join(rows)
    chunks = list(chunk_document("data/notes.csv", text, "table", 30, words))
    assert len(chunks) > 2
    for chunk in chunks:
        assert chunk.startswith("Table: notes\nid,name,note\n")
        body = chunk.split("id,name,note\n", 1)[1]
        parsed = list(csv.reader(io.StringIO(body)))
        assert parsed and all(len(row) == 3 and row[2].count("\n") == 2 for row in parsed)
    assert "".join(c.split("id,name,note\n", 1)[1] for c in chunks) == "".join(rows)


def test_record_ends_follow_the_csv_module_and_tsv_dialect() -> None:
    text = 'a\tb\n1\t"x\ny"\n2\tz\n'
    assert record_ends(text, "t.tsv") == [4, 12, 16]
    # a header record that itself spans lines is kept whole as the header
    chunks = list(chunk_document("t.csv", '"a\nb",c\n1,2\n', "table", 50, words))
    assert chunks == ['Table: t\n"a\nb",c\n1,2\n']


def test_a_record_longer_than_the_budget_is_still_cut_within_it() -> None:
    text = "k,v\n1," + "word " * 200 + "\n2,short\n"
    chunks = list(chunk_document("big.csv", text, "table", 40, words))
    assert all(words(c) <= 40 for c in chunks)
    assert "".join(c.split("k,v\n", 1)[1] for c in chunks) == text.split("\n", 1)[1]


def test_a_chunk_that_starts_inside_a_class_names_it_and_its_methods_keep_their_owner():
    from prism_edge.text.code import definitions_in

    methods = "".join(
        f"    def step_{i}(self, value):\n        total = value * {i}\n"
        f"        return total + {i}\n\n"
        for i in range(30)
    )
    code = "class Walker:\n    '''Walks.'''\n\n" + methods + "def helper():\n    return 1\n"
    count = lambda text: len(text.split())  # noqa: E731
    chunks = list(chunk_document("walk.py", code, "code", 120, count))
    assert len(chunks) > 2 and all(count(c) <= 120 for c in chunks)
    assert "In:" not in chunks[0].split("Content:")[0]
    assert all(c.startswith("File path: walk.py\nIn: Walker\nContent:\n") for c in chunks[1:-1])
    names = {d.name for c in chunks for d in definitions_in(c)}
    assert {f"Walker.step_{i}" for i in range(30)} <= names
    assert "helper" in names and "Walker.helper" not in names
    assert "".join(c.split("Content:\n", 1)[1] for c in chunks) == code


def _whole_body_chunks(name: str, text: str, budget: int) -> list[str]:
    """The table chunks as cut from the whole text held at once (the reference the streamed
    reader must match): record ends as strict cuts over the body after the header record."""
    from prism_edge.text.chunking import ROWS, Cuts, _room
    from prism_edge.text.tables import table_label

    ends = record_ends(text, name)
    first_end = ends[0] if ends else len(text)
    first, body = text[:first_end], text[first_end:]
    header = f"Table: {table_label(name)}\n{first.rstrip(chr(13) + chr(10))}\n"
    room = _room(budget, count(header), name)
    if not body.strip():
        return [header]
    cuts = (Cuts([end - first_end for end in ends[1:]], strict=True), *ROWS)
    return [header + p for p in chunk_text(body, room, count, cuts)]


_CELL = st.one_of(
    st.text(alphabet="abc xyz012", max_size=30),
    st.text(alphabet='ab ,\n"', max_size=12).map(lambda t: '"' + t.replace('"', '""') + '"'),
)


@settings(max_examples=150, deadline=None)
@given(
    rows=st.lists(st.lists(_CELL, min_size=3, max_size=3), max_size=60),
    budget=st.sampled_from([40, 64, 120, 400]),
    ending=st.sampled_from(["\n", "\r\n"]),
)
def test_a_streamed_table_is_cut_exactly_as_the_whole_text_would_be(rows, budget, ending):
    from prism_edge.text.chunking import table_chunks

    text = "id,name,note" + ending + "".join(",".join(r) + ending for r in rows)
    streamed = list(table_chunks("t.csv", io.StringIO(text, newline=""), budget, count))
    assert streamed == _whole_body_chunks("t.csv", text, budget)


@settings(max_examples=300, deadline=None)
@given(
    weights=st.lists(st.integers(0, 9), min_size=1, max_size=300),
    cuts=st.sets(st.integers(1, 299), max_size=80),
    budget=st.integers(0, 400),
)
def test_the_largest_fitting_cut_is_found_as_bisection_finds_it(weights, cuts, budget):
    """Any tokenizer for which a longer prefix never holds fewer tokens (character weights
    0 to 9): the guided search answers the largest fitting cut, as checking every cut does."""
    from prism_edge.text.chunking import _largest_fitting

    text = "x" * len(weights)
    ordered = sorted(c for c in cuts if c <= len(text))
    probes: list[int] = []

    def weighed(prefix: str) -> int:
        probes.append(len(prefix))
        return sum(weights[: len(prefix)])

    fitting = [c for c in ordered if sum(weights[:c]) <= budget]
    assert _largest_fitting(ordered, text, budget, weighed) == max(fitting, default=0)
    assert len(probes) <= 2 * max(1, len(ordered)).bit_length() + 1


def test_a_table_is_cut_in_a_few_counts_a_chunk():
    """The cutters count each prefix once and aim their probes: a table of short records costs
    a handful of tokenizer calls per chunk, not one per halving of its records."""
    from prism_edge.text.chunking import table_chunks

    text = "id,region,units\n" + "".join(f"{i},North,{i % 97}\n" for i in range(20000))
    calls = 0

    def counting(prefix: str) -> int:
        nonlocal calls
        calls += 1
        return count(prefix)

    chunks = list(table_chunks("t.csv", io.StringIO(text, newline=""), 1024, counting))
    assert len(chunks) > 20
    assert calls / len(chunks) < 7


@settings(max_examples=100, deadline=None)
@given(
    rows=st.lists(st.lists(_CELL, min_size=3, max_size=3), max_size=60),
    budget=st.sampled_from([40, 64, 120]),
)
def test_a_table_cut_again_at_its_chunk_lengths_gives_the_same_chunks(rows, budget):
    from prism_edge.text.chunking import table_chunks, table_pieces

    text = "id,name,note\n" + "".join(",".join(r) + "\n" for r in rows)
    chunks = list(table_chunks("t.csv", io.StringIO(text, newline=""), budget, count))
    lengths = [len(c) for c in chunks]
    assert list(table_pieces("t.csv", io.StringIO(text, newline=""), lengths)) == chunks


def test_a_chunk_source_counts_tokens_only_on_its_first_pass(tmp_path):
    from prism_edge.text.chunking import ChunkSource, chunk_documents
    from prism_edge.text.inputs import collect

    (tmp_path / "notes.txt").write_text("A paragraph of prose. " * 80, encoding="utf-8")
    (tmp_path / "sales.csv").write_text(
        "id,region\n" + "".join(f'{i},"North\nside"\n' for i in range(400)), encoding="utf-8"
    )
    documents = collect([str(tmp_path)]).documents
    assert [d.source is not None for d in documents] == [False, True]
    calls = 0

    def counting(text: str) -> int:
        nonlocal calls
        calls += 1
        return count(text)

    source = ChunkSource(documents, 64, counting)
    first = list(source)
    assert calls > 0 and first == chunk_documents(documents, 64, count)
    calls = 0
    assert list(source) == first and list(source) == first
    assert calls == 0


def test_a_table_file_is_streamed_and_never_held(tmp_path):
    from prism_edge.text.chunking import chunk_documents
    from prism_edge.text.inputs import collect

    path = tmp_path / "sales.csv"
    text = "id,region\n" + "".join(f"{i},North\n" for i in range(3000))
    path.write_text(text, encoding="utf-8")
    (document,) = collect([str(path)]).documents
    assert document.source == path and document.held == ""
    assert document.text == text  # read whole only when asked
    assert chunk_documents([document], 100, count) == _whole_body_chunks(str(path), text, 100)
