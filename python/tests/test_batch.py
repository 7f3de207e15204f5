"""parse_batch and check_batch: the same answers as the per-URL API, as Arrow columns."""

import json
import multiprocessing
import os
import subprocess
import sys

import pyarrow as pa
import pytest

import urlscope

INPUTS = [
    "https://EXAMPLE.com/a/../b?x=1&y=2#f",
    None,
    "not a url",
    "http://example.com\\@evil.com/",
    "https://аpple.com/",
    "http://[::1",
    "",
    "https://user:pass@xn--80ak6aa92e.com:8080/p?q",
    "mailto:someone@example.com",
    "http://0x7f.1/",
    "file:///C:/x",
    "  https://a b/ ",
    "https://ex\u00e4mple.com/\u00e9?\u00e9#\u00e9",
    "javascript:alert(1)",
]


def as_rows(array):
    assert isinstance(array, pa.StructArray)
    return array.to_pylist()


def expected_row(given, base=None):
    """What per-URL parse says of one input, in parse_batch's columns."""
    if given is None:
        return None
    try:
        u = urlscope.parse(given, base=base)
    except urlscope.URLError as e:
        return {"failure": True, "errors": [(x.type, x.start, x.end) for x in e.errors]}
    analysis = u.host_analysis()
    return {
        "failure": False,
        "href": u.href,
        "origin": u.origin,
        "protocol": u.protocol,
        "username": u.username,
        "password": u.password,
        "host": u.host,
        "hostname": u.hostname,
        "port": u.port,
        "pathname": u.pathname,
        "search": u.search,
        "hash": u.hash,
        "searchParams": [{"name": n, "value": v} for n, v in u.search_params],
        "valid": u.valid,
        "errors": [(x.type, x.start, x.end) for x in u.errors],
        "host_analysis": None
        if analysis is None
        else {
            "host": analysis["host"],
            "unicode": analysis["unicode"],
            "public_suffix": analysis["public_suffix"],
            "registrable_domain": analysis["registrable_domain"],
            "imitates": [i["domain"] for i in analysis["imitates"]],
            "findings": [{"id": f["id"], "severity": f["severity"]} for f in analysis["findings"]],
        },
    }


def compare(rows, inputs, base=None):
    assert len(rows) == len(inputs)
    for given, row in zip(inputs, rows):
        want = expected_row(given, base)
        if want is None:
            assert row is None, given
            continue
        assert row["failure"] is want["failure"], given
        assert row["input"] == given
        assert [(e["type"], e["start"], e["end"]) for e in row["errors"]] == want["errors"], given
        if want["failure"]:
            assert row["href"] is None and row["host_analysis"] is None and row["valid"] is False
            continue
        for key, value in want.items():
            if key != "errors":
                assert row[key] == value, (given, key)


def test_parse_batch_equals_per_url_parse_nulls_and_failures_included():
    rows = as_rows(urlscope.parse_batch(INPUTS))
    compare(rows, INPUTS)
    assert rows[1] is None and rows[2]["failure"] is True


def test_parse_batch_on_a_real_list_equals_per_url_parse(url_list):
    name, cases = url_list
    inputs = [i for i, b in cases if b is None][:20000]
    try:
        inputs = [i for i in inputs if i.encode("utf-8")]
    except UnicodeEncodeError:
        pass
    inputs = [i for i in inputs if not any(0xD800 <= ord(c) <= 0xDFFF for c in i)]
    compare(as_rows(urlscope.parse_batch(inputs, jobs=2)), inputs)


def test_arrow_layouts_and_chunks_give_the_same_rows():
    from_list = urlscope.parse_batch(INPUTS)
    for array in (
        pa.array(INPUTS, pa.string()),
        pa.array(INPUTS, pa.large_string()),
        pa.array(INPUTS, pa.string_view()),
        pa.chunked_array([INPUTS[:5], INPUTS[5:], []], pa.string()),
        pa.array(INPUTS, pa.string()).slice(0),
    ):
        assert urlscope.parse_batch(array).equals(from_list), array.type
    sliced = urlscope.parse_batch(pa.array(INPUTS).slice(3, 4))
    assert sliced.equals(from_list.slice(3, 4))


