#!/usr/bin/env bash
# The performance gate: counts the instructions of the fixed workloads (scripts/bench-measure.sh)
# and compares them with the committed baseline, results/bench/baseline.csv. Prints, per
# workload, the baseline, the count now and the change, and exits 1 when any workload takes
# more than BENCH_GATE_PERCENT (default 10) percent more instructions than its baseline. The
# "per step" column is the change in instructions per simulated step, which tells slower code
# (per step up) from more work (steps up, per step flat).
# Instruction counts are not fooled by a busy machine, as seconds would be.
#
# A workload missing from the baseline (a new game) is reported and does not fail. A workload
# whose simulated steps differ from the baseline's plays different games than when the baseline
# was taken (the rules or a policy changed on purpose): its change is still gated, and the
# message says so. Refresh the baseline on purpose with scripts/bench-baseline.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

BASELINE=results/bench/baseline.csv
LIMIT=${BENCH_GATE_PERCENT:-10}
if [ ! -f "$BASELINE" ]; then
    echo "bench-gate: no baseline at $BASELINE (create it with scripts/bench-baseline.sh)" >&2
    exit 2
fi

start=$(date +%s)
NOW=$(mktemp)
trap 'rm -f "$NOW"' EXIT
scripts/bench-measure.sh >"$NOW"

awk -F, -v limit="$LIMIT" '
    BEGIN {
        printf "%-20s %14s %14s %9s %11s  %s\n", "workload", "baseline", "now", "change",
            "per step", "verdict"
    }
    FNR == 1 { next }
    NR == FNR { base[$1] = $2; base_steps[$1] = $3; next }
    {
        if (!($1 in base)) {
            printf "%-20s %14s %14.0f %9s %11s  new: not in the baseline\n", $1, "-", $2, "-", "-"
            next
        }
        change = 100 * ($2 - base[$1]) / base[$1]
        per_step = "-"
        if ($3 > 0 && base_steps[$1] > 0 && base[$1] > 0) {
            was = base[$1] / base_steps[$1]
            per_step = sprintf("%+.2f%%", 100 * ($2 / $3 - was) / was)
        }
        note = "ok"
        if (change > limit) { note = "REGRESSION"; failed = 1 }
        else if (change < -limit) { note = "faster: refresh the baseline to keep the gain" }
        if ($3 != base_steps[$1]) {
            note = note sprintf(" (steps %.0f, baseline %.0f: the work changed)", $3, base_steps[$1])
        }
        printf "%-20s %14.0f %14.0f %+8.2f%% %11s  %s\n", $1, base[$1], $2, change, per_step, note
    }
    END { exit failed }
' "$BASELINE" "$NOW" && status=0 || status=$?

echo "bench-gate: $(($(date +%s) - start)) s; limit +$LIMIT% instructions; baseline $BASELINE"
if [ "$status" != 0 ]; then
    echo "bench-gate: FAILED: instruction count regression beyond $LIMIT%" >&2
    exit 1
fi
