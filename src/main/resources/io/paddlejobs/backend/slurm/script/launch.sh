# One replica (one Slurm task): its planned environment with the placement filled in, then its
# role's entry point in a clean environment, its output appended to its own log file of this attempt
# (LOG_DIR: a directory per attempt, so that a restart keeps the earlier attempt's output apart).
# Usage: launch.sh ROLE, in a step where SLURM_PROCID is the replica's index within its role.
set -u
role=$1
id=$role-$SLURM_PROCID
STATE=${STATE_DIR:-$JOB_DIR/state}
declare -A HOST PORT
while read -r replica address port node; do
    HOST[$replica]=$address
    PORT[$replica]=$port
done < "$STATE/placement"

# The plan names replica hosts "@<replica>@" (Slurm places them when the job starts): an endpoint
# "@<replica>@:<first port>" becomes the replica's address and port, a bare "@<replica>@" its address.
# Sets PLACED (not printed and captured: a value's trailing newlines are kept).
place() {
    local replica
    PLACED=$1
    for replica in "${!HOST[@]}"; do
        PLACED=${PLACED//"@$replica@:$FIRST_PORT"/"${HOST[$replica]}:${PORT[$replica]}"}
        PLACED=${PLACED//"@$replica@"/"${HOST[$replica]}"}
    done
}
vars=("PATH=$REPLICA_PATH" "HOME=${HOME:-/}" "LANG=${LANG:-C.UTF-8}" "SLURM_JOB_ID=$SLURM_JOB_ID"
      "SLURM_PROCID=$SLURM_PROCID" "SLURMD_NODENAME=${SLURMD_NODENAME:-}")
# The GPUs Slurm bound to this task
for name in CUDA_VISIBLE_DEVICES ROCR_VISIBLE_DEVICES GPU_DEVICE_ORDINAL SLURM_STEP_GPUS; do
    [ -n "${!name:-}" ] && vars+=("$name=${!name}")
done
# The service's own values, placed; then the user's, exactly as given.
while IFS= read -r -d '' pair; do
    name=${pair%%=*}
    if [ "$name" = PADDLE_PORT ]; then
        vars+=("PADDLE_PORT=${PORT[$id]}")   # this replica's own port
    elif [ "$name" = PADDLE_JOB_RESTART_COUNT ]; then
        vars+=("PADDLE_JOB_RESTART_COUNT=${RESTART_COUNT:-0}")   # the attempt this is
    else
        place "${pair#*=}"
        vars+=("$name=$PLACED")
    fi
done < "$JOB_DIR/env/$id.placed"
while IFS= read -r -d '' pair; do
    vars+=("$pair")
done < "$JOB_DIR/env/$id.env"
# Kept for exec into the replica while its failed attempt is held (debug_hold): the command runs with these.
printf '%s\0' "${vars[@]}" > "$STATE/$id.vars.tmp" && mv "$STATE/$id.vars.tmp" "$STATE/$id.vars"

# What the entry point starts must end with it, also what it detaches (setsid, nohup), which
# proctrack/linuxproc does not follow: the replica runs in a PID namespace of its own (as root, or
# in a user namespace of this user's), whose first process passes a TERM on to every process in it
# and, when the entry point has ended, takes what is left with it (the kernel kills the namespace).
# Where neither namespace can be made, the replica runs as before and proctrack/cgroup must do it.
confine=()
for try in "unshare --pid --fork --kill-child=TERM" "unshare --user --map-current-user --pid --fork --kill-child=TERM"; do
    if $try /bin/true 2>/dev/null; then
        read -ra confine <<< "$try"
        break
    fi
done
init='trap "kill -TERM -1 2>/dev/null" TERM; "$@" & c=$!; wait $c; rc=$?
while kill -0 $c 2>/dev/null; do wait $c; rc=$?; done; exit $rc'

log=${LOG_DIR:-$JOB_DIR/logs}/$id.log

# A collective job's trainers other than 0 start once trainer 0 accepts connections on its master port
# (PADDLE_MASTER: its store, or its launcher's rendezvous), as on the local backend: Paddle's store client
# that finds nobody there waits a fixed 3 s before it tries again. One that ends first lets them start. One
# that does not listen within RENDEZVOUS_TIMEOUT seconds fails the job: the mark tells the service why (it
# words the reason itself), and "stopping" makes what ends from now on stopped rather than failed.
if [ "$role" = trainer ] && [ "$SLURM_PROCID" -gt 0 ] && [ "${RENDEZVOUS_TIMEOUT:-0}" -gt 0 ]; then
    master=${HOST[trainer-0]}/${PORT[trainer-0]}
    deadline=$((SECONDS + RENDEZVOUS_TIMEOUT))
    until (exec 3<>"/dev/tcp/$master") 2>/dev/null || [ -e "$STATE/trainer-0.exit" ]; do
        if [ "$SECONDS" -ge "$deadline" ]; then
            echo "launch.sh: trainer-0 did not listen on ${master/\//:} within ${RENDEZVOUS_TIMEOUT}s; $id was not started" >> "$log"
            echo "$RENDEZVOUS_TIMEOUT" > "$STATE/rendezvous-not-listening.tmp" \
                && mv "$STATE/rendezvous-not-listening.tmp" "$STATE/rendezvous-not-listening"
            touch "$STATE/stopping"
            exit 1
        fi
        sleep 0.05
    done
fi

entry=$(cat "$JOB_DIR/entry/$role")
# The job's secrets (env/secrets, NAME=value NUL-separated) reach the entry point through a shell that
# exports them after env -i: a value on a command line (env's, or the PID namespace's init's, which lives as
# long as the replica) could be read by every user of the node in /proc.
run=(/bin/sh -c "$entry")
if [ -f "$JOB_DIR/env/secrets" ]; then
    run=(/bin/bash -c 'while IFS= read -r -d "" pair; do export "$pair"; done < "$0" && exec /bin/sh -c "$1"'
         "$JOB_DIR/env/secrets" "$entry")
fi

date -u +%FT%TZ > "$STATE/$id.started"
cd "$JOB_DIR/work/$id" || exit 1   # its own working directory, made by the service
if [ ${#confine[@]} -gt 0 ]; then
    setsid "${confine[@]}" /bin/bash -c "$init" init env -i "${vars[@]}" "${run[@]}" >> "$log" 2>&1 < /dev/null &
else
    echo "launch.sh: no PID namespace here; what $id detaches may outlive it" >> "$JOB_DIR/logs/batch.log"
    setsid env -i "${vars[@]}" "${run[@]}" >> "$log" 2>&1 < /dev/null &
fi
child=$!
# The root of the replica's processes on this node, for stack dumps (srun --overlap ... py-spy on its Python ones)
echo "$child" > "$STATE/$id.pid.tmp" && mv "$STATE/$id.pid.tmp" "$STATE/$id.pid"
stopped=""
trap 'stopped=1; kill -TERM -- "-$child" 2>/dev/null' TERM INT
wait "$child"
rc=$?
while kill -0 "$child" 2>/dev/null; do wait "$child"; rc=$?; done   # a trapped signal interrupted wait
outcome=$rc
[ -e "$STATE/stopping" ] && outcome="$rc stopped"
echo "$outcome" > "$STATE/$id.exit.tmp" && mv "$STATE/$id.exit.tmp" "$STATE/$id.exit"
# debug_hold (DEBUG_HOLD seconds): a replica that failed on its own keeps its task, so that its exit neither ends
# the step (--kill-on-bad-exit) nor the job: the allocation, the other replicas and its working directory stay for
# exec, until the service ends the hold (the mark hold-over) or a cancel or the time limit stops the task; should
# the service be gone, the hold ends two minutes after its time all the same (later than the service would, so that
# it is the service that decides).
if [ "$rc" -ne 0 ] && [ -z "$stopped" ] && [ ! -e "$STATE/stopping" ] && [ "${DEBUG_HOLD:-0}" -gt 0 ]; then
    trap 'exit "$rc"' TERM INT
    deadline=$((SECONDS + DEBUG_HOLD + 120))
    until [ -e "$STATE/hold-over" ] || [ "$SECONDS" -ge "$deadline" ]; do
        sleep 1 & wait $!   # a wait the TERM trap interrupts at once
    done
    # The attempt's outcome is this failure: the siblings its exit now stops (--kill-on-bad-exit) were stopped.
    touch "$STATE/stopping"
fi
exit "$rc"
