#!/usr/bin/env bash
# Mutation testing with cargo-mutants (https://mutants.rs) on the rules and the lab: each
# mutant (an operator swapped, a function body replaced, a match arm deleted...) is built and
# tested; a mutant that no test catches ("missed") is a gap in the tests or an equivalent
# mutant. Not part of CI: it is slow (one build per mutant). Results go to mutants.out/
# (missed.txt, caught.txt, timeout.txt, unviable.txt, outcomes.json).
#
# Usage: scripts/mutants.sh [FILE ...] [-- CARGO-MUTANTS ARGS ...]
#   FILE defaults to every game's rules.rs, ai.rs and actions.rs and src/lab/*.rs.
#   e.g. scripts/mutants.sh src/games/rift/rules.rs -- -F 'push|resolve_attack'
# Environment:
#   MUTANTS_TESTS    integration tests run against each mutant (default: every game's
#                    rule-case, rule-detail, AI-detail and campaign tests, the golden traces,
#                    tests/lab.rs and tests/streams.rs); kept small so one mutant takes
#                    seconds to test. One game: e.g.
#                    MUTANTS_TESTS="golden rift_cases rift_campaign rift_rules_detail rift_ai_detail"
#                    (tests/rift_switches.rs also catches mutants but takes 12 s a mutant
#                    at opt-level 0: left out, checked on the survivors instead)
#   MUTANTS_TIMEOUT  seconds before a mutant's tests count as a timeout (default 120)
#   MUTANTS_NICE     nice level (default 10: the machine is shared)
#   MUTANTS_IN_PLACE=1  mutate this tree in place (reuses target/; do not edit meanwhile)
# Builds use the test profile at opt-level 0 without debug info (CARGO_PROFILE_* below): a
# mutant rebuilds only this crate, and the scoped tests run in well under a second each.
# Install: cargo install cargo-mutants --locked
set -euo pipefail
cd "$(dirname "$0")/.."

if ! cargo mutants --version >/dev/null 2>&1; then
    echo "mutants: cargo-mutants is not installed (cargo install cargo-mutants --locked)" >&2
    exit 2
fi

files=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    files+=("$1")
    shift
done
[ "${1:-}" = "--" ] && shift

# Parallel jobs each build their mutant in a copy of the tree; one CARGO_TARGET_DIR shared by
# them lets one job's tests run against another job's mutant (a run on 2026-12-02 reported
# mutants "missed" that their own tests catch). Refuse that combination.
if [ -n "${CARGO_TARGET_DIR:-}" ]; then
    prev=""
    for a in "$@"; do
        jobs=""
        case "$a" in
            -j[0-9]*) jobs="${a#-j}" ;;
            --jobs=*) jobs="${a#--jobs=}" ;;
            *) if [ "$prev" = "-j" ] || [ "$prev" = "--jobs" ]; then jobs="$a"; fi ;;
        esac
        if [ -n "$jobs" ] && [ "$jobs" != "1" ]; then
            echo "mutants: -j $jobs with CARGO_TARGET_DIR set: parallel jobs would share one target folder and test each other's mutants; use -j 1, or unset CARGO_TARGET_DIR" >&2
            exit 2
        fi
        prev="$a"
    done
fi
if [ ${#files[@]} -eq 0 ]; then
    files=(src/games/*/rules.rs src/games/*/ai.rs src/games/*/actions.rs src/lab/*.rs)
fi
file_args=()
for f in "${files[@]}"; do
    [ -f "$f" ] && file_args+=(--file "$f")
done

default_tests="golden lab streams"
for t in tests/*_cases.rs tests/*_campaign.rs tests/*_rules_detail.rs tests/*_ai_detail.rs; do
    [ -f "$t" ] && default_tests="$default_tests $(basename "$t" .rs)"
done
# Given to every cargo command (-C), so each mutant builds only these test targets too.
test_args=()
for t in ${MUTANTS_TESTS:-$default_tests}; do
    test_args+=(--cargo-arg="--test=$t")
done
in_place=()
[ "${MUTANTS_IN_PLACE:-0}" = 1 ] && in_place=(--in-place)

export CARGO_PROFILE_TEST_OPT_LEVEL=0 CARGO_PROFILE_DEV_OPT_LEVEL=0
export CARGO_PROFILE_TEST_DEBUG=0 CARGO_PROFILE_DEV_DEBUG=0
echo "mutants: ${files[*]}; tests: ${test_args[*]}" >&2
exec nice -n "${MUTANTS_NICE:-10}" cargo mutants "${file_args[@]}" "${in_place[@]}" \
    --timeout "${MUTANTS_TIMEOUT:-120}" --build-timeout 1800 --no-shuffle \
    "${test_args[@]}" "$@"