def test_a_batch_longer_than_a_chunk_keeps_its_order_on_every_job_count():
    inputs = [f"https://h{i}.example/{i}" if i % 7 else None for i in range(5000)]
    one = urlscope.parse_batch(inputs, fields="href", jobs=1)
    two = urlscope.parse_batch(inputs, fields="href", jobs=2)
    assert one.equals(two)
    hrefs = one.field("href").to_pylist()
    assert hrefs[1] == "https://h1.example/1" and hrefs[4999] == "https://h4999.example/4999"
    assert hrefs[7] is None and one.is_null().to_pylist()[7]


def test_one_piece_or_many_give_the_same_rows_on_any_layout():
    # On one thread the whole input, a chunked array's chunks included, is written into one set
    # of arrays; on more, pieces of it are joined. Either way the rows are the per-URL ones.
    inputs = (INPUTS * 400)[:5000]
    want = urlscope.parse_batch(inputs, jobs=1)
    rows = as_rows(want)
    compare(rows[: len(INPUTS)], INPUTS)
    assert rows == (rows[: len(INPUTS)] * 400)[:5000]
    chunked = pa.chunked_array([inputs[:1234], [], inputs[1234:4000], inputs[4000:]], pa.string())
    # Offsets that do not start at zero: the bytes a piece reserves are counted from them.
    sliced = pa.array(["https://before.example/"] * 10 + inputs, pa.large_string()).slice(10)
    for urls in (inputs, chunked, sliced):
        for jobs in (1, 2, 3):
            assert urlscope.parse_batch(urls, jobs=jobs).equals(want), (type(urls), jobs)
    checked = urlscope.check_batch(inputs, jobs=1)
    for jobs in (2, 3):
        assert urlscope.check_batch(chunked, jobs=jobs).equals(checked)
    for jobs in (1, 2):
        empty = urlscope.parse_batch([], jobs=jobs)
        assert len(empty) == 0 and empty.type == want.type
        assert len(urlscope.check_batch(pa.array([], pa.string()), jobs=jobs)) == 0


def hrefs_in_a_child(inputs):
    return urlscope.parse_batch(inputs, fields="href", jobs=2).field("href").to_pylist()


def test_a_forked_child_runs_batches_on_threads_of_its_own():
    # A batch on several threads keeps its threads for the next one. A child forked after it
    # has none of them: its batches start their own rather than wait for threads not there.
    inputs = [f"https://h{i}.example/{i}" for i in range(5000)]
    want = urlscope.parse_batch(inputs, fields="href", jobs=2).field("href").to_pylist()
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply_async(hrefs_in_a_child, (inputs,)).get(timeout=60) == want


def test_the_base_and_the_encoding_apply_to_every_row():
    rows = as_rows(urlscope.parse_batch(["a", "../b", "?é"], base="http://h/x/y", encoding="windows-1252"))
    assert [r["href"] for r in rows] == ["http://h/x/a", "http://h/b", "http://h/x/y?%E9"]
    assert {r["base"] for r in rows} == {"http://h/x/y"}
    with pytest.raises(urlscope.URLError, match="base URL is not a URL"):
        urlscope.parse_batch(["a"], base="nope")


def test_fields_select_columns_and_failure_is_always_there():
    array = urlscope.parse_batch(["https://a/"], fields=["href", "valid"])
    assert [f.name for f in array.type] == ["href", "valid", "failure"]
    # In the order named (test_batch_inputs.py has more).
    array = urlscope.parse_batch(["https://a/"], fields="host_analysis,href")
    assert [f.name for f in array.type] == ["host_analysis", "href", "failure"]
    assert [f.name for f in urlscope.parse_batch([]).type] == list(urlscope.FIELDS) + ["failure"]
    assert urlscope.FIELDS[:3] == ("input", "base", "href")


def test_the_columns_types_are_the_documented_ones():
    t = urlscope.parse_batch([]).type
    assert t.field("href").type == pa.large_string()
    assert t.field("valid").type == pa.bool_()
    errors = t.field("errors").type.value_type
    assert [(f.name, f.type) for f in errors] == [
        ("type", pa.large_string()),
        ("start", pa.uint32()),
        ("end", pa.uint32()),
    ]
    analysis = t.field("host_analysis").type
    assert {"registrable_domain", "unicode", "findings"} <= {f.name for f in analysis}
    finding = analysis.field("findings").type.value_type
    assert [f.name for f in finding] == ["id", "severity"]


