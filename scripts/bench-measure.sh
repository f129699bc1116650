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

echo "workload,instructions,steps"
# SOLOLAB_GATE_GAMES (space-separated game names) narrows the workloads to those games; unset,
# every registered game's workloads are measured.
for w in $("$BIN" bench --list-workloads); do
    if [ -n "${SOLOLAB_GATE_GAMES:-}" ] && [[ " $SOLOLAB_GATE_GAMES " != *" ${w%%/*} "* ]]; then
        continue
    fi
    start=$(date +%s)
    valgrind --tool=callgrind --callgrind-out-file="$TMP/callgrind.out" \
        --toggle-collect='*play_workload*' \
        "$BIN" bench --workload "$w" >"$TMP/answer" 2>"$TMP/valgrind.log" || {
        cat "$TMP/valgrind.log" "$TMP/answer" >&2
        echo "bench-measure: workload $w failed" >&2
        exit 2
    }
    instructions=$(awk '/^summary:/ {print $2}' "$TMP/callgrind.out")
    steps=$(sed -n 's/.* steps=\([0-9]*\).*/\1/p' "$TMP/answer")
    if [ -z "$instructions" ] || [ -z "$steps" ]; then
        echo "bench-measure: no figures for $w" >&2
        exit 2
    fi
    echo "bench-measure: $(cat "$TMP/answer") ($(($(date +%s) - start)) s under callgrind)" >&2
    echo "$w,$instructions,$steps"
done
