"""The DuckDB extension (crates/urlscope-duckdb) in DuckDB itself: its SQL functions give the
Python package's rows, which are the command line's (test_batch.py holds the two equal).

crates/urlscope-duckdb/tests/sql.rs runs this file from `cargo test`: it builds the extension
with the test run, appends the metadata footer (scripts/duckdb-extension --footer) and names the
file in URLSCOPE_DUCKDB_EXTENSION. Without it (tests/python.rs runs python/tests whole), these
tests say they skipped. The duckdb module missing is a skip too, or a failure under
URLSCOPE_REQUIRE_PYTHON.
"""

import json
import os
import pathlib
import subprocess
import sys

import pyarrow as pa
import pytest

import test_batch  # its rows (pytest puts python/tests on the path)
import urlscope

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXTENSION = os.environ.get("URLSCOPE_DUCKDB_EXTENSION")
if not EXTENSION:
    pytest.skip(
        "no URLSCOPE_DUCKDB_EXTENSION: crates/urlscope-duckdb/tests/sql.rs builds the extension and runs these tests",
        allow_module_level=True,
    )

try:
    import duckdb
except ImportError:
    if os.environ.get("URLSCOPE_REQUIRE_PYTHON"):
        raise
    pytest.skip("the duckdb module is not installed (python/requirements-dev.txt)", allow_module_level=True)

# test_batch.py's inputs, and hosts whose suffix, registrable domain or address form the
# single-field functions must get right.
ROWS = test_batch.INPUTS + [
    "https://a.b.example.co.uk./x",
    "https://co.uk/",
    "http://[2001:db8::1]/",
    "https://paypal.com.evil.co.uk@аррӏе.com:8080/a",
]

# Rows whose gate findings differ from reading to reading (test_batch.py's), and more.
GATE_ROWS = test_batch.GATE_ROWS + [
    "https://EXAMPLE.com:443/x",
    "http://10.0.0.1/",
    "http://localhost:8080/",
    "http://company.127.0.0.1.nip.io/",
    "https://example.com@evil.com/",
    "not a url",
    "",
]


@pytest.fixture(scope="module")
def con():
    connection = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    connection.execute(f"LOAD '{EXTENSION}'")
    yield connection
    connection.close()


@pytest.fixture(scope="module")
def kasztp(url_list):
    """The URL list's inputs without a base (kasztp.txt: all of them)."""
    _, cases = url_list
    return [i for i, b in cases if b is None]


def table(con, name, urls):
    """A table `name(i, url)` of the rows in order, for SQL to read."""
    con.register(f"{name}_arrow", pa.table({"i": list(range(len(urls))), "url": pa.array(urls, pa.string())}))
    con.execute(f"CREATE OR REPLACE TABLE {name} AS SELECT * FROM {name}_arrow")
    con.unregister(f"{name}_arrow")


def column(con, sql, params=None):
    return [r[0] for r in con.execute(sql, params).fetchall()]


def difference(got, want):
    """What differs between two rows: the struct members that do, else the rows."""
    if isinstance(got, dict) and isinstance(want, dict) and got.keys() == want.keys():
        return {k: (got[k], want[k]) for k in got if got[k] != want[k]}
    return (got, want)


def assert_rows_equal(got, want, inputs):
    assert len(got) == len(want)
    wrong = [(i, inputs[i], difference(g, w)) for i, (g, w) in enumerate(zip(got, want)) if g != w]
    assert not wrong, f"{len(wrong)} rows differ (row, input, {{member: (SQL, Python)}}): {wrong[:3]}"


def test_the_footer_is_read_as_written(con):
    # DuckDB read the footer scripts/duckdb-extension wrote: its version field is the
    # workspace's.
    versions = column(con, "SELECT extension_version FROM duckdb_extensions() WHERE extension_name = 'urlscope'")
    assert versions == [f"v{urlscope.__version__}"]


def test_the_parse_struct_is_parse_batchs_type(con):
    urlscope.duckdb_register(con, "python_parse")
    ours = column(con, "SELECT typeof(urlscope_parse('x'))")
    theirs = column(con, "SELECT typeof(python_parse('x'))")
    assert ours == theirs
    assert ours[0].startswith('STRUCT("input" VARCHAR, base VARCHAR, href VARCHAR')
    assert ours[0].endswith("failure BOOLEAN)")


def test_parse_gives_parse_batchs_rows(con):
    table(con, "few", ROWS)
    got = column(con, "SELECT urlscope_parse(url) FROM few ORDER BY i")
    assert_rows_equal(got, urlscope.parse_batch(ROWS).to_pylist(), ROWS)
    assert got[1] is None


