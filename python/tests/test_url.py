"""The URL and URLSearchParams classes as a Python developer uses them: constructed like the
web's, unhashable because mutable, pickled and copied, with setters that say when the standard
ignored their value, and a URLSearchParams whose edits update the URL."""

import copy
import json
import multiprocessing
import pickle
import pydoc
import tomllib
import warnings

import pytest

import urlscope
from conftest import ROOT


def test_the_constructor_is_the_webs_with_a_url_or_a_str_base():
    u = urlscope.URL("https://EXAMPLE.com/a/../b")
    assert isinstance(u, urlscope.URL) and u.href == "https://example.com/b"
    base = urlscope.URL("https://h/x/y")
    assert urlscope.URL("../z", base=base).href == "https://h/z"
    assert urlscope.URL("../z", "https://h/x/y").href == "https://h/z"
    assert urlscope.parse("../z", base=base).href == "https://h/z"
    assert urlscope.can_parse("z", base=base) and not urlscope.can_parse("z", base="nope")
    with pytest.raises(urlscope.URLError) as caught:
        urlscope.URL("not a url")
    assert [e.type for e in caught.value.errors] == ["missing-scheme-non-relative-URL"]
    with pytest.raises(urlscope.URLError, match="base URL is not a URL"):
        urlscope.URL("a", base="b")
    with pytest.raises(TypeError, match="base must be a URL, a str or None, not int"):
        urlscope.URL("a", base=3)


def test_a_url_is_unhashable_because_it_is_mutable_and_equal_by_href():
    u = urlscope.URL("https://a/")
    with pytest.raises(TypeError, match="unhashable"):
        hash(u)
    with pytest.raises(TypeError):
        {u}
    assert u == urlscope.URL("https://A/") and u != urlscope.URL("https://b/")
    assert u != "https://a/"
    keyed = {u.href: 1}
    u.pathname = "/p"
    assert keyed == {"https://a/": 1} and u.href == "https://a/p"


def test_pickle_and_copy_keep_the_url():
    u = urlscope.URL("https://user@a.example:8080/p?q=1#f")
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(u, protocol))
        assert type(back) is urlscope.URL and back == u and back.href == u.href
    shallow, deep = copy.copy(u), copy.deepcopy(u)
    assert shallow == u and deep == u and shallow is not u
    shallow.hash = "other"
    assert u.hash == "#f" and shallow.hash == "#other"
    # The copy keeps the parse's errors (pickling parses the href again).
    odd = urlscope.URL("https:\\\\a/")
    assert copy.copy(odd).errors == odd.errors != []


def hrefs_in_a_child(urls):
    return [u.href for u in urls]


def test_urls_cross_to_another_process():
    urls = [urlscope.URL(f"https://h{i}.example/") for i in range(3)]
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.apply(hrefs_in_a_child, (urls,)) == [u.href for u in urls]


def test_a_setter_the_standard_ignores_warns_in_the_command_lines_words(cli):
    cases = [
        ("https://a/", "port", "99999"),
        ("https://a/", "port", "xyz"),
        ("mailto:x@y", "host", "x"),
        ("file:///p", "port", "81"),
        ("https://a/", "protocol", "foo bar"),
    ]
    for given, component, value in cases:
        u = urlscope.URL(given)
        with pytest.warns(urlscope.SetterIgnored) as caught:
            setattr(u, component, value)
        assert u.href == urlscope.URL(given).href
        [warning] = caught
        # The command line's --set says the same of the same setter (after the input).
        stderr = cli_stderr(cli, ["parse", "--set", f"{component}={value}", given])
        assert f"{given}: {warning.message}" in stderr, (stderr, str(warning.message))
        assert "step" in str(warning.message) and "https://url.spec.whatwg.org/#" in str(warning.message)
        assert warning.filename == __file__
    assert issubclass(urlscope.SetterIgnored, UserWarning)


def cli_stderr(cli, args):
    import os
    import subprocess

    binary = os.environ.get("URLSCOPE_BIN") or str(ROOT / "target" / "debug" / "urlscope")
    return subprocess.run([binary, *args], capture_output=True, text=True).stderr


def test_a_setter_that_changes_the_url_is_silent_and_escalates_on_request():
    u = urlscope.URL("https://a/")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        u.port = "8080"
        u.hostname = "b.example"
        u.search = "q=1"
    assert u.href == "https://b.example:8080/?q=1"
    with warnings.catch_warnings():
        warnings.simplefilter("error", urlscope.SetterIgnored)
        with pytest.raises(urlscope.SetterIgnored, match="port setter with \"99999\""):
            u.port = "99999"
    assert u.port == "8080"


