#!/usr/bin/env bash
# Peak memory and output of one hostile line: for each shape, a line of SIZE bytes (16 MiB by
# default, the command line's limit) through `parse --json` and `parse` (text), with the peak
# resident set size from /usr/bin/time -v and the bytes written. Memory and output should stay
# within a small multiple of the line, whatever it repeats (benches/README.md has the figures).
#
#   benches/hostile_memory.sh [BINARY] [SIZE]
set -euo pipefail
binary=${1:-target/release/urlscope}
size=${2:-16777216}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" "$size" <<'PY'
import sys
work, size = sys.argv[1], int(sys.argv[2])
shapes = {
    "percent": ("https://h/", "%"),
    "dotdot": ("https://h/", "../"),
    "tab": ("https://h/", "\t"),
    "labels": ("https://", "a."),
}
for name, (head, unit) in shapes.items():
    body = unit * ((size - len(head)) // len(unit))
    with open(f"{work}/{name}", "w") as f:
        f.write(head + body + "\n")
PY
printf '%-8s %-12s %10s %14s %14s\n' shape mode seconds "peak RSS MB" "output MB"
for shape in percent dotdot tab labels; do
  for mode in json text; do
    args=(parse --jobs 1)
    [ "$mode" = json ] && args+=(--json)
    /usr/bin/time -v -o "$work/time" "$binary" "${args[@]}" < "$work/$shape" > "$work/out" 2>/dev/null || true
    rss=$(awk -F: '/Maximum resident set size/ {print $2}' "$work/time")
    secs=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time")
    out=$(stat -c %s "$work/out")
    printf '%-8s %-12s %10s %14.1f %14.1f\n' "$shape" "$mode" "$secs" "$(echo "$rss/1024" | bc -l)" "$(echo "$out/1048576" | bc -l)"
  done
done