def test_parse_gives_parse_batchs_rows_on_the_url_list(con, kasztp):
    table(con, "urls", kasztp)
    got = column(con, "SELECT urlscope_parse(url) FROM urls ORDER BY i")
    assert_rows_equal(got, urlscope.parse_batch(kasztp).to_pylist(), kasztp)


def test_a_base_is_read_as_parse_batchs(con):
    for base in ["http://example.com/x/y?z#w", "HTTPS://EXAMPLE.com/a/", "file:///C:/dir/"]:
        inputs = ["foo", "../bar?q", "//other.example/p", "#frag", "", "https://absolute.example/", None, "http://[::1"]
        got = column(con, f"SELECT urlscope_parse(url, '{base}') FROM (SELECT unnest(?) AS url)", [inputs])
        assert_rows_equal(got, urlscope.parse_batch(inputs, base=base).to_pylist(), inputs)
        hrefs = column(con, f"SELECT urlscope_href(url, '{base}') FROM (SELECT unnest(?) AS url)", [inputs])
        assert hrefs == [r and r["href"] for r in got]


def test_a_base_that_is_not_a_url_fails_the_row_not_the_query(con):
    (row,) = column(con, "SELECT urlscope_parse('foo', 'not a base')")
    assert row["failure"] is True and row["base"] == "not a base" and row["input"] == "foo"
    assert row["href"] is None and row["valid"] is False and row["host_analysis"] is None
    assert column(con, "SELECT urlscope_href('foo', 'not a base')") == [None]
    assert column(con, "SELECT urlscope_valid('foo', 'not a base')") == [False]
    # A NULL base is a NULL result, as any NULL argument.
    assert column(con, "SELECT urlscope_parse('http://x/', NULL)") == [None]


def test_the_single_field_functions_give_the_structs_fields(con, kasztp):
    inputs = ROWS + kasztp
    table(con, "all_urls", inputs)
    got = con.execute(
        "SELECT urlscope_href(url), urlscope_host(url), urlscope_registrable_domain(url), urlscope_valid(url) "
        "FROM all_urls ORDER BY i"
    ).fetchall()
    want = []
    for row in urlscope.parse_batch(inputs, fields=["href", "hostname", "host_analysis", "valid"]).to_pylist():
        if row is None:
            want.append((None, None, None, None))
            continue
        analysis = row["host_analysis"]
        want.append((row["href"], row["hostname"], analysis and analysis["registrable_domain"], row["valid"]))
    assert_rows_equal(got, want, inputs)
    # The URL list has registrable domains to find, and hosts without one.
    domains = [g[2] for g in got]
    assert sum(d is not None for d in domains) > len(inputs) // 2
    assert "example.co.uk" in domains


def test_nulls_and_rows_that_cannot_be_read_are_null_in_place(con):
    limit = urlscope.MAX_INPUT
    at_limit = "http://example.com/" + "a" * (limit - len("http://example.com/"))
    over = at_limit + "a"
    inputs = ["http://a.example/", None, over, "not a url", at_limit, "http://b.example/"]
    table(con, "edges", inputs)
    got = con.execute(
        "SELECT urlscope_href(url), urlscope_host(url), urlscope_valid(url), urlscope_registrable_domain(url), "
        "urlscope_parse(url) IS NULL, urlscope_check(url) IS NULL FROM edges ORDER BY i"
    ).fetchall()
    assert got[0] == ("http://a.example/", "a.example", True, "a.example", False, False)
    assert got[1] == (None, None, None, None, True, True)
    # Over the limit on one input: NULL, as parse_batch(errors="null"), and the query goes on.
    assert got[2] == (None, None, None, None, True, True)
    assert got[3] == (None, None, False, None, False, False)
    assert got[4][:2] == (at_limit, "example.com")
    assert got[5] == ("http://b.example/", "b.example", True, "b.example", False, False)
    parsed = column(con, "SELECT urlscope_parse(url) FROM edges ORDER BY i")
    assert parsed[2] is None and parsed[3]["failure"] is True and parsed[4]["failure"] is False


def test_check_gives_check_batchs_rows(con, kasztp):
    inputs = ROWS + GATE_ROWS + kasztp
    table(con, "checked", inputs)
    got = column(con, "SELECT urlscope_check(url) FROM checked ORDER BY i")
    assert_rows_equal(got, urlscope.check_batch(inputs).to_pylist(), inputs)
    warn = column(con, "SELECT urlscope_check(url, NULL, false, 'warn') FROM checked ORDER BY i")
    assert_rows_equal(warn, urlscope.check_batch(inputs, fail_on="warn").to_pylist(), inputs)
    assert any(r["fail"] for r in warn if r) and any(not r["fail"] for r in warn if r)


