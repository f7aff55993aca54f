"""The loop detector: a generation's tail that is one short piece repeated."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from prism_edge.backends.loops import LOOP_PERIOD, LOOP_SPAN, loop_start, trim_loop


def test_a_repeated_piece_is_a_loop_and_the_output_keeps_it_once():
    prefix = [100, 101, 102, 103]
    piece = [7, 8, 9]
    tokens = prefix + piece * 20
    kept = loop_start(tokens)
    assert kept == len(prefix) + len(piece)
    assert tokens[:kept] == prefix + piece


def test_one_token_over_and_over():
    assert loop_start([5, 6] + [4] * LOOP_SPAN) == 3


def test_too_short_a_run_or_too_long_a_piece_is_not_a_loop():
    assert loop_start([1, 2] + [4] * (LOOP_SPAN - 1)) is None
    piece = list(range(LOOP_PERIOD + 1))
    assert loop_start(piece * 10) is None
    assert loop_start(list(range(200))) is None
    assert loop_start([]) is None


def test_a_phrase_three_times_running_is_a_loop_twice_is_not():
    phrase = list(range(300, 312))  # ", and his daughter is Elizabeth Bennet": 12 tokens
    assert loop_start([1, 2] + phrase * 2) is None
    assert loop_start([1, 2] + phrase * 3) == 2 + 12


def test_the_loop_is_found_back_to_where_it_began():
    # a piece ending mid-way: the loop began at the prefix's end, whatever the phase now
    tokens = [50, 51] + [1, 2, 3, 4] * 12 + [1, 2]
    assert loop_start(tokens) == 2 + 4


@given(
    prefix=st.lists(st.integers(1000, 100_000), max_size=40),
    piece=st.lists(st.integers(0, 999), min_size=1, max_size=LOOP_PERIOD),
    extra=st.integers(0, 50),
)
def test_what_is_kept_is_the_text_before_the_loop_and_one_piece(prefix, piece, extra):
    repeats = -(-LOOP_SPAN // len(piece)) + 1
    tokens = prefix + piece * repeats + piece[: extra % len(piece)]
    kept = loop_start(tokens)
    assert kept is not None
    # the prefix (drawn from other tokens) is kept whole, then the loop's first whole period
    assert tokens[: len(prefix)] == prefix
    period = kept - len(prefix)
    assert 1 <= period <= len(piece)
    assert all(tokens[i] == tokens[i - period] for i in range(kept, len(tokens)))
    assert loop_start(tokens[:kept]) is None


@given(st.lists(st.integers(0, 5), min_size=LOOP_SPAN, max_size=120))
def test_a_loop_found_is_a_loop(tokens):
    kept = loop_start(tokens)
    if kept is not None:
        # the last LOOP_SPAN tokens have a period of at most LOOP_PERIOD
        tail = tokens[-LOOP_SPAN:]
        assert any(
            all(tail[i] == tail[i - p] for i in range(p, len(tail)))
            for p in range(1, LOOP_PERIOD + 1)
        )
        assert kept <= len(tokens) - LOOP_SPAN + LOOP_PERIOD


def test_a_string_closed_in_a_loop_keeps_what_came_before_it():
    looped = "Mr. Bingley came, and his daughter is Jane" + ", and his daughter is Jane" * 3
    assert trim_loop(looped + ", and his d") == "Mr. Bingley came, and his daughter is Jane"
    assert trim_loop("Ahab}}}}]]]]]]]]") == "Ahab}}}}]"
    assert trim_loop("a sentence with no loop.") == "a sentence with no loop."
    assert trim_loop("Ha ha ha") == "Ha ha ha"  # two pieces and a part: no loop
    assert trim_loop("") == ""


@given(
    prefix=st.text(alphabet="abcdefgh ", max_size=30),
    piece=st.text(alphabet="XYZ,.", min_size=1, max_size=12),
    repeats=st.integers(3, 8),
)
def test_a_trimmed_string_is_the_text_before_its_loop_and_the_piece_once(prefix, piece, repeats):
    text = prefix + piece * repeats
    trimmed = trim_loop(text)
    assert trimmed.startswith(prefix) and text.startswith(trimmed)
    assert len(trimmed) <= len(prefix) + 2 * len(piece) - 1


def test_counting_is_a_loop_when_digits_count_as_one_token():
    # "63. 64. 65. ...": SmolLM2 spells each digit alone, then ".", then " "
    digits = {10 + d for d in range(10)}
    dot, space = 1, 2
    count = [t for n in range(63, 80) for t in (*(10 + int(c) for c in str(n)), dot, space)]
    prefix = [300, 301, 302]
    assert loop_start(prefix + count) is None  # as tokens, every number is new
    kept = loop_start(prefix + count, numerals=digits)
    assert kept == len(prefix) + 4  # the prefix, then "63. " once
    # numbers that are not a run of one shape are not a loop
    mixed = [t for n in range(1, 12) for t in (10 + n % 10, 300 + n, space)]
    assert loop_start(mixed, numerals=digits) is None


def test_a_string_that_counts_keeps_what_came_before_the_count():
    text = "Mowgli ran: 1. 2. 3. 4. 5. 6. 7. 8. 9. 10. 11. 12. 13. 14. 15. 16. 17. 18. 19. 2"
    assert trim_loop(text) == "Mowgli ran: 1."
    assert trim_loop("In 1894, 1895 and 1896 he wrote.") == "In 1894, 1895 and 1896 he wrote."


def test_a_long_output_is_judged_by_its_tail_as_by_the_whole():
    digits = {10 + d for d in range(10)}
    dot, space = 1, 2
    prefix = list(range(300, 700))  # longer than the tail checked first
    count = [t for n in range(63, 99) for t in (*(10 + int(c) for c in str(n)), dot, space)]
    assert loop_start(prefix + count, numerals=digits) == len(prefix) + 4
    assert loop_start(prefix, numerals=digits) is None
    assert loop_start(prefix + count[:12], numerals=digits) is None  # three numbers: no loop yet
