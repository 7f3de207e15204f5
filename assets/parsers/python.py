#!/usr/bin/env python3
"""urlscope parser adapter: how Python reads a URL.

Speaks urlscope's adapter protocol (JSON Lines, see docs/diff.md): one hello line, then one
reading per request line, in order. The argument picks the reading:
  urlsplit  urllib.parse.urlsplit(input) (after urljoin(base, input) when a base is given)
  urllib3   urllib3.util.parse_url(input), when urllib3 is importable

The classroom page imports this file as a module in Pyodide (scripts/web-readings/python/) and
calls hello(reading), urlsplit_reading and urllib3_reading itself: the adapter's loop runs only
when the file is run as a program.
"""
import json
import platform
import sys

READING = sys.argv[1] if len(sys.argv) > 1 else "urlsplit"


def text(value):
    return None if value is None else str(value)


def urlsplit_reading(request):
    from urllib.parse import urljoin, urlsplit

    reading = {"failure": False, "error": None}
    target = request["input"]
    base = request.get("base")
    try:
        if base is not None:
            target = urljoin(base, target)
        parts = urlsplit(target)
    except Exception as e:  # the library's own exception is the answer
        return {"failure": True, "error": f"{type(e).__name__}: {e}"}
    errors = []
    for name, getter in (
        ("scheme", lambda: parts.scheme),
        ("username", lambda: parts.username),
        ("password", lambda: parts.password),
        ("host", lambda: parts.hostname),
        ("port", lambda: parts.port),
        ("path", lambda: parts.path),
        ("query", lambda: parts.query),
        ("fragment", lambda: parts.fragment),
    ):
        try:
            reading[name] = text(getter())
        except Exception as e:  # .port raises for a port that is not a number in range
            reading[name] = None
            errors.append(f"{name}: {type(e).__name__}: {e}")
    if errors:
        reading["error"] = "; ".join(errors)
    return reading


def urllib3_reading(request):
    from urllib3.util import parse_url

    if request.get("base") is not None:
        # Not a failure to parse: there is no reading to compare.
        return {"available": False, "failure": False, "error": "urllib3's parse_url does not resolve a base"}
    try:
        u = parse_url(request["input"])
    except Exception as e:
        return {"failure": True, "error": f"{type(e).__name__}: {e}"}
    username = password = None
    if u.auth is not None:
        username, sep, rest = u.auth.partition(":")
        password = rest if sep else None
    return {
        "failure": False,
        "error": None,
        "scheme": text(u.scheme),
        "username": username,
        "password": password,
        "host": text(u.host),
        "port": text(u.port),
        "path": text(u.path),
        "query": text(u.query),
        "fragment": text(u.fragment),
    }


def hello(reading=READING):
    """The hello line's reading of `reading` (the page's worker asks for both readings)."""
    version = platform.python_version()
    if reading == "urllib3":
        try:
            import urllib3
        except ImportError as e:
            return {"available": False, "error": f"urllib3 is not importable: {e}"}
        return {"available": True, "version": f"urllib3 {urllib3.__version__}, Python {version}"}
    if reading != "urlsplit":
        return {"available": False, "error": f"unknown reading {reading!r}"}
    return {"available": True, "version": version}


def main():
    # Inputs carry any code point; the streams must not translate newlines or fail on surrogates.
    stdin = open(sys.stdin.fileno(), "r", encoding="utf-8", newline="\n", errors="surrogatepass")
    out = sys.stdout
    greeting = {"urlscope-adapter": 1}
    greeting.update(hello())
    out.write(json.dumps(greeting) + "\n")
    out.flush()
    if not greeting["available"]:
        return
    read = urllib3_reading if READING == "urllib3" else urlsplit_reading
    for line in stdin:
        if not line.endswith("\n"):
            break
        try:
            request = json.loads(line)
        except ValueError as e:
            out.write(json.dumps({"id": None, "failure": True, "error": f"bad request: {e}"}) + "\n")
            out.flush()
            continue
        reading = read(request)
        reading["id"] = request.get("id")
        out.write(json.dumps(reading) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