def test_bad_items_and_arguments_raise_clear_errors():
    with pytest.raises(TypeError, match="^row 1: not a string or None but int$"):
        urlscope.parse_batch(["https://a/", 3])
    with pytest.raises(TypeError, match="^row 0: bytes, not a string"):
        urlscope.parse_batch([b"https://a/"])
    with pytest.raises(TypeError, match="array of strings"):
        urlscope.parse_batch(pa.array([1, 2]))
    with pytest.raises(TypeError, match="urls must be"):
        urlscope.parse_batch("https://a/")
    with pytest.raises(ValueError, match='"nope" is not a field'):
        urlscope.parse_batch(["https://a/"], fields=["href", "nope"])
    with pytest.raises(ValueError, match="jobs must be at least 1"):
        urlscope.parse_batch(["https://a/"], jobs=0)
    with pytest.raises(ValueError, match="not an encoding label"):
        urlscope.parse_batch(["https://a/"], encoding="nope")
    with pytest.raises(ValueError, match="fail_on"):
        urlscope.check_batch(["https://a/"], fail_on="nope")


def test_hostile_inputs_come_back_as_rows():
    hostile = [
        "http://" + "a." * 3000 + "com/",
        "http://" + "x" * 70000 + ".com/",
        "https://" + "\u0430" * 500 + ".com/",
        "http://[" + "1:" * 500 + "]/",
        "\u202e" * 1000 + "http://a/",
        "http://%F0%9F%98%80.com/",
        "http://\x00/",
        "h" * 200000 + ":" + "/" * 10000,
    ]
    rows = as_rows(urlscope.parse_batch(hostile, jobs=2))
    assert len(rows) == len(hostile)
    compare(rows, hostile)


def test_check_batch_says_what_check_json_says(cli):
    inputs = [
        "https://аpple.com/",
        "https://example.com/",
        "not a url",
        "http://user:pass@bank.example@evil.com/",
        None,
    ]
    rows = urlscope.check_batch(inputs).to_pylist()
    present = [i for i in inputs if i is not None]
    lines = [json.loads(line) for line in cli(["check", "--json"], "\n".join(present).encode())]
    expected = {o["input"]: o for o in lines if "input" in o}
    for given, row in zip(inputs, rows):
        if given is None:
            assert row is None
            continue
        want = expected[given]
        assert row["href"] == want["href"], given
        assert [f["id"] for f in row["findings"]] == [f["id"] for f in want["findings"]], given
        assert row["imitates"] == [i["domain"] for i in want["imitates"]], given
    assert rows[0]["fail"] is True and rows[0]["worst"] == "danger"
    assert rows[1]["fail"] is False and rows[1]["worst"] is None
    warned = urlscope.check_batch(["not a url"], fail_on="warn").to_pylist()[0]
    assert warned["fail"] is True and warned["worst"] == "warn"


# Rows the built-in parsers alone judged otherwise than the command line's gate, which reads
# every parser (the runtimes' adapters included): a host with a percent-encoded NUL, CR LF or
# space-then-@ is refused by the URL Standard's domain parser (a forbidden domain code point)
# while a runtime's parser sends it elsewhere; a second port is refused by the port state but
# read by some runtimes as host:port; two backslashes are a path to the URL Standard yet not to
# every parser. Each row's findings then were not-allowed in Python (allowlist-bypass on the
# command line), and the backslashes passed in Python and failed on the command line.
GATE_ROWS = [
    "http://example.com%00.attacker.net",
    "http://example.com%0d%0a.attacker.net",
    "http://example.com %40attacker.net",
    "http://example.com:443:80/",
    "http://example.com\\\\attacker.net",
    "http://example.com\\@evil.com/",
    "https://example.com/",
    "https://attacker.net/",
    "http://127.0.0.1/",
    "http://example.com\\@127.0.0.1/",
]

SEVERITIES = ["info", "warn", "danger"]


