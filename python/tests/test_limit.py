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


#: One byte over the limit.
LONG = "http://a/" + "a" * (urlscope.MAX_INPUT - 8)
OVER = rf"is {urlscope.MAX_INPUT + 1} bytes, over urlscope.MAX_INPUT \({urlscope.MAX_INPUT} bytes\)"


def test_the_url_class_can_parse_and_the_setters_hold_the_limit():
    assert len(LONG.encode()) == urlscope.MAX_INPUT + 1
    with pytest.raises(ValueError, match=f"^the input {OVER}$"):
        urlscope.URL(LONG)
    with pytest.raises(ValueError, match=f"^the base {OVER}$"):
        urlscope.URL("x", base=LONG)
    with pytest.raises(ValueError, match=f"^the base {OVER}$"):
        urlscope.diff("x", base=LONG)
    # canParse answers whether the constructor would give a URL: it would not.
    assert urlscope.can_parse(LONG) is False
    assert urlscope.can_parse("x", base=LONG) is False
    u = urlscope.URL("http://a/b?c#d")
    for component in ("href", "pathname", "search", "hash", "username", "password", "host", "hostname", "protocol", "port"):
        with pytest.raises(ValueError, match=f"^the value {OVER}$"):
            setattr(u, component, LONG)
    assert u.href == "http://a/b?c#d"


def test_the_batches_hold_the_limit_on_every_row_and_name_the_row():
    import pyarrow as pa

    rows = ["https://a/", None, LONG, "https://b/"]
    for given in (rows, pa.array(rows), pa.array(rows, pa.large_string()), pa.chunked_array([rows[:1], rows[1:]])):
        for batch in (urlscope.parse_batch, urlscope.check_batch):
            with pytest.raises(ValueError, match=f"^row 2: the input {OVER}$"):
                batch(given)
            # With errors="null" the row is null: in check_batch its fail is null, never False.
            got = batch(given, errors="null").to_pylist()
            assert got[1] is None and got[2] is None and got[0] is not None and got[3] is not None
    assert urlscope.check_batch(rows, errors="null").field("fail").to_pylist() == [False, None, None, False]
    with pytest.raises(ValueError, match=f"^the base {OVER}$"):
        urlscope.parse_batch(["x"], base=LONG)
