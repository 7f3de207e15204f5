"""The Python package's speed and memory, against the Python URL parsers and the command line.

    scripts/setup-python --release
    cargo build --release            # the command line, for the parse --json contender
    .venv/bin/python benches/python/bench.py [--rounds 3] [--copies 10]

Over kasztp.txt repeated `--copies` times (10: 480k URLs), each contender runs once per round,
alternated with the others (the order rotates every round), and the median round is reported
in nanoseconds per URL, of elapsed time and of CPU time (user and system, all threads; for the
command line, its process's). On a machine that others share, elapsed time counts the waits
for a core and CPU time does not; `uptime` is printed before and after.
`--only REGEX` runs the contenders whose name matches.

- parse_batch with the href field only, on one thread and on two, against loops of
  ``can_ada.parse(s).href``, ``ada_url.URL(s).href`` and ``urllib.parse.urlsplit(s).geturl()``
  (each loop catches its parser's error for an input that is not a URL);
- parse_batch with every field (errors, host analysis, writing) against the command line's
  ``parse --json`` of the same lines (its time includes reading and writing text).

Then peak memory (the peak resident set, VmHWM, of a fresh process) of parse_batch over every field, fed the list in
batches of 65,536 URLs, for 1x and 10x `--copies` (480k and 4.8M URLs).
"""

import argparse
import os
import re
import resource
import pathlib
import statistics
import subprocess
import sys
import time
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parents[2]


def kasztp():
    bench = os.environ.get("URLSCOPE_BENCH_DIR")
    for p in [bench and pathlib.Path(bench) / "kasztp.txt", ROOT.parent / "shared" / "bench" / "kasztp.txt"]:
        if p and p.is_file():
            return p
    sys.exit("kasztp.txt not found: set URLSCOPE_BENCH_DIR")


def read_lines(path):
    lines = []
    for raw in path.read_bytes().split(b"\n"):
        raw = raw[:-1] if raw.endswith(b"\r") else raw
        try:
            lines.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            pass
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def can_ada_loop(urls):
    import can_ada

    parse = can_ada.parse
    for s in urls:
        try:
            parse(s).href
        except ValueError:
            pass


def ada_url_loop(urls):
    from ada_url import URL

    for s in urls:
        try:
            URL(s).href
        except ValueError:
            pass


def urllib_loop(urls):
    split = urllib.parse.urlsplit
    for s in urls:
        try:
            split(s).geturl()
        except ValueError:
            pass


def peak_memory(copies, batch=65536):
    """Run in a fresh process: the max RSS after parsing the list `copies` times over."""
    import pyarrow as pa

    import urlscope

    lines = read_lines(kasztp())
    rows = 0
    for _ in range(copies):
        for start in range(0, len(lines), batch):
            rows += len(urlscope.parse_batch(pa.array(lines[start : start + batch])))
    # VmHWM is this process image's peak; getrusage's ru_maxrss would carry the parent's
    # over fork and exec.
    status = pathlib.Path("/proc/self/status").read_text()
    kib = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:"))
    print(f"{rows} {kib}")


