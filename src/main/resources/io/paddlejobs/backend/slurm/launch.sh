# One replica (one Slurm task): its planned environment with the placement filled in, then its
# role's entry point in a clean environment, its output appended to its own log file.
# Usage: launch.sh ROLE, in a step where SLURM_PROCID is the replica's index within its role.
set -u
role=$1
id=$role-$SLURM_PROCID
STATE=$JOB_DIR/state
declare -A HOST PORT
while read -r replica address port node; do
    HOST[$replica]=$address
    PORT[$replica]=$port
done < "$STATE/placement"

# The plan names replica hosts "@<replica>@" (Slurm places them when the job starts): an endpoint
# "@<replica>@:<first port>" becomes the replica's address and port, a bare "@<replica>@" its address.
place() {
    local value=$1 replica
    for replica in "${!HOST[@]}"; do
        value=${value//"@$replica@:$FIRST_PORT"/"${HOST[$replica]}:${PORT[$replica]}"}
        value=${value//"@$replica@"/"${HOST[$replica]}"}
    done
    printf '%s' "$value"
}
vars=("PATH=$REPLICA_PATH" "HOME=${HOME:-/}" "LANG=${LANG:-C.UTF-8}" "SLURM_JOB_ID=$SLURM_JOB_ID"
      "SLURM_PROCID=$SLURM_PROCID" "SLURMD_NODENAME=${SLURMD_NODENAME:-}")
# The GPUs Slurm bound to this task
for name in CUDA_VISIBLE_DEVICES ROCR_VISIBLE_DEVICES GPU_DEVICE_ORDINAL SLURM_STEP_GPUS; do
    [ -n "${!name:-}" ] && vars+=("$name=${!name}")
done
while IFS= read -r -d '' pair; do
    name=${pair%%=*}
    if [ "$name" = PADDLE_PORT ]; then
        vars+=("PADDLE_PORT=${PORT[$id]}")   # this replica's own port
    else
        vars+=("$name=$(place "${pair#*=}")")
    fi
done < "$JOB_DIR/env/$id.env"

log=$JOB_DIR/logs/$id.log
date -u +%FT%TZ > "$STATE/$id.started"
cd "$JOB_DIR/work" || exit 1
setsid env -i "${vars[@]}" /bin/sh -c "$(cat "$JOB_DIR/entry/$role")" >> "$log" 2>&1 < /dev/null &
child=$!
trap 'kill -TERM -- "-$child" 2>/dev/null' TERM INT
wait "$child"
rc=$?
while kill -0 "$child" 2>/dev/null; do wait "$child"; rc=$?; done   # a trapped signal interrupted wait
outcome=$rc
[ -e "$STATE/stopping" ] && outcome="$rc stopped"
echo "$outcome" > "$STATE/$id.exit.tmp" && mv "$STATE/$id.exit.tmp" "$STATE/$id.exit"
exit "$rc"
