"""The per-URL API against the command line and the standard's names."""

import json
import shutil
import subprocess
import sys

import pytest

import urlscope


def encodable(s):
    try:
        s.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def test_hrefs_and_error_names_equal_the_command_lines_parse_json(cli, url_list):
    name, cases = url_list
    cases = [(i, b) for i, b in cases if encodable(i) and (b is None or encodable(b))]
    assert len(cases) > 100, f"{name}: only {len(cases)} inputs"
    stdin = "".join(json.dumps({"input": i, "base": b}) + "\n" for i, b in cases).encode()
    lines = cli(["parse", "--json", "--jsonl-in", "--fields", "input,href,errors", "--jobs", "2"], stdin)
    assert len(lines) == len(cases), f"{name}: {len(lines)} objects for {len(cases)} inputs"
    parsed = failed = 0
    for (given, base), line in zip(cases, lines):
        expected = json.loads(line)
        assert expected["input"] == given
        names = [e["type"] for e in expected["errors"]]
        try:
            url = urlscope.parse(given, base=base)
        except urlscope.URLError as e:
            failed += 1
            assert expected.get("failure") is True, (given, base, expected)
            if "base_errors" not in expected:
                assert [x.type for x in e.errors] == names, (given, base)
            continue
        parsed += 1
        assert "failure" not in expected, (given, base, expected)
        assert url.href == expected["href"], (given, base)
        assert [x.type for x in url.errors] == names, (given, base)
        assert [(x.start, x.end) for x in url.errors] == [
            (e["start"], e["end"]) for e in expected["errors"]
        ], (given, base)
    assert parsed > 0
    print(f"{name}: {parsed} parsed and {failed} failures agree with parse --json")


def test_the_getters_follow_the_url_api():
    u = urlscope.parse("https://EXAMPLE.com/a/../b?x=1&y=%20z#frag")
    assert u.href == "https://example.com/b?x=1&y=%20z#frag"
    assert (u.origin, u.protocol, u.host, u.hostname, u.port) == (
        "https://example.com",
        "https:",
        "example.com",
        "example.com",
        "",
    )
    assert (u.pathname, u.search, u.hash) == ("/b", "?x=1&y=%20z", "#frag")
    assert list(u.search_params) == [("x", "1"), ("y", " z")]
    assert u.valid and u.errors == []
    assert str(u) == u.href and repr(u) == f"URL({u.href!r})"


def test_a_relative_input_resolves_against_the_base_and_keeps_its_errors():
    u = urlscope.parse("..\\c", base="http://h/a/b")
    assert u.href == "http://h/c"
    assert [e.type for e in u.errors] == ["invalid-reverse-solidus"]
    assert not u.valid
    e = u.errors[0]
    assert (e.start, e.end) == (2, 3)
    assert e == urlscope.ValidationError("invalid-reverse-solidus", 2, 3)
    assert e.message


def test_the_encoding_is_the_query_encoding():
    u = urlscope.parse("http://h/?é", encoding="windows-1252")
    assert u.search == "?%E9"
    with pytest.raises(ValueError, match="not an encoding label"):
        urlscope.parse("http://h/", encoding="no-such-encoding")


def test_a_failure_raises_url_error_with_the_standards_names():
    with pytest.raises(urlscope.URLError) as caught:
        urlscope.parse("not a url")
    assert isinstance(caught.value, ValueError)
    assert [e.type for e in caught.value.errors] == ["missing-scheme-non-relative-URL"]
    assert "missing-scheme-non-relative-URL" in str(caught.value) or "not a URL" in str(caught.value)
    with pytest.raises(urlscope.URLError) as caught:
        urlscope.parse("http://[::1")
    assert caught.value.errors[-1].type == "IPv6-unclosed"
    with pytest.raises(urlscope.URLError, match="base URL is not a URL") as caught:
        urlscope.parse("a", base="b")
    assert [e.type for e in caught.value.errors] == ["missing-scheme-non-relative-URL"]


@pytest.mark.parametrize(
    "given, span, fix",
    [
        ("https://exa mple.com\\path", (11, 12), "https://example.com\\path"),
        ("http://a b/", (8, 9), "http://ab/"),
        ("https://ex%20ample.com/", (10, 13), "https://example.com/"),
        ("https://a..b%00/", (12, 15), "https://a..b/"),
    ],
)
def test_a_failing_host_is_named_by_the_step_that_failed(given, span, fix):
    # The domain parser's step 8 returns failure, not domain-to-ASCII (its step 2 "does not
    # return"): the message, step, span and fix are what `urlscope parse` says.
    with pytest.raises(urlscope.URLError) as caught:
        urlscope.parse(given)
    error = caught.value
    message = f"not a URL: domain parser step 8 at {span[0]}..{span[1]}: "
    assert str(error).startswith(message), str(error)
    assert "domain-to-ASCII" not in str(error)
    assert error.step == "domain parser step 8"
    assert error.span == span
    assert error.fix == fix
    assert "forbidden domain code point" in error.explanation
    urlscope.parse(error.fix)
    assert error.errors[-1].type == "domain-to-ASCII"
    # The href setter says the same.
    url = urlscope.parse("https://example.com/")
    with pytest.raises(urlscope.URLError) as caught:
        url.href = given
    assert str(caught.value) == str(error)
    assert caught.value.fix == fix