@pytest.mark.parametrize(
    "gate, flags",
    [
        ({"allow_hosts": "example.com"}, ["--allow-host", "example.com"]),
        ({"deny_internal": True}, ["--deny-internal"]),
        ({"allow_hosts": ["example.com"], "deny_internal": True}, ["--allow-host", "example.com", "--deny-internal"]),
    ],
)
def test_check_batch_gate_gives_the_command_lines_verdict_row_by_row(cli, gate, flags):
    # Both read through the library's Lab::for_gate, so a runtime missing here is missing to
    # both (an unavailable reading): the comparison holds whichever runtimes are installed.
    rows = urlscope.check_batch(GATE_ROWS, **gate).to_pylist()
    lines = [json.loads(line) for line in cli(["check", "--json", *flags], "\n".join(GATE_ROWS).encode())]
    expected = [o for o in lines if "input" in o]
    assert [o["input"] for o in expected] == GATE_ROWS
    for given, row, want in zip(GATE_ROWS, rows, expected):
        ids = [f["id"] for f in want["findings"]]
        assert [f["id"] for f in row["findings"]] == ids, given
        assert [f["severity"] for f in row["findings"]] == [f["severity"] for f in want["findings"]], given
        worst = max((SEVERITIES.index(f["severity"]) for f in want["findings"]), default=None)
        assert row["worst"] == (None if worst is None else SEVERITIES[worst]), given
        # The verdict: `urlscope check` fails a row whose worst finding is at --fail-on
        # (danger by default), and so does check_batch's `fail`.
        assert row["fail"] == (worst == SEVERITIES.index("danger")), given
    # What the command line's gate fails, Python fails too.
    for given, row, want in zip(GATE_ROWS, rows, expected):
        assert want["gate"]["pass"] or row["fail"], given


def test_check_batch_gate_and_the_command_line_both_see_a_missing_runtime(cli):
    # With no runtime on PATH (no node, python3, go or java), every adapter's reading is
    # unavailable to both: the gate is judged on the built-in parsers alone, the same way on
    # both sides (the port row is then refused by every reading: not-allowed, danger).
    env = {k: v for k, v in os.environ.items() if k != "PATH"}
    env["PATH"] = os.devnull
    lines = [json.loads(line) for line in cli(["check", "--json", "--allow-host", "example.com"], "\n".join(GATE_ROWS).encode(), env=env)]
    expected = [[f["id"] for f in o["findings"]] for o in lines if "input" in o]
    script = (
        "import json, sys, urlscope\n"
        "rows = urlscope.check_batch(json.loads(sys.argv[1]), allow_hosts='example.com').to_pylist()\n"
        "print(json.dumps([[f['id'] for f in r['findings']] for r in rows]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps(GATE_ROWS)], env=env, capture_output=True, timeout=600, check=True
    )
    assert json.loads(done.stdout) == expected
    assert expected[GATE_ROWS.index("http://example.com:443:80/")] == ["failure", "not-allowed"]


def test_check_batch_flags_an_allowlist_bypass():
    rows = urlscope.check_batch(
        ["http://example.com\\@evil.com/", "https://example.com/", "https://other.org/"],
        allow_hosts=["example.com"],
    ).to_pylist()
    ids = [[f["id"] for f in r["findings"]] for r in rows]
    assert "allowlist-bypass" in ids[0]
    assert not {"allowlist-bypass", "not-allowed"} & set(ids[1])
    assert "not-allowed" in ids[2]


