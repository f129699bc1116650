#!/usr/bin/env bash
# Start a one-node Slurm cluster on this machine: munged, slurmctld and slurmd, all as root,
# all state (config, munge key, sockets, logs, spool) in one folder, no systemd.
#
#   eval "$(scripts/slurm/cluster-up.sh)"     # prints `export SLURM_CONF=...` on stdout
#   sbatch ...; squeue; sinfo
#   scripts/slurm/cluster-down.sh
#
# State folder: $SOLOLAB_SLURM_DIR, default ${TMPDIR:-/tmp}/sololab-slurm. Ports:
# $SOLOLAB_SLURM_CTLD_PORT (6817) and $SOLOLAB_SLURM_SLURMD_PORT (6818). Process tracking:
# $SOLOLAB_SLURM_CGROUP = auto (default: cgroups when the v1 freezer hierarchy is writable),
# yes, or no (/proc-based tracking, no task plugin).
#
# Idempotent: daemons already running from this state folder are kept; a folder whose daemons
# are all gone is started afresh. Exits 0 once the node accepts jobs (at most 60 s), else 1
# with the daemons' log tails. Needs Debian's slurm-wlm and munge (apt-get install slurm-wlm
# munge).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
state="${SOLOLAB_SLURM_DIR:-${TMPDIR:-/tmp}/sololab-slurm}"
ctld_port="${SOLOLAB_SLURM_CTLD_PORT:-6817}"
slurmd_port="${SOLOLAB_SLURM_SLURMD_PORT:-6818}"
cgroup="${SOLOLAB_SLURM_CGROUP:-auto}"

say() { echo "cluster-up: $*" >&2; }
die() { say "error: $*"; exit 1; }

for tool in munged slurmctld slurmd sinfo scontrol; do
    command -v "$tool" >/dev/null || die "$tool not found (apt-get install slurm-wlm munge)"
done
[ "$(id -u)" = 0 ] || die "run as root (the daemons run as root in this one-node setup)"

# A pid file whose process is alive and is the named program.
alive() {
    local pidfile="$1" name="$2" pid
    [ -s "$pidfile" ] || return 1
    pid="$(cat "$pidfile")"
    [ -d "/proc/$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$name" ]
}

conf="$state/etc/slurm.conf"
if ! alive "$state/run/munged.pid" munged && ! alive "$state/run/slurmctld.pid" slurmctld \
    && ! alive "$state/run/slurmd.pid" slurmd; then
    # Nothing of ours is running: start afresh.
    rm -rf "$state"
    mkdir -p "$state"/{etc,munge,ctld,spool,run,log}
    chmod 700 "$state/munge"

    case "$cgroup" in
        auto)
            probe="/sys/fs/cgroup/freezer/sololab-probe-$$"
            if [ "$(stat -fc %T /sys/fs/cgroup 2>/dev/null)" = tmpfs ] && mkdir "$probe" 2>/dev/null; then
                rmdir "$probe"
                cgroup=yes
            else
                cgroup=no
            fi
            ;;
        yes | no) ;;
        *) die "SOLOLAB_SLURM_CGROUP must be auto, yes or no, not '$cgroup'" ;;
    esac
    if [ "$cgroup" = yes ]; then
        proctrack=proctrack/cgroup task=task/none
        sed "s|@STATE@|$state|g" "$here/cgroup.conf.in" >"$state/etc/cgroup.conf"
    else
        proctrack=proctrack/linuxproc task=task/none
    fi

    node="$(hostname -s)"
    cpus="$(nproc)"
    memory_mb="$(awk '/^MemTotal:/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)"
    sed -e "s|@STATE@|$state|g" -e "s|@NODE@|$node|g" -e "s|@CPUS@|$cpus|g" \
        -e "s|@MEMORY_MB@|$memory_mb|g" -e "s|@CTLD_PORT@|$ctld_port|g" \
        -e "s|@SLURMD_PORT@|$slurmd_port|g" -e "s|@PROCTRACK@|$proctrack|g" \
        -e "s|@TASK@|$task|g" "$here/slurm.conf.in" >"$conf"
    say "state in $state; node $node, $cpus CPUs, $memory_mb MB; $proctrack, $task"

    # The munge key: 1024 random bytes, readable by root only.
    head -c 1024 /dev/urandom >"$state/munge/munge.key"
    chmod 400 "$state/munge/munge.key"
fi
export SLURM_CONF="$conf"

if ! alive "$state/run/munged.pid" munged; then
    munged --key-file="$state/munge/munge.key" --socket="$state/munge/munge.socket" \
        --pid-file="$state/run/munged.pid" --log-file="$state/log/munged.log" \
        --seed-file="$state/munge/munged.seed" --force
fi
if ! alive "$state/run/slurmctld.pid" slurmctld; then
    slurmctld -f "$conf"
fi
if ! alive "$state/run/slurmd.pid" slurmd; then
    slurmd -f "$conf"
fi

# Wait for the node to take jobs.
for _ in $(seq 1 120); do
    node_state="$(sinfo -h -o %t 2>/dev/null | head -1 || true)"
    case "$node_state" in
        idle | mix | alloc)
            say "node $node_state; SLURM_CONF=$conf"
            echo "export SLURM_CONF=$conf"
            exit 0
            ;;
    esac
    sleep 0.5
done
say "the node did not come up in 60 s (state: '${node_state:-none}'); log tails:"
for log in munged slurmctld slurmd; do
    echo "--- $state/log/$log.log" >&2
    tail -n 20 "$state/log/$log.log" >&2 2>/dev/null || true
done
exit 1
