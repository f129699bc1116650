#!/usr/bin/env bash
# The performance gate: counts the instructions of the fixed workloads (scripts/bench-measure.sh)
# and compares them with the committed baseline, results/bench/baseline.csv. Prints, per
# workload, the baseline, the count now and the change. The "per step" column is the change in
# instructions per simulated step.
#
# It fails (exit 1), saying why, when any workload
#   - takes more than BENCH_GATE_PERCENT (default 10) percent more instructions than its
#     baseline (a regression);
#   - takes more than that percent fewer (a speed-up: refresh the baseline with
#     scripts/bench-baseline.sh so the gain is kept);
#   - simulated a different number of steps than its baseline (different work is not a speed
#     change: the rules or a policy changed; refresh the baseline on purpose);
#   - is in the baseline but was not measured, or was measured but is not in the baseline (a
#     new game's workloads: add them with scripts/bench-baseline.sh);
#   - counted zero (or no) instructions or steps.
# Instruction counts are not fooled by a busy machine, as seconds would be.
#
# For tests of the gate itself (tests/bench_gate.rs): BENCH_GATE_NOW=FILE compares FILE instead
# of measuring, and BENCH_GATE_BASELINE=FILE replaces the committed baseline. Both are CSV:
#   workload,instructions,steps
set -euo pipefail
cd "$(dirname "$0")/.."

BASELINE=${BENCH_GATE_BASELINE:-results/bench/baseline.csv}
LIMIT=${BENCH_GATE_PERCENT:-10}
REFRESH="scripts/bench-baseline.sh"
if [ ! -s "$BASELINE" ]; then
    echo "bench-gate: no baseline at $BASELINE (create it with $REFRESH)" >&2
    exit 2
fi

start=$(date +%s)
if [ -n "${BENCH_GATE_NOW:-}" ]; then
    NOW=$BENCH_GATE_NOW
else
    NOW=$(mktemp)
    trap 'rm -f "$NOW"' EXIT
    scripts/bench-measure.sh >"$NOW"
fi

awk -F, -v limit="$LIMIT" -v refresh="$REFRESH" '
    function count_ok(x) { return x ~ /^[0-9]+$/ && x + 0 > 0 }
    function fail(msg) { failed = 1; why[++nwhy] = msg }
    BEGIN {
        printf "%-20s %14s %14s %9s %11s  %s\n", "workload", "baseline", "now", "change",
            "per step", "verdict"
    }
    FNR == 1 {
        if ($0 != "workload,instructions,steps") {
            fail(FILENAME ": header is \"" $0 "\", expected \"workload,instructions,steps\"")
        }
        next
    }
    $0 == "" { next }
    NR == FNR {
        if (!count_ok($2) || !count_ok($3)) {
            fail("baseline " $1 ": zero or missing count (instructions \"" $2 "\", steps \"" $3 "\"): refresh it with " refresh)
        }
        base[$1] = $2; base_steps[$1] = $3; order[++nbase] = $1; next
    }
    {
        seen[$1] = 1
        measured++
        if (!count_ok($2) || !count_ok($3)) {
            printf "%-20s %14s %14s %9s %11s  ZERO COUNT\n", $1, ($1 in base) ? base[$1] : "-", $2, "-", "-"
            fail($1 ": zero or missing count (instructions \"" $2 "\", steps \"" $3 "\"): the workload did no work")
            next
        }
        if (!($1 in base)) {
            printf "%-20s %14s %14.0f %9s %11s  NEW: not in the baseline\n", $1, "-", $2, "-", "-"
            fail($1 ": not in the baseline (a new game or workload): add it with " refresh " and commit results/bench/baseline.csv")
            next
        }
        if (!count_ok(base[$1]) || !count_ok(base_steps[$1])) { next }
        change = 100 * ($2 - base[$1]) / base[$1]
        was = base[$1] / base_steps[$1]
        per_step = sprintf("%+.2f%%", 100 * ($2 / $3 - was) / was)
        note = "ok"
        if ($3 != base_steps[$1]) {
            note = "WORK CHANGED"
            fail(sprintf("%s: %.0f steps, baseline %.0f: different work is not a speed change (the rules or a policy changed); if that is meant, refresh the baseline with %s", $1, $3, base_steps[$1], refresh))
        } else if (change > limit) {
            note = "REGRESSION"
            fail(sprintf("%s: %+.2f%% instructions, beyond +%s%%", $1, change, limit))
        } else if (change < -limit) {
            note = "FASTER"
            fail(sprintf("%s: %+.2f%% instructions, a speed-up beyond %s%%: run %s and commit the new baseline to keep the gain", $1, change, limit, refresh))
        }
        printf "%-20s %14.0f %14.0f %+8.2f%% %11s  %s\n", $1, base[$1], $2, change, per_step, note
    }
    END {
        for (k = 1; k <= nbase; k++) {
            if (!(order[k] in seen)) {
                printf "%-20s %14.0f %14s %9s %11s  MISSING\n", order[k], base[order[k]], "-", "-", "-"
                fail(order[k] ": in the baseline but not measured (a missing workload)")
            }
        }
        if (measured == 0) { fail("no workload was measured") }
        for (k = 1; k <= nwhy; k++) { print "bench-gate: FAILED: " why[k] > "/dev/stderr" }
        exit failed
    }
' "$BASELINE" "$NOW" && status=0 || status=$?

echo "bench-gate: $(($(date +%s) - start)) s; limit ±$LIMIT% instructions, steps equal; baseline $BASELINE"
if [ "$status" != 0 ]; then
    echo "bench-gate: FAILED (see above)" >&2
    exit 1
fi