def test_a_batch_is_built_in_pieces_of_chunk_rows_and_joined_in_order():
    inputs = [f"https://h{i}.example/{i}" if i % 5 else None for i in range(1000)]
    whole = urlscope._urlscope.parse_list(inputs, fields=["href"], jobs=1)
    assert whole.pieces == 1
    for jobs in (1, 2):
        cut = urlscope._urlscope.parse_list(inputs, fields=["href"], jobs=jobs, chunk_rows=64)
        assert cut.pieces == 16, jobs  # 1000 rows in pieces of at most 64
        assert pa.array(cut).equals(pa.array(urlscope._urlscope.parse_list(inputs, fields=["href"], jobs=1)))
    chunks = [pa.array(inputs[:300]), pa.array(inputs[300:])]
    assert urlscope._urlscope.parse_arrays(chunks, fields=["href"], chunk_rows=100).pieces == 3 + 7
    assert urlscope._urlscope.check_list(inputs, chunk_rows=250).pieces == 4
    # By default a piece is at most 65,536 rows: a batch of more is cut, but for an Arrow
    # column on one thread, which is one piece: its arrays are the result, copied nowhere.
    many = pa.array(["https://a/"] * 70_000)
    assert urlscope._urlscope.parse_arrays([many], fields=["href"], jobs=1).pieces == 1
    assert urlscope._urlscope.parse_arrays([many], fields=["href"], jobs=2).pieces == 2
    assert urlscope._urlscope.parse_arrays([many], fields=["href"], jobs=1, chunk_rows=65_536).pieces == 2
    assert urlscope._urlscope.parse_list(["https://a/"] * 70_000, fields=["href"], jobs=1).pieces == 2
    for jobs in (1, 2):
        every = urlscope.parse_batch(INPUTS * 10, jobs=jobs, chunk_rows=3)
        assert every.equals(urlscope.parse_batch(INPUTS * 10, jobs=1)), jobs
        checked = urlscope.check_batch(INPUTS * 10, jobs=jobs, chunk_rows=3)
        assert checked.equals(urlscope.check_batch(INPUTS * 10, jobs=1)), jobs


def test_a_bad_row_names_the_row_and_the_reason_or_becomes_null():
    lone = "https://a/\ud800"
    with pytest.raises(ValueError, match=r"^row 1: not valid UTF-8 \(a lone surrogate at index 10\)$"):
        urlscope.parse_batch(["https://a/", lone])
    with pytest.raises(TypeError, match="^row 2: not a string or None but float$"):
        urlscope.check_batch(["https://a/", None, float("nan")])
    mixed = ["https://a/", lone, 3, None, b"https://b/", "https://c/"]
    for batch in (urlscope.parse_batch, urlscope.check_batch):
        rows = batch(mixed, errors="null", chunk_rows=2, jobs=2).to_pylist()
        assert [r is None for r in rows] == [False, True, True, True, True, False], batch
        assert rows[0]["href"] == "https://a/" and rows[5]["href"] == "https://c/"
    with pytest.raises(ValueError, match='errors is "raise" or "null"'):
        urlscope.parse_batch(["https://a/"], errors="ignore")


def test_empty_null_and_dictionary_columns_are_columns():
    want = urlscope.parse_batch(["https://a/", None, "https://b/", "https://a/"], fields="href")
    dictionary = pa.array(["https://a/", None, "https://b/", "https://a/"]).dictionary_encode()
    assert urlscope.parse_batch(dictionary, fields="href").equals(want)
    large = pa.DictionaryArray.from_arrays(pa.array([0, None, 1, 0], pa.uint32()), pa.array(["https://a/", "https://b/"], pa.large_string()))
    assert urlscope.parse_batch(large, fields="href").equals(want)
    assert urlscope.check_batch(dictionary).equals(urlscope.check_batch(want.field("href").to_pylist()))
    empty_type = urlscope.parse_batch([], fields="href").type
    for nothing in (pa.array([], pa.null()), pa.chunked_array([], pa.string()), pa.array([], pa.string()).dictionary_encode()):
        got = urlscope.parse_batch(nothing, fields="href")
        assert len(got) == 0 and got.type == empty_type, nothing.type
    nulls = urlscope.parse_batch(pa.array([None, None, None]), fields="href")
    assert nulls.to_pylist() == [None, None, None]
    all_null_dictionary = pa.DictionaryArray.from_arrays(pa.array([None, None], pa.int8()), pa.array([], pa.string()))
    assert urlscope.parse_batch(all_null_dictionary, fields="href").to_pylist() == [None, None]
    with pytest.raises(TypeError, match="array of strings.*not Dictionary\\(Int32, Int64\\)"):
        urlscope.parse_batch(pa.array([1, 2]).dictionary_encode())


