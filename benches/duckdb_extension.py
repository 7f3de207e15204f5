"""The DuckDB extension's speed and memory, against the Python package's DuckDB route and a
regular expression.

    scripts/duckdb-extension          # the release build: target/duckdb/urlscope.duckdb_extension
    scripts/setup-python --release    # the Python route's contender
    .venv/bin/python benches/duckdb_extension.py [--rows 5000000] [--rounds 3] [--threads N]

A table of `--rows` URLs (kasztp.txt repeated, 48,010 web URLs) is made in an in-memory
database, then each contender runs its query once per round, alternated with the others (the
order rotates every round); the median round is reported in nanoseconds per URL, of elapsed
time and of CPU time (user and system, every thread of this process: DuckDB runs in it, on
`--threads` threads, all the cores by default). `uptime` is printed before and after: on a
machine that others share, elapsed time counts the waits for a core and CPU time does not.
`--only REGEX` runs the contenders whose name matches.

- `SELECT count(urlscope_host(url))`: the extension's hostname;
- the same through the Python package's route, `urlscope.duckdb_register` with the hostname
  field (an Arrow UDF: DuckDB hands Python a vector at a time, parse_batch answers);
- `regexp_extract(url, '^[A-Za-z][A-Za-z0-9+.-]*://([^/:?#]*)', 1)`: what a query does without
  a URL parser (it is not the URL Standard's host: no userinfo, case, IDNA, IPv4 forms, `\\`);
- the extension's other functions: href, registrable domain, valid, the whole parse, check
  without a gate and with one (`['example.com']` and deny_internal: five parsers read a row).

Then peak memory (the peak resident set, VmHWM, of a fresh process) of the whole parse of the
table, `urlscope_parse(url)`, beside the same process's peak before the query (the table
itself): counted (`SELECT count(urlscope_parse(url))`: each struct made and let go), read as a
client streams a result (Arrow batches of 65,536 rows, each let go) and read whole (one Arrow
table); and the same for the Python route with every field and for a control, a struct of
DuckDB's own functions. Each is set beside the result's size (its Arrow buffers) and the
issue's bound, that size plus a chunk's worth (2,048 rows) per thread.

(Not benches/duckdb.py: run as a script, that name would be imported as the duckdb module.)
"""

import argparse
import os
import pathlib
import re
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
HOST_REGEX = "^[A-Za-z][A-Za-z0-9+.-]*://([^/:?#]*)"
# The memory control: a struct of strings, a list and a number a row made by DuckDB alone, so
# that what DuckDB itself holds beyond a result's size is seen beside the extension's.
BUILTIN_STRUCT = (
    "{'a': url, 'b': url || url || url, 'c': string_split(url, '/'), "
    "'d': url || 'xxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'e': length(url)}"
)


# The corpus and its reading, as benches/python/bench.py finds and reads them.
sys.path.insert(0, str(ROOT / "benches" / "python"))
from bench import kasztp, read_lines  # noqa: E402


