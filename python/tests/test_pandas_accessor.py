"""Series.urlscope: the batches' answers, each row in its place under the Series' index."""

import math

import pytest

pd = pytest.importorskip("pandas")

import urlscope  # noqa: E402
import urlscope.pandas  # noqa: E402,F401

ROWS = ["https://EXAMPLE.com/a/../b", None, "not a url", math.nan, "http://example.com\\@evil.com/", "https://аpple.com/"]


def series():
    return pd.Series(ROWS, index=[10, 3, 7, 1, 99, 4], name="url", dtype=object)


def test_parse_href_and_host_keep_the_index_and_the_nulls():
    s = series()
    parsed = s.urlscope.parse(fields=["href", "hostname"])
    assert list(parsed.index) == list(s.index) and parsed.name == "url"
    batch = urlscope.parse_batch(s, fields=["href", "hostname"]).to_pylist()
    assert [None if pd.isna(v) else v for v in parsed.tolist()] == batch
    href = s.urlscope.href()
    host = s.urlscope.host()
    assert list(href.index) == list(s.index)
    want_href = [None if r is None else r["href"] for r in batch]
    assert [None if pd.isna(v) else v for v in href.tolist()] == want_href
    assert href.loc[10] == "https://example.com/b" and host.loc[10] == "example.com"
    for label in (3, 1, 7):
        assert pd.isna(href.loc[label]) and pd.isna(host.loc[label])


def test_check_is_check_batch_with_the_gate():
    s = series()
    checked = s.urlscope.check(allow_hosts="example.com", deny_internal=True)
    batch = urlscope.check_batch(s, allow_hosts="example.com", deny_internal=True).to_pylist()
    assert list(checked.index) == list(s.index)
    assert [None if not isinstance(v, dict) else v for v in checked.tolist()] == batch
    assert checked.loc[99]["fail"] is True
    # A filter keeps the labels: the rows the gate fails.
    failing = s[checked.map(lambda r: isinstance(r, dict) and r["fail"])]
    assert 99 in failing.index and 10 not in failing.index


def test_the_accessor_is_registered_whichever_is_imported_first():
    import subprocess
    import sys

    for order in ("import urlscope, pandas as pd", "import pandas as pd, urlscope"):
        code = f"{order}\nimport urlscope.pandas\nprint(pd.Series(['https://a.example/']).urlscope.host()[0])"
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        assert done.stdout.strip() == "a.example", (order, done.stderr)
