# The batch step (runs once, on the first node of the first component). Set above by the service:
# JOB_DIR, FIRST_PORT, PORT_STEP, ROLES (one role per component, in component order), STATE_DIR (this
# attempt's marks), LOG_DIR (this attempt's replica logs), RESTART_COUNT (this attempt's number), RENDEZVOUS_TIMEOUT (seconds trainer 0 of a
# collective job has to listen on its master port, 0 for no wait: see launch.sh) and, per role, <ROLE>_TASKS, <ROLE>_CPUS and
# <ROLE>_GPUS (per task); DEBUG_HOLD (seconds a replica that failed keeps its task, 0 for none: see launch.sh);
# with containers, <ROLE>_IMAGE (a role without one runs on the node) and CONTAINER_MOUNTS.
set -uo pipefail
STATE=$STATE_DIR
mkdir -p "$STATE" "$LOG_DIR" "$JOB_DIR/work"

# Slurm's compressed tasks-per-node ("2(x3),1") written out, one count per node.
expand_counts() {
    local part out=()
    IFS=, read -ra parts <<< "$1"
    for part in "${parts[@]}"; do
        if [[ $part =~ ^([0-9]+)\(x([0-9]+)\)$ ]]; then
            for ((i = 0; i < BASH_REMATCH[2]; i++)); do out+=("${BASH_REMATCH[1]}"); done
        else
            out+=("$part")
        fi
    done
    echo "${out[@]}"
}
component_var() { # NAME K: $NAME_HET_GROUP_K in a heterogeneous job, $NAME otherwise
    if [ -n "${SLURM_HET_SIZE:-}" ]; then eval echo "\${$1_HET_GROUP_$2}"; else eval echo "\${$1}"; fi
}

# Placement: every replica's host and port, computed from the allocation before any replica starts
# (srun --distribution=block puts rank r on the r-th task slot). A port is FIRST_PORT plus PORT_STEP
# for each replica already placed on the same address: replicas on distinct hosts share one port,
# replicas sharing an address (several on one node, or fake nodes) never collide.
declare -A ADDR USED
PLACEMENT=""
k=0
for role in $ROLES; do
    read -ra nodes <<< "$(scontrol show hostnames "$(component_var SLURM_JOB_NODELIST $k)" | tr '\n' ' ')"
    read -ra counts <<< "$(expand_counts "$(component_var SLURM_TASKS_PER_NODE $k)")"
    rank=0
    for n in "${!nodes[@]}"; do
        node=${nodes[$n]}
        if [ -z "${ADDR[$node]:-}" ]; then
            ADDR[$node]=$(scontrol show node -o "$node" | sed -n 's/.* NodeAddr=\([^ ]*\).*/\1/p')
        fi
        address=${ADDR[$node]:-$node}
        for ((c = 0; c < counts[n]; c++)); do
            used=${USED[$address]:-0}
            USED[$address]=$((used + 1))
            PLACEMENT+="$role-$rank $address $((FIRST_PORT + used * PORT_STEP)) $node"$'\n'
            rank=$((rank + 1))
        done
    done
    k=$((k + 1))
done
printf '%s' "$PLACEMENT" > "$STATE/placement.tmp" && mv "$STATE/placement.tmp" "$STATE/placement"

# One step per component. A replica failing ends its step (--kill-on-bad-exit), and that ends the job; with a
# debug_hold, only once the hold is over (its task lives on until then: launch.sh).
declare -A STEP
k=0
for role in $ROLES; do
    group=()
    [ -n "${SLURM_HET_SIZE:-}" ] && group=(--het-group="$k")
    tasks_var=${role^^}_TASKS cpus_var=${role^^}_CPUS gpus_var=${role^^}_GPUS image_var=${role^^}_IMAGE
    # Given again: a step does not inherit every per-task setting of its component (GPU binding)
    [ "${!gpus_var}" -gt 0 ] && group+=(--gpus-per-task="${!gpus_var}")
    # With Pyxis (paddlejobs.slurm.containers=pyxis): the role's image, the job's files at their own paths
    [ -n "${!image_var:-}" ] && group+=(--container-image="${!image_var}" --container-mounts="$CONTAINER_MOUNTS")
    srun "${group[@]}" --ntasks="${!tasks_var}" --cpus-per-task="${!cpus_var}" --distribution=block \
        --kill-on-bad-exit=1 --export=ALL /bin/bash "$JOB_DIR/launch.sh" "$role" &
    STEP[$role]=$!
    k=$((k + 1))
done

stop_step() { # the job's outcome is decided; the service counts what ends from now on as stopped
    touch "$STATE/stopping"
    kill -TERM "$1" 2>/dev/null
    wait "$1" 2>/dev/null
}
trainers=${STEP[trainer]}
pservers=${STEP[pserver]:-}
if [ -n "$pservers" ]; then
    # Until one of the two steps ends (polled: "wait -n -p" needs bash 5.1, and many clusters have 4.4).
    while kill -0 "$pservers" 2>/dev/null && kill -0 "$trainers" 2>/dev/null; do sleep 0.2; done
    if ! kill -0 "$trainers" 2>/dev/null; then
        wait "$trainers"
        rc=$?
        stop_step "$pservers"
        exit "$rc"
    fi
    wait "$pservers"
    rc=$?
    if [ "$rc" -eq 0 ]; then
        wait "$trainers"   # every pserver exited 0: the trainers decide
        exit $?
    fi
    stop_step "$trainers"
    exit "$rc"
fi
wait "$trainers"
