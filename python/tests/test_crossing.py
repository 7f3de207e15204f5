"""What crosses to another process: the exceptions and the value objects pickle, so that an
error raised in a multiprocessing worker is raised in the parent as itself, and a URL arrives
with the errors (and so the validity) of the parse that made it."""

import multiprocessing
import pickle

import pytest

import urlscope

PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)


def raised(call):
    with pytest.raises(urlscope.URLError) as caught:
        call()
    return caught.value


def test_a_url_error_pickles_with_everything_it_says():
    for error in (
        raised(lambda: urlscope.parse("https://exa mple.com/")),
        raised(lambda: urlscope.parse("not a url")),
        raised(lambda: urlscope.URL("a", base="b")),
    ):
        for protocol in PROTOCOLS:
            back = pickle.loads(pickle.dumps(error, protocol))
            assert type(back) is urlscope.URLError and str(back) == str(error)
            assert back.errors == error.errors != []
            for name in ("step", "span", "explanation", "fix"):
                assert getattr(back, name) == getattr(error, name), name
    assert raised(lambda: urlscope.parse("https://exa mple.com/")).fix == "https://example.com/"


def test_validation_errors_and_findings_pickle_equal():
    errors = urlscope.parse("..\\c", base="http://h/a/b").errors
    findings = urlscope.URL("https://user@аpple.com/").findings()
    assert errors and len(findings) >= 2
    for protocol in PROTOCOLS:
        assert pickle.loads(pickle.dumps(errors, protocol)) == errors
        back = pickle.loads(pickle.dumps(findings, protocol))
        assert back == findings
        assert [(f.id, f.severity, f.title, f.detail) for f in back] == [
            (f.id, f.severity, f.title, f.detail) for f in findings
        ]
    [e] = errors
    assert pickle.loads(pickle.dumps(e)).message == e.message != ""


def test_a_pickled_url_keeps_its_errors_and_validity():
    cases = [
        urlscope.URL("http://a/\\b"),
        urlscope.URL("https:\\\\a/"),
        urlscope.parse("..\\c", base="http://h/a/b"),
        urlscope.parse("HTTPS://USER@EXAMPLE.COM/?ä", encoding="windows-1252"),
        urlscope.URL("https://a/"),
    ]
    assert [u.valid for u in cases] == [False, False, False, False, True]
    for u in cases:
        for protocol in PROTOCOLS:
            back = pickle.loads(pickle.dumps(u, protocol))
            assert back.href == u.href
            assert back.errors == u.errors and back.valid == u.valid, u.href
            assert back.host_analysis() == u.host_analysis()
    # The query's encoding is kept: the input parsed again with UTF-8 would be %C3%A4.
    assert cases[3].search == "?%E4"


def test_pool_map_raises_url_error_in_the_parent():
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        with pytest.raises(urlscope.URLError) as caught:
            pool.map(urlscope.parse, ["https://a/", "not a url"])
        assert [e.type for e in caught.value.errors] == ["missing-scheme-non-relative-URL"]
        urls = pool.map(urlscope.parse, ["https://a/", "http://a/\\b"])
    assert [u.href for u in urls] == ["https://a/", "http://a//b"]
    assert [u.valid for u in urls] == [True, False]
    assert [e.type for e in urls[1].errors] == ["invalid-reverse-solidus"]
