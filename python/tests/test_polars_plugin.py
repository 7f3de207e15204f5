"""Expr.urlscope, the Polars plugin: the batches' rows, computed by Polars itself (eager, lazy,
streaming, sink_parquet), with the output type known before the query runs."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

pl = pytest.importorskip("polars")
pytest.importorskip("pyarrow")

import urlscope  # noqa: E402
import urlscope.polars  # noqa: E402,F401

# Rows the list has few of: nulls, inputs that are not URLs, and one longer than
# urlscope.MAX_INPUT, which the plugin makes a null row (parse_batch's errors="null").
ODD = [None, "not a url", "http://[::1", "", "https://аpple.com/", "http://example.com\\@evil.com/"]
TOO_LONG = "https://example.com/" + "a" * urlscope.MAX_INPUT


@pytest.fixture(scope="module")
def urls(url_list):
    """kasztp.txt's URLs (or urltestdata.json's inputs), with the odd rows spread among them."""
    _, pairs = url_list
    inputs = [given for given, _ in pairs]
    out = []
    for i, given in enumerate(inputs):
        out.append(given)
        if i % 997 == 0:
            out.extend(ODD)
    return out


def series(rows, name="url"):
    return pl.Series(name, rows, dtype=pl.String)


def frame(rows):
    return pl.DataFrame({"url": series(rows)})


def batch_series(array, name="url"):
    """A batch's Arrow array as Polars reads it (large_string as String, and so on)."""
    return pl.Series(name, array)


def streaming(lf):
    """`lf` collected by Polars' streaming engine (the new one, or before it the old one: the
    module runs under Polars releases from 1.5 on too)."""
    try:
        return lf.collect(engine="streaming")
    except (TypeError, ValueError):
        return lf.collect(streaming=True)


def same(got, want):
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert len(got) == len(want)
    assert got.equals(want, check_dtypes=True, null_equal=True)


def test_parse_is_parse_batch_row_for_row(urls):
    rows = urls + [TOO_LONG, None]
    got = frame(rows).select(pl.col("url").urlscope.parse()).to_series()
    want = batch_series(urlscope.parse_batch(rows, errors="null"))
    same(got, want)
    # Nulls and bad rows in place: a null input is a null row, one that is not a URL a row
    # with `failure`, one over the limit a null row; none of them raised.
    assert got[urls.index(None)] is None
    failed = got[urls.index("not a url")]
    assert failed["failure"] is True and failed["href"] is None
    assert got[len(urls)] is None
    assert got.struct.field("failure").sum() == want.struct.field("failure").sum() > 0


def test_fields_are_chosen_and_ordered_as_parse_batch_does(urls):
    for fields in (["hostname", "href"], "errors,failure,host_analysis", ["failure", "searchParams", "writing"]):
        got = frame(urls).select(pl.col("url").urlscope.parse(fields=fields)).to_series()
        same(got, batch_series(urlscope.parse_batch(urls, fields=fields)))


def test_href_and_host_are_the_batches_columns(urls):
    df = frame(urls).select(
        href=pl.col("url").urlscope.href(),
        host=pl.col("url").urlscope.host(),
    )
    parsed = urlscope.parse_batch(urls, fields=["href", "hostname"])
    same(df["href"], batch_series(parsed.field("href"), "href"))
    same(df["host"], batch_series(parsed.field("hostname"), "host"))
    assert df["host"][urls.index("https://аpple.com/")] == "xn--pple-43d.com"
    assert df["host"][urls.index(None)] is None and df["host"][urls.index("not a url")] is None


def test_the_output_is_chunked_as_the_input():
    # Polars' engines read an elementwise result by the input's chunks (the streaming engine
    # of Polars 1.x pairs them up into record batches).
    parts = [["https://a.test/"] * 70_000, [None, "x"], [], ["https://b.test/"] * 5]
    s = pl.concat([series(p) for p in parts], rechunk=False)
    for expr in (pl.col("url").urlscope.host(), pl.col("url").urlscope.parse(), pl.col("url").urlscope.check()):
        out = s.to_frame().select(expr).to_series()
        assert [len(c) for c in out.get_chunks()] == [len(c) for c in s.get_chunks()]
    assert out.struct.field("host").to_list() == [u and u[8:14] if u != "x" else None for p in parts for u in p]


def test_a_base_applies_to_every_row():
    rows = ["a/b", None, "//other.test/x", "https://abs.test/"]
    base = "https://example.com/dir/page"
    got = frame(rows).select(pl.col("url").urlscope.href(base=base)).to_series()
    assert got.to_list() == ["https://example.com/dir/a/b", None, "https://other.test/x", "https://abs.test/"]
    got = frame(rows).select(pl.col("url").urlscope.parse(fields="href", base=urlscope.URL(base))).to_series()
    same(got, batch_series(urlscope.parse_batch(rows, fields="href", base=base)))


def test_check_is_check_batch_row_for_row(urls):
    got = frame(urls).select(pl.col("url").urlscope.check(fail_on="warn")).to_series()
    same(got, batch_series(urlscope.check_batch(urls, fail_on="warn")))
    assert got.struct.field("fail").sum() > 0