def connect(extension, rows, threads):
    """An in-memory database with the extension loaded and the table `urls(url)` of `rows` URLs."""
    import duckdb
    import pyarrow as pa

    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    if threads:
        con.execute(f"SET threads = {int(threads)}")
    con.execute(f"LOAD '{extension}'")
    lines = read_lines(kasztp())
    con.register("lines", pa.table({"url": pa.array(lines, pa.string())}))
    copies = -(-rows // len(lines))
    con.execute(f"CREATE TABLE urls AS SELECT url FROM lines, range({copies}) LIMIT {rows}")
    con.unregister("lines")
    return con


def vmhwm_kib():
    for line in pathlib.Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def cpu_seconds():
    t = os.times()
    return t.user + t.system


def contenders(con):
    import urlscope

    urlscope.duckdb_register(con, "python_hostname", fields=["hostname"])

    def query(sql):
        return lambda: con.execute(sql).fetchall()

    return [
        ("urlscope_host (extension)", query("SELECT count(urlscope_host(url)) FROM urls")),
        (
            "hostname via urlscope.duckdb_register (Python UDF)",
            query("SELECT count(python_hostname(url).hostname) FROM urls"),
        ),
        ("regexp_extract (no parser)", query(f"SELECT count(regexp_extract(url, '{HOST_REGEX}', 1)) FROM urls")),
        ("urlscope_href", query("SELECT count(urlscope_href(url)) FROM urls")),
        ("urlscope_registrable_domain", query("SELECT count(urlscope_registrable_domain(url)) FROM urls")),
        ("urlscope_valid", query("SELECT count(urlscope_valid(url)) FROM urls")),
        ("urlscope_parse (every field)", query("SELECT count(urlscope_parse(url)) FROM urls")),
        ("urlscope_check (no gate)", query("SELECT count(urlscope_check(url)) FROM urls")),
        (
            "urlscope_check with a gate (five parsers read)",
            query("SELECT count(urlscope_check(url, ['example.com'], true)) FROM urls"),
        ),
    ]


def speed(args):
    con = connect(args.extension, args.rows, args.threads)
    threads = con.execute("SELECT current_setting('threads')").fetchall()[0][0]
    print(f"{args.rows:,} URLs (kasztp.txt repeated), DuckDB {__import__('duckdb').__version__}, {threads} threads")
    chosen = [(n, f) for n, f in contenders(con) if not args.only or re.search(args.only, n)]
    times = {n: [] for n, _ in chosen}
    for r in range(args.rounds):
        order = chosen[r % len(chosen) :] + chosen[: r % len(chosen)]
        for name, run in order:
            wall, cpu = time.perf_counter(), cpu_seconds()
            run()
            times[name].append((time.perf_counter() - wall, cpu_seconds() - cpu))
    print(f"\n| contender | ns/URL elapsed | ns/URL CPU | rounds |\n| --- | --- | --- | --- |")
    for name, _ in chosen:
        wall = statistics.median(t[0] for t in times[name]) * 1e9 / args.rows
        cpu = statistics.median(t[1] for t in times[name]) * 1e9 / args.rows
        print(f"| {name} | {wall:,.0f} | {cpu:,.0f} | {len(times[name])} |")


def memory_child(extension, rows, threads, route, read):
    """Run in a fresh process: the peak resident set before and after the whole parse of the
    table, either counted (`count`: each row's struct made and let go), read as a client
    streams a result (`stream`: Arrow batches of 65,536 rows, each let go) or read whole
    (`table`: one Arrow table, kept until the peak is read). Prints the peaks in KiB and the
    result's size in bytes (its Arrow buffers; for `count`, the size the same rows have when
    read whole, measured on a 65,536-row slice and scaled)."""
    con = connect(extension, rows, threads)
    if route == "python":
        import urlscope

        urlscope.duckdb_register(con, "python_parse")
        call = "python_parse(url)"
    elif route == "builtin":
        call = BUILTIN_STRUCT
    else:
        call = "urlscope_parse(url)"
    before = vmhwm_kib()
    if read == "count":
        (counted,) = con.execute(f"SELECT count({call}) FROM urls").fetchall()[0]
        assert counted == rows, (counted, rows)
        after = vmhwm_kib()
        # The table is kasztp.txt over and over: a slice's size per row is the whole's.
        sample = min(rows, 65536)
        size = con.sql(f"SELECT {call} FROM urls LIMIT {sample}").to_arrow_table().nbytes * rows // sample
    elif read == "stream":
        seen = size = 0
        for batch in con.sql(f"SELECT {call} FROM urls").to_arrow_reader(65536):
            seen += batch.num_rows
            size += batch.nbytes
        assert seen == rows, (seen, rows)
        after = vmhwm_kib()
    else:
        table = con.sql(f"SELECT {call} FROM urls").to_arrow_table()
        assert table.num_rows == rows, (table.num_rows, rows)
        size = table.nbytes
        after = vmhwm_kib()
        del table
    print(before, after, size)


def memory(args):
    """The issue's bound: the peak over the table's may be the result's size plus a chunk's
    worth of it (2,048 rows, DuckDB's vector size) per thread. The result's size is what its
    rows take as Arrow buffers, the form a client reads them in; a chunk's worth is that size
    over the rows times 2,048."""
    import duckdb

    con = duckdb.connect()
    if args.threads:
        con.execute(f"SET threads = {int(args.threads)}")
    threads = con.execute("SELECT current_setting('threads')").fetchall()[0][0]
    con.close()
    print(
        f"\nPeak resident set (VmHWM) of a fresh process, {threads} threads\n\n"
        "| query | read | rows | peak before (the table) | peak after | more | result's size | "
        "bound: result + 2,048 rows x threads | within |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    )
    routes = [
        ("extension", "urlscope_parse(url)"),
        ("python", "python_parse(url) (duckdb_register)"),
        ("builtin", "a struct of DuckDB's own functions (the control)"),
    ]
    reads = {"count": "count(...)", "stream": "Arrow batches of 65,536", "table": "one Arrow table"}
    for route, label in routes:
        if args.only and not re.search(args.only, label):
            continue
        for read, how in reads.items():
            done = subprocess.run(
                [sys.executable, __file__, "--memory-child", route, "--read", read, "--rows", str(args.rows)]
                + ["--extension", args.extension]
                + (["--threads", str(args.threads)] if args.threads else []),
                capture_output=True,
                text=True,
                check=True,
            )
            before, after, size = (int(x) for x in done.stdout.split())
            more = (after - before) * 1024
            bound = size + size * 2048 * int(threads) // args.rows
            print(
                f"| `{label}` | {how} | {args.rows:,} | {mib(before * 1024)} | {mib(after * 1024)} "
                f"| {mib(more)} | {mib(size)} | {mib(bound)} | {'yes' if more <= bound else 'no'} |"
            )


def mib(n):
    return f"{n / 2**20:,.0f} MiB" if n >= 2**20 else f"{n / 2**20:,.2f} MiB"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=5_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=0, help="DuckDB's threads (0: its default, every core)")
    parser.add_argument("--only", default="")
    parser.add_argument("--extension", default=str(ROOT / "target" / "duckdb" / "urlscope.duckdb_extension"))
    parser.add_argument("--no-speed", action="store_true", help="only the peak memory")
    parser.add_argument("--no-memory", action="store_true", help="only the speed")
    parser.add_argument("--memory-child", choices=["extension", "python", "builtin"])
    parser.add_argument("--read", choices=["count", "stream", "table"], default="count")
    args = parser.parse_args()
    if args.memory_child:
        memory_child(args.extension, args.rows, args.threads, args.memory_child, args.read)
        return
    if not pathlib.Path(args.extension).is_file():
        sys.exit(f"no extension at {args.extension}: scripts/duckdb-extension builds it")
    print("uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    if not args.no_speed:
        speed(args)
    if not args.no_memory:
        memory(args)
    print("\nuptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
