#!/usr/bin/env bash
# Starts a throw-away Slurm cluster for the tests: munged, slurmctld, NODES slurmd as fake nodes
# on this one host, and slurmrestd (JWT on TCP, local auth on a unix socket). All state, logs,
# pid files and sockets live under DIR; every daemon listens on 127.0.0.1 only.
#
#   slurm-up.sh DIR PORT_BASE
#   env: NODES=4 CPUS=4 MEM=4000 GPUS=2 MIN_JOB_AGE=300 ROOTFS=
#
# ROOTFS names a root file system with another Slurm (.ci/prepare-slurm makes one with Slurm 26.05):
# every daemon and tool then runs from it under bubblewrap, with the host's network and pids, and
# the host's own directories (DIR, /tmp, home, the checkout ...) bound at the same paths inside, so
# jobs see the same files as the service. DIR/bin then holds a wrapper per Slurm command.
#
# GPUs are counted only (no devices): enough for Slurm to schedule --gpus-per-task, not to run CUDA.
#
# Ports: slurmctld PORT_BASE, slurmrestd PORT_BASE+1, node i PORT_BASE+1+i.
# Writes DIR/env.sh (SLURM_CONF, SLURMRESTD_URL, SLURMRESTD_SOCKET, SLURM_JWT_KEY, SLURM_BIN: the
# wrappers' directory, empty without ROOTFS) and exits 0
# only when every node is idle and slurmrestd answers. Needs root (the daemons run as root,
# slurmrestd as the Debian package's user 'slurm'). Stop it with slurm-down.sh DIR.
set -euo pipefail
D=${1:?usage: slurm-up.sh DIR PORT_BASE}
P=${2:?usage: slurm-up.sh DIR PORT_BASE}
NODES=${NODES:-4}; CPUS=${CPUS:-4}; MEM=${MEM:-4000}; GPUS=${GPUS:-2}; MIN_JOB_AGE=${MIN_JOB_AGE:-300}
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
log() { echo "[slurm-up] $*" >&2; }
# Polls a condition every 50 ms until it holds or the deadline (in ms) passes.
wait_for() { local deadline=$(( $(now_ms) + $1 )); shift
  until "$@"; do [ "$(now_ms)" -lt "$deadline" ] || return 1; sleep 0.05; done; }
t0=$(now_ms)

