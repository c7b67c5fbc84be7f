"""Submit PaddlePaddle training jobs to a paddle-jobs service, and ship the code with them.

    import paddle_jobs

    def train():
        ...  # runs in every replica, with the cluster wiring in PADDLE_* variables

    job = paddle_jobs.dist_train(train, paddle_job=paddle_jobs.PaddleJob(num_cpus=2, memory="2Gi"))
    print("view job status at:", job.status_url())  # only here: in a replica, dist_train ends the process
    job.wait()
"""

from typing import Any

from .client import Client, Job
from .contract import JobPhase, JobRequest
from .errors import PaddleJobsError, ProblemError
from .job import PaddleJob
from .metrics import report
from .dist import dist_train
from .replica import in_replica



def __getattr__(name: str) -> Any:
    # The hapi callback needs Paddle; it is imported only when asked for.
    if name == "MetricsCallback":
        from .hapi import MetricsCallback
        return MetricsCallback
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


__all__ = ["Client", "Job", "JobPhase", "JobRequest", "PaddleJob", "PaddleJobsError", "ProblemError", "dist_train",
           "in_replica", "report"]
