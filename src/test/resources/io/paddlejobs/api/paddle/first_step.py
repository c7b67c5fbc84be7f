"""The start-up benchmark's program: data parallel as Paddle's docs teach it; prints the wall-clock time just
after its first optimizer step (FIRST_STEP <seconds since the epoch>), takes two more, and ends."""
import time

import paddle
import paddle.distributed as dist

dist.init_parallel_env()
model = paddle.DataParallel(paddle.nn.Linear(8, 1))
optimizer = paddle.optimizer.SGD(0.01, parameters=model.parameters())
for step in range(3):
    loss = model(paddle.rand([16, 8])).mean()
    loss.backward()
    optimizer.step()
    optimizer.clear_grad()
    if step == 0:
        print("FIRST_STEP %.3f rank %d of %d" % (time.time(), dist.get_rank(), dist.get_world_size()), flush=True)
