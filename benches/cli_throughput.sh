#!/usr/bin/env bash
# The command line's batch throughput on kasztp.txt repeated ten times, side by side with the
# same loops in Node (new URL(line).href, and JSON.stringify of the eleven getters), and the
# peak memory at ten and a hundred repetitions.
#
#   benches/cli_throughput.sh            # builds the release binary first
#   BIN=path/to/urlscope benches/cli_throughput.sh
#   BEFORE=path/to/older/urlscope ...    # adds rows for an older binary, run with its defaults
#   ROUNDS=3 ...                         # best of three runs per row (default 1)
#   LARGE=0 ...                          # skips the 4.8M-line memory rows
#   INSTRUCTIONS=1 ...                   # adds instructions per line (callgrind, one thread)
#
# The corpus is read from $URLSCOPE_BENCH_DIR, else ../shared/bench. Times are wall clock
# (best of ROUNDS); each row runs its command and the Node loop of the same kind in turns, and
# its ratios are to that Node loop's fastest run among them. The load average is printed before
# and after: on a machine others share, the --jobs 2 rows need a second core that is free.
# Instruction counts (valgrind's callgrind over kasztp.txt once, --jobs 1, the whole process
# divided by its lines) do not depend on the load: they compare two builds where times cannot.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
bench_dir=${URLSCOPE_BENCH_DIR:-$here/../shared/bench}
rounds=${ROUNDS:-1}
if [[ -z ${BIN:-} ]]; then
    cargo build --release --bin urlscope --manifest-path "$here/Cargo.toml" >&2
    BIN=$here/target/release/urlscope
