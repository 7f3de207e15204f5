"""The command line's input limit holds in Python too: a longer input or base is a clear
ValueError, refused before it is parsed."""

import pytest

import urlscope


def test_max_input_is_the_command_lines_limit():
    assert urlscope.MAX_INPUT == 16 << 20


def test_a_longer_input_or_base_is_refused():
    at_limit = "http://a/" + "a" * (urlscope.MAX_INPUT - 9)
    assert urlscope.parse(at_limit).pathname.startswith("/a")
    longer = at_limit + "a"
    for call in (
        lambda: urlscope.parse(longer),
        lambda: urlscope.parse("x", base=longer),
        lambda: urlscope.trace(longer),
    ):
        with pytest.raises(ValueError, match="over urlscope.MAX_INPUT"):
            call()


def test_repeats_fold_into_one_error():
    errors = urlscope.parse("http://a/" + "%" * 1000).errors
    assert len(errors) == 101