def test_pandas_and_polars_categorical_empty_and_null_series():
    import pandas as pd
    import polars as pl

    urls = ["https://a/", None, "https://b/", "https://a/"]
    want = urlscope.parse_batch(urls, fields="href").to_pylist()
    assert urlscope.parse_batch(pd.Series(urls, dtype="category"), fields="href").to_pylist() == want
    parsed = urlscope.pandas_parse(pd.Series(urls, dtype="category"), fields="href").tolist()
    assert [None if r is pd.NA else r for r in parsed] == want
    assert urlscope.parse_batch(pl.Series(urls, dtype=pl.Categorical), fields="href").to_pylist() == want
    assert urlscope.polars_parse(pl.Series("u", urls, dtype=pl.Categorical), fields="href").to_list() == want
    for empty in (pd.Series([], dtype=object), pd.Series([None, None]), pl.Series([], dtype=pl.Utf8), pl.Series([None, None])):
        rows = urlscope.parse_batch(empty, fields="href").to_pylist()
        assert rows == [None] * len(empty), type(empty)


def test_arguments_are_checked_with_clear_errors():
    with pytest.raises(ValueError, match="^jobs must be at least 1, not -1$"):
        urlscope.parse_batch(["https://a/"], jobs=-1)
    with pytest.raises(ValueError, match="^jobs must be at least 1, not 0$"):
        urlscope.check_batch(["https://a/"], jobs=0)
    with pytest.raises(TypeError, match="jobs must be an int or None, not float"):
        urlscope.parse_batch(["https://a/"], jobs=1.5)
    for empty in ([], "", " , "):
        with pytest.raises(ValueError, match="^fields is empty: name at least one of input, base, href"):
            urlscope.parse_batch(["https://a/"], fields=empty)
    with pytest.raises(ValueError, match="chunk_rows must be at least 1"):
        urlscope.parse_batch(["https://a/"], chunk_rows=0)
    # The native functions check the same, for a caller that goes around the wrappers.
    with pytest.raises(ValueError, match="^jobs must be at least 1, not -1$"):
        urlscope._urlscope.parse_list(["https://a/"], jobs=-1)
    with pytest.raises(ValueError, match="^fields is empty"):
        urlscope._urlscope.parse_arrays([pa.array(["https://a/"])], fields=[])
    base = urlscope.URL("https://h/x/")
    assert urlscope.parse_batch(["y"], base=base, fields="href").field("href").to_pylist() == ["https://h/x/y"]


def test_without_pyarrow_the_batches_say_what_to_install():
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['pyarrow'] = None\n"
        "import urlscope\n"
        "print(urlscope.parse('https://a/').href)\n"
        "try:\n"
        "    urlscope.parse_batch(['https://a/'])\n"
        "except ModuleNotFoundError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == [
        "https://a/",
        "urlscope's batch functions need pyarrow, which is not installed: pip install "
        "'urlscope-whatwg[arrow]' (or pip install pyarrow)",
    ]


def test_check_batch_allowlist_fails_closed_and_a_bare_str_is_one_host():
    # A bare str is one host (not the letters e, x, a, m…), and an attacker URL fails: danger.
    rows = urlscope.check_batch(
        ["https://attacker.net/", "https://attacker.net#@example.com", "https://example.com/"],
        allow_hosts="example.com",
    ).to_pylist()
    gate = [[(f["id"], f["severity"]) for f in r["findings"] if f["id"] == "not-allowed"] for r in rows]
    assert gate[0] == [("not-allowed", "danger")] and rows[0]["fail"] is True
    assert gate[1] == [("not-allowed", "danger")] and rows[1]["fail"] is True
    assert gate[2] == [] and rows[2]["fail"] is False
    # "e" alone would have allowed the host "e": with the letters as the list it passed.
    assert urlscope.check_batch(["https://e/"], allow_hosts="example.com").to_pylist()[0]["fail"] is True


def test_check_batch_refuses_an_entry_that_is_not_a_host():
    with pytest.raises(ValueError, match="give the host: example.com"):
        urlscope.check_batch(["https://example.com/"], allow_hosts=["https://example.com/"])
    with pytest.raises(ValueError, match="only as a leading"):
        urlscope.check_batch(["https://example.com/"], allow_hosts="ex*ample.com")