fi
command -v node >/dev/null || { echo "node is needed for the comparison" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time (GNU time) is needed for peak memory" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for _ in $(seq 10); do cat "$bench_dir/kasztp.txt"; done >"$work/x10.txt"
lines=$(wc -l <"$work/x10.txt")

cat >"$work/href.js" <<'EOF'
const lines = require('fs').readFileSync(0, 'utf8').split('\n');
if (lines[lines.length - 1] === '') lines.pop();
const out = [];
for (const line of lines) {
  try { out.push(new URL(line).href); } catch { }
}
process.stdout.write(out.join('\n') + '\n');
EOF
cat >"$work/json.js" <<'EOF'
const lines = require('fs').readFileSync(0, 'utf8').split('\n');
if (lines[lines.length - 1] === '') lines.pop();
const out = [];
for (const line of lines) {
  try {
    const u = new URL(line);
    out.push(JSON.stringify({
      href: u.href, origin: u.origin, protocol: u.protocol, username: u.username,
      password: u.password, host: u.host, hostname: u.hostname, port: u.port,
      pathname: u.pathname, search: u.search, hash: u.hash,
    }));
  } catch { }
}
process.stdout.write(out.join('\n') + '\n');
EOF

# Runs "$@" on $1's input ROUNDS times; prints "seconds peak_kib cpu_seconds" of the fastest
# run (wall clock; CPU is user + system, which a machine shared with other work inflates less).
measure() {
    local input=$1; shift
    local best="" rss="" cpu=""
    for _ in $(seq "$rounds"); do
        # GNU time puts "Command exited with non-zero status" first when it did.
        /usr/bin/time -f '%e %M %U %S' -o "$work/time" "$@" <"$input" >/dev/null 2>"$work/err" || true
        read -r t m u s < <(tail -n 1 "$work/time")
        if [[ -z $best ]] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$t rss=$m cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
        fi
    done
    echo "$best $rss $cpu"
}

# Runs "$@" and the Node loop $1 alternately, ROUNDS times each; prints "seconds peak_kib
# cpu_seconds node_seconds node_cpu_seconds", each the fastest run's. Taken in turns, the two
# see the same state of the machine, whose speed drifts between runs.
alternate() {
    local js=$1; shift
    local best="" rss="" cpu="" node_best="" node_cpu=""
    for _ in $(seq "$rounds"); do
        read -r nt _ ncpu < <(rounds=1 measure "$work/x10.txt" node "$work/$js")
        if [[ -z $node_best ]] || awk -v a="$nt" -v b="$node_best" 'BEGIN { exit !(a < b) }'; then
            node_best=$nt node_cpu=$ncpu
        fi
        read -r t m c < <(rounds=1 measure "$work/x10.txt" "$@")
        if [[ -z $best ]] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$t rss=$m cpu=$c
        fi
    done
    echo "$best $rss $cpu $node_best $node_cpu"
}

row() { # label, the Node loop to alternate with (href.js or json.js), then the command
    local label=$1 js=$2; shift 2
    read -r t m c node node_cpu < <(alternate "$js" "$@")
    local ratio
    ratio=$(awk -v a="$t" -v b="$node" 'BEGIN { printf "%.2f", a / b }')
    local rate
    rate=$(awk -v n="$lines" -v a="$t" 'BEGIN { printf "%.0f", n / a }')
    local cratio
    cratio=$(awk -v a="$c" -v b="$node_cpu" 'BEGIN { printf "%.2f", a / b }')
    printf '| `%s` | %s s | %s s | %s× | %s URLs/s | %s s | %s× | %s MiB |\n' \
        "$label" "$t" "$node" "$ratio" "$rate" "$c" "$cratio" $((m / 1024))
}

read -r node_href node_href_rss node_href_cpu < <(measure "$work/x10.txt" node "$work/href.js")
read -r node_json node_json_rss node_json_cpu < <(measure "$work/x10.txt" node "$work/json.js")

echo "kasztp.txt ×10: $lines lines; $(nproc) cores; $(date -u +%Y-%m-%d)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "Each row alternates its command with a Node loop, $rounds times each; both columns are the fastest run."
echo
echo '| command | wall | Node (same rounds) | wall / Node | rate (wall) | CPU | CPU / Node | peak RSS |'
echo '| --- | --- | --- | --- | --- | --- | --- | --- |'
printf '| `node` href loop | %s s | | 1.00× | | %s s | 1.00× | %s MiB |\n' "$node_href" "$node_href_cpu" $((node_href_rss / 1024))
if [[ -n ${BEFORE:-} ]]; then
    row "before: parse --get '{href}' -" href.js "$BEFORE" parse --get '{href}' -
fi
for jobs in 1 2; do
    row "parse --get '{href}' --jobs $jobs -" href.js "$BIN" parse --get '{href}' --jobs $jobs -
done
printf '| `node` JSON loop | %s s | | 1.00× | | %s s | 1.00× | %s MiB |\n' "$node_json" "$node_json_cpu" $((node_json_rss / 1024))
if [[ -n ${BEFORE:-} ]]; then
    row "before: parse --json -" json.js "$BEFORE" parse --json -
fi
for jobs in 1 2; do
    row "parse --json --jobs $jobs -" json.js "$BIN" parse --json --jobs $jobs -
done
row "parse --json --fields href,host,errors --jobs 1 -" json.js \
    "$BIN" parse --json --fields href,host,errors --jobs 1 -
if [[ -n ${BEFORE:-} ]]; then
    row "before: check -" href.js "$BEFORE" check -
fi
for jobs in 1 2; do
    row "check --jobs $jobs -" href.js "$BIN" check --jobs $jobs -
done

echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

if [[ ${INSTRUCTIONS:-0} != 0 ]]; then
    command -v valgrind >/dev/null || { echo "valgrind is needed for INSTRUCTIONS=1" >&2; exit 1; }
    once=$bench_dir/kasztp.txt
    once_lines=$(wc -l <"$once")
    # Instructions of "$@" over kasztp.txt once, per line.
    per_line() {
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" <"$once" >/dev/null \
            2>"$work/callgrind" || true
        awk -v n="$once_lines" '/Collected :/ { printf "%.0f", $NF / n }' "$work/callgrind"
    }
    echo
    echo "Instructions per line (callgrind, kasztp.txt once: $once_lines lines, --jobs 1):"
    echo
    echo '| command | this build | before |'
    echo '| --- | --- | --- |'
    for cmd in "parse --get {href}" "parse --json" "check"; do
        # shellcheck disable=SC2086
        this=$(per_line "$BIN" $cmd --jobs 1 -)
        before=""
        if [[ -n ${BEFORE:-} ]]; then
            # shellcheck disable=SC2086
            before=$(per_line "$BEFORE" $cmd --jobs 1 -)
        fi
        printf '| `%s -` | %s | %s |\n' "$cmd" "$this" "$before"
    done
fi

if [[ ${LARGE:-1} != 0 ]]; then
    rounds=1
    for _ in $(seq 10); do cat "$work/x10.txt"; done >"$work/x100.txt"
    echo
    echo '| command (peak RSS) | 480k lines | 4.8M lines |'
    echo '| --- | --- | --- |'
    for cmd in "parse --get {href} --jobs 2" "parse --json --jobs 2" "check --jobs 2"; do
        # shellcheck disable=SC2086
        read -r _ small _ < <(measure "$work/x10.txt" "$BIN" $cmd -)
        # shellcheck disable=SC2086
        read -r _ large _ < <(measure "$work/x100.txt" "$BIN" $cmd -)
        printf '| `%s -` | %s MiB | %s MiB |\n' "$cmd" $((small / 1024)) $((large / 1024))
    done
fi
