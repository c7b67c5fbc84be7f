"""fit-a-line, the seed's way: one call ships this folder to the service and runs it there.

    pip install ./clients/python
    python3 examples/fit-a-line/dist_train.py     # from any directory; PADDLE_JOBS_URL picks the service

Run by you, dist_train packs this folder (train.py included) with the paddle_jobs client, uploads
it and submits this same script; in each replica it calls fit_a_line() instead, and then ends the
replica's process, so that the lines after it run only here.
"""

import os

import paddle_jobs
import train  # the example program beside this file


def fit_a_line():
    if os.environ["TRAINING_ROLE"] == "PSERVER":
        train.run_pserver()
    else:
        train.run_trainer()


myjob = paddle_jobs.dist_train(fit_a_line, paddle_job=paddle_jobs.PaddleJob(
    job_name=os.environ.get("JOB_NAME", "fit-a-line-py"), num_cpus=3, pservers=2))
print("view job status at:", myjob.status_url())
print("finished:", myjob.wait()["phase"])
