#!/usr/bin/env python3
"""Fit a line (y = w.x + b, 13 features) with parameter-server SGD, stdlib only.

The same file runs as either role, chosen by TRAINING_ROLE (Paddle 2.x fleet names):
  PSERVER  holds a shard of the parameters and applies the gradients trainers push (async SGD);
  TRAINER  trains on its shard of the data: pull parameters, compute a gradient, push it.
Messages are one JSON object per line over TCP; see README.md.

A restarted job (max_restarts) resumes: after every pass trainer 0 writes the parameters and the pass
to PADDLE_JOB_CHECKPOINT_DIR (the same directory for every attempt); at start pservers take their
shard from there and trainers go on with the next pass.
"""
import json
import os
import random
import socket
import socketserver
import sys
import threading
import time

FEATURES = 13            # as in the UCI housing "fit a line" example
ROWS = 600               # synthetic rows, split over the trainers
PASSES = 8
BATCH = 20
LEARNING_RATE = float(os.environ.get("FIT_A_LINE_LEARNING_RATE", "0.01"))  # a sweep varies it (docs/experiments.md)
CONNECT_DEADLINE = 60.0  # seconds a trainer waits for every pserver; they may start later
BARRIER_TIMEOUT = 120.0  # seconds a pserver waits for every trainer to say hello
PSERVER_IDLE_LIMIT = 300.0  # a pserver gives up if no trainer talks to it this long (a trainer died)
NUM_PARAMS = FEATURES + 1   # parameter i < FEATURES is w[i]; parameter FEATURES is b
# Only under paddle-jobs: run by hand, every run starts afresh.
CHECKPOINT = (os.path.join(os.environ["PADDLE_JOB_CHECKPOINT_DIR"], "fit-a-line.json")
              if os.environ.get("PADDLE_JOB_CHECKPOINT_DIR") else None)
METRICS_MARKER = "PADDLEJOBS_METRICS"  # paddle-jobs charts lines "PADDLEJOBS_METRICS {json}" on the status page


def die(message):
    print("train.py: " + message, file=sys.stderr, flush=True)
    sys.exit(2)


def env(name):
    value = os.environ.get(name, "").strip()
    if not value:
        die("environment variable %s is not set; the job service injects it" % name)
    return value


def env_float(name, default):
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        die("%s must be a number of seconds, got %r" % (name, os.environ[name]))


def report(step, **values):
    """One metrics line, as paddle_jobs.report prints it: the status page charts it per trainer."""
    print("%s %s" % (METRICS_MARKER, json.dumps(dict(step=step, **values))), flush=True)


def env_int(name):
    try:
        return int(env(name))
    except ValueError:
        die("%s must be an integer, got %r" % (name, os.environ[name]))


def pserver_endpoints():
    endpoints = [e.strip() for e in env("PADDLE_PSERVERS_IP_PORT_LIST").split(",") if e.strip()]
    for e in endpoints:
        host, _, port = e.rpartition(":")
        if not host or not port.isdigit():
            die("PADDLE_PSERVERS_IP_PORT_LIST entry %r is not host:port" % e)
    return endpoints


def owner(param, num_pservers):
    """Which pserver holds parameter `param`: round-robin, so shards stay even."""
    return param % num_pservers


def make_data():
    """The same rows on every replica: everything derives from one fixed seed."""
    rng = random.Random(42)
    true_w = [rng.uniform(-2.0, 2.0) for _ in range(FEATURES)]
    true_b = rng.uniform(-2.0, 2.0)
    rows = []
    for _ in range(ROWS):
        x = [rng.gauss(0.0, 1.0) for _ in range(FEATURES)]
        y = sum(wi * xi for wi, xi in zip(true_w, x)) + true_b + rng.gauss(0.0, 0.1)
        rows.append((x, y))
    return rows


# ---------------------------------------------------------------- pserver

class Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True  # a quick rerun may reuse the port
    daemon_threads = True       # trainers' open connections must not keep the process alive


def load_checkpoint():
    """The last pass finished and its parameters, or pass 0 and none."""
    if CHECKPOINT is None:
        return 0, None
    try:
        with open(CHECKPOINT, encoding="utf-8") as f:
            saved = json.load(f)
        return int(saved["pass"]), [float(v) for v in saved["params"]]
    except (OSError, ValueError, KeyError):
        return 0, None