GATE_ROWS = [
    "http://example.com\\@evil.com/",
    None,
    "https://example.com/",
    "https://attacker.net/",
    "http://127.0.0.1/",
    "not a url",
    "http://example.com:443:80/",
]


@pytest.mark.parametrize(
    "gate",
    [
        {"allow_hosts": "example.com"},
        {"deny_internal": True},
        {"allow_hosts": ["example.com", "*.example.org"], "deny_internal": True, "fail_on": "warn"},
    ],
)
def test_check_with_a_gate_is_check_batch_with_it(gate):
    # Two chunks: Polars calls the plugin once for each, and both find the gate's runtimes.
    df = pl.concat([frame(GATE_ROWS), frame(GATE_ROWS[::-1])], rechunk=False)
    got = df.select(pl.col("url").urlscope.check(**gate)).to_series()
    same(got, batch_series(urlscope.check_batch(GATE_ROWS + GATE_ROWS[::-1], **gate)))
    first = got[0]
    if "allow_hosts" in gate:
        assert "allowlist-bypass" in [f["id"] for f in first["findings"]] and first["fail"] is True


def test_lazy_streaming_and_sink_parquet_give_the_batches_rows(urls, tmp_path):
    # Several pieces and morsels: the list three times over, in chunks Polars streams.
    rows = urls * 3
    lf = pl.LazyFrame({"url": series(rows)}).with_columns(
        parsed=pl.col("url").urlscope.parse(fields=["href", "hostname", "errors"]),
        host=pl.col("url").urlscope.host(),
        checked=pl.col("url").urlscope.check(),
    )
    parsed = batch_series(urlscope.parse_batch(rows, fields=["href", "hostname", "errors"]), "parsed")
    host = batch_series(urlscope.parse_batch(rows, fields="hostname").field("hostname"), "host")
    checked = batch_series(urlscope.check_batch(rows), "checked")
    results = {
        "lazy": lf.collect(),
        "streaming": streaming(lf),
    }
    lf.sink_parquet(tmp_path / "out.parquet")
    results["sink_parquet"] = pl.read_parquet(tmp_path / "out.parquet")
    for how, df in results.items():
        assert df.columns == ["url", "parsed", "host", "checked"], how
        same(df["url"], series(rows))
        same(df["parsed"], parsed)
        same(df["host"], host)
        same(df["checked"], checked)


def test_the_output_type_is_known_before_the_query_runs():
    lf = pl.LazyFrame({"url": series([])})
    schema = lf.select(
        parsed=pl.col("url").urlscope.parse(),
        some=pl.col("url").urlscope.parse(fields=["errors", "href"]),
        href=pl.col("url").urlscope.href(),
        host=pl.col("url").urlscope.host(),
        checked=pl.col("url").urlscope.check(allow_hosts="example.com"),
    ).collect_schema()
    assert schema["parsed"] == batch_series(urlscope.parse_batch([])).dtype
    assert schema["some"] == batch_series(urlscope.parse_batch([], fields=["errors", "href"])).dtype
    assert schema["href"] == pl.String and schema["host"] == pl.String
    assert schema["checked"] == batch_series(urlscope.check_batch([])).dtype
    # The Arrow schema's types, as Polars names them.
    assert dict(schema["some"]) == {
        "errors": pl.List(pl.Struct({"type": pl.String, "start": pl.UInt32, "end": pl.UInt32})),
        "href": pl.String,
        "failure": pl.Boolean,
    }


def test_categorical_enum_null_and_empty_columns():
    rows = ["https://a.test/", None, "https://b.test/", "https://a.test/"]
    want = frame(rows).select(pl.col("url").urlscope.parse(fields="href")).to_series()
    for dtype in (pl.Categorical, pl.Enum(["https://a.test/", "https://b.test/"])):
        df = pl.DataFrame({"url": pl.Series(rows, dtype=dtype)})
        same(df.select(pl.col("url").urlscope.parse(fields="href")).to_series(), want)
    nulls = pl.DataFrame({"url": [None, None, None]})
    assert nulls.schema["url"] == pl.Null
    assert nulls.select(pl.col("url").urlscope.host()).to_series().to_list() == [None, None, None]
    empty = frame([]).select(pl.col("url").urlscope.parse(), h=pl.col("url").urlscope.host())
    assert empty.height == 0 and empty.schema["url"] == batch_series(urlscope.parse_batch([])).dtype
    assert empty.schema["h"] == pl.String


def test_filter_and_group_by_use_the_rows():
    df = pl.DataFrame({"url": GATE_ROWS, "k": [i % 2 for i in range(len(GATE_ROWS))]})
    failing = df.filter(pl.col("url").urlscope.check(allow_hosts="example.com").struct.field("fail"))
    rows = urlscope.check_batch(GATE_ROWS, allow_hosts="example.com").to_pylist()
    assert failing["url"].to_list() == [u for u, r in zip(GATE_ROWS, rows) if r and r["fail"]]
    grouped = df.group_by("k", maintain_order=True).agg(pl.col("url").urlscope.host()).sort("k")
    hosts = [r and r["hostname"] for r in urlscope.parse_batch(GATE_ROWS, fields="hostname").to_pylist()]
    assert grouped["url"].to_list() == [hosts[0::2], hosts[1::2]]


