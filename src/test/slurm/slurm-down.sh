#!/usr/bin/env bash
# Stops a cluster made by slurm-up.sh: cancels every job, stops the daemons by the pids under DIR,
# waits for them (SIGKILL after 10 s), kills job processes that outlived their slurmd, and removes
# DIR (KEEP=1 keeps it, for reading the logs).
set -uo pipefail
D=${1:?usage: slurm-down.sh DIR}
export SLURM_CONF="$D/etc/slurm.conf"
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
t0=$(now_ms)
wait_for() { local deadline=$(( $(now_ms) + $1 )); shift
  until "$@"; do [ "$(now_ms)" -lt "$deadline" ] || return 1; sleep 0.05; done; }
no_jobs() { [ -z "$(squeue -h -t PD,R,CG,S,CF 2>/dev/null)" ]; }
if [ -f "$D/run/slurmctld.pid" ] && [ -f "$SLURM_CONF" ]; then
  scancel --quiet --user=root 2>/dev/null; scancel --quiet --user=slurm 2>/dev/null
  wait_for 10000 no_jobs || echo "[slurm-down] jobs still listed after 10 s" >&2
fi
# Once no job is left, a slurmstepd still running is a leftover (its slurmd was killed, or slurmctld
# was gone before scancel): find ours by DIR in its environment and kill it with every descendant.
# Before the daemons stop: a slurmd waits for its stepds.
descendants() { local c; for c in $(ps -eo pid=,ppid= | awk -v p="$1" '$2==p {print $1}'); do echo "$c"; descendants "$c"; done; }
for p in $(ls /proc | grep -E '^[0-9]+$'); do
  c=$( (tr '\0' ' ' < "/proc/$p/cmdline") 2>/dev/null) || continue
  case "$c" in
    slurmstepd:*) if grep -q -- "$D" "/proc/$p/environ" 2>/dev/null; then
                    kids=$(descendants "$p" | tr '\n' ' ')
                    echo "[slurm-down] killing leftover $p ($c) and $kids" >&2
                    kill -9 "$p" $kids 2>/dev/null
                  fi;;
  esac
done
ours() { { tr '\0' ' ' < "/proc/$1/cmdline"; tr '\0' '\n' < "/proc/$1/environ"; } 2>/dev/null | grep -q -- "$D"; }
pids=()
for f in "$D"/run/slurmrestd-*.pid "$D"/run/slurmd-*.pid "$D"/run/slurmctld.pid "$D"/munge/munged.pid; do
  [ -f "$f" ] || continue
  p=$(cat "$f"); [ -n "$p" ] || continue
  if ours "$p"; then kill "$p" 2>/dev/null && pids+=("$p"); fi
done
# Under bubblewrap (slurm-up.sh's ROOTFS) a slurmrestd's pid file names its bwrap, not the daemon, which
# changes user and so does not die with it: find it by DIR in its environment (SLURM_CONF).
for p in $(ls /proc | grep -E '^[0-9]+$'); do
  case "$( (tr '\0' ' ' < "/proc/$p/cmdline") 2>/dev/null)" in
    */slurmrestd\ *|slurmrestd\ *) ours "$p" && kill "$p" 2>/dev/null && pids+=("$p");;
  esac
done
alive() { [ -e "/proc/$1" ] && ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null; }
none_alive() { local p; for p in "${pids[@]}"; do alive "$p" && return 1; done; return 0; }
if ! wait_for 10000 none_alive; then
  for p in "${pids[@]}"; do alive "$p" && { echo "[slurm-down] SIGKILL $p" >&2; kill -9 "$p" 2>/dev/null; }; done
fi
[ "${KEEP:-0}" = 1 ] || rm -rf "$D"
echo "[slurm-down] stopped ${#pids[@]} daemons in $(( $(now_ms) - t0 )) ms" >&2
