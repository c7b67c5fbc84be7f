import pytest

import paddle_jobs


def test_dry_run_answers_the_plan_and_starts_nothing(client):
    plan = client.submit(paddle_jobs.PaddleJob(job_name="py-dry", num_cpus=2, entry_point="true"), dry_run=True)

    assert plan["kind"] == "DryRun"
    assert plan["plan"]["trainers"]["count"] == 2
    with pytest.raises(paddle_jobs.ProblemError) as missing:
        client.get("py-dry")
    assert missing.value.status == 404


def test_a_job_runs_to_success_and_its_log_and_listing_show_it(client):
    job = client.submit(paddle_jobs.PaddleJob(job_name="py-life", entry_point="echo hello from $TRAINING_ROLE"))

    assert job.status_url() == client.url + "/jobs/py-life/status?namespace=default"
    final = job.wait(timeout=60)

    assert final["phase"] == "Succeeded"
    assert "hello from TRAINER" in job.logs()
    assert "hello from PSERVER" in job.logs(role="pserver", index=0)
    assert "py-life" in [j.name for j in client.list(phase="Succeeded")]
    job.delete()
    with pytest.raises(paddle_jobs.ProblemError) as gone:
        job.status()
    assert gone.value.status == 404


def test_following_a_log_yields_lines_until_the_replica_ends(client):
    job = client.submit(paddle_jobs.PaddleJob(job_name="py-follow", entry_point="for i in 1 2 3; do echo line $i; done"))

    lines = list(job.logs(follow=True))

    assert [line.strip() for line in lines if line.startswith("line")] == ["line 1", "line 2", "line 3"]
    job.wait(timeout=60)
    job.delete()


def test_cancel_stops_a_running_job(client):
    job = client.submit(paddle_jobs.PaddleJob(job_name="py-cancel", entry_point="sleep 300"))

    job.cancel()

    assert job.wait(timeout=60)["phase"] == "Cancelled"
    job.delete()


def test_a_refused_request_raises_the_problem_with_its_fields(client):
    with pytest.raises(paddle_jobs.ProblemError) as refused:
        client.submit(paddle_jobs.PaddleJob(entry_point="true", num_cpus=0), dry_run=True)

    assert refused.value.status == 400
    assert refused.value.title
    assert refused.value.fields == ["num_cpus"]
    assert "num_cpus" in str(refused.value)


def test_wait_gives_up_at_its_timeout(client):
    job = client.submit(paddle_jobs.PaddleJob(job_name="py-slow", entry_point="sleep 300"))
    try:
        with pytest.raises(TimeoutError):
            job.wait(timeout=0.5, poll=0.1)
    finally:
        job.cancel()
        job.delete()
