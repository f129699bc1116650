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
git --no-pager diff --stat -- tests/golden || true
