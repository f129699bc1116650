#!/usr/bin/env bash
# Regenerates the golden playthroughs in tests/golden/ (tests/golden.rs compares against them).
# Run it on purpose after a deliberate change to the rules or the trace, and review the diff.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
for seed in 7 11; do
    target/release/sololab play rift --policy random --seed "$seed" > "tests/golden/rift-random-seed$seed.txt"
done
target/release/sololab play rift --policy greedy --seed 1 --set mode=campaign > tests/golden/rift-campaign-greedy-seed1.txt
# Every trace of tests/golden/MANIFEST: `<file> <sololab arguments...>` a line.
grep -v '^[[:space:]]*\(#\|$\)' tests/golden/MANIFEST | while read -r file args; do
    # shellcheck disable=SC2086 # the arguments are words on purpose
    target/release/sololab $args > "tests/golden/$file"
done
git --no-pager diff --stat -- tests/golden || true
