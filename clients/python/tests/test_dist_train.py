import json
import os
import subprocess
import sys
import textwrap

import pytest

import paddle_jobs

SCRIPT = textwrap.dedent("""
    import os
    import helper
    import paddle_jobs

    def train():
        if os.environ["TRAINING_ROLE"] == "PSERVER":
            return  # the same script runs in pservers too; with Paddle, fleet serves there
        print("trained with", helper.WORD, "as trainer", os.environ["PADDLE_TRAINER_ID"])
        print("client from", paddle_jobs.__file__)
        paddle_jobs.report(1, loss=0.25)

    job = paddle_jobs.dist_train(train, paddle_job=paddle_jobs.PaddleJob(job_name="dist-round-trip", num_cpus=1))
    print("view job status at:", job.status_url())
""")


def test_dist_train_ships_the_scripts_folder_and_the_client_and_runs_the_same_script(service, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "train.py").write_text(SCRIPT)
    (project / "helper.py").write_text("WORD = 'shipped-helper'\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = dict(os.environ, PADDLE_JOBS_URL=service, PADDLE_JOBS_TOKEN="", USER_NAMESPACE="")
    env.pop("PADDLE_JOB_NAME", None)

    submitted = subprocess.run([sys.executable, str(project / "train.py")], cwd=elsewhere, env=env,
                               capture_output=True, text=True, timeout=120)

    assert submitted.returncode == 0, submitted.stderr
    assert "view job status at: %s/jobs/dist-round-trip/status?namespace=default" % service in submitted.stdout
    job = paddle_jobs.Client(url=service, token="", namespace="").get("dist-round-trip")
    final = job.wait(timeout=60)
    assert final["phase"] == "Succeeded", (final, job.logs(role="pserver"))
    log = job.logs()
    assert "trained with shipped-helper as trainer 0" in log
    shipped_client = [line for line in log.splitlines() if line.startswith("client from")][0]
    assert "site-packages" not in shipped_client  # the replica imported the shipped copy
    assert 'PADDLEJOBS_METRICS {"step": 1, "loss": 0.25}' in log
    assert job.plan["spec"]["package"].startswith("sha256:")
    assert job.plan["spec"]["entry_point"] == "python3 train.py"
    job.delete()


def test_the_same_folder_packs_to_the_same_bytes(tmp_path):
    (tmp_path / "a.py").write_text("print(1)\n")
    os.utime(tmp_path / "a.py", (1, 1))
    first = paddle_jobs.dist.package(str(tmp_path))
    os.utime(tmp_path / "a.py", (2, 2))

    assert paddle_jobs.dist.package(str(tmp_path)) == first


SEED_STYLE = textwrap.dedent("""
    import os
    import time
    import paddle_jobs
    from paddle_jobs import PaddleJob, dist_train

    def train():
        # Flushed: a pserver is stopped once the trainers are done, and what it buffered would be lost.
        print("trained as", os.environ["TRAINING_ROLE"], flush=True)
        if os.environ["TRAINING_ROLE"] == "TRAINER":
            # A pserver still starting when the trainers are done is stopped before it prints: they wait for it.
            client, name = paddle_jobs.Client(), os.environ["PADDLE_JOB_NAME"]
            pservers = len(os.environ["PADDLE_PSERVERS_IP_PORT_LIST"].split(","))
            while any("trained as" not in client.logs(name, "pserver", i) for i in range(pservers)):
                time.sleep(0.1)
        try:
            paddle_jobs.Job(paddle_jobs.Client(), os.environ["PADDLE_JOB_NAME"]).wait()
        except paddle_jobs.PaddleJobsError as e:
            print("waiting for itself:", e, flush=True)

    job = dist_train(train, paddle_job=PaddleJob(job_name="seed-style", num_cpus=2, max_run_time="10m"))
    print("view job status at:", job.status_url())
    print("finished:", job.wait()["phase"])
""")


def test_the_seed_style_script_prints_its_status_url_once_and_waits_for_success(service, tmp_path):
    (tmp_path / "train.py").write_text(SEED_STYLE)
    env = dict(os.environ, PADDLE_JOBS_URL=service, PADDLE_JOBS_TOKEN="", USER_NAMESPACE="")
    env.pop("PADDLE_JOB_NAME", None)

    submitted = subprocess.run([sys.executable, "train.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                               timeout=120)

    assert submitted.returncode == 0, submitted.stderr
    assert submitted.stdout.splitlines() == ["view job status at: %s/jobs/seed-style/status?namespace=default" % service,
                                             "finished: Succeeded"]
    job = paddle_jobs.Client(url=service, token="", namespace="").get("seed-style")
    logs = [job.logs(role=role, index=index) for role in ("trainer", "pserver")
            for index in range(job.plan[role + "s"]["count"])]
    assert len(logs) == 4
    for log in logs:
        assert "trained as" in log
        assert "waiting for itself: job seed-style cannot be waited for from one of its own replicas" in log
        assert "view job status at" not in log
    job.delete()


def _raises():
    raise RuntimeError("diverged")


@pytest.mark.parametrize("train, status, says", [
    (lambda: 42, 0, ""),
    (_raises, 1, "RuntimeError: diverged"),
    (lambda: sys.exit(3), 3, ""),
])
def test_inside_a_replica_dist_train_trains_then_ends_the_process_with_the_outcome(train, status, says, monkeypatch,
                                                                                  capsys):
    monkeypatch.setenv("PADDLE_JOB_NAME", "in-replica")

    with pytest.raises(SystemExit) as ended:
        paddle_jobs.dist_train(train, paddle_job=paddle_jobs.PaddleJob(job_name="in-replica"))

    assert ended.value.code == status
    assert says in capsys.readouterr().err


@pytest.mark.parametrize("job_namespace, replica_namespace, refused", [
    (None, None, True),
    ("team-a", None, True),
    ("team-a", "team-a", True),
    ("team-a", "team-b", False),
])
def test_waiting_for_its_own_job_from_a_replica_is_refused_at_once(job_namespace, replica_namespace, refused,
                                                                   monkeypatch):
    monkeypatch.setenv("PADDLE_JOB_NAME", "itself")
    if replica_namespace:
        monkeypatch.setenv("USER_NAMESPACE", replica_namespace)
    else:
        monkeypatch.delenv("USER_NAMESPACE", raising=False)
    nowhere = paddle_jobs.Client(url="http://127.0.0.1:9", token="", namespace="")

    with pytest.raises(paddle_jobs.PaddleJobsError) as error:
        paddle_jobs.Job(nowhere, "itself", job_namespace).wait(timeout=5)

    assert ("own replicas" in str(error.value)) == refused
    assert ("cannot reach" in str(error.value)) == (not refused)
