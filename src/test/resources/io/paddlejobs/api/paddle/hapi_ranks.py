"""A small paddle.Model.fit run, as hapi users write it: progress bar on (verbose=1), paddle-jobs' hapi
callback for the metrics, and at the end each rank's world size, rank and a checksum of its parameters.
Run directly, under paddle.distributed.launch, or by a CLI that starts the launcher: hapi forms the group
from whatever environment the launcher or the service gave it."""
import hashlib

import numpy as np
import paddle
import paddle.distributed as dist
from paddle_jobs.hapi import MetricsCallback

EPOCHS, STEPS, BATCH = 2, 8, 16


class Rows(paddle.io.Dataset):
    def __init__(self, n, seed):
        rng = np.random.RandomState(seed)
        self.x = rng.rand(n, 8).astype("float32")
        self.y = (self.x.sum(axis=1, keepdims=True) > 4).astype("int64")

    def __getitem__(self, i):
        return self.x[i], self.y[i]

    def __len__(self):
        return len(self.x)


paddle.seed(7)
world = dist.get_world_size()
net = paddle.nn.Sequential(paddle.nn.Linear(8, 16), paddle.nn.ReLU(), paddle.nn.Linear(16, 2))
model = paddle.Model(net, inputs=[paddle.static.InputSpec([None, 8], "float32", "x")],
                     labels=[paddle.static.InputSpec([None, 1], "int64", "y")])
model.prepare(paddle.optimizer.Adam(0.01, parameters=net.parameters()), paddle.nn.CrossEntropyLoss(),
              paddle.metric.Accuracy())
model.fit(Rows(STEPS * BATCH * world, 1), Rows(64, 2), batch_size=BATCH, epochs=EPOCHS, verbose=1,
          callbacks=[MetricsCallback()])
digest = hashlib.sha256(b"".join(p.numpy().tobytes() for p in net.parameters())).hexdigest()
print("world %d rank %d parameters sha256 %s" % (world, dist.get_rank(), digest), flush=True)
