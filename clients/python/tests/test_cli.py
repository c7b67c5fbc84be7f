import json
import subprocess
import sys


def run(service, *args, stdin=None):
    return subprocess.run([sys.executable, "-m", "paddle_jobs", "--url", service, *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_submit_wait_exits_zero_only_when_the_job_succeeds(service, tmp_path):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps({"name": "cli-good", "entry_point": "echo fine"}))
    bad.write_text(json.dumps({"name": "cli-bad", "entry_point": "exit 3"}))

    succeeded = run(service, "submit", str(good), "--wait")
    failed = run(service, "submit", str(bad), "--wait")

    assert succeeded.returncode == 0, succeeded.stderr
    assert "/jobs/cli-good/status?namespace=default" in succeeded.stdout
    assert "Succeeded" in succeeded.stdout
    assert failed.returncode == 1, failed.stderr
    assert "Failed" in failed.stdout


def test_submit_follow_prints_the_trainers_log(service):
    result = run(service, "submit", "-", "--follow",
                 stdin=json.dumps({"name": "cli-follow", "entry_point": "echo followed-line"}))

    assert result.returncode == 0, result.stderr
    assert "followed-line" in result.stdout


def test_status_logs_list_cancel_and_delete(service):
    assert run(service, "submit", "-", stdin=json.dumps({"name": "cli-rest", "entry_point": "sleep 300"})).returncode == 0

    status = run(service, "status", "cli-rest")
    listed = run(service, "list")
    logs = run(service, "logs", "cli-rest", "--tail", "5")
    cancelled = run(service, "cancel", "cli-rest")
    deleted = run(service, "delete", "cli-rest")
    gone = run(service, "status", "cli-rest")

    assert json.loads(status.stdout)["phase"] in ("Pending", "Running")
    assert "cli-rest" in listed.stdout
    assert logs.returncode == 0, logs.stderr
    assert "Cancelled" in cancelled.stdout
    assert deleted.returncode == 0
    assert gone.returncode == 2 and "404" in gone.stderr


def test_submit_ships_a_folder_the_replicas_start_in(service, tmp_path):
    (tmp_path / "hello.sh").write_text("echo shipped by the command line\n")

    result = run(service, "submit", "-", "--package", str(tmp_path), "--follow",
                 stdin=json.dumps({"name": "cli-package", "entry_point": "sh hello.sh"}))

    assert result.returncode == 0, result.stderr
    assert "shipped by the command line" in result.stdout


def test_a_bad_request_prints_each_field_and_exits_two(service):
    result = run(service, "submit", "-", stdin=json.dumps({"entry_point": "true", "num_gpu": 1}))

    assert result.returncode == 2
    assert "num_gpu" in result.stderr


def test_submit_max_restarts_sets_the_requests_max_restarts(service):
    result = run(service, "submit", "-", "--dry-run", "--max-restarts", "2",
                 stdin=json.dumps({"name": "cli-restarts", "entry_point": "true"}))

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["plan"]["spec"]["max_restarts"] == 2
