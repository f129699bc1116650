#!/usr/bin/env bash
# Runs every experiment in experiments/ with a release build, writing results/<name>/.
# Extra arguments go to each `sololab run` (e.g. --threads 2, --raw).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
for file in experiments/*.toml; do
    echo "== $file" >&2
    target/release/sololab run "$file" "$@"
done
