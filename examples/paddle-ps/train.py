"""Fit a line with Paddle 2.6's fleet parameter server: static graph, asynchronous SGD.

One program for both roles: PaddleCloudRoleMaker reads the environment paddle-jobs injects
(TRAINING_ROLE, PADDLE_PSERVERS_IP_PORT_LIST, PADDLE_TRAINERS_NUM, PADDLE_TRAINER_ID, POD_IP,
PADDLE_PORT) and decides whether this process serves parameters or trains.

It survives a restart of its job (max_restarts): after every pass trainer 0 has the pservers save
their tables with fleet.save_persistables into PADDLE_JOB_CHECKPOINT_DIR (the same directory for every
attempt; every replica sees it), and at start trainer 0 has them load the latest one back with
fleet.load_model, while every trainer goes on with the pass after it.
"""
import json
import os
import re
import shutil
import sys
import time

import numpy as np
import paddle
import paddle.distributed.fleet as fleet

FEATURES = 13
PASSES = int(os.environ.get("PASSES", "12"))
ROWS = int(os.environ.get("ROWS", "256"))  # per trainer
BATCH = 16
# Only under paddle-jobs: run by hand, every run starts afresh.
CHECKPOINTS = (os.path.join(os.environ["PADDLE_JOB_CHECKPOINT_DIR"], "paddle-ps")
               if os.environ.get("PADDLE_JOB_CHECKPOINT_DIR") else None)
CHECKPOINT_NAME = re.compile(r"^pass-(\d+)$")  # what is being written is named pass-N.partial
SAVED_IN = "saved-in-restart"  # in each checkpoint: the restart count of the attempt that saved it
RESTART = int(os.environ.get("PADDLE_JOB_RESTART_COUNT", "0"))


def build_model():
    x = paddle.static.data(name="x", shape=[None, FEATURES], dtype="float32")
    y = paddle.static.data(name="y", shape=[None, 1], dtype="float32")
    prediction = paddle.static.nn.fc(x, size=1)
    loss = paddle.mean(paddle.nn.functional.square_error_cost(prediction, y))
    return x, y, loss


def rows(trainer_id):
    """This trainer's rows of one line, y = x . w + b: the line is the same everywhere (seed 42),
    the rows are the trainer's own (seeded by its id)."""
    w = np.random.default_rng(42).normal(size=(FEATURES, 1)).astype("float32")
    x = np.random.default_rng(1000 + trainer_id).normal(size=(ROWS, FEATURES)).astype("float32")
    return x, x @ w + np.float32(0.5)


def write_slots(path, x, y):
    """Paddle's MultiSlot text format: per slot, the value count then the values."""
    with open(path, "w") as f:
        for features, target in zip(x, y):
            f.write(f"{FEATURES} " + " ".join(f"{v:.6f}" for v in features) + f" 1 {target[0]:.6f}\n")


def mean_squared_error(x, y):
    """The loss over all of this trainer's rows with the parameters it last pulled from the pservers.
    Computed in numpy: running another program on the scope a dataset has fed crashes Paddle 2.6."""
    scope = paddle.static.global_scope()
    w = np.array(scope.find_var("fc_0.w_0").get_tensor())
    b = np.array(scope.find_var("fc_0.b_0").get_tensor())
    return float(np.mean((x @ w + b - y) ** 2))


def report(step, loss):
    """One line for people, one for paddle-jobs' metrics."""
    print(f"step {step} loss {loss:.6f}", flush=True)
    # total_steps: the last step this trainer reports, from which the status tells progress and time left
    print("PADDLEJOBS_METRICS " + json.dumps({"step": step, "total_steps": PASSES, "loss": loss}), flush=True)


def written_in(checkpoint):
    """The restart count of the attempt that saved the checkpoint (-1 for one saved before it was recorded)."""
    try:
        with open(os.path.join(checkpoint, SAVED_IN)) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return -1


def latest_checkpoint():
    """The last pass an earlier attempt saved whole and its directory, or (0, None). Trainers train
    asynchronously: a trainer that starts late must not take up its own attempt's newer checkpoint
    (trainer 0's) and skip the passes it has yet to train."""
    if CHECKPOINTS is None or not os.path.isdir(CHECKPOINTS):
        return 0, None
    saved = [int(m.group(1)) for m in map(CHECKPOINT_NAME.match, os.listdir(CHECKPOINTS)) if m]
    earlier = [n for n in saved if written_in(os.path.join(CHECKPOINTS, f"pass-{n}")) < RESTART]
    if not earlier:
        return 0, None
    last = max(earlier)
    return last, os.path.join(CHECKPOINTS, f"pass-{last}")


