#!/usr/bin/env bash
# Resumes an interrupted run with the code that started it, whatever the checkout holds now.
#
#   scripts/resume-at-commit.sh EXPERIMENT OUT [sololab run flags...]
#
# A work area (OUT/.sololab-work) resumes only under the binary of the commit it records, with
# that commit's strategy files (README, "Interrupted runs and --resume"). This script reads the
# commit from OUT/.sololab-work/identity.toml, checks it out as a detached git worktree
# (${SOLOLAB_WORKTREES:-${TMPDIR:-/tmp}/sololab-at}/<commit>, made once and kept), builds it
# there (release; the first build takes minutes) and runs, from inside that worktree so that
# strategies/ and experiments/ are the commit's own:
#
#   sololab run EXPERIMENT --out OUT --resume [flags...]
#
# EXPERIMENT is a file (taken as it is now: its settings must still be the run's) or a name in
# the commit's experiments/. Flags such as --threads and --quiet pass through (the report does
# not depend on --threads); --out, --resume and --shard are the script's or the work area's. A
# run whose strategies were the binary's built-in copies (started in a folder without
# strategies/) goes on from the worktree's target/ folder, which has none. A long run can so be carried over several sessions or machines:
# commit OUT/.sololab-work (.gitignore lets results/*/.sololab-work/ in), resume it later here.
#
# Exit status 2, with one line, when OUT has no work area, the commit is not a full hash of this
# repository or was recorded "-dirty" (uncommitted code cannot be rebuilt), the experiment is
# neither a file nor a name of the commit, or a flag is one the script sets. SOLOLAB_RESUME_DRY=1 prints
# the worktree and the command instead of building and running.
set -euo pipefail

die() {
    echo "resume-at-commit: $*" >&2
    exit 2
}

[[ $# -ge 2 ]] || die "usage: scripts/resume-at-commit.sh EXPERIMENT OUT [sololab run flags...]"
exp=$1
out=$2
shift 2
for flag in "$@"; do
    case $flag in
    --out | --out=* | --resume | --shard | --shard=*)
        die "$flag: the script sets --out and --resume itself, and a work area knows its shard"
        ;;
    esac
done
repo="$(cd "$(dirname "$0")/.." && pwd)"
identity="$out/.sololab-work/identity.toml"
[[ -f $identity ]] || die "$out: no work area here ($identity does not exist)"
# Line endings of a checkout with core.autocrlf are tolerated.
commit="$(tr -d '\r' <"$identity" | sed -n 's/^commit = "\(.*\)"$/\1/p' | head -n 1)"
[[ -n $commit ]] || die "$identity: no commit line"
case $commit in
*-dirty) die "$identity: commit $commit was built with uncommitted changes and cannot be rebuilt" ;;
esac
[[ $commit =~ ^[0-9a-f]{40}$ ]] || die "$identity: commit '$commit' is not a full commit hash"
git -C "$repo" cat-file -e "$commit^{commit}" 2>/dev/null ||
    die "$identity: commit $commit is not in $repo (fetch it first)"

# Where the run took its strategies from: the files of strategies/ in the folder it ran in, or
# the binary's built-in copies (a folder without strategies/, such as the container's). The run
# goes on the same way: from the worktree, or from a folder of it without strategies/.
origins="$(tr -d '\r' <"$identity" | sed -n 's/^origin = "\(.*\)"$/\1/p' | sort -u)"
if grep -qx 'built in' <<<"$origins"; then
    if grep -qvx 'built in' <<<"$origins"; then
        die "$identity: its strategies come from files and from the binary's built-in copies; resume it by hand from a folder that gives the same"
    fi
    from_files=0
else
    from_files=1
fi

# Absolute paths: the run goes on from inside the worktree.
out_abs="$(cd "$out" && pwd)"
worktrees="${SOLOLAB_WORKTREES:-${TMPDIR:-/tmp}/sololab-at}"
[[ $worktrees == /* ]] || worktrees="$PWD/$worktrees"
tree="$worktrees/$commit"
if [[ -f $exp ]]; then
    exp="$(cd "$(dirname "$exp")" && pwd)/$(basename "$exp")"
else
    # A name of the commit's experiments/ (as `sololab run NAME` reads it there).
    name="${exp%.toml}"
    git -C "$repo" cat-file -e "$commit:experiments/$name.toml" 2>/dev/null ||
        die "$exp: not a file, nor an experiment of commit ${commit:0:12} (experiments/$name.toml)"
    exp="$tree/experiments/$name.toml"
fi
run_dir="$tree"
[[ $from_files == 1 ]] || run_dir="$tree/target"
if [[ ${SOLOLAB_RESUME_DRY:-0} == 1 ]]; then
    echo "worktree: $tree"
    echo "in: $run_dir"
    echo "run: $tree/target/release/sololab run $exp --out $out_abs --resume $*"
    exit 0
fi
if [[ ! -d $tree ]]; then
    mkdir -p "$worktrees"
    git -C "$repo" worktree add --detach "$tree" "$commit" >&2
fi
(cd "$tree" && CARGO_TARGET_DIR="$tree/target" cargo build --release --quiet)
cd "$run_dir"
exec "$tree/target/release/sololab" run "$exp" --out "$out_abs" --resume "$@"
