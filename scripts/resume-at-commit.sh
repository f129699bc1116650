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
# not depend on --threads). A long run can so be carried over several sessions or machines:
# commit OUT/.sololab-work (.gitignore lets results/*/.sololab-work/ in), resume it later here.
#
# Exit status 2, with one line, when OUT has no work area, the commit is not in this repository,
# or it was recorded "-dirty" (uncommitted code cannot be rebuilt). SOLOLAB_RESUME_DRY=1 prints
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
repo="$(cd "$(dirname "$0")/.." && pwd)"
identity="$out/.sololab-work/identity.toml"
[[ -f $identity ]] || die "$out: no work area here ($identity does not exist)"
commit="$(sed -n 's/^commit = "\(.*\)"$/\1/p' "$identity" | head -n 1)"
[[ -n $commit ]] || die "$identity: no commit line"
case $commit in
*-dirty) die "$identity: commit $commit was built with uncommitted changes and cannot be rebuilt" ;;
esac
git -C "$repo" cat-file -e "$commit^{commit}" 2>/dev/null ||
    die "$identity: commit $commit is not in $repo (fetch it first)"

# Absolute paths: the run goes on from inside the worktree.
out_abs="$(cd "$out" && pwd)"
if [[ -f $exp ]]; then
    exp="$(cd "$(dirname "$exp")" && pwd)/$(basename "$exp")"
fi
tree="${SOLOLAB_WORKTREES:-${TMPDIR:-/tmp}/sololab-at}/$commit"
if [[ ${SOLOLAB_RESUME_DRY:-0} == 1 ]]; then
    echo "worktree: $tree"
    echo "run: $tree/target/release/sololab run $exp --out $out_abs --resume $*"
    exit 0
fi
if [[ ! -d $tree ]]; then
    mkdir -p "$(dirname "$tree")"
    git -C "$repo" worktree add --detach "$tree" "$commit" >&2
fi
(cd "$tree" && CARGO_TARGET_DIR="$tree/target" cargo build --release --quiet)
cd "$tree"
exec "$tree/target/release/sololab" run "$exp" --out "$out_abs" --resume "$@"