def test_a_column_of_another_type_and_bad_options_are_clear_errors():
    with pytest.raises(pl.exceptions.ComputeError, match="expected a column of strings .* not Int64"):
        pl.DataFrame({"x": [1, 2]}).select(pl.col("x").urlscope.host())
    with pytest.raises(pl.exceptions.ComputeError, match="expected a column of strings"):
        pl.LazyFrame({"x": [b"https://a/"]}).select(pl.col("x").urlscope.parse()).collect_schema()
    # Options are checked where the expression is made, as parse_batch checks them.
    with pytest.raises(ValueError, match='"nope" is not a field'):
        pl.col("url").urlscope.parse(fields=["nope"])
    with pytest.raises(urlscope.URLError, match="base URL is not a URL"):
        pl.col("url").urlscope.href(base="not a base")
    with pytest.raises(ValueError, match="fail_on"):
        pl.col("url").urlscope.check(fail_on="fatal")
    # An allowlist entry that is not a host: refused when the schema is resolved, with
    # check_batch's message.
    lf = pl.LazyFrame({"url": ["https://example.com/"]})
    with pytest.raises(pl.exceptions.ComputeError, match="give the host: example.com"):
        lf.select(pl.col("url").urlscope.check(allow_hosts=["https://example.com/"])).collect()
    with pytest.raises(TypeError, match="resolve"):
        pl.col("url").urlscope.check(resolve=True)


def test_the_plugin_refuses_options_it_does_not_know_or_take():
    # Options that urlscope.polars would have refused, passed to the plugin as they are: each
    # is an error of the query, with the batches' message, and no row is built.
    from polars.plugins import register_plugin_function

    def parse(kwargs):
        return register_plugin_function(
            plugin_path=pathlib.Path(urlscope._urlscope.__file__),
            function_name="urlscope_parse",
            args=pl.col("url"),
            kwargs=kwargs,
            is_elementwise=True,
        )

    df = frame(["https://a/"])
    with pytest.raises(pl.exceptions.ComputeError, match="keyword arguments.*feilds"):
        df.select(parse({"feilds": ["href"]}))
    with pytest.raises(pl.exceptions.ComputeError, match='ValueError: "nope" is not a field'):
        df.select(parse({"fields": ["nope"]}))
    with pytest.raises(pl.exceptions.ComputeError, match="the base URL is not a URL"):
        df.select(parse({"base": "no base"}))
    # No keyword argument at all: parse's defaults.
    same(df.select(parse(None)).to_series(), batch_series(urlscope.parse_batch(["https://a/"])))


# Run under another Polars release (URLSCOPE_OLD_POLARS: a folder made with
# `pip install --target DIR 'polars==1.30.0'`), which shadows the venv's.
OLD_POLARS_SCRIPT = r"""
import json, sys
import polars as pl
import urlscope, urlscope.polars

rows = json.loads(sys.argv[1])
df = pl.DataFrame({"url": pl.Series(rows, dtype=pl.String)})
lf = df.lazy().with_columns(
    parsed=pl.col("url").urlscope.parse(),
    host=pl.col("url").urlscope.host(),
    checked=pl.col("url").urlscope.check(allow_hosts="example.com"),
)
try:
    streamed = lf.collect(engine="streaming")
except (TypeError, ValueError):
    # Before the new streaming engine: the old one.
    streamed = lf.collect(streaming=True)
out = {
    "version": pl.__version__,
    "schema": {k: str(v) for k, v in lf.collect_schema().items()},
    "eager": lf.collect().drop("url").to_dicts(),
    "streaming": streamed.drop("url").to_dicts(),
}
print(json.dumps(out))
"""


def test_an_older_polars_release_runs_the_plugin():
    old = os.environ.get("URLSCOPE_OLD_POLARS")
    if not old:
        if os.environ.get("URLSCOPE_REQUIRE_PYTHON") == "1":
            pytest.fail("URLSCOPE_OLD_POLARS names no folder with an older Polars (scripts/setup-python installs one)")
        pytest.skip("URLSCOPE_OLD_POLARS names no folder with an older Polars")
    rows = GATE_ROWS + ["https://EXAMPLE.com/a/../b?x=1#f", "http://0x7f.1/"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([old, os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run(
        [sys.executable, "-c", OLD_POLARS_SCRIPT, json.dumps(rows)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["version"] != pl.__version__
    parsed = urlscope.parse_batch(rows).to_pylist()
    host = [r and r["hostname"] for r in urlscope.parse_batch(rows, fields="hostname").to_pylist()]
    checked = urlscope.check_batch(rows, allow_hosts="example.com").to_pylist()
    for how in ("eager", "streaming"):
        assert [r["parsed"] for r in out[how]] == parsed, how
        assert [r["host"] for r in out[how]] == host, how
        assert [r["checked"] for r in out[how]] == checked, how
    assert out["schema"]["host"] == "String"
