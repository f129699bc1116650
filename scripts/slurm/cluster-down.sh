#!/usr/bin/env bash
# Stop the one-node cluster that scripts/slurm/cluster-up.sh started (same $SOLOLAB_SLURM_DIR):
# slurmd, slurmctld, then munged, each by the pid in its pid file, and remove the state folder.
# Idempotent: nothing running and no folder is success. Waits up to 15 s per daemon, then
# sends SIGKILL.
set -euo pipefail

state="${SOLOLAB_SLURM_DIR:-${TMPDIR:-/tmp}/sololab-slurm}"

stop() {
    local name="$1" pidfile="$state/run/$1.pid" pid
    [ -s "$pidfile" ] || return 0
    pid="$(cat "$pidfile")"
    if [ -d "/proc/$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$name" ]; then
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 1 150); do
            [ -d "/proc/$pid" ] || break
            sleep 0.1
        done
        if [ -d "/proc/$pid" ]; then
            echo "cluster-down: $name ($pid) did not stop in 15 s; SIGKILL" >&2
            kill -KILL "$pid" 2>/dev/null || true
        fi
    fi
    rm -f "$pidfile"
}

stop slurmd
stop slurmctld
stop munged
# proctrack/cgroup leaves its (empty) per-node cgroup behind in the freezer hierarchy.
for dir in /sys/fs/cgroup/freezer/slurm_"$(hostname -s)" /sys/fs/cgroup/freezer/slurm; do
    [ -d "$dir" ] && rmdir "$dir" 2>/dev/null || true
done
if [ -d "$state" ]; then
    rm -rf "$state"
    echo "cluster-down: stopped; $state removed" >&2
fi
