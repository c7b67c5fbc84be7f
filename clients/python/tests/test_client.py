import io
import socket
import tarfile
import time
from datetime import datetime, timezone

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
    # The trainer waits for its pserver's hello: the job ends (and stops its pservers) when its
    # trainers do, so a trainer that ended first could stop the pserver before it printed.
    said_hello = '"$PADDLE_JOB_CHECKPOINT_DIR/pserver-said-hello"'
    job = client.submit(paddle_jobs.PaddleJob(job_name="py-life", entry_point=(
        f"if [ $TRAINING_ROLE = PSERVER ]; then echo hello from PSERVER; touch {said_hello}; "
        f"else until [ -e {said_hello} ]; do sleep 0.1; done; echo hello from TRAINER; fi")))

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


def test_a_listing_keeps_the_jobs_created_in_a_time_range(client):
    early = client.submit(paddle_jobs.PaddleJob(job_name="py-early", entry_point="true"))
    created = early.status()["created_at"]
    client.submit(paddle_jobs.PaddleJob(job_name="py-late", entry_point="true"))

    since = [j.name for j in client.list(created_since=created)]
    before = [j.name for j in client.list(created_before=created)]
    future = client.list(created_since=datetime(2999, 1, 1, tzinfo=timezone.utc))

    assert {"py-early", "py-late"} <= set(since)
    assert not {"py-early", "py-late"} & set(before)
    assert future == []
    with pytest.raises(paddle_jobs.ProblemError) as bad:
        client.list(created_since="yesterday")
    assert bad.value.status == 400
    assert bad.value.fields == ["created_since"]


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


def test_wait_gives_up_at_its_timeout_while_the_stream_is_quiet(client):
    job = client.submit(paddle_jobs.PaddleJob(job_name="py-slow", entry_point="sleep 300"))
    started = time.monotonic()
    try:
        with pytest.raises(TimeoutError, match="py-slow"):
            job.wait(timeout=1.5, poll=0.1)
        assert time.monotonic() - started < 5
    finally:
        job.cancel()
        job.delete()


def test_wait_follows_the_status_stream_instead_of_polling(client):
    job = client.submit(paddle_jobs.PaddleJob(job_name="py-stream", entry_point="sleep 1"))
    started = time.monotonic()

    final = job.wait(timeout=60, poll=3600)  # polling would look again only at the timeout

    assert final["phase"] == paddle_jobs.JobPhase.SUCCEEDED
    assert time.monotonic() - started < 30
    assert job.wait(timeout=0)["phase"] == "Succeeded"  # no time left, but the job has ended
    job.delete()


class NoStreams(paddle_jobs.Client):
    """As a service that will not stream (an older one, or every stream slot taken) answers."""

    def status_events(self, name, namespace=None, deadline=None):
        raise paddle_jobs.events.StreamUnavailable("HTTP 503")


def test_wait_polls_where_the_service_will_not_stream(service):
    job = NoStreams(url=service, token="", namespace="").submit(
        paddle_jobs.PaddleJob(job_name="py-poll", entry_point="true"))

    assert job.wait(timeout=60, poll=0.1)["phase"] == "Succeeded"
    assert job.phase() is paddle_jobs.JobPhase.SUCCEEDED
    job.delete()


def test_a_package_is_listed_and_deleted_once_no_unfinished_job_uses_it(client):
    archive = io.BytesIO()
    with tarfile.open(fileobj=archive, mode="w:gz") as tar:
        data = b"sleep 60\n"
        entry = tarfile.TarInfo("hold.sh")
        entry.size, entry.mode = len(data), 0o755
        tar.addfile(entry, io.BytesIO(data))
    package = client.upload(archive.getvalue(), namespace="py-packages")
    job = client.submit(paddle_jobs.PaddleJob(job_name="py-holder", entry_point="./hold.sh", package=package),
                        namespace="py-packages")

    listed = client.packages(namespace="py-packages")
    assert [(p["package"], p["used_by"]) for p in listed] == [(package, ["py-holder"])]
    with pytest.raises(paddle_jobs.ProblemError) as in_use:
        client.delete_package(package, namespace="py-packages")
    assert in_use.value.status == 409
    job.cancel()
    client.delete_package(package, namespace="py-packages")
    assert client.packages(namespace="py-packages") == []


def test_rerun_runs_a_job_again_with_changes_and_a_bad_change_is_a_problem_naming_it(client):
    first = client.submit(paddle_jobs.PaddleJob(job_name="py-again", entry_point="echo once", trainers=1, pservers=1,
                                                labels={"try": "1"}))
    first.wait(timeout=60)

    second = first.rerun(trainers=2, labels=None)
    with pytest.raises(paddle_jobs.ProblemError) as refused:
        first.rerun(trainers=0)

    assert second.name == "py-again-2"
    assert second.plan["trainers"]["count"] == 2
    assert not second.plan["spec"].get("labels")
    assert second.wait(timeout=60)["phase"] == "Succeeded"
    assert refused.value.status == 400
    assert [error["field"] for error in refused.value.errors] == ["trainers"]


def test_a_listed_job_has_no_plan_until_it_is_read_and_reading_it_is_no_property(client):
    client.submit(paddle_jobs.PaddleJob(job_name="py-listed", entry_point="true")).wait(timeout=60)
    listed = next(job for job in client.list() if job.name == "py-listed")

    assert listed.plan is None  # no request behind the property
    assert listed.refresh().plan is not None and listed.plan["trainers"]["count"] == 1


def test_timeout_none_means_no_timeout_and_a_number_means_seconds(service):
    patient = paddle_jobs.Client(url=service, timeout=None)
    job = patient.submit(paddle_jobs.PaddleJob(job_name="py-patient", entry_point="true"))

    assert job.created
    assert job.wait(timeout=None)["phase"] == "Succeeded"
    assert patient.logs("py-patient", follow=True) is not None
    with socket.socket() as silent:  # accepts connections (the backlog) and never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        hasty = paddle_jobs.Client(url="http://127.0.0.1:%d" % silent.getsockname()[1], timeout=0.2)
        with pytest.raises(OSError):  # the read timed out (urllib's URLError is an OSError too)
            hasty.status("py-patient")
