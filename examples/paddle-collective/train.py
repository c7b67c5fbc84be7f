"""Fit a line with Paddle 3's data parallelism on CPU: every trainer holds the whole model, computes
gradients on its own rows, and gloo all-reduces them, so every rank takes the same steps.

paddle.distributed.init_parallel_env() reads what paddle-jobs injects in collective mode:
PADDLE_TRAINER_ID, PADDLE_TRAINERS_NUM, PADDLE_TRAINER_ENDPOINTS, PADDLE_CURRENT_ENDPOINT,
PADDLE_DISTRI_BACKEND=gloo and the store's address PADDLE_MASTER (its C++ store reads that one;
MASTER_ADDR/MASTER_PORT, injected too for Paddle 3's CLIs, name the same endpoint).

It survives a restart of its job (max_restarts): every CHECKPOINT_EVERY steps rank 0 saves the model,
the optimizer and the next step with paddle.save into PADDLE_JOB_CHECKPOINT_DIR (the same directory
for every attempt), and every rank starts from the latest checkpoint there. Each step's rows depend
only on rank and step, so a resumed run ends with the parameters an uninterrupted one has.
"""
import hashlib
import json
import os

import numpy as np
import paddle
import paddle.distributed as dist

FEATURES = 13
STEPS = int(os.environ.get("STEPS", "40"))
ROWS = 64  # per trainer and step
REPORT_EVERY = 5
CHECKPOINT_EVERY = int(os.environ.get("CHECKPOINT_EVERY", "5"))
# Only under paddle-jobs: run by hand, every run starts afresh.
CHECKPOINT = (os.path.join(os.environ["PADDLE_JOB_CHECKPOINT_DIR"], "collective.pdckpt")
              if os.environ.get("PADDLE_JOB_CHECKPOINT_DIR") else None)


def rows(rank, step):
    """Rows of one line, y = x . w + b: the line is the same everywhere (seed 42), the rows are
    this rank's own (seeded by rank and step), so only all-reduce can keep the ranks in step."""
    w = np.random.default_rng(42).normal(size=(FEATURES, 1)).astype("float32")
    x = np.random.default_rng([rank, step]).normal(size=(ROWS, FEATURES)).astype("float32")
    return paddle.to_tensor(x), paddle.to_tensor(x @ w + np.float32(0.5))


def checksum(model):
    """SHA-256 of every parameter's bytes, in order: equal on every rank exactly when the models are."""
    digest = hashlib.sha256()
    for name, parameter in sorted(model.named_parameters()):
        digest.update(name.encode())
        digest.update(np.ascontiguousarray(parameter.numpy()).tobytes())
    return digest.hexdigest()


def save_checkpoint(model, optimizer, next_step):
    """Written aside and renamed into place, so that a kill mid-write leaves the previous one whole."""
    if CHECKPOINT is None:
        return
    # The service makes the directory where it can (local, Slurm); on a cluster's shared claim the job may be first.
    os.makedirs(os.path.dirname(CHECKPOINT), exist_ok=True)
    partial = CHECKPOINT + ".partial"
    paddle.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "next_step": next_step}, partial)
    os.replace(partial, CHECKPOINT)


def resume(model, optimizer):
    """The step to start from: 0, or the one after the latest checkpoint, whose state is loaded."""
    if CHECKPOINT is None or not os.path.exists(CHECKPOINT):
        return 0
    state = paddle.load(CHECKPOINT)
    model.set_state_dict(state["model"])
    optimizer.set_state_dict(state["optimizer"])
    return int(state["next_step"])


def main():
    dist.init_parallel_env()
    rank, world = dist.get_rank(), dist.get_world_size()
    # the same initial parameters on every rank; DataParallel also broadcasts rank 0's. SEED and
    # LEARNING_RATE are for sweeps over them (docs/experiments.md)
    paddle.seed(int(os.environ.get("SEED", "7")))
    model = paddle.DataParallel(paddle.nn.Linear(FEATURES, 1))
    optimizer = paddle.optimizer.SGD(learning_rate=float(os.environ.get("LEARNING_RATE", "0.05")),
                                     parameters=model.parameters())
    start = resume(model, optimizer)
    restart = os.environ.get("PADDLE_JOB_RESTART_COUNT", "0")
    print(f"trainer {rank} of {world} training {STEPS} steps from step {start} (restart {restart})", flush=True)
    for step in range(start, STEPS):
        x, y = rows(rank, step)
        loss = paddle.mean((model(x) - y) ** 2)
        loss.backward()  # DataParallel all-reduces the gradients here
        optimizer.step()
        optimizer.clear_grad()
        if step % REPORT_EVERY == 0 or step == STEPS - 1:
            value = float(loss)
            print(f"step {step} loss {value:.6f}", flush=True)
            # total_steps: the last step reported (steps count from 0), for the status's progress and time left
            print("PADDLEJOBS_METRICS " + json.dumps({"step": step, "total_steps": STEPS - 1, "loss": value}),
                  flush=True)
        if rank == 0 and (step + 1) % CHECKPOINT_EVERY == 0:
            save_checkpoint(model, optimizer, step + 1)
    digest = checksum(model)
    with open(f"params-rank-{rank}.sha256", "w") as f:
        f.write(digest + "\n")
    print(f"trainer {rank} parameters sha256 {digest}", flush=True)


if __name__ == "__main__":
    main()