def test_the_port_takes_an_int_and_none_or_empty_clears_it():
    u = urlscope.URL("https://a/")
    u.port = 8080
    assert u.port == "8080" and u.href == "https://a:8080/"
    u.port = None
    assert u.port == "" and u.href == "https://a/"
    u.port = "81"
    u.port = ""
    assert u.href == "https://a/"
    # The scheme's default port is null, which the port already is: as the command line's
    # --set does, a setter that leaves the URL as it was says so.
    with pytest.warns(urlscope.SetterIgnored, match="port state step 2.1.5"):
        u.port = 443
    assert u.port == ""
    with pytest.warns(urlscope.SetterIgnored):
        u.port = 70000
    with pytest.warns(urlscope.SetterIgnored):
        u.port = -1
    assert u.href == "https://a/"
    for bad in (True, 1.5, b"80", [80]):
        with pytest.raises(TypeError, match="port must be an int, a str or None"):
            u.port = bad
    with pytest.raises(TypeError):
        u.hostname = 3


def test_version_is_the_crates():
    # One version: the workspace's, which the crate and the extension inherit.
    workspace = tomllib.loads((ROOT / "Cargo.toml").read_text("utf-8"))
    version = workspace["workspace"]["package"]["version"]
    for manifest in (ROOT / "Cargo.toml", ROOT / "python" / "Cargo.toml"):
        package = tomllib.loads(manifest.read_text("utf-8"))["package"]
        assert package["version"] == {"workspace": True}, manifest
    assert urlscope.__version__ == version
    from importlib.metadata import version as installed

    assert installed("urlscope-whatwg") == urlscope.__version__


def test_the_distribution_is_urlscope_whatwg():
    # PyPI's `urlscope` is another project; ours is installed as urlscope-whatwg, with the
    # import name urlscope (docs/install.md).
    from importlib.metadata import PackageNotFoundError, metadata

    pyproject = tomllib.loads((ROOT / "python" / "pyproject.toml").read_text("utf-8"))
    assert pyproject["project"]["name"] == "urlscope-whatwg"
    meta = metadata("urlscope-whatwg")
    assert meta["Name"] == "urlscope-whatwg"
    assert meta["Version"] == urlscope.__version__
    assert "WHATWG URL Standard" in meta["Summary"]
    with pytest.raises(PackageNotFoundError):
        metadata("urlscope")


def test_every_getter_and_setter_has_a_docstring_in_help():
    names = [
        "href", "origin", "protocol", "username", "password", "host", "hostname", "port",
        "pathname", "search", "hash", "search_params", "errors", "valid",
    ]
    for name in names:
        doc = getattr(urlscope.URL, name).__doc__
        assert doc and len(doc) > 20, name
    shown = pydoc.render_doc(urlscope.URL, renderer=pydoc.plaintext)
    assert "URL Standard: the port getter" in shown and "SetterIgnored" in shown
    assert urlscope.URL.__doc__ and "URL Standard" in urlscope.URL.__doc__
    for name in ["append", "delete", "get", "get_all", "has", "set", "sort", "size"]:
        assert getattr(urlscope.URLSearchParams, name).__doc__, name


def test_search_params_edits_update_the_query_as_the_standards_update_steps_do():
    u = urlscope.URL("https://example.com/?a=b ~")
    params = u.search_params
    assert isinstance(params, urlscope.URLSearchParams)
    assert list(params) == [("a", "b ~")] and len(params) == 1 and params.size == 1
    # The standard's note: sort() reserializes the query.
    params.sort()
    assert u.href == "https://example.com/?a=b+%7E"
    params.append("c", "d e")
    params.append("a", "2")
    assert u.search == "?a=b+%7E&c=d+e&a=2"
    assert params.get("a") == "b ~" and params.get_all("a") == ["b ~", "2"]
    assert params.get("zz") is None and params.get_all("zz") == []
    assert params.has("c") and params.has("a", "2") and not params.has("a", "3")
    assert "c" in params and "zz" not in params
    params.set("a", "1")
    assert u.search == "?a=1&c=d+e"
    params.delete("c")
    assert u.href == "https://example.com/?a=1"
    assert str(params) == "a=1" and repr(params) == "URLSearchParams('a=1')"
    params.delete("a")  # an empty list makes the query null: no "?"
    assert u.href == "https://example.com/"
    # The other way: a change of the query shows in the object.
    u.search = "?x=1&x=2"
    assert params.get_all("x") == ["1", "2"]
    assert list(params.keys()) == ["x", "x"] and list(params.values()) == ["1", "2"]
    assert params.items() == [("x", "1"), ("x", "2")]
    # The host analysis reads the edited URL.
    u.search_params.set("q", "1")
    assert u.host_analysis()["host"] == "example.com"


