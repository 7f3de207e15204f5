"""What a batch takes and gives beside its rows: `jobs` within a bound and no thread left
behind, the columns in the order asked, and every kind of column a user has at hand."""

import os
import pathlib
import time

import pyarrow as pa
import pytest

import urlscope

URLS = ["https://EXAMPLE.com/", None, "not a url", "http://example.com\\@evil.com/"]


def test_jobs_over_max_jobs_is_refused_at_once():
    assert urlscope.MAX_JOBS == 1024
    started = time.monotonic()
    for batch in (urlscope.parse_batch, urlscope.check_batch):
        for given in (["https://a/"] * 10, pa.array(["https://a/"] * 10)):
            for jobs in (10**6, 5000, urlscope.MAX_JOBS + 1):
                with pytest.raises(ValueError, match=rf"^jobs must be at most urlscope.MAX_JOBS \(1024\), not {jobs} "):
                    batch(given, jobs=jobs)
    assert time.monotonic() - started < 5
    # At the bound a batch of 10 rows is one piece: no thread is started for it.
    got = urlscope.parse_batch(["https://a/"] * 10, jobs=urlscope.MAX_JOBS, fields="href")
    assert got.field("href").to_pylist() == ["https://a/"] * 10


def threads():
    return len(os.listdir("/proc/self/task"))


def threads_settled(want):
    """The threads of this process, once they are `want` or a second has passed: a thread
    that a batch has joined leaves /proc a moment after the join returns."""
    deadline = time.monotonic() + 1
    while threads() != want and time.monotonic() < deadline:
        time.sleep(0.01)
    return threads()


@pytest.mark.skipif(not pathlib.Path("/proc/self/task").is_dir(), reason="counts threads in /proc")
def test_no_pool_of_more_threads_than_cores_outlives_the_call():
    rows = [f"https://h{i}.example/" for i in range(64)]
    want = [f"https://h{i}.example/" for i in range(64)]

    def run(**kwargs):
        for batch in (urlscope.parse_batch, urlscope.check_batch):
            got = batch(rows, chunk_rows=1, **kwargs)
            assert got.field("href").to_pylist() == want

    run()  # The kept pool, of as many threads as cores, is started if it was not.
    before = threads()
    jobs = (os.cpu_count() or 1) + 30
    started = time.monotonic()
    run(jobs=jobs)
    run(jobs=jobs)
    assert threads_settled(before) == before
    assert time.monotonic() - started < 60
    # Fewer jobs than cores use the kept pool's threads: none are started.
    run(jobs=2)
    assert threads_settled(before) == before


def test_fields_failure_alone_gives_the_failure_column():
    got = urlscope.parse_batch(["https://a/", "nope", None], fields="failure")
    assert got.type == pa.struct([("failure", pa.bool_())])
    assert got.to_pylist() == [{"failure": False}, {"failure": True}, None]
    assert urlscope.parse_batch(["https://a/"], fields=["failure"]).type.names == ["failure"]


def test_fields_come_back_in_the_order_asked():
    def names(fields):
        return urlscope.parse_batch(["https://a/b"], fields=fields).type.names

    assert names(["host", "href"]) == ["host", "href", "failure"]
    assert names("pathname, protocol") == ["pathname", "protocol", "failure"]
    assert names(["failure", "href"]) == ["failure", "href"]
    assert names(["href", "host", "href"]) == ["href", "host", "failure"]
    assert names(None) == [*urlscope.FIELDS, "failure"]
    row = urlscope.parse_batch(["https://a/b"], fields=["host", "href"]).to_pylist()[0]
    assert list(row.items()) == [("host", "a"), ("href", "https://a/b"), ("failure", False)]
    with pytest.raises(ValueError, match='^"nope" is not a field; the fields are input, base'):
        names(["href", "nope"])


def test_tuples_generators_numpy_arrays_and_one_column_tables_are_taken_as_lists_are():
    np = pytest.importorskip("numpy")
    want = urlscope.parse_batch(URLS, fields="href")
    want_check = urlscope.check_batch(URLS)
    given = {
        "tuple": lambda: tuple(URLS),
        "generator": lambda: (u for u in URLS),
        "iterator": lambda: iter(URLS),
        "numpy object array": lambda: np.array(URLS, dtype=object),
        "pyarrow table": lambda: pa.table({"url": URLS}),
        "pyarrow chunked table": lambda: pa.concat_tables([pa.table({"url": URLS[:2]}), pa.table({"url": URLS[2:]})]),
        "pyarrow record batch": lambda: pa.record_batch({"url": URLS}),
        "record batch reader": lambda: pa.table({"url": URLS}).to_reader(),
    }
    try:
        import polars as pl

        given["polars data frame"] = lambda: pl.DataFrame({"url": URLS})
    except ModuleNotFoundError:
        pass
    for kind, make in given.items():
        assert urlscope.parse_batch(make(), fields="href").equals(want), kind
        assert urlscope.check_batch(make()).equals(want_check), kind
    # A numpy array of fixed-width strings (it has no None).
    strings = [u for u in URLS if u is not None]
    assert urlscope.parse_batch(np.array(strings), fields="href").equals(urlscope.parse_batch(strings, fields="href"))
    with pytest.raises(TypeError, match=r"^urls is a table of 2 columns \(url, id\): pass its column of URLs"):
        urlscope.parse_batch(pa.table({"url": URLS, "id": [1, 2, 3, 4]}))
    with pytest.raises(TypeError, match=r"^urls must be many URLs \(a list of strings, a column\), not one str$"):
        urlscope.parse_batch("https://a/")
