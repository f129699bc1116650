#!/usr/bin/env bash
# Run a sololab experiment on a Slurm cluster: a job array of N shards
# (sololab-array.sbatch, one `sololab run EXP --shard K/N` per task) and a merge job
# (sololab-merge.sbatch) that starts once every shard has succeeded (--dependency=afterok).
#
#   scripts/slurm/submit.sh EXP N [--out DIR] [-- SBATCH-OPTION...]
#
# EXP is an experiment file (or a name sololab finds in experiments/), N the number of shards
# (at least 1; the array's last index N-1 must be below the cluster's MaxArraySize, 1001 by
# default). The merged report goes to DIR (default results/<the experiment's name>), the
# partial reports and the jobs' logs to DIR.shards/. SBATCH-OPTIONs go to both sbatch calls
# (--partition, --time, --account, ...). The jobs run in the current folder, with the
# submitter's environment; the sololab binary is $SOLOLAB, else target/release/sololab here,
# else `sololab` on PATH. Prints the two job ids on stdout:
#
#   array 1234
#   merge 1235
#
# Bad arguments: one line on stderr, exit status 2, nothing submitted.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
usage="usage: submit.sh EXP N [--out DIR] [-- SBATCH-OPTION...]"
fail() { echo "submit.sh: error: $*" >&2; exit 2; }

[ $# -ge 2 ] || fail "$usage"
exp="$1" n="$2"
shift 2
out=""
while [ $# -gt 0 ]; do
    case "$1" in
        --out) [ $# -ge 2 ] || fail "--out needs a folder"; out="$2"; shift 2 ;;
        --) shift; break ;;
        *) fail "unknown argument '$1' ($usage)" ;;
    esac
done
[[ "$n" =~ ^[1-9][0-9]{0,5}$ ]] || fail "N must be a whole number from 1 to 999999, not '$n'"

# The experiment file: a path, or a name in experiments/ (as `sololab run` looks it up).
exp_file="$exp"
if [ ! -f "$exp_file" ] && [ -f "experiments/$exp.toml" ]; then
    exp_file="experiments/$exp.toml"
fi
[ -f "$exp_file" ] || fail "$exp: no such experiment file"
if [ -z "$out" ]; then
    # The report folder sololab itself would choose: results/<name>.
    name="$(sed -n -E "s/^[[:space:]]*name[[:space:]]*=[[:space:]]*[\"']([^\"']*)[\"'].*/\1/p" "$exp_file" | head -1)"
    [ -n "$name" ] || fail "$exp_file: no name = \"...\" line found; give --out DIR"
    out="results/$name"
fi
if [ -n "${SOLOLAB:-}" ]; then
    case "$SOLOLAB" in
        */*) sololab="$(cd "$(dirname "$SOLOLAB")" 2>/dev/null && pwd)/$(basename "$SOLOLAB")" ;;
        *) sololab="$(command -v "$SOLOLAB")" || fail "SOLOLAB=$SOLOLAB: not found on PATH" ;;
    esac
elif [ -x target/release/sololab ]; then
    sololab="$PWD/target/release/sololab"
else
    sololab="$(command -v sololab)" || fail "no sololab binary (set SOLOLAB or build target/release/sololab)"
fi
[ -x "$sololab" ] || fail "SOLOLAB=$sololab is not an executable"
command -v sbatch >/dev/null || fail "sbatch not found (is this a Slurm submit host?)"

shards="$out.shards"
made_shards=no
[ -d "$shards" ] || made_shards=yes
mkdir -p "$shards"

export SOLOLAB="$sololab"
if ! array="$(sbatch --parsable --array="0-$((n - 1))" --output="$shards/slurm-%A_%a.out" "$@" \
    "$here/sololab-array.sbatch" "$exp" "$n" "$shards")"; then
    [ "$made_shards" = no ] || rmdir "$shards" 2>/dev/null || true
    echo "submit.sh: error: sbatch refused the array (see above); nothing submitted" >&2
    exit 1
fi
array="${array%%;*}"
if ! merge="$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --output="$shards/slurm-merge-%j.out" "$@" "$here/sololab-merge.sbatch" "$n" "$shards" "$out")"; then
    scancel "${array%%;*}" || true
    echo "submit.sh: error: sbatch refused the merge job (see above); array ${array%%;*} cancelled" >&2
    exit 1
fi
merge="${merge%%;*}"
echo "array $array"
echo "merge $merge"
echo "submit.sh: $n shards -> $shards, merged report -> $out (squeue -j $array,$merge)" >&2