mkdir -p "$D"/{etc,munge,state,spool,log,run,rest,bin}
BIN=
if [ -n "${ROOTFS:-}" ]; then
  [ -x "$ROOTFS/usr/sbin/slurmctld" ] || { log "no Slurm in $ROOTFS"; exit 1; }
  # Everything but the operating system's own directories is the host's, at the same path.
  binds=()
  for top in /*; do
    case "$top" in /bin|/boot|/dev|/etc|/lib|/lib32|/lib64|/libx32|/proc|/run|/sbin|/sys|/usr|/var) continue;; esac
    [ -d "$top" ] && [ ! -L "$top" ] && binds+=(--bind "$top" "$top")
  done
  for tool in munged mungekey slurmctld slurmd slurmrestd sbatch scontrol scancel sinfo squeue sacct srun; do
    path=/usr/bin/$tool; [ -x "$ROOTFS$path" ] || path=/usr/sbin/$tool
    { echo '#!/bin/sh'
      printf 'exec bwrap --bind %q / --dev-bind /dev /dev --proc /proc --bind /sys /sys --ro-bind /etc/hosts /etc/hosts' "$ROOTFS"
      printf ' %q' "${binds[@]}"
      printf ' -- %q "$@"\n' "$path"; } > "$D/bin/$tool"
    chmod 755 "$D/bin/$tool"
  done
  BIN=$D/bin
  export PATH="$BIN:$PATH"
fi
chmod 755 "$D" "$D/munge"    # munged refuses a socket directory others cannot traverse
chmod 1777 "$D/rest"         # slurmrestd drops to user 'slurm' before it creates its socket

[ -f "$D/munge/munge.key" ] || mungekey --create --keyfile="$D/munge/munge.key" --bits=1024
munged --key-file="$D/munge/munge.key" --socket="$D/munge/munge.socket" \
       --pid-file="$D/munge/munged.pid" --log-file="$D/munge/munged.log" --seed-file="$D/munge/munged.seed"

[ -f "$D/etc/jwt_hs256.key" ] || { head -c 32 /dev/urandom > "$D/etc/jwt_hs256.key"; chmod 600 "$D/etc/jwt_hs256.key"; }
cat > "$D/etc/slurm.conf" <<CONF
ClusterName=test
SlurmctldHost=localhost
SlurmctldPort=$P
SlurmdPort=$((P + 2))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$D/munge/munge.socket
AuthAltTypes=auth/jwt
AuthAltParameters=jwt_key=$D/etc/jwt_hs256.key
# Bind 127.0.0.1, never 0.0.0.0 (slurmd and srun; slurmctld)
CommunicationParameters=NoInAddrAny,NoCtldInAddrAny
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool/%n
SlurmctldPidFile=$D/run/slurmctld.pid
SlurmdPidFile=$D/run/slurmd-%n.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
MailProg=/bin/true
# linuxproc: cgroup plugins would collide between two clusters on one host
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=256
SchedulerType=sched/backfill
# Heterogeneous jobs are started only by the backfill scheduler; its default interval is 30 s
SchedulerParameters=bf_interval=1
MpiDefault=none
ReturnToService=2
# Fake nodes may declare more CPUs and memory than the host has
SlurmdParameters=config_overrides
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
InactiveLimit=0
KillWait=5
# A node whose slurmd stops answering is declared DOWN after this many seconds
SlurmdTimeout=10
MinJobAge=$MIN_JOB_AGE
GresTypes=gpu
NodeName=n[1-$NODES] NodeHostname=localhost NodeAddr=127.0.0.1 Port=[$((P + 2))-$((P + 1 + NODES))] CPUs=$CPUS RealMemory=$MEM Gres=gpu:$GPUS State=UNKNOWN
PartitionName=debug Nodes=n[1-$NODES] Default=YES MaxTime=INFINITE State=UP
# A second partition on the same nodes, for jobs that name theirs (the request's partition)
PartitionName=second Nodes=n[1-$NODES] Default=NO MaxTime=INFINITE State=UP
CONF
# gres.conf is read from beside slurm.conf
DEVICES=(/dev/null /dev/zero /dev/full /dev/random)   # stand-ins: a gpu gres needs distinct device files
[ "$GPUS" -le ${#DEVICES[@]} ] || { log "GPUS may be at most ${#DEVICES[@]}"; exit 1; }
{ echo AutoDetect=off; for ((g = 0; g < GPUS; g++)); do echo "Name=gpu File=${DEVICES[$g]}"; done; } > "$D/etc/gres.conf"
export SLURM_CONF="$D/etc/slurm.conf"

slurmctld -f "$SLURM_CONF"
for i in $(seq 1 "$NODES"); do mkdir -p "$D/spool/n$i"; slurmd -f "$SLURM_CONF" -N "n$i"; done
all_idle() { [ "$(sinfo -h -o '%t' 2>/dev/null | sort -u | tr '\n' ' ')" = "idle " ]; }
wait_for 30000 all_idle || { log "nodes not idle:"; sinfo -N >&2 || true; exit 1; }
t1=$(now_ms)

# slurmrestd refuses to run as root. 22.05 names its API by version; later releases serve every
# data parser they have (26.05: v0.0.42-45) under one plugin.
REST_API=openapi/v0.0.38; [ -z "$BIN" ] || REST_API=openapi/slurmctld
SLURM_JWT=daemon setsid slurmrestd -u slurm -a rest_auth/jwt -s "$REST_API" "127.0.0.1:$((P + 1))" \
    > "$D/log/slurmrestd-jwt.log" 2>&1 < /dev/null &
echo $! > "$D/run/slurmrestd-jwt.pid"
setsid slurmrestd -u slurm -a rest_auth/local -s "$REST_API" "unix:$D/rest/slurmrestd.sock" \
    > "$D/log/slurmrestd-local.log" 2>&1 < /dev/null &
echo $! > "$D/run/slurmrestd-local.pid"
# Any HTTP answer (401 without a token) means the JWT daemon is up
rest_up() { curl -s -o /dev/null "http://127.0.0.1:$((P + 1))/" && [ -S "$D/rest/slurmrestd.sock" ]; }
wait_for 10000 rest_up || { log "slurmrestd not answering"; cat "$D"/log/slurmrestd-*.log >&2; exit 1; }
t2=$(now_ms)

cat > "$D/env.sh" <<ENV
export SLURM_CONF=$SLURM_CONF
export SLURM_BIN=$BIN
export SLURMRESTD_URL=http://127.0.0.1:$((P + 1))
export SLURMRESTD_SOCKET=$D/rest/slurmrestd.sock
export SLURM_JWT_KEY=$D/etc/jwt_hs256.key
ENV
log "dir=$D nodes idle after $((t1 - t0)) ms, slurmrestd up after $((t2 - t0)) ms"
