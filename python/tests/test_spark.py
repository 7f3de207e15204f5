"""A real local Spark session: parse and check on the executors, in Arrow batches."""

import os
import pathlib
import sys

import pytest

import urlscope
import urlscope.spark


def urls(n):
    """n URLs: a real list's where there is one, cycled, with hostile and null ones among them."""
    bench = os.environ.get("URLSCOPE_URL_LIST")
    base = []
    if bench and pathlib.Path(bench).is_file():
        base = [
            line for line in pathlib.Path(bench).read_text("utf-8", "replace").splitlines() if line
        ][:5000]
    base += ["https://EXAMPLE.com/a/../b", "not a url", "http://example.com\\@evil.com/", "https://аpple.com/"]
    return [None if i % 997 == 0 else base[i % len(base)] for i in range(n)]


@pytest.fixture(scope="module")
def spark():
    pyspark = pytest.importorskip("pyspark")
    from pyspark.sql import SparkSession

    # The workers run this interpreter, which has urlscope (on a cluster: the executors'
    # Python, with the wheel installed).
    os.environ["PYSPARK_PYTHON"] = sys.executable

    session = (
        SparkSession.builder.master("local[2]")
        .appName("urlscope-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.driver.memory", "1g")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def test_spark_parse_gives_parse_batch_hrefs_over_10000_urls_in_4_partitions(spark):
    data = urls(10_000)
    df = spark.createDataFrame([(i, u) for i, u in enumerate(data)], "id long, url string").repartition(4, "id")
    assert df.rdd.getNumPartitions() == 4
    parsed = urlscope.spark.parse(df, "url", fields=["href", "valid", "host_analysis"])
    rows = parsed.select("id", "url_url.href", "url_url.failure", "url_url.host_analysis.registrable_domain").collect()
    got = {r["id"]: (r["href"], r["failure"], r["registrable_domain"]) for r in rows}
    batch = urlscope.parse_batch(data, fields=["href", "host_analysis"]).to_pylist()
    assert len(got) == len(data)
    for i, row in enumerate(batch):
        if row is None:
            assert got[i] == (None, None, None), i
        else:
            domain = row["host_analysis"] and row["host_analysis"]["registrable_domain"]
            assert got[i] == (row["href"], row["failure"], domain), data[i]


def test_spark_check_gives_check_batch_findings(spark):
    data = urls(400)
    df = spark.createDataFrame([(i, u) for i, u in enumerate(data)], "id long, url string").repartition(4)
    checked = urlscope.spark.check(df, "url", allow_hosts=["example.com"])
    got = {r["id"]: r["url_check"] for r in checked.select("id", "url_check").collect()}
    want = urlscope.check_batch(data, allow_hosts=["example.com"]).to_pylist()
    for i, row in enumerate(want):
        if row is None:
            assert got[i] is None
        else:
            assert [f["id"] for f in got[i]["findings"]] == [f["id"] for f in row["findings"]], data[i]
            assert got[i]["fail"] == row["fail"]


def test_a_missing_column_is_named():
    pytest.importorskip("pyspark")
    import urlscope.spark

    class Frame:
        columns = ["a"]
        schema = None

    with pytest.raises(ValueError, match="no column 'url'"):
        urlscope.spark.parse(Frame(), "url")


def test_a_column_that_is_not_strings_is_refused_when_the_plan_is_built(spark):
    df = spark.createDataFrame([(1, 2)], "id long, url int")
    for helper in (urlscope.spark.parse, urlscope.spark.check):
        with pytest.raises(TypeError, match="^column 'url' is int, not a string"):
            helper(df, "url")


def test_empty_partitions_an_empty_frame_and_a_null_column_give_rows(spark):
    from pyspark.sql import functions as F

    # 8 partitions for 3 rows: most are empty.
    df = spark.createDataFrame([(0, "https://a/"), (1, None), (2, "not a url")], "id long, url string").repartition(8)
    rows = {r["id"]: r["url_url"] for r in urlscope.spark.parse(df, "url", fields="href").collect()}
    assert rows[0]["href"] == "https://a/" and rows[1] is None and rows[2]["failure"] is True
    empty = spark.createDataFrame([], "id long, url string")
    assert urlscope.spark.parse(empty, "url").collect() == []
    assert urlscope.spark.check(empty, "url").collect() == []
    nulls = spark.range(3).withColumn("url", F.lit(None))
    assert [r["url_url"] for r in urlscope.spark.parse(nulls, "url", fields="href").collect()] == [None] * 3


def frame(spark, rows=None):
    rows = rows or [(1, "https://a/b"), (2, "not a url"), (3, None)]
    return spark.createDataFrame(rows, "id long, url string")


def test_a_second_parse_or_an_output_over_a_column_is_refused_when_the_plan_is_built(spark):
    df = frame(spark)
    once = urlscope.spark.parse(df, "url", fields="href")
    for call, column in [
        (lambda: urlscope.spark.parse(once, "url"), "url_url"),
        (lambda: urlscope.spark.parse(df, "url", output="url"), "url"),
        (lambda: urlscope.spark.check(df, "url", output="url"), "url"),
        # Spark resolves names regardless of case by default.
        (lambda: urlscope.spark.check(df, "url", output="ID"), "ID"),
    ]:
        with pytest.raises(ValueError, match=f"^column '{column}' is already in the DataFrame: name another output"):
            call()
    # Under another name the second parse runs, and so do two parses of one DataFrame joined.
    twice = urlscope.spark.parse(once, "url", fields=["host", "href"], output="again")
    rows = {r["id"]: r for r in twice.collect()}
    assert rows[1]["url_url"]["href"] == "https://a/b"
    assert rows[1]["again"].asDict() == {"host": "a", "href": "https://a/b", "failure": False}
    assert rows[2]["again"]["failure"] is True and rows[3]["again"] is None
    other = urlscope.spark.check(df, "url").select("id", "url_check")
    joined = once.join(other, "id")
    assert sorted((r["id"], r["url_url"]["href"], r["url_check"]["fail"]) for r in joined.where("url is not null").collect()) == [
        (1, "https://a/b", False),
        (2, None, False),
    ]


def test_a_dotted_column_name_and_columns_that_share_a_name_pass_through(spark):
    df = spark.createDataFrame([(1, "https://a/b", "x"), (2, None, "y")], "id long, `u.rl` string, note string")
    parsed = urlscope.spark.parse(df, "u.rl", fields="href")
    assert parsed.columns == ["id", "u.rl", "note", "u.rl_url"]
    rows = {r["id"]: r for r in parsed.collect()}
    assert rows[1]["u.rl"] == "https://a/b" and rows[1]["note"] == "x"
    assert rows[1]["u.rl_url"]["href"] == "https://a/b" and rows[2]["u.rl_url"] is None
    checked = urlscope.spark.check(df, "u.rl", output="c.k")
    assert [r["c.k"] and r["c.k"]["href"] for r in checked.orderBy("id").collect()] == ["https://a/b", None]
    # Two columns named "note": parse keeps both, and refuses to guess which one to read.
    twin = df.join(df.select("id", "note"), "id")
    assert twin.columns == ["id", "u.rl", "note", "note"]
    kept = urlscope.spark.parse(twin, "u.rl", fields="href")
    assert kept.columns == ["id", "u.rl", "note", "note", "u.rl_url"]
    assert sorted(tuple(r) [:4] for r in kept.collect()) == [(1, "https://a/b", "x", "x"), (2, None, "y", "y")]
    with pytest.raises(ValueError, match="^column 'note' is ambiguous: the DataFrame has 2 columns of that name"):
        urlscope.spark.parse(twin, "note")


def test_spark_runs_without_a_warning(spark):
    import warnings

    df = frame(spark)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        urlscope.spark.parse(df, "url", fields="href").collect()
        urlscope.spark.check(df, "url").collect()
    assert [str(w.message) for w in caught] == []


def test_the_spark_extra_is_within_what_pyspark_supports():
    import tomllib
    from importlib.metadata import requires

    pytest.importorskip("pyspark")
    from packaging.requirements import Requirement
    from packaging.version import Version

    from conftest import ROOT

    pyproject = tomllib.loads((ROOT / "python" / "pyproject.toml").read_text("utf-8"))
    extra = {r.name: r.specifier for r in map(Requirement, pyproject["project"]["optional-dependencies"]["spark"])}
    assert set(extra) == {"pyarrow", "pandas"}

    def minimum(specifier):
        return max(Version(s.version) for s in specifier if s.operator == ">=")

    # PySpark's own minimums, from its metadata (the sql extra, which mapInArrow needs).
    theirs = {}
    for line in requires("pyspark") or []:
        r = Requirement(line)
        if r.name in extra and r.marker is not None and r.marker.evaluate({"extra": "sql"}):
            theirs[r.name] = r.specifier
    assert set(theirs) == {"pyarrow", "pandas"}
    for name in extra:
        assert minimum(extra[name]) >= minimum(theirs[name]), name
    # PySpark 4 warns at every call on pandas 3 (require_minimum_pandas_version).
    assert not extra["pandas"].contains("3.0.0") and extra["pandas"].contains("2.3.3")
    # The tests run with what the extra installs.
    import pandas
    import pyarrow

    assert extra["pandas"].contains(pandas.__version__) and extra["pyarrow"].contains(pyarrow.__version__)


@pytest.mark.parametrize("arrow_udf", [True, False], ids=["arrow-udf", "pandas-udf"])
def test_spark_sql_functions_give_the_batches_answers(spark, monkeypatch, arrow_udf):
    # PySpark 4.1 and later run them as Arrow UDFs; earlier ones as pandas UDFs.
    monkeypatch.setattr(urlscope.spark, "_ARROW_UDF", arrow_udf)
    data = urls(3_000)
    spark.createDataFrame([(i, u) for i, u in enumerate(data)], "id long, url string").createOrReplaceTempView("urls")
    names = urlscope.spark.register(spark, allow_hosts="example.com", deny_internal=True)
    assert names == ["urlscope_parse", "urlscope_href", "urlscope_host", "urlscope_check"]
    rows = spark.sql(
        "SELECT id, urlscope_href(url) AS href, urlscope_host(url) AS host, "
        "urlscope_parse(url).failure AS failure, urlscope_parse(url).host_analysis.registrable_domain AS domain, "
        "urlscope_check(url).fail AS fail, transform(urlscope_check(url).findings, f -> f.id) AS ids "
        "FROM urls"
    ).collect()
    got = {r["id"]: r for r in rows}
    parsed = urlscope.parse_batch(data, fields=["href", "hostname", "host_analysis"]).to_pylist()
    checked = urlscope.check_batch(data, allow_hosts="example.com", deny_internal=True).to_pylist()
    assert len(got) == len(data)
    for i, (p, c) in enumerate(zip(parsed, checked)):
        r = got[i]
        if p is None:
            assert (r["href"], r["host"], r["failure"], r["fail"], r["ids"]) == (None, None, None, None, None), i
            continue
        assert (r["href"], r["host"], r["failure"]) == (p["href"], p["hostname"], p["failure"]), i
        assert r["domain"] == (p["host_analysis"] or {}).get("registrable_domain"), i
        assert r["fail"] == c["fail"] and r["ids"] == [f["id"] for f in c["findings"]], i
    # The gate's entries are checked on the driver.
    with pytest.raises(ValueError, match="give the host"):
        urlscope.spark.register(spark, allow_hosts="https://example.com/")


def test_the_docs_spark_sql_example_runs_as_written(spark):
    import re

    from conftest import ROOT

    text = (ROOT / "docs" / "python.md").read_text("utf-8")
    (code,) = [b for b in re.findall(r"^```python\n(.*?)^```$", text, re.S | re.M) if "register(spark" in b]
    df = spark.createDataFrame([(u,) for u in ["https://EXAMPLE.com/a", "https://example.com/b", "http://127.0.0.1/", None]], "url string")
    namespace = {"spark": spark, "df": df, "urlscope": urlscope}
    exec(compile(code, "docs/python.md", "exec"), namespace)
    result = spark.sql(code.split('spark.sql("""')[1].split('""")')[0]).collect()
    # 127.0.0.1 fails the gate; the two example.com URLs pass; the null row is no URL.
    assert [(r["host"], r["n"]) for r in result][0] == ("example.com", 2)
