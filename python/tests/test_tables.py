"""Polars, pandas and DuckDB give parse_batch's rows."""

import pyarrow as pa

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