def test_url_search_params_on_their_own():
    assert str(urlscope.URLSearchParams("?a=b&c")) == "a=b&c="
    assert str(urlscope.URLSearchParams("??a=b")) == "%3Fa=b"
    assert str(urlscope.URLSearchParams({"key": "730d67"})) == "key=730d67"
    assert str(urlscope.URLSearchParams([("a", "1"), ("a", "2")])) == "a=1&a=2"
    assert len(urlscope.URLSearchParams()) == 0
    params = urlscope.URLSearchParams("q=🏳️‍🌈&key=e1f7bc78")
    params.sort()
    assert str(params) == "key=e1f7bc78&q=%F0%9F%8F%B3%EF%B8%8F%E2%80%8D%F0%9F%8C%88"
    copied = urlscope.URLSearchParams(params)
    copied.append("z", "1")
    assert params.size == 2 and copied.size == 3
    assert urlscope.URLSearchParams("a=1") == urlscope.URLSearchParams([("a", "1")])
    with pytest.raises(TypeError, match="item 0 of init has 3 items, not 2"):
        urlscope.URLSearchParams([("a", "b", "c")])
    with pytest.raises(TypeError, match="unhashable"):
        hash(params)


def test_the_stubs_type_check_a_usage_file(tmp_path):
    mypy = pytest.importorskip("mypy.api")
    usage = tmp_path / "usage.py"
    usage.write_text(
        "import urlscope\n"
        "u: urlscope.URL = urlscope.URL('https://a/', base=urlscope.URL('https://b/'))\n"
        "u.port = 8080\n"
        "u.port = None\n"
        "u.port = '81'\n"
        "p: urlscope.URLSearchParams = u.search_params\n"
        "p.append('a', 'b')\n"
        "v: str | None = p.get('a')\n"
        "pairs: list[tuple[str, str]] = list(p)\n"
        "n: int = p.size + len(p)\n"
        "version: str = urlscope.__version__\n"
        "w: type[UserWarning] = urlscope.SetterIgnored\n"
        "rows = urlscope.parse_batch(['https://a/'], errors='null', chunk_rows=10)\n"
    )
    out, err, status = mypy.run(["--strict", "--no-incremental", str(usage)])
    assert status == 0, out + err


def test_after_a_setter_errors_and_valid_describe_the_new_url():
    # The standard's setters run the basic URL parser with a state override on the value
    # alone: they do not report the errors of the input the URL was first parsed from. Once a
    # setter changes the URL, errors and valid are those of its new href parsed on its own.
    u = urlscope.URL("http://a/\\b")
    assert [e.type for e in u.errors] == ["invalid-reverse-solidus"] and not u.valid
    u.hash = "x"
    assert u.href == "http://a//b#x"
    assert u.errors == [] and u.valid
    u.username = "user"
    assert u.href == "http://user@a//b#x"
    assert u.errors == urlscope.URL(u.href).errors
    assert [e.type for e in u.errors] == ["invalid-credentials"] and not u.valid
    # An edit of search_params too.
    v = urlscope.URL("http://a/\\b")
    v.search_params.append("q", "1")
    assert v.href == "http://a//b?q=1" and v.valid
    # A setter that leaves the URL as it was leaves its description too.
    w = urlscope.URL("http://a/\\b")
    with pytest.warns(urlscope.SetterIgnored):
        w.port = "99999"
    assert [e.type for e in w.errors] == ["invalid-reverse-solidus"]
    # Pickled, an edited URL is the one its errors describe.
    back = pickle.loads(pickle.dumps(u))
    assert back.href == u.href and back.errors == u.errors and back.valid is False


def test_a_lone_surrogate_is_a_clear_value_error_or_false_never_unicode_encode_error():
    # A str with a lone surrogate is not a string of scalar values (the standard's USVString),
    # and UTF-8 cannot hold it.
    u = urlscope.URL("https://a/")
    calls = {
        "the input": lambda: urlscope.URL("https://a/\ud800"),
        "the input ": lambda: urlscope.parse("https://a/\ud800"),
        "the base": lambda: urlscope.URL("x", base="https://a/\ud800"),
        "the input  ": lambda: urlscope.trace("https://a/\ud800"),
        "the input   ": lambda: urlscope.diff("https://a/\ud800"),
        "the value": lambda: setattr(u, "pathname", "/a/\ud800"),
        "the value ": lambda: setattr(u, "href", "https://a/\ud800"),
        "the value  ": lambda: setattr(u, "port", "\ud800"),
    }
    for what, call in calls.items():
        with pytest.raises(ValueError) as caught:
            call()
        assert not isinstance(caught.value, UnicodeError), what
        assert str(caught.value).startswith(f"{what.strip()}: not valid UTF-8 (a lone surrogate at index"), str(caught.value)
    assert u.href == "https://a/"
    assert urlscope.can_parse("https://a/\ud800") is False
    assert urlscope.can_parse("x", base="https://a/\udc00") is False
    assert urlscope.can_parse("https://a/\U0001f600") is True


def test_trace_and_diff_take_a_url_as_base():
    base = urlscope.URL("https://h/x/y")
    assert urlscope.trace("../z", base=base) == urlscope.trace("../z", base="https://h/x/y")
    assert urlscope.diff("../z", base=base) == urlscope.diff("../z", base="https://h/x/y")
    assert urlscope.diff("../z", base=base)["verdict"] == "agree"
    with pytest.raises(TypeError, match="base must be a URL, a str or None, not int"):
        urlscope.trace("a", base=3)
