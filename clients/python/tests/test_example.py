import os
import subprocess
import sys

import paddle_jobs

from conftest import REPOSITORY

EXAMPLE = os.path.join(REPOSITORY, "examples", "fit-a-line", "dist_train.py")


def test_the_seeds_example_runs_from_any_directory_and_its_trainers_converge(service, tmp_path):
    env = dict(os.environ, PADDLE_JOBS_URL=service, PADDLE_JOBS_TOKEN="", USER_NAMESPACE="", JOB_NAME="seed-example")
    env.pop("PADDLE_JOB_NAME", None)

    submitted = subprocess.run([sys.executable, EXAMPLE], cwd=tmp_path, env=env, capture_output=True, text=True,
                               timeout=120)

    assert submitted.returncode == 0, submitted.stderr
    assert "view job status at: %s/jobs/seed-example/status" % service in submitted.stdout
    assert "finished: Succeeded" in submitted.stdout
    job = paddle_jobs.Client(url=service, token="", namespace="").get("seed-example")
    final = job.wait(timeout=120)
    assert final["phase"] == "Succeeded", (final, job.logs())
    assert [r["count"] for r in (job.plan["pservers"], job.plan["trainers"])] == [2, 3]
    for index in range(3):
        assert "trainer %d done after" % index in job.logs(index=index)
    job.delete()
