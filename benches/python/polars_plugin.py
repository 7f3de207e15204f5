"""Polars' Expr.urlscope against the other ways of getting URL hosts into a Polars column, and a
streaming Parquet-to-Parquet parse with its peak memory.

    scripts/setup-python --release
    .venv/bin/python benches/python/polars_plugin.py [--rows 5000000] [--rounds 3]

Over ROWS URLs (kasztp.txt's lines cycled, one String column of one chunk), each contender runs
once per round, alternated with the others (the order rotates every round), and the median
round is reported, of elapsed time and of CPU time (user and system, all threads), in seconds
and nanoseconds per URL. On a machine that others share, elapsed time counts the waits for a
core and CPU time does not; `uptime` is printed before and after.

- ``pl.col("url").urlscope.host()``, the plugin: in an eager ``select`` (one call on the
  calling thread, as Polars' own string expressions run there) and in a lazy query collected by
  the streaming engine (morsels over Polars' threads);
- ``map_batches`` of ``parse_batch(fields="hostname")`` (all the cores, through Python and
  pyarrow, with ``return_dtype``);
- ``str.extract(r'^[A-Za-z][A-Za-z0-9+.-]*://([^/:?#]*)', 1)``, a regular expression's idea of
  a host, which is not the URL Standard's (no IDNA, IPv4 numbers, percent-decoding, backslashes,
  credentials or ports taken apart): the rows where it differs are counted.

Then, each in a fresh process, the list written to Parquet and read back by
``scan_parquet -> with_columns(parse(fields=...), host()) -> sink_parquet`` (the streaming
engine), and the same query collected in memory and written with ``write_parquet``: elapsed and
CPU time and the peak resident set (VmHWM) of each.
"""

import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXTRACT = r"^[A-Za-z][A-Za-z0-9+.-]*://([^/:?#]*)"
SINK_FIELDS = ["href", "hostname", "errors", "failure"]


# The corpus and its reading, as bench.py (beside this script) finds and reads them.
from bench import kasztp, read_lines  # noqa: E402


def url_frame(rows):
    import polars as pl

    lines = pl.Series("url", read_lines(kasztp()), dtype=pl.String)
    # Cycled by `gather`, into one chunk.
    return pl.DataFrame({"url": lines.gather(pl.int_range(rows, eager=True) % len(lines))})


def cpu():
    t = os.times()
    return t.user + t.system


def peak_mib():
    status = pathlib.Path("/proc/self/status").read_text()
    return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")) / 1024


def sink(mode, source, target):
    """Run in a fresh process: one Parquet-to-Parquet query; prints its times and peak RSS."""
    import polars as pl

    import urlscope.polars  # noqa: F401

    before = peak_mib()
    lf = pl.scan_parquet(source).with_columns(
        parsed=pl.col("url").urlscope.parse(fields=SINK_FIELDS),
        host=pl.col("url").urlscope.host(),
    )
    start, started = time.perf_counter(), cpu()
    if mode == "streaming":
        lf.sink_parquet(target)
    else:
        lf.collect().write_parquet(target)
    print(f"{time.perf_counter() - start} {cpu() - started} {before} {peak_mib()}")


def main():
    args = argparse.ArgumentParser()
    args.add_argument("--rows", type=int, default=5_000_000)
    args.add_argument("--rounds", type=int, default=3)
    args.add_argument("--sink", nargs=3, help=argparse.SUPPRESS)
    opts = args.parse_args()
    if opts.sink:
        return sink(*opts.sink)

    import polars as pl

    import urlscope
    import urlscope.polars  # noqa: F401

    df = url_frame(opts.rows)
    n = df.height
    url = pl.col("url")

    def batches(s):
        return pl.Series(urlscope.parse_batch(s, fields="hostname").field("hostname"))

    contenders = {
        "urlscope.host(), eager select": lambda: df.select(url.urlscope.host()),
        "urlscope.host(), lazy, streaming engine": lambda: df.lazy()
        .select(url.urlscope.host())
        .collect(engine="streaming"),
        "map_batches(parse_batch hostname)": lambda: df.select(url.map_batches(batches, return_dtype=pl.String)),
        "str.extract (a regex, not the standard)": lambda: df.select(url.str.extract(EXTRACT, 1)),
    }
    print(f"polars {pl.__version__}, {n} URLs ({n / 1e6:g} M), {os.cpu_count()} cores")
    print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    names = list(contenders)
    times = {name: [] for name in names}
    results = {}
    for r in range(opts.rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            start, started = time.perf_counter(), cpu()
            results[name] = contenders[name]().to_series()
            times[name].append((time.perf_counter() - start, cpu() - started))
    print(f"{'contender':42s} {'elapsed s':>9s} {'ns/URL':>7s} {'CPU s':>7s} {'ns/URL':>7s}")
    for name in names:
        wall = statistics.median(t for t, _ in times[name])
        used = statistics.median(c for _, c in times[name])
        print(f"{name:42s} {wall:9.2f} {wall / n * 1e9:7.0f} {used:7.2f} {used / n * 1e9:7.0f}")
    plugin = results[names[0]]
    assert plugin.equals(results[names[1]]) and plugin.equals(results[names[2]]), "the plugin's hosts differ"
    differ = (plugin.ne_missing(results[names[3]])).sum()
    print(f"str.extract differs from the URL Standard's host on {differ} of {n} rows ({differ / n:.1%})")

    with tempfile.TemporaryDirectory() as tmp:
        source = pathlib.Path(tmp) / "urls.parquet"
        df.write_parquet(source)
        size = source.stat().st_size
        del df, results, plugin
        print(f"\nscan_parquet -> with_columns(parse(fields={SINK_FIELDS}), host()) -> Parquet, {n} rows, input {size / 2**20:.0f} MiB:")
        for mode in ("streaming", "in-memory"):
            target = pathlib.Path(tmp) / f"{mode}.parquet"
            done = subprocess.run(
                [sys.executable, __file__, "--sink", mode, str(source), str(target)],
                capture_output=True,
                text=True,
                check=True,
            )
            wall, used, before, peak = (float(x) for x in done.stdout.split())
            how = "sink_parquet (streaming)" if mode == "streaming" else "collect() + write_parquet"
            print(
                f"  {how:27s} {wall:6.2f} s elapsed, {used:6.2f} s CPU, peak RSS {peak:5.0f} MiB "
                f"({before:.0f} MiB before the query); output {target.stat().st_size / 2**20:.0f} MiB"
            )
    print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
