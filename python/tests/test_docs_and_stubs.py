"""docs/python.md's examples run as written and say what their values are, and the stubs
describe the module as it is (mypy's stubtest)."""

import re
import subprocess
import sys

import pytest

import urlscope
from conftest import ROOT

DOC = ROOT / "docs" / "python.md"


def python_block(containing):
    """The code of docs/python.md's one ```python block that holds `containing`."""
    blocks = re.findall(r"^```python\n(.*?)^```$", DOC.read_text("utf-8"), re.S | re.M)
    found = [b for b in blocks if containing in b]
    assert len(found) == 1, f"{len(found)} python blocks of docs/python.md hold {containing!r}"
    return found[0]


def test_the_polars_pandas_duckdb_example_runs_as_written():
    for module in ("polars", "pandas", "duckdb"):
        pytest.importorskip(module)
    code = python_block("duckdb_register")
    namespace = {}
    exec(compile(code, str(DOC), "exec"), namespace)
    urls = namespace["urls_list"]
    batch = urlscope.parse_batch(urls, fields="host_analysis").to_pylist()
    want = [r and r["host_analysis"] and r["host_analysis"]["registrable_domain"] for r in batch]
    assert [d for (d,) in namespace["domains"]] == want
    assert "example.co.uk" in want


def test_the_polars_plugin_example_runs_as_written():
    pl = pytest.importorskip("polars")
    namespace = {}
    code = python_block("import polars as pl, urlscope.polars")
    exec(compile(code, str(DOC), "exec"), namespace)
    out = namespace["out"]
    # What the comments say.
    assert out["host"].to_list() == ["example.com", None, None, "example.com"]
    assert out["fail"].to_list() == [False, None, True, True]
    schema = namespace["q"].collect_schema()
    assert (schema["url"], schema["host"], schema["fail"]) == (pl.String, pl.String, pl.Boolean)


def test_the_pandas_accessor_example_runs_as_written():
    pd = pytest.importorskip("pandas")
    namespace = {}
    exec(compile(python_block("s.urlscope.host()"), str(DOC), "exec"), namespace)
    s = namespace["s"]
    host = s.urlscope.host()
    # What the comment says: example.com, <NA>, <NA> at 10, 3, 7.
    assert list(host.index) == [10, 3, 7]
    assert host.loc[10] == "example.com" and pd.isna(host.loc[3]) and pd.isna(host.loc[7])


def test_the_batches_example_says_what_its_values_are():
    pa = pytest.importorskip("pyarrow")
    code = python_block('rows.field("href")')
    namespace = {}
    exec(compile(code, str(DOC), "exec"), namespace)
    said = re.search(r'^rows\.field\("href"\)\s+# a pyarrow\.(\w+) \((\w+)\)', code, re.M)
    assert said, 'the comment on rows.field("href") names its type'
    href = namespace["rows"].field("href")
    assert type(href) is getattr(pa, said.group(1))
    assert str(href.type) == said.group(2)
    assert href.to_pylist() == ["https://xn--pple-43d.com/", None, None]


def test_stubtest_holds_the_stubs_to_the_module(tmp_path):
    pytest.importorskip("mypy.stubtest")
    # In a folder of its own: stubtest writes mypy's cache where it runs.
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "urlscope"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found in 5 modules" in done.stdout