def check_batch_on_the_builtin_parsers(inputs, **gate):
    """check_batch with no runtime on PATH: its gate then judges the readings of the parsers built
    into urlscope alone (each runtime's reading is unavailable), the readings the extension takes."""
    env = {k: v for k, v in os.environ.items() if k != "PATH"}
    env["PATH"] = os.devnull
    script = (
        "import json, sys, urlscope\n"
        "rows = urlscope.check_batch(json.load(sys.stdin), **json.loads(sys.argv[1])).to_pylist()\n"
        "print(json.dumps(rows))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps(gate)],
        input=json.dumps(inputs).encode(),
        env=env,
        capture_output=True,
        timeout=600,
        check=True,
    )
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    "sql, gate",
    [
        ("urlscope_check(url, ['example.com'])", {"allow_hosts": ["example.com"]}),
        ("urlscope_check(url, NULL, true)", {"deny_internal": True}),
        (
            "urlscope_check(url, ['example.com', '*.example.org:8443'], true, 'warn')",
            {"allow_hosts": ["example.com", "*.example.org:8443"], "deny_internal": True, "fail_on": "warn"},
        ),
    ],
)
def test_the_gate_gives_check_batchs_verdict_on_the_builtin_readings(con, kasztp, sql, gate):
    # Every 16th URL of the list (the gate reads five parsers a row), and the gate's own rows.
    inputs = GATE_ROWS + kasztp[::16]
    table(con, "gated", inputs)
    got = column(con, f"SELECT {sql} FROM gated ORDER BY i")
    assert_rows_equal(got, check_batch_on_the_builtin_parsers(inputs, **gate), inputs)
    if "allow_hosts" in gate:
        ids = [{f["id"] for f in r["findings"]} for r in got[: len(GATE_ROWS)]]
        # Among the built-in parsers alone: urlscope's and rust-url's readings go to
        # example.com, curl's to evil.com.
        assert "allowlist-bypass" in ids[GATE_ROWS.index("http://example.com\\@evil.com/")]
        assert "not-allowed" in ids[GATE_ROWS.index("https://attacker.net/")]
        assert not got[GATE_ROWS.index("https://example.com/")]["fail"]


def test_the_gate_reads_the_parsers_it_names(con):
    (parsers,) = column(con, "SELECT urlscope_gate_parsers()")
    # The parsers built into urlscope, which urlscope.diff reads in-process by default.
    readings = urlscope.diff("http://example.com/")["parsers"]
    assert [p["name"] for p in parsers] == list(readings)
    for p in parsers:
        # libcurl is the system's in a workspace build and the bundled one in the wheel.
        if p["name"] != "curl":
            assert p["version"] == readings[p["name"]]["version"]
        assert p["version"]


def test_a_setting_that_cannot_be_read_is_the_querys_error(con):
    with pytest.raises(ValueError) as python:
        urlscope.check_batch(["http://x/"], allow_hosts=["https://example.com/"])
    with pytest.raises(duckdb.Error) as sql:
        con.execute("SELECT urlscope_check('http://x/', ['https://example.com/'])").fetchall()
    assert str(python.value) in str(sql.value)
    assert "urlscope_check" in str(sql.value)
    with pytest.raises(duckdb.Error, match='fail_on is "info", "warn" or "danger", not "fatal"'):
        con.execute("SELECT urlscope_check('http://x/', ['example.com'], false, 'fatal')").fetchall()
    with pytest.raises(duckdb.Error, match="NULL entry"):
        con.execute("SELECT urlscope_check('http://x/', ['example.com', NULL])").fetchall()
    # An empty allowlist allows nothing, as check_batch's [].
    (row,) = column(con, "SELECT urlscope_check('https://example.com/', [])")
    assert [f["id"] for f in row["findings"]] == ["not-allowed"] and row["fail"]


def test_settings_that_change_from_row_to_row_are_each_rows_own(con):
    inputs = ["https://example.com/", "https://example.org/", "https://example.com/", "http://10.0.0.1/"]
    hosts = [["example.com"], ["example.org"], ["example.org"], None]
    deny = [False, False, False, True]
    con.register("varying_arrow", pa.table({"i": list(range(4)), "url": inputs, "hosts": hosts, "deny": deny}))
    got = column(con, "SELECT urlscope_check(url, hosts, deny).fail FROM varying_arrow ORDER BY i")
    con.unregister("varying_arrow")
    assert got == [False, False, True, True]