def save_checkpoint(n, params):
    """Written aside and renamed into place, so that a kill mid-write leaves the previous one whole."""
    if CHECKPOINT is None:
        return
    # The service makes the directory where it can (local, Slurm); on a cluster's shared claim the job may be first.
    os.makedirs(os.path.dirname(CHECKPOINT), exist_ok=True)
    partial = CHECKPOINT + ".partial"
    with open(partial, "w", encoding="utf-8") as f:
        json.dump({"pass": n, "params": list(params)}, f)
    os.replace(partial, CHECKPOINT)


def run_pserver():
    endpoints = pserver_endpoints()
    host, port, trainers = env("POD_IP"), env_int("PADDLE_PORT"), env_int("PADDLE_TRAINERS_NUM")
    # POD_IP is written exactly as in the list, so a string match finds our index.
    me = "%s:%d" % (host, port)
    if me not in endpoints:
        die("POD_IP:PADDLE_PORT %s is not in PADDLE_PSERVERS_IP_PORT_LIST %s" % (me, ",".join(endpoints)))
    index = endpoints.index(me)
    _, saved = load_checkpoint()
    shard = {p: saved[p] if saved else 0.0 for p in range(NUM_PARAMS) if owner(p, len(endpoints)) == index}
    lock = threading.Condition()     # handler threads share shard, hello, done and last_seen
    hello, done = set(), set()
    all_done = threading.Event()
    last_seen = [time.monotonic()]

    class Handler(socketserver.StreamRequestHandler):
        def handle(self):
            for line in self.rfile:      # one request per line until the trainer hangs up
                try:
                    reply = self.answer(json.loads(line))
                except (ValueError, KeyError, TypeError, AttributeError) as e:
                    reply = {"error": "bad request %r: %r" % (line[:100].decode(errors="replace"), e)}
                self.wfile.write((json.dumps(reply) + "\n").encode())
                self.wfile.flush()
                # Only now, with the last "done" answered, may the main thread end the process.
                with lock:
                    if len(done) >= trainers:
                        all_done.set()

        def answer(self, request):
            with lock:
                last_seen[0] = time.monotonic()
                if request["op"] == "hello":
                    # A start barrier, as Paddle has: training is over in well under a second, so
                    # a trainer that started late would otherwise find the line already fitted.
                    hello.add(request["trainer"])
                    lock.notify_all()
                    if not lock.wait_for(lambda: len(hello) >= trainers, timeout=BARRIER_TIMEOUT):
                        return {"error": "only %d of %d trainers arrived within %.0f s"
                                         % (len(hello), trainers, BARRIER_TIMEOUT)}
                    return {"ok": True}
                if request["op"] == "pull":
                    return {"params": {str(p): v for p, v in shard.items()}}
                if request["op"] == "push":
                    # Async SGD: apply each gradient as it arrives, no waiting for other trainers.
                    for p, g in request["grads"].items():
                        shard[int(p)] -= LEARNING_RATE * g
                    return {"ok": True}
                if request["op"] == "done":
                    done.add(request["trainer"])
                    return {"ok": True}
                return {"error": "unknown op %r" % request["op"]}

    try:
        server = Server((host, port), Handler)  # exactly POD_IP, not 0.0.0.0: pservers share the port
    except OSError as e:
        die("pserver %d cannot listen on %s:%d: %s" % (index, host, port, e))
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True).start()
    print("pserver %d listening on %s:%d, parameters %s, waiting for %d trainers"
          % (index, host, port, sorted(shard), trainers), flush=True)
    while not all_done.wait(timeout=5.0):
        if time.monotonic() - last_seen[0] > PSERVER_IDLE_LIMIT:
            die("pserver %d: no trainer request for %.0f s, %d of %d trainers done; giving up"
                % (index, PSERVER_IDLE_LIMIT, len(done), trainers))
    server.shutdown()
    server.server_close()
    print("pserver %d done: all %d trainers finished" % (index, trainers), flush=True)


# ---------------------------------------------------------------- trainer

