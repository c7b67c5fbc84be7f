"""A trainer whose loss curve its parameter sets, for tests of sweeps: loss = quality + 1 / (step + 1).

quality comes from --quality or QUALITY; STEPS steps are reported (20 by default). With HOLD_AT, the
trainer waits before that step until the file RELEASE_DIR/<its job name> exists, so that a test can look
at what a stopping rule decided while every trial stands at a known step. With MARK_DIR, each start
appends "<job> <restart>" to MARK_DIR/started, so that a test can count how often each trial started.
"""
import argparse
import json
import os
import time

parser = argparse.ArgumentParser()
parser.add_argument("--quality", type=float, default=None)
quality = parser.parse_args().quality
if quality is None:
    quality = float(os.environ["QUALITY"])
steps = int(os.environ.get("STEPS", "20"))
hold_at = int(os.environ.get("HOLD_AT", "-1"))
job = os.environ["PADDLE_JOB_NAME"]
release = os.path.join(os.environ.get("RELEASE_DIR", "/nonexistent"), job)
step_seconds = float(os.environ.get("STEP_SECONDS", "0"))

if os.environ.get("MARK_DIR"):
    with open(os.path.join(os.environ["MARK_DIR"], "started"), "a", encoding="utf-8") as marks:
        marks.write("%s %s\n" % (job, os.environ.get("PADDLE_JOB_RESTART_COUNT", "0")))

for step in range(steps):
    if step == hold_at:
        while not os.path.exists(release):
            time.sleep(0.05)
    print("PADDLEJOBS_METRICS " + json.dumps({"step": step, "loss": quality + 1.0 / (step + 1), "total_steps": steps}),
          flush=True)
    if step_seconds:
        time.sleep(step_seconds)
