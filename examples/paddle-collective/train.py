"""Fit a line with Paddle 3's data parallelism on CPU: every trainer holds the whole model, computes
gradients on its own rows, and gloo all-reduces them, so every rank takes the same steps.

paddle.distributed.init_parallel_env() reads what paddle-jobs injects in collective mode:
PADDLE_TRAINER_ID, PADDLE_TRAINERS_NUM, PADDLE_TRAINER_ENDPOINTS, PADDLE_CURRENT_ENDPOINT,
PADDLE_DISTRI_BACKEND=gloo and the store's address MASTER_ADDR/MASTER_PORT.
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


def main():
    dist.init_parallel_env()
    rank, world = dist.get_rank(), dist.get_world_size()
    paddle.seed(7)  # the same initial parameters on every rank; DataParallel also broadcasts rank 0's
    model = paddle.DataParallel(paddle.nn.Linear(FEATURES, 1))
    optimizer = paddle.optimizer.SGD(learning_rate=0.05, parameters=model.parameters())
    print(f"trainer {rank} of {world} training {STEPS} steps", flush=True)
    for step in range(STEPS):
        x, y = rows(rank, step)
        loss = paddle.mean((model(x) - y) ** 2)
        loss.backward()  # DataParallel all-reduces the gradients here
        optimizer.step()
        optimizer.clear_grad()
        if step % REPORT_EVERY == 0 or step == STEPS - 1:
            value = float(loss)
            print(f"step {step} loss {value:.6f}", flush=True)
            print("PADDLEJOBS_METRICS " + json.dumps({"step": step, "loss": value}), flush=True)
    digest = checksum(model)
    with open(f"params-rank-{rank}.sha256", "w") as f:
        f.write(digest + "\n")
    print(f"trainer {rank} parameters sha256 {digest}", flush=True)


if __name__ == "__main__":
    main()
