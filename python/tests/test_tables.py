"""Polars, pandas and DuckDB give parse_batch's rows."""

import pyarrow as pa
import pytest

import urlscope

URLS = [
    "https://EXAMPLE.com/a/../b?x=1",
    None,
    "not a url",
    "http://example.com\\@evil.com/",
    "https://аpple.com/",
    "https://ex\u00e4mple.com/\u00e9",
]


def test_polars_series_in_struct_series_out():
    import polars as pl

    series = pl.Series("url", URLS)
    parsed = urlscope.polars_parse(series, fields=["href", "hostname", "valid"])
    assert isinstance(parsed, pl.Series) and parsed.dtype == pl.Struct
    assert parsed.struct.field("href").to_list() == urlscope.parse_batch(URLS, fields="href").field("href").to_pylist()
    # A Polars Series is taken as it is too (through the Arrow stream interface).
    direct = urlscope.parse_batch(series, fields="href")
    assert direct.equals(urlscope.parse_batch(URLS, fields="href"))


def test_pandas_series_of_arrow_struct_dtype():
    import pandas as pd

    series = pd.Series(URLS, name="url")
    parsed = urlscope.pandas_parse(series, fields=["href", "errors"])
    assert isinstance(parsed.dtype, pd.ArrowDtype)
    assert pa.types.is_struct(parsed.dtype.pyarrow_dtype)
    hrefs = parsed.struct.field("href").tolist()
    expected = urlscope.parse_batch(URLS, fields="href").field("href").to_pylist()
    assert [None if h is pd.NA or h is None else h for h in hrefs] == expected
    assert list(parsed.index) == list(series.index)


def test_duckdb_arrow_udf():
    import duckdb

    con = duckdb.connect()
    urlscope.duckdb_register(con, "urlscope_parse", fields=["href", "host_analysis"])
    con.execute("CREATE TABLE logs AS SELECT * FROM (VALUES " + ",".join(
        "(?)" for _ in URLS) + ") t(url)", URLS)
    got = con.execute(
        "SELECT url, urlscope_parse(url).href AS href, "
        "urlscope_parse(url).host_analysis.registrable_domain AS domain FROM logs"
    ).fetchall()
    batch = urlscope.parse_batch(URLS, fields=["href", "host_analysis"]).to_pylist()
    want = {
        u: (r["href"], r["host_analysis"] and r["host_analysis"]["registrable_domain"])
        for u, r in zip(URLS, batch)
        if u is not None
    }
    assert len(got) == len(URLS)
    for url, href, domain in got:
        if url is None:
            assert href is None
            continue
        assert (href, domain) == want[url], url


def test_an_all_empty_column_as_pandas_reads_it_is_all_null():
    import io

    import pandas as pd

    frame = pd.read_csv(io.StringIO("id,url\n1,\n2,\n"))
    assert frame["url"].dtype == "float64"
    assert urlscope.parse_batch(frame["url"], fields="href").to_pylist() == [None, None]
    assert urlscope.check_batch(frame["url"]).to_pylist() == [None, None]
    assert urlscope.pandas_parse(frame["url"], fields="href").isna().all()
    # So is an all-null Arrow column of another type, and an empty one.
    assert urlscope.parse_batch(pa.array([None, None], pa.float64())).to_pylist() == [None, None]
    assert urlscope.parse_batch(pd.Series([], dtype="float64")).to_pylist() == []
    # A column of numbers is still not a column of URLs.
    with pytest.raises(TypeError, match="not Float64"):
        urlscope.parse_batch(pd.Series([1.5, None]))


def test_errors_null_on_an_object_series_makes_the_bad_row_null_and_keeps_the_batch():
    import numpy as np
    import pandas as pd

    items = ["https://a/", 5, None, "https://b/\ud800", float("nan"), pd.NA, "https://c/"]
    for column in (pd.Series(items, dtype=object), np.array(items, dtype=object)):
        got = urlscope.parse_batch(column, fields="href", errors="null").to_pylist()
        assert got == [
            {"href": "https://a/", "failure": False},
            None, None, None, None, None,
            {"href": "https://c/", "failure": False},
        ]
        checked = urlscope.check_batch(column, errors="null").field("href").to_pylist()
        assert checked == ["https://a/", None, None, None, None, None, "https://c/"]
        for batch in (urlscope.parse_batch, urlscope.check_batch):
            with pytest.raises(TypeError, match="^row 1: not a string or None but int$"):
                batch(column)
    surrogate = pd.Series(["https://a/", None, "https://b/\ud800"], dtype=object)
    with pytest.raises(ValueError, match=r"^row 2: not valid UTF-8 \(a lone surrogate at index 10\)$"):
        urlscope.parse_batch(surrogate)
    # An object column of numbers only: each row is a number, not the column a number type.
    assert urlscope.parse_batch(pd.Series([5, 6], dtype=object), errors="null").to_pylist() == [None, None]
    with pytest.raises(TypeError, match="^row 0: not a string or None but int$"):
        urlscope.parse_batch(pd.Series([5, 6], dtype=object))
