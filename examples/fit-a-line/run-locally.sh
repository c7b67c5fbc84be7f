#!/usr/bin/env bash
# Runs the example the way the paddle-jobs local backend does, without the service:
# each replica is `sh -c "<entry point>"` in a scratch working directory (not this one),
# pservers on 127.0.0.1, 127.0.0.2, ... sharing one port, trainers on 127.0.1.x.
#
#   PSERVERS=2 TRAINERS=3 PSERVER_DELAY=2 ./run-locally.sh
#
# PSERVER_DELAY (seconds) starts the pservers after the trainers, to exercise the trainers' retry.
# Exit status: 0 if every replica exited 0.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
pservers="${PSERVERS:-2}"
trainers="${TRAINERS:-3}"
delay="${PSERVER_DELAY:-0}"
workdir="$(mktemp -d)"
trap 'rm -rf "$workdir"' EXIT

# One port that is free on every pserver address (they all listen on the same port).
port="$(python3 - "$pservers" <<'EOF'
import socket, sys
n = int(sys.argv[1])
while True:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    socks = [probe]
    try:
        for i in range(1, n):
            s = socket.socket()
            socks.append(s)
            s.bind(("127.0.0.%d" % (i + 1), port))
        print(port)
        break
    except OSError:
        pass
    finally:
        for s in socks:
            s.close()
EOF
)"
list=""
for ((i = 0; i < pservers; i++)); do list="${list:+$list,}127.0.0.$((i + 1)):$port"; done
entry="python3 -u '$here/train.py'"
echo "pservers $list, $trainers trainers, pserver delay ${delay}s, working directory $workdir"

# start NAME ROLE POD_IP [TRAINER_ID]: one replica in the background, output to $workdir/NAME.log
pids=() names=()
start() {
    (cd "$workdir" && exec env TRAINING_ROLE="$2" PADDLE_PSERVERS_IP_PORT_LIST="$list" \
        PADDLE_TRAINERS_NUM="$trainers" POD_IP="$3" PADDLE_PORT="$port" ${4:+PADDLE_TRAINER_ID="$4"} \
        PADDLE_JOB_NAME=fit-a-line PADDLE_JOB_DATA="$workdir" \
        timeout 120 sh -c "$entry") >"$workdir/$1.log" 2>&1 &
    pids+=($!) names+=("$1")
}

began=$(date +%s.%N)
for ((i = 0; i < trainers; i++)); do start "trainer-$i" TRAINER "127.0.1.$((i + 1))" "$i"; done
sleep "$delay"
for ((i = 0; i < pservers; i++)); do start "pserver-$i" PSERVER "127.0.0.$((i + 1))"; done

failed=0
for k in "${!pids[@]}"; do
    wait "${pids[$k]}"
    rc=$?
    echo "== ${names[$k]} (exit $rc)"
    cat "$workdir/${names[$k]}.log"
    [ "$rc" -eq 0 ] || failed=1
done
echo "wall time $(python3 -c "print('%.2f' % ($(date +%s.%N) - $began))") s"
[ "$failed" -eq 0 ] && echo "all replicas exited 0" || echo "SOME REPLICAS FAILED"
exit "$failed"
