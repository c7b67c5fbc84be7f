"""How a user's typed code reads the client: checked by mypy --strict and pyright --strict in CI (never run).
Each line fails type checking where an overload or a typed result is missing."""

from typing import Iterator, List, Optional

import paddle_jobs
from paddle_jobs.contract import DryRunView, JobStatus, Plan


def read(client: paddle_jobs.Client, job: paddle_jobs.Job) -> None:
    text: str = job.logs(tail=2)
    lines: List[str] = text.splitlines()
    followed: Iterator[str] = job.logs(follow=True)
    by_client: str = client.logs("fit-a-line", "pserver", 1)
    followed_by_client: Iterator[str] = client.logs("fit-a-line", follow=True)
    status: JobStatus = job.wait(timeout=None)
    phase: str = status["phase"]
    trainers_done: int = status["replicas"][0]["restarts"]
    plan: Optional[Plan] = job.plan
    dry_run: DryRunView = client.submit({"entry_point": "true"}, dry_run=True)
    submitted: paddle_jobs.Job = client.submit(paddle_jobs.PaddleJob(entry_point="true"))
    print(lines, followed, by_client, followed_by_client, phase, trainers_done, plan, dry_run["plan"]["trainers"],
          submitted.created)