def test_a_failure_without_a_host_has_no_fix():
    with pytest.raises(urlscope.URLError) as caught:
        urlscope.parse("http://h:99999/")
    assert caught.value.step == "port-out-of-range (port state)"
    assert caught.value.span == (9, 14)
    assert caught.value.fix is None
    with pytest.raises(urlscope.URLError) as caught:
        urlscope.parse("a", base="b")
    assert caught.value.step is None and caught.value.fix is None


def test_can_parse_is_the_standards_canparse():
    assert urlscope.can_parse("https://a")
    assert not urlscope.can_parse("a")
    assert urlscope.can_parse("a", base="https://b/")
    assert not urlscope.can_parse("a", base="b")


def test_setters_follow_the_url_api():
    u = urlscope.parse("https://example.com/p")
    u.port = "8080"
    assert u.href == "https://example.com:8080/p"
    u.port = "443"  # the scheme's default port is null
    assert u.port == "" and u.href == "https://example.com/p"
    with pytest.warns(urlscope.SetterIgnored, match="port state step 2.2"):
        u.port = "abc"  # the port state fails at once: no change
    assert u.port == ""
    u.hostname = "example.org"
    u.search = "q=1"
    u.hash = "h"
    u.pathname = "/a b"
    u.username = "me"
    assert u.href == "https://me@example.org/a%20b?q=1#h"
    u.protocol = "ftp"
    assert u.protocol == "ftp:"
    with pytest.warns(urlscope.SetterIgnored, match="scheme state step 2.1.1"):
        u.protocol = "mailto"  # special to non-special: no change
    assert u.protocol == "ftp:"
    with pytest.raises(urlscope.URLError):
        u.href = "not a url"
    assert u.href == "ftp://me@example.org/a%20b?q=1#h"
    u.href = "http://other/"
    assert u.href == "http://other/"


def test_host_analysis_has_the_keys_of_parse_json(cli):
    given = "https://аpple.com/"  # Cyrillic а
    u = urlscope.parse(given)
    analysis = u.host_analysis()
    expected = json.loads(cli(["parse", "--json", "--fields", "host_analysis", given])[0])
    assert analysis == expected["host_analysis"]
    assert [f.id for f in u.findings()] == [f["id"] for f in analysis["findings"]]
    assert any(f.severity == "danger" for f in u.findings())
    hostless = urlscope.parse("mailto:a@b").host_analysis()
    assert hostless == json.loads(cli(["parse", "--json", "mailto:a@b"])[0])["host_analysis"]
    assert hostless["host"] == "" and hostless["findings"] == []


def test_the_host_analysis_of_an_edited_url_is_of_its_href():
    u = urlscope.parse("https://example.com/")
    u.hostname = "аpple.com"
    assert u.hostname == "xn--pple-43d.com"
    assert u.host_analysis()["unicode"] == "аpple.com"


def test_trace_is_trace_json(cli):
    given = "HTTP://h/a/../b"
    steps = urlscope.trace(given)
    expected = json.loads(cli(["trace", "--json", given])[0])
    assert steps == expected["steps"]
    assert steps[0]["state"]


def test_diff_is_the_built_in_readings():
    given = "http://example.com\\@evil.com/"
    reading = urlscope.diff(given, parsers=["whatwg", "rust-url", "rfc3986"])
    assert list(reading["parsers"]) == ["whatwg", "rust-url", "rfc3986"]
    assert reading["parsers"]["whatwg"]["host"] == "example.com"
    assert reading["input"] == given
    every = urlscope.diff("https://a/")
    assert list(every["parsers"]) == ["whatwg", "rust-url", "curl", "rfc3986", "http"]
    with pytest.raises(ValueError, match="not a built-in parser"):
        urlscope.diff("https://a/", parsers=["python"])


# What glibc's loader and the C runtime bring on any Linux node: anything else the extension
# needed would have to be installed beside the wheel.
GLIBC_AND_RUNTIME = (
    "linux-vdso", "ld-linux", "libc.so", "libm.so", "libgcc_s.so", "libpthread.so", "libdl.so",
    "librt.so",
)


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or shutil.which("ldd") is None, reason="ldd on Linux"
)
def test_the_extension_links_libcurl_in_and_needs_no_other_library():
    listed = subprocess.run(
        ["ldd", urlscope._urlscope.__file__], capture_output=True, text=True, check=True
    ).stdout
    needed = [line.split()[0].rsplit("/", 1)[-1] for line in listed.splitlines() if line]
    assert needed and all(n.startswith(GLIBC_AND_RUNTIME) for n in needed), needed
    curl = urlscope.diff("http://a/", parsers=["curl"])["parsers"]["curl"]
    assert curl["available"] and curl["version"].endswith("(bundled)"), curl
