import json
import os
import subprocess
import sys
import textwrap

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


def test_inside_a_replica_dist_train_trains_and_names_its_job(monkeypatch):
    monkeypatch.setenv("PADDLE_JOB_NAME", "in-replica")
    calls = []

    job = paddle_jobs.dist_train(lambda: calls.append("trained") or 42)

    assert calls == ["trained"]
    assert job.name == "in-replica" and job.result == 42
