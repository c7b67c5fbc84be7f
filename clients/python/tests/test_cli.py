import json
import os
import subprocess
import sys
import time


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


def test_rerun_makes_a_numbered_new_job_with_the_changes_and_waits_for_it(service):
    assert run(service, "submit", "-", "--wait",
               stdin=json.dumps({"name": "cli-again", "entry_point": "echo first", "trainers": 1,
                                 "pservers": 1})).returncode == 0

    again = run(service, "rerun", "cli-again", "--trainers", "2", "--set", "env={\"RUN\": \"2\"}", "--wait")
    planned = run(service, "rerun", "cli-again", "--name", "cli-again-wide", "--dry-run")
    refused = run(service, "rerun", "cli-again", "--set", "num_gpu=1")

    assert again.returncode == 0, again.stderr
    assert "job cli-again-2 submitted" in again.stdout
    assert "Succeeded" in again.stdout
    spec = json.loads(run(service, "status", "cli-again-2").stdout)
    assert spec["trainers"]["desired"] == 2
    assert json.loads(planned.stdout)["name"] == "cli-again-wide"
    assert refused.returncode == 2 and "num_gpu" in refused.stderr


def test_status_watch_prints_the_progress_as_plain_lines_off_a_terminal(service):
    report = "for s in 1 2 3; do echo PADDLEJOBS_METRICS '{\"step\": '$s', \"total_steps\": 3}'; sleep 0.5; done"
    assert run(service, "submit", "-", stdin=json.dumps({"name": "cli-watch", "entry_point": report, "trainers": 1,
                                                         "pservers": 1})).returncode == 0

    watched = run(service, "status", "cli-watch", "--watch")

    assert watched.returncode == 0, watched.stderr
    assert "step 3 of 3 (100%)" in watched.stdout
    assert watched.stdout.strip().splitlines()[-1].startswith("job cli-watch Succeeded")


def test_an_identical_resubmit_of_a_finished_job_says_nothing_started_and_exits_three(service):
    request = json.dumps({"name": "cli-identical", "entry_point": "true"})
    assert run(service, "submit", "-", "--wait", stdin=request).returncode == 0

    again = run(service, "submit", "-", stdin=request)
    waited = run(service, "submit", "-", "--wait", stdin=request)

    assert again.returncode == 3, again.stdout + again.stderr
    assert "nothing started: an identical job cli-identical exists (Succeeded)" in again.stdout
    assert "submitted" not in again.stdout
    assert waited.returncode == 3 and "nothing started" in waited.stdout


def test_list_takes_a_phase_in_any_case(service):
    assert run(service, "submit", "-", "--wait", stdin=json.dumps({"name": "cli-case", "entry_point": "true"})).returncode == 0

    lower = run(service, "list", "--phase", "succeeded")
    unknown = run(service, "list", "--phase", "done")

    assert lower.returncode == 0, lower.stderr
    assert "cli-case" in lower.stdout
    assert unknown.returncode == 2 and "Succeeded" in unknown.stderr


def test_a_closed_pipe_ends_the_command_quietly(service):
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody will read: the first write fails, as under `| head` once head is done
    try:
        result = subprocess.run([sys.executable, "-m", "paddle_jobs", "--url", service, "list"], stdout=write_end,
                                stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write_end)

    assert result.stderr == ""
    assert result.returncode == 141


def test_import_dry_run_plans_a_kubeflow_paddlejob_and_says_what_it_dropped(service, tmp_path):
    manifest = tmp_path / "paddlejob.yaml"
    manifest.write_text("""apiVersion: kubeflow.org/v1
kind: PaddleJob
metadata: {name: cli-imported, namespace: kubeflow}
spec:
  paddleReplicaSpecs:
    Worker:
      replicas: 2
      restartPolicy: OnFailure
      template:
        spec:
          containers:
            - name: paddle
              command: [python, -m, paddle.distributed.launch, run_check]
""")
    planned = run(service, "import", str(manifest), "--dry-run")
    refused = run(service, "import", "-", stdin="apiVersion: kubeflow.org/v1\nkind: PaddleJob\n"
                  "spec: {elasticPolicy: {}, paddleReplicaSpecs: {Worker: {template: {spec: {containers: "
                  "[{command: [python, t.py]}]}}}}}\n")

    assert planned.returncode == 0, planned.stderr
    assert json.loads(planned.stdout)["kind"] == "DryRun"
    assert "dropped metadata.namespace" in planned.stderr
    assert refused.returncode == 2
    assert "spec.elasticPolicy" in refused.stderr


