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

``--bounded`` runs that query over a file larger than the memory the process may use:

    .venv/bin/python benches/python/polars_plugin.py --bounded [--bounded-rows 53000000] [--limit-mib 2048]

A Parquet file of ``--bounded-rows`` distinct URLs (kasztp.txt's lines cycled, each with
``#row=N`` after it, uncompressed: about 61 bytes a row, 3.0 GiB by default) is written, then
the streaming ``sink_parquet`` and ``collect()`` + ``write_parquet`` each run in a fresh process
whose private writable memory (heap, malloc's arenas, anonymous maps: RLIMIT_DATA, set before
Polars is imported) is limited to ``--limit-mib``, less than the file. Not RLIMIT_AS: Polars
maps the whole input file read-only (one ``mmap`` of its size), which an address-space limit
counts and refuses before a row is read, while its pages are the kernel's page cache, not the
query's memory. The data limit counts address space reserved too, not only memory touched:
glibc reserves 64 MiB for each thread's malloc arena (up to 8 a core), so both runs have
``MALLOC_ARENA_MAX=2``. Printed: whether each completed, its peak resident set (VmHWM, which
counts the pages of the mapped input read so far, as long as the kernel keeps them) and peak
address space (VmPeak, the input's map included), its times, and the rows written. (``collect()``
is not run without the limit: it holds the input and the result at once, over 4 times the file
at 8 million rows.)
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


def peak_vm_mib():
    status = pathlib.Path("/proc/self/status").read_text()
    return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmPeak:")) / 1024


def sink(mode, source, target, limit_mib=0):
    """Run in a fresh process: one Parquet-to-Parquet query, its private writable memory limited
    to `limit_mib` if not 0; prints its times, its peak RSS and its peak address space."""
    if int(limit_mib):
        import resource

        limit = int(limit_mib) << 20
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))

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
    print(f"{time.perf_counter() - start} {cpu() - started} {before} {peak_mib()} {peak_vm_mib()}")


def distinct_urls(path, rows):
    """`rows` distinct URLs into an uncompressed Parquet file, 4 million rows at a time:
    kasztp.txt's lines cycled, each with `#row=N` after it (no dictionary can shrink them)."""
    import polars as pl
    import pyarrow as pa
    import pyarrow.parquet as pq

    lines = pl.Series("url", read_lines(kasztp()), dtype=pl.String)
    step = 4_000_000
    with pq.ParquetWriter(
        path, pa.schema([("url", pa.large_string())]), compression="NONE", use_dictionary=False, write_statistics=False
    ) as out:
        for start in range(0, rows, step):
            i = pl.int_range(start, min(rows, start + step), eager=True)
            piece = pl.DataFrame({"url": lines.gather(i % len(lines))}).with_columns(
                pl.concat_str([pl.col("url"), pl.lit("#row="), pl.Series(i).cast(pl.String)])
            )
            out.write_table(piece.to_arrow(), row_group_size=125_000)


def bounded(rows, limit_mib):
    """The streaming query over a file larger than the memory the process may take."""
    import polars as pl

    print(f"polars {pl.__version__}, {os.cpu_count()} cores")
    print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    with tempfile.TemporaryDirectory(dir=os.environ.get("URLSCOPE_BENCH_TMP")) as tmp:
        source = pathlib.Path(tmp) / "urls.parquet"
        distinct_urls(source, rows)
        size = source.stat().st_size / 2**20
        print(
            f"\nscan_parquet -> with_columns(parse(fields={SINK_FIELDS}), host()) -> Parquet, "
            f"{rows:,} distinct URLs, input {size:,.0f} MiB; limit: {limit_mib:,} MiB of private writable "
            f"memory (RLIMIT_DATA), MALLOC_ARENA_MAX=2\n"
        )
        assert limit_mib < size, "the limit must be smaller than the input file"
        print("| query | limit | completed | elapsed s | CPU s | peak RSS | peak address space | rows written |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for mode, limit in [("streaming", limit_mib), ("in-memory", limit_mib)]:
            target = pathlib.Path(tmp) / f"{mode}.parquet"
            done = subprocess.run(
                [sys.executable, __file__, "--sink", mode, str(source), str(target), str(limit)],
                capture_output=True,
                text=True,
                env={**os.environ, "MALLOC_ARENA_MAX": "2"},
            )
            how = "sink_parquet (streaming)" if mode == "streaming" else "collect() + write_parquet"
            bound = f"{limit:,} MiB" if limit else "none"
            if done.returncode != 0:
                lines = [l for l in done.stderr.splitlines() if l.strip() and not l.startswith(" ")]
                said = [l for l in lines if "memory allocation" in l or "Error" in l]
                why = (said or lines or [f"exit status {done.returncode}"])[-1]
                print(f"| {how} | {bound} | no: {why[:90]} | | | | | |")
                continue
            wall, used, _, peak, vm = (float(x) for x in done.stdout.split())
            written = pl.scan_parquet(target).select(pl.len()).collect().item()
            target.unlink()
            print(
                f"| {how} | {bound} | yes | {wall:.1f} | {used:.1f} | {peak:,.0f} MiB | {vm:,.0f} MiB | {written:,} |"
            )
            assert written == rows, (written, rows)
    print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


def main():
    args = argparse.ArgumentParser()
    args.add_argument("--rows", type=int, default=5_000_000)
    args.add_argument("--rounds", type=int, default=3)
    args.add_argument("--sink", nargs="+", help=argparse.SUPPRESS)
    args.add_argument("--bounded", action="store_true", help="only the streaming query under a memory limit")
    args.add_argument("--bounded-rows", type=int, default=53_000_000)
    args.add_argument("--limit-mib", type=int, default=2048)
    opts = args.parse_args()
    if opts.sink:
        return sink(*opts.sink)
    if opts.bounded:
        return bounded(opts.bounded_rows, opts.limit_mib)

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