def main():
    args = argparse.ArgumentParser()
    args.add_argument("--rounds", type=int, default=3)
    args.add_argument("--copies", type=int, default=10)
    args.add_argument("--cli", default=str(ROOT / "target" / "release" / "urlscope"))
    args.add_argument("--only", help="run the contenders whose name matches this regex")
    args.add_argument("--peak-memory", type=int, help=argparse.SUPPRESS)
    opts = args.parse_args()
    if opts.peak_memory:
        return peak_memory(opts.peak_memory)

    import pyarrow as pa

    import urlscope

    path = kasztp()
    lines = read_lines(path)
    urls = lines * opts.copies
    array = pa.array(urls, pa.large_string())
    text = ("\n".join(urls) + "\n").encode()
    n = len(urls)

    def cli(jobs):
        return lambda: subprocess.run(
            [opts.cli, "parse", "--json", "--jobs", str(jobs)],
            input=text,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    contenders = {
        "parse_batch href, 1 thread": lambda: urlscope.parse_batch(array, fields="href", jobs=1),
        "parse_batch href, 2 threads": lambda: urlscope.parse_batch(array, fields="href", jobs=2),
        "can_ada.parse(s).href loop": lambda: can_ada_loop(urls),
        "ada_url.URL(s).href loop": lambda: ada_url_loop(urls),
        "urllib.parse.urlsplit(s).geturl() loop": lambda: urllib_loop(urls),
        "parse_batch all fields, 1 thread": lambda: urlscope.parse_batch(array, jobs=1),
        "parse_batch all fields, 2 threads": lambda: urlscope.parse_batch(array, jobs=2),
    }
    if pathlib.Path(opts.cli).is_file():
        contenders["urlscope parse --json --jobs 1"] = cli(1)
        contenders["urlscope parse --json --jobs 2"] = cli(2)
    else:
        print(f"(no {opts.cli}: cargo build --release for the command line's figures)")

    if opts.only:
        contenders = {k: v for k, v in contenders.items() if re.search(opts.only, k)}
    names = list(contenders)
    times = {name: [] for name in names}
    cpu_times = {name: [] for name in names}

    def cpu():
        own = resource.getrusage(resource.RUSAGE_SELF)
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    print(f"uptime:{os.popen('uptime').read().split('up', 1)[-1].rstrip()}")
    for r in range(opts.rounds):
        order = names[r % len(names):] + names[: r % len(names)]
        for name in order:
            cpu_start, start = cpu(), time.perf_counter()
            contenders[name]()
            times[name].append(time.perf_counter() - start)
            cpu_times[name].append(cpu() - cpu_start)
    print(f"uptime:{os.popen('uptime').read().split('up', 1)[-1].rstrip()}")

    print(f"{path.name} x{opts.copies}: {n} URLs, {opts.rounds} alternated rounds, median per URL")
    print(f"  {'':42} {'elapsed':>8} {'CPU':>8}")
    median = {name: statistics.median(t) / n * 1e9 for name, t in times.items()}
    median_cpu = {name: statistics.median(t) / n * 1e9 for name, t in cpu_times.items()}
    for name in names:
        print(f"  {name:42} {median[name]:5.0f} ns {median_cpu[name]:5.0f} ns")
    ratio = lambda a, b: median[b] / median[a]
    print("ratios (elapsed):")
    if {"parse_batch href, 1 thread", "can_ada.parse(s).href loop"} <= median.keys():
        print(f"  can_ada loop / parse_batch href 1 thread   {ratio('parse_batch href, 1 thread', 'can_ada.parse(s).href loop'):.2f}x (target >= 1.5)")
    if {"parse_batch href, 2 threads", "can_ada.parse(s).href loop"} <= median.keys():
        print(f"  can_ada loop / parse_batch href 2 threads  {ratio('parse_batch href, 2 threads', 'can_ada.parse(s).href loop'):.2f}x (target >= 2.5)")
    if {"parse_batch href, 1 thread", "ada_url.URL(s).href loop"} <= median.keys():
        print(f"  ada_url loop / parse_batch href 1 thread   {ratio('parse_batch href, 1 thread', 'ada_url.URL(s).href loop'):.2f}x (target >= 10)")
    for j in (1, 2):
        cli = f"urlscope parse --json --jobs {j}"
        ours = f"parse_batch all fields, {j} thread{'s' if j > 1 else ''}"
        if {cli, ours} <= median.keys():
            print(f"  parse --json / full parse_batch, {j} job(s)   {median[cli] / median[ours]:.2f}x"
                  f" (CPU {median_cpu[cli] / median_cpu[ours]:.2f}x) (target >= 1)")
    if opts.only:
        return

    print("peak memory of full parse_batch, batches of 65,536 URLs:")
    for copies in (1, 10):
        out = subprocess.run(
            [sys.executable, __file__, "--peak-memory", str(copies * opts.copies)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        print(f"  {int(out[0]):>9} URLs: {int(out[1]) / 1024:.0f} MiB peak resident set")


if __name__ == "__main__":
    main()
