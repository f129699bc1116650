#!/usr/bin/env bash
# Counts the instructions of the gate's fixed workloads and prints them as CSV on stdout:
#   workload,instructions,steps
# One line per workload of `sololab bench --list-workloads` (every game of the registry with
# random, greedy and mcts-200), each run alone under `valgrind --tool=callgrind`, counting only
# the workload's own loop (`--toggle-collect` on sololab::lab::bench::play_workload), on the
# release build. Instruction counts do not depend on the machine's load, only on the code, the
# compiler and valgrind; `steps` (simulated game steps) checks that the work itself is the same.
#
# Used by scripts/bench-gate.sh (compare with the baseline) and scripts/bench-baseline.sh
# (refresh it). Progress goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v valgrind >/dev/null 2>&1; then
    echo "bench-measure: installing valgrind" >&2
    SUDO=""
    if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then SUDO=sudo; fi
    $SUDO apt-get update -qq >&2
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >&2
fi

cargo build --release --quiet --bin sololab
BIN=target/release/sololab
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# One workload under callgrind: its CSV line to $TMP/N.csv, its progress line to $TMP/N.log.
measure() {
    local i=$1 w=$2 start instructions steps
    start=$(date +%s)
    if ! valgrind --tool=callgrind --callgrind-out-file="$TMP/$i.callgrind" \
        --toggle-collect='*play_workload*' \
        "$BIN" bench --workload "$w" >"$TMP/$i.answer" 2>"$TMP/$i.valgrind"; then
        cat "$TMP/$i.valgrind" "$TMP/$i.answer" >&2
        echo "bench-measure: workload $w failed" >&2
        return 1
    fi
    instructions=$(awk '/^summary:/ {print $2}' "$TMP/$i.callgrind")
    steps=$(sed -n 's/.* steps=\([0-9]*\).*/\1/p' "$TMP/$i.answer")
    if [ -z "$instructions" ] || [ -z "$steps" ]; then
        echo "bench-measure: no figures for $w" >&2
        return 1
    fi
    echo "bench-measure: $(cat "$TMP/$i.answer") ($(($(date +%s) - start)) s under callgrind)" >&2
    echo "$w,$instructions,$steps" >"$TMP/$i.csv"
}

workloads=()
for w in $("$BIN" bench --list-workloads); do
    if [ -n "${SOLOLAB_GATE_GAMES:-}" ] && [[ " $SOLOLAB_GATE_GAMES " != *" ${w%%/*} "* ]]; then
        continue
    fi
    workloads+=("$w")
done
# Workloads run side by side, one per core (BENCH_JOBS to change): each is single-threaded and
# its count does not depend on what else runs. The CSV keeps the workloads' listed order.
jobs=${BENCH_JOBS:-$(nproc 2>/dev/null || echo 1)}
for i in "${!workloads[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
        wait -n || true
    done
    measure "$i" "${workloads[$i]}" &
done
wait
# A workload that failed wrote no CSV line (and said why on stderr).
for i in "${!workloads[@]}"; do
    if [ ! -s "$TMP/$i.csv" ]; then
        echo "bench-measure: no result for ${workloads[$i]}" >&2
        exit 2
    fi
done
echo "workload,instructions,steps"
for i in "${!workloads[@]}"; do
    cat "$TMP/$i.csv"
done