def test_the_extension_loads_into_a_second_database(con):
    other = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    other.execute(f"LOAD '{EXTENSION}'")
    assert column(other, "SELECT urlscope_host('https://EXAMPLE.com/')") == ["example.com"]
    other.close()
    assert column(con, "SELECT urlscope_host('https://EXAMPLE.com/')") == ["example.com"]


def test_read_csv_feeds_the_functions(con, tmp_path):
    path = tmp_path / "urls.txt"
    path.write_text("https://a.example/x\nhttps://b.example.co.uk/\nnot a url\n", encoding="utf-8")
    got = con.execute(
        f"SELECT urlscope_registrable_domain(url) FROM read_csv('{path}', columns = {{'url': 'VARCHAR'}}, "
        "header = false, delim = '\\t', quote = '', escape = '')"
    ).fetchall()
    assert got == [("a.example",), ("example.co.uk",), (None,)]


def test_the_guides_sql_runs_as_written(tmp_path):
    # docs/duckdb.md's first SQL block, with the file it loads, urls.txt and the table logs here.
    text = (ROOT / "docs" / "duckdb.md").read_text(encoding="utf-8")
    block = text.split("```sql\n", 1)[1].split("```", 1)[0]
    block = block.replace("target/duckdb/urlscope.duckdb_extension", EXTENSION)
    (tmp_path / "urls.txt").write_text("https://a.example.co.uk/x\nnot a url\n", encoding="utf-8")
    block = block.replace("'urls.txt'", f"'{tmp_path / 'urls.txt'}'")
    statements = [s.strip() for s in block.split(";") if s.strip()]
    assert len(statements) == 3 and statements[0].startswith("LOAD")
    guide = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    guide.execute("CREATE TABLE logs(url VARCHAR)")
    guide.execute("INSERT INTO logs VALUES ('https://example.com/'), ('http://127.0.0.1/'), ('https://a.example.com/')")
    guide.execute(statements[0])
    assert guide.execute(statements[1]).fetchall() == [("a.example.co.uk", "example.co.uk", True), (None, None, False)]
    failing = guide.execute(statements[2]).fetchall()
    assert [row[0] for row in failing] == ["http://127.0.0.1/"]
    guide.close()


def test_the_guides_sql_runs_as_written_in_the_duckdb_shell(tmp_path):
    # A new user's way: the `duckdb` shell (pip's duckdb-cli, an older DuckDB release than the
    # Python module's), started fresh with -unsigned, running the guide's block as a script.
    import shutil
    import subprocess
    import sys

    shell = shutil.which("duckdb", path=str(pathlib.Path(sys.executable).parent))
    if shell is None:
        if os.environ.get("URLSCOPE_REQUIRE_PYTHON") == "1":
            pytest.fail("no duckdb shell in the virtual environment (python/requirements-dev.txt installs duckdb-cli)")
        pytest.skip("no duckdb shell in the virtual environment")
    text = (ROOT / "docs" / "duckdb.md").read_text(encoding="utf-8")
    block = text.split("```sql\n", 1)[1].split("```", 1)[0]
    block = block.replace("target/duckdb/urlscope.duckdb_extension", EXTENSION)
    (tmp_path / "urls.txt").write_text("https://a.example.co.uk/x\nnot a url\n", encoding="utf-8")
    block = block.replace("'urls.txt'", f"'{tmp_path / 'urls.txt'}'")
    script = (
        "CREATE TABLE logs(url VARCHAR);\n"
        "INSERT INTO logs VALUES ('https://example.com/'), ('http://127.0.0.1/'), ('https://a.example.com/');\n"
        + block
    )
    done = subprocess.run(
        [shell, "-unsigned", "-json"], input=script, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    # One JSON array per SELECT: the hosts of urls.txt, then the rows the gate fails.
    arrays, at, decoder = [], 0, json.JSONDecoder()
    text = done.stdout
    while text[at:].strip():
        at += len(text[at:]) - len(text[at:].lstrip())
        value, at = decoder.raw_decode(text, at)
        arrays.append(value)
    assert [list(r.values()) for r in arrays[0]] == [["a.example.co.uk", "example.co.uk", True], [None, None, False]]
    assert [r["url"] for r in arrays[1]] == ["http://127.0.0.1/"]