def pservers_ready():
    """Trainer 0 has pushed its initial parameters (or the checkpoint's) to the pservers: a mark in the
    checkpoint directory for this attempt. Until then another trainer's passes would be lost: trainer 0's
    push, however late, overwrites whatever the pservers learnt (a loaded machine starts trainers seconds apart)."""
    return os.path.join(CHECKPOINTS, f"pservers-ready-in-restart-{RESTART}")


def await_pservers_ready():
    if CHECKPOINTS is None:
        return
    print("waiting for trainer 0 to initialize the pservers", flush=True)
    while not os.path.exists(pservers_ready()):
        time.sleep(0.2)


def save_checkpoint(exe, finished_pass):
    """The pservers write their tables (each its shard, on the directory every replica sees) aside,
    and the whole is renamed into place once they answered, so that a kill mid-save leaves the
    previous checkpoint whole; older ones go after."""
    if CHECKPOINTS is None:
        return
    # The service makes the directory where it can (local, Slurm); on a cluster's shared claim the job may be first.
    os.makedirs(CHECKPOINTS, exist_ok=True)
    final = os.path.join(CHECKPOINTS, f"pass-{finished_pass}")
    partial = final + ".partial"
    shutil.rmtree(partial, ignore_errors=True)  # left by an attempt killed while it saved
    fleet.save_persistables(exe, partial)  # returns once every pserver has written its part
    with open(os.path.join(partial, SAVED_IN), "w") as f:
        f.write(str(RESTART))
    os.rename(partial, final)
    for name in os.listdir(CHECKPOINTS):
        if name != os.path.basename(final):
            shutil.rmtree(os.path.join(CHECKPOINTS, name), ignore_errors=True)


def train(x_var, y_var, loss):
    # Read first, before a pass of the other trainer's may save a newer one: every trainer goes on from the same pass.
    resumed, checkpoint = latest_checkpoint()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(paddle.static.default_startup_program())
    fleet.init_worker()  # connects to every pserver; trainer 0 pushes the initial parameters
    trainer_id = fleet.worker_index()
    if checkpoint is not None and trainer_id == 0:
        # The pservers' dense tables as they were after that pass (init_server(dirname) loads only
        # sparse tables in Paddle 2.6); trainers pull them as they train.
        fleet.load_model(checkpoint, mode=0)
    if trainer_id == 0 and CHECKPOINTS is not None:
        os.makedirs(CHECKPOINTS, exist_ok=True)
        open(pservers_ready(), "w").close()
    elif trainer_id != 0:
        await_pservers_ready()
    x, y = rows(trainer_id)
    data = os.path.abspath(f"rows-trainer-{trainer_id}.txt")
    write_slots(data, x, y)

    # Paddle 2.3+ trains PS programs from a dataset: its worker pulls the dense parameters from the
    # pservers as it goes; a plain exe.run() would only push gradients and never see an update.
    dataset = paddle.distributed.QueueDataset()
    dataset.init(batch_size=BATCH, thread_num=1, use_var=[x_var, y_var], pipe_command="cat")
    dataset.set_filelist([data])

    print(f"trainer {trainer_id} of {fleet.worker_num()}: {PASSES} passes over {ROWS} rows"
          f" from pass {resumed + 1} (restart {RESTART})", flush=True)
    if checkpoint is None:
        report(0, mean_squared_error(x, y))  # step 0: the parameters as trainer 0 pushed them
    for step in range(resumed + 1, PASSES + 1):
        # minimize() hung the PS version of the program (send ops, no local optimizer) on the loss.
        exe.train_from_dataset(program=loss.block.program, dataset=dataset, print_period=10 ** 9, debug=False)
        report(step, mean_squared_error(x, y))
        if trainer_id == 0:
            save_checkpoint(exe, step)
    fleet.stop_worker()  # tells the pservers this trainer is done; they keep running
    print(f"trainer {trainer_id} done", flush=True)


def main():
    paddle.enable_static()
    fleet.init(is_collective=False)
    x, y, loss = build_model()
    strategy = fleet.DistributedStrategy()
    strategy.a_sync = True
    optimizer = fleet.distributed_optimizer(paddle.optimizer.SGD(learning_rate=0.01), strategy)
    optimizer.minimize(loss)  # rewrites the program for this process's role

    if fleet.is_server():
        print(f"pserver {fleet.server_index()} of {fleet.server_num()} serving", flush=True)
        fleet.init_server()
        fleet.run_server()  # serves until the process is stopped: pservers never exit by themselves
    elif fleet.is_worker():
        train(x, y, loss)
    else:
        sys.exit("neither pserver nor trainer: is TRAINING_ROLE set?")


if __name__ == "__main__":
    main()
