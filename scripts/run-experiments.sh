#!/usr/bin/env bash
# Runs every experiment in experiments/ with a release build, writing results/<name>/.
# Extra arguments go to each `sololab run` (e.g. --threads 2, --raw).
# An experiment whose report folder holds a sensitivity analysis, a calibration or a strength
# curve is skipped with a note: `sololab run` would refuse to replace it (each command
# replaces only its own kind of report); re-run those with the command in the file's comments.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
for file in experiments/*.toml; do
    name=$(basename "$file" .toml)
    held=""
    for main in sensitivity.csv probes.csv strength.csv; do
        if [ -f "results/$name/$main" ]; then held=$main; fi
    done
    if [ -n "$held" ]; then
        echo "== $file: skipped, results/$name holds $held (see the file's comments)" >&2
        continue
    fi
    echo "== $file" >&2
    target/release/sololab run "$file" "$@"
done
