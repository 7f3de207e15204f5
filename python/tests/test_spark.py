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