def test_check_batch_deny_internal_flags_internal_hosts_and_a_file_url():
    rows = urlscope.check_batch(
        ["file:///etc/passwd", "https://example.com/", "http://127.0.0.1/", "http://0x7f.1/"],
        deny_internal=True,
    ).to_pylist()
    ids = [[(f["id"], f["severity"]) for f in r["findings"]] for r in rows]
    assert ("internal-destination", "danger") in ids[0] and rows[0]["fail"] is True
    assert not any(i == "internal-destination" for i, _ in ids[1]) and rows[1]["fail"] is False
    assert ("internal-destination", "danger") in ids[2] and rows[2]["fail"] is True
    assert ("internal-destination", "danger") in ids[3] and rows[3]["fail"] is True


def test_a_batch_of_many_pieces_equals_one_piece_for_every_column_type():
    # Each piece is written into the batch's buffers as it is finished: every column type
    # (strings, booleans, numbers, lists of strings and of structs, structs with nulls) keeps
    # its rows, its nulls and its order, whatever the pieces' length and the threads.
    inputs = (INPUTS * 37)[:500]
    whole = urlscope._urlscope.parse_list(inputs, jobs=1, chunk_rows=len(inputs))
    assert whole.pieces == 1
    whole = pa.array(whole)
    checked = pa.array(urlscope._urlscope.check_list(inputs, jobs=1, chunk_rows=len(inputs)))
    chunked = pa.chunked_array([inputs[:123], [], inputs[123:]], pa.string())
    for chunk_rows in (1, 2, 7, 64, 499):
        for jobs in (1, 2, 3):
            cut = urlscope._urlscope.parse_list(inputs, jobs=jobs, chunk_rows=chunk_rows)
            assert cut.pieces == -(-len(inputs) // chunk_rows), (chunk_rows, jobs)
            got = pa.array(cut)
            got.validate(full=True)
            assert got.equals(whole), (chunk_rows, jobs)
            assert got.to_pylist() == whole.to_pylist(), (chunk_rows, jobs)
            arrays = urlscope.parse_batch(chunked, jobs=jobs, chunk_rows=chunk_rows)
            assert arrays.equals(whole), (chunk_rows, jobs)
            check = urlscope.check_batch(inputs, jobs=jobs, chunk_rows=chunk_rows)
            check.validate(full=True)
            assert check.equals(checked), (chunk_rows, jobs)


PEAK = r"""
import re, sys
import numpy, pyarrow as pa, urlscope

def peak():
    # The peak resident set of this process's memory since its exec (VmHWM): getrusage's
    # ru_maxrss keeps the parent's peak across fork and exec, which would hide the batch's.
    with open("/proc/self/status") as status:
        return int(re.search(r"VmHWM:\s+(\d+) kB", status.read()).group(1)) * 1024


rows, fields = int(sys.argv[1]), sys.argv[2]
fields = None if fields == "all" else fields
lines = pa.array(
    [f"https://www.host{i}.example.com/a/b/{i}/../c?q={i}&r=x#f{i}" for i in range(997)]
    + [None, "not a url", "http://[::1"],
    pa.large_string(),
)
urls = lines.take(numpy.arange(rows) % len(lines))
urlscope.parse_batch(urls.slice(0, 5000), fields=fields, jobs=2)
before = peak()
result = urlscope.parse_batch(urls, fields=fields, jobs=2, chunk_rows=16384)
rise = peak() - before
print(rise, result.nbytes)
"""


# Rows enough for a result over 20 MiB (24 MB of hrefs, 32 MB of every field), where the peak
# rose 1.11 times the result here and twice it when the pieces were all held.
@pytest.mark.parametrize("rows,fields", [(400_000, "href"), (40_000, "all")])
@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="no /proc/self/status")
def test_a_whole_column_peaks_near_its_result(rows, fields):
    # The peak resident set of a batch (in a process of its own) rises by little more than its
    # result: the pieces are not all held until a join copies them, which took twice as much.
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", PEAK, str(rows), fields],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    rise, result = map(int, done.stdout.split())
    assert result > 20 * 2**20
    assert rise <= 1.3 * result, f"the peak rose by {rise / 2**20:.0f} MiB for a result of {result / 2**20:.0f} MiB"