def test_a_sweep_runs_its_trials_names_the_best_and_compare_shows_them_as_json_and_csv(service):
    # Each trial reports one loss, its parameter's value: the lower one is the best.
    report = 'echo PADDLEJOBS_METRICS "{\\"step\\": 0, \\"loss\\": $LEVEL}"'
    request = {"name": "cli-sweep", "template": {"entry_point": report}, "parallel": 2,
               "parameters": [{"name": "level", "env": "LEVEL", "values": [0.5, 0.25]}],
               "objective": {"metric": "loss", "goal": "minimize"}}

    swept = run(service, "sweep", "-", "--wait", "--timeout", "90", stdin=json.dumps(request))
    as_json = run(service, "compare", "cli-sweep-t1", "cli-sweep-t2")
    as_csv = run(service, "compare", "--sweep", "cli-sweep", "--csv")
    neither = run(service, "compare")

    assert swept.returncode == 0, swept.stdout + swept.stderr
    assert "/sweeps/cli-sweep" in swept.stdout
    assert "sweep cli-sweep Succeeded; best: cli-sweep-t2" in swept.stdout
    compared = json.loads(as_json.stdout)
    assert compared["parameters"] == ["env.LEVEL"]
    assert [run["metrics"]["loss"]["last"] for run in compared["runs"]] == [0.5, 0.25]
    assert as_csv.returncode == 0, as_csv.stderr
    lines = as_csv.stdout.splitlines()
    assert lines[0].startswith("run,phase,reason,level,loss last")
    assert [line.split(",")[0] for line in lines[1:]] == ["cli-sweep-t1", "cli-sweep-t2"]
    assert neither.returncode == 2
    assert "--sweep" in neither.stderr


def test_the_client_starts_reads_cancels_and_deletes_a_sweep(service):
    import paddle_jobs

    started = paddle_jobs.sweep({"name": "py-sweep", "template": {"entry_point": "sleep 300"}, "parallel": 1,
                                 "parameters": [{"name": "n", "env": "N", "values": [1, 2]}]}, url=service)
    client = paddle_jobs.Client(url=service)
    listed = [sweep["name"] for sweep in client.sweeps()]
    cancelled = client.cancel_sweep("py-sweep")
    client.delete_sweep("py-sweep")

    assert started["name"] == "py-sweep"
    assert [trial["name"] for trial in started["trials"]] == ["py-sweep-t1", "py-sweep-t2"]
    assert "py-sweep" in listed
    assert cancelled["phase"] == "Cancelled"
    assert "py-sweep" not in [sweep["name"] for sweep in client.sweeps()]


def test_exec_runs_a_command_in_a_held_replica_streaming_its_output_and_exits_with_its_code(service):
    request = {"name": "cli-held", "entry_point": "echo kept-by-the-replica > note.txt; exit 3", "mode": "collective",
               "trainers": 1, "debug_hold": "10m"}
    assert run(service, "submit", "-", stdin=json.dumps(request)).returncode == 0
    deadline = time.monotonic() + 60
    while json.loads(run(service, "status", "cli-held").stdout).get("reason") != "Held":
        assert time.monotonic() < deadline, run(service, "status", "cli-held").stdout
        time.sleep(0.2)

    ran = run(service, "exec", "cli-held", "--role", "trainer", "--index", "0", "--",
              "sh", "-c", "cat note.txt; echo \"rank $PADDLE_TRAINER_ID\" --index; exit 4")
    no_such_replica = run(service, "exec", "cli-held", "--index", "1", "--", "true")
    run(service, "cancel", "cli-held")
    not_held = run(service, "exec", "cli-held", "--", "true")

    assert ran.returncode == 4, ran.stderr
    assert ran.stdout == "kept-by-the-replica\nrank 0 --index\n"
    assert no_such_replica.returncode == 2 and "404" in no_such_replica.stderr
    assert not_held.returncode == 2 and "409" in not_held.stderr and "not held" in not_held.stderr
