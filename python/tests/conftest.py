"""What the tests share: the command line to compare with, and the URL lists to read.

tests/python.rs runs these tests from `cargo test` and says where things are:
URLSCOPE_BIN (the command line built by that run), URLSCOPE_URL_LIST (kasztp.txt, one URL a
line) or, without ../shared, URLSCOPE_URLTESTDATA (the ada-url package's urltestdata.json).
Run by hand, they are looked for in the usual places.
"""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _first(*paths):
    for p in paths:
        if p and pathlib.Path(p).is_file():
            return pathlib.Path(p)
    return None


@pytest.fixture(scope="session")
def cli():
    """Runs the command line with `args` on `stdin`; its standard output's lines."""
    binary = _first(os.environ.get("URLSCOPE_BIN"), ROOT / "target" / "debug" / "urlscope")
    if binary is None:
        pytest.skip("no urlscope binary (cargo build, or URLSCOPE_BIN)")

    def run(args, stdin=b"", check=True, env=None):
        done = subprocess.run([str(binary), *args], input=stdin, capture_output=True, timeout=600, env=env)
        if check and done.returncode not in (0, 1):
            raise AssertionError(f"urlscope {args} exited {done.returncode}: {done.stderr[-2000:]!r}")
        return done.stdout.decode("utf-8").splitlines()

    return run


@pytest.fixture(scope="session")
def url_list():
    """(name, [(input, base)]): kasztp.txt's URLs, or urltestdata.json's cases."""
    bench = os.environ.get("URLSCOPE_BENCH_DIR")
    listed = _first(
        os.environ.get("URLSCOPE_URL_LIST"),
        bench and pathlib.Path(bench) / "kasztp.txt",
        ROOT.parent / "shared" / "bench" / "kasztp.txt",
    )
    if listed is not None:
        lines = listed.read_bytes().split(b"\n")
        inputs = []
        for line in lines:
            if line.endswith(b"\r"):
                line = line[:-1]
            try:
                inputs.append((line.decode("utf-8"), None))
            except UnicodeDecodeError:
                continue
        if inputs and inputs[-1][0] == "":
            inputs.pop()
        return listed.name, inputs
    data = _first(os.environ.get("URLSCOPE_URLTESTDATA"))
    if data is None:
        pytest.skip("no URL list: neither kasztp.txt nor urltestdata.json")
    cases = [c for c in json.loads(data.read_text(encoding="utf-8")) if isinstance(c, dict)]
    return data.name, [(c["input"], c.get("base")) for c in cases]
