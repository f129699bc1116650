#!/usr/bin/env bash
# Refreshes the performance gate's baseline on purpose: counts the instructions of the fixed
# workloads (scripts/bench-measure.sh) and writes results/bench/baseline.csv, plus
# results/bench/baseline.txt saying how it was taken (commit, rustc, valgrind). Commit both,
# with a message that says why the counts moved.
set -euo pipefail
cd "$(dirname "$0")/.."

mkdir -p results/bench
# The source measured: taken before the baseline files themselves change.
COMMIT="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if ! git diff --quiet HEAD -- . ':(exclude)results/bench' 2>/dev/null; then
    COMMIT="$COMMIT (with uncommitted changes)"
fi
NEW=$(mktemp)
trap 'rm -f "$NEW"' EXIT
scripts/bench-measure.sh >"$NEW"
mv "$NEW" results/bench/baseline.csv
trap - EXIT
{
    echo "baseline of scripts/bench-gate.sh (instructions counted by callgrind, release build)"
    echo "commit: $COMMIT"
    echo "rustc: $(rustc --version)"
    echo "valgrind: $(valgrind --version)"
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >results/bench/baseline.txt
cat results/bench/baseline.csv
echo "bench-baseline: wrote results/bench/baseline.csv and results/bench/baseline.txt" >&2