class PserverClient:
    """One persistent connection to one pserver, opened with retries until a deadline."""

    def __init__(self, endpoint, deadline):
        host, _, port = endpoint.rpartition(":")
        while True:
            try:
                # The timeout must outlast the pserver's wait at the start barrier.
                self.sock = socket.create_connection((host, int(port)), timeout=BARRIER_TIMEOUT + 30)
                break
            except OSError as e:
                if time.monotonic() > deadline:
                    die("pserver %s never became reachable within %.0f s: %s" % (endpoint, CONNECT_DEADLINE, e))
                time.sleep(0.2)
        self.endpoint = endpoint
        self.file = self.sock.makefile("rwb")

    def call(self, request):
        try:
            self.file.write((json.dumps(request) + "\n").encode())
            self.file.flush()
            line = self.file.readline()
        except OSError as e:
            die("lost pserver %s: %s" % (self.endpoint, e))
        if not line:
            die("pserver %s closed the connection" % self.endpoint)
        reply = json.loads(line)
        if "error" in reply:
            die("pserver %s: %s" % (self.endpoint, reply["error"]))
        return reply


def pull(clients):
    params = [0.0] * NUM_PARAMS
    for client in clients:
        for p, v in client.call({"op": "pull"})["params"].items():
            params[int(p)] = v
    return params


def predict(params, x):
    return sum(w * xi for w, xi in zip(params, x)) + params[FEATURES]


def mse(params, rows):
    return sum((predict(params, x) - y) ** 2 for x, y in rows) / len(rows)


def run_trainer():
    endpoints = pserver_endpoints()
    trainer_id, trainers = env_int("PADDLE_TRAINER_ID"), env_int("PADDLE_TRAINERS_NUM")
    if not 0 <= trainer_id < trainers:
        die("PADDLE_TRAINER_ID %d is not in 0..%d" % (trainer_id, trainers - 1))
    rows = [row for i, row in enumerate(make_data()) if i % trainers == trainer_id]
    print("trainer %d: %d rows, %d pservers %s" % (trainer_id, len(rows), len(endpoints), ",".join(endpoints)),
          flush=True)
    deadline = time.monotonic() + CONNECT_DEADLINE
    clients = [PserverClient(e, deadline) for e in endpoints]
    for client in clients:
        client.call({"op": "hello", "trainer": trainer_id})  # returns once every trainer is here
    order = random.Random(trainer_id)  # each trainer shuffles differently, but reproducibly
    # Training takes well under a second; a pause between passes lets a person watch the loss fall.
    pause = env_float("FIT_A_LINE_PASS_SECONDS", 0)

    done_passes, _ = load_checkpoint()
    if done_passes:
        print("trainer %d resumes after pass %d (restart %s)"
              % (trainer_id, done_passes, os.environ.get("PADDLE_JOB_RESTART_COUNT", "0")), flush=True)

    for n in range(1, PASSES + 1):
        order.shuffle(rows)
        if n <= done_passes:
            continue  # shuffled all the same, so the passes to come see the rows in their usual order
        for start in range(0, len(rows), BATCH):
            batch = rows[start:start + BATCH]
            params = pull(clients)
            # Gradient of the mean squared error over the batch: d/dp mean((pred - y)^2).
            grads = [0.0] * NUM_PARAMS
            for x, y in batch:
                err = 2.0 * (predict(params, x) - y) / len(batch)
                for i in range(FEATURES):
                    grads[i] += err * x[i]
                grads[FEATURES] += err
            # Each pserver gets only the gradients of the parameters it holds.
            for index, client in enumerate(clients):
                mine = {str(p): grads[p] for p in range(NUM_PARAMS) if owner(p, len(clients)) == index}
                client.call({"op": "push", "grads": mine})
        params = pull(clients)
        loss = mse(params, rows)
        if trainer_id == 0:
            save_checkpoint(n, params)
        print("pass %d loss %.6f" % (n, loss), flush=True)
        report(n, total_steps=PASSES, loss=loss)  # total_steps: the status shows progress and time left
        if pause > 0 and n < PASSES:
            time.sleep(pause)

    for client in clients:
        client.call({"op": "done", "trainer": trainer_id})
    print("trainer %d done after %d passes" % (trainer_id, PASSES), flush=True)


if __name__ == "__main__":
    role = env("TRAINING_ROLE").upper()
    if role == "PSERVER":
        run_pserver()
    elif role == "TRAINER":
        run_trainer()
    else:
        die("TRAINING_ROLE must be PSERVER or TRAINER, got %r" % role)
