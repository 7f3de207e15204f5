"""The peak resident set of one parse_batch over a large column, in a process of its own.

    .venv/bin/python benches/python/peak_memory.py [ROWS] [FIELDS] [JOBS]

ROWS (5,000,000 by default) URLs are kasztp.txt's lines cycled, as one pyarrow large_string
array; FIELDS is parse_batch's `fields` ("all" for every field, the default). It prints the
peak resident set (ru_maxrss) after building the input and after the batch, and the result's
size in memory (`nbytes`).
"""

import pathlib
import resource
import sys
import time

import numpy
import pyarrow as pa

import urlscope


def peak_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main():
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 5_000_000
    fields = sys.argv[2] if len(sys.argv) > 2 else "all"
    jobs = int(sys.argv[3]) if len(sys.argv) > 3 else None
    here = pathlib.Path(__file__).resolve().parents[2]
    listed = here.parent.parent / "shared" / "bench" / "kasztp.txt"
    if not listed.is_file():
        listed = pathlib.Path("/work/shared/bench/kasztp.txt")
    lines = pa.array(
        [l for l in listed.read_text("utf-8", "replace").splitlines() if l], pa.large_string()
    )
    # Cycled by `take`, so that building the input peaks at little more than the input.
    urls = lines.take(numpy.arange(rows) % len(lines))
    del lines
    before = peak_mib()
    start = time.perf_counter()
    result = urlscope.parse_batch(urls, fields=None if fields == "all" else fields, jobs=jobs)
    took = time.perf_counter() - start
    print(
        f"rows={rows} fields={fields} jobs={jobs}: input {urls.nbytes / 2**20:.0f} MiB, "
        f"result {result.nbytes / 2**20:.0f} MiB; peak RSS {before:.0f} MiB before the batch, "
        f"{peak_mib():.0f} MiB after; {took:.1f} s"
    )


if __name__ == "__main__":
    main()
