import io
import json

from paddle_jobs.events import Event
from paddle_jobs.live import LiveLine, describe, time_left, watch


def test_the_line_gives_phase_step_of_total_rate_and_time_left():
    status = {"phase": "Running", "progress": {"step": 120, "total_steps": 800, "fraction": 0.15,
                                               "steps_per_second": 2.5, "eta_seconds": 272, "trainer": "trainer-1"}}

    assert describe(status) == "Running  step 120 of 800 (15%)  2.5 steps/s  about 5 min left"


def test_without_a_total_the_line_gives_the_step_and_its_rate():
    status = {"phase": "Running", "progress": {"step": 7, "steps_per_second": 0.5, "trainer": "trainer-0"}}

    assert describe(status) == "Running  step 7  0.5 steps/s"
    assert describe({"phase": "Pending", "reason": "Queued"}) == "Pending (Queued)"


def test_time_left_in_words():
    assert time_left(20) == "less than a minute left"
    assert time_left(600) == "about 10 min left"
    assert time_left(3 * 3600 + 20 * 60) == "about 3 h 20 min left"
    assert time_left(7200) == "about 2 h left"


def test_off_a_terminal_each_change_is_one_plain_line():
    out = io.StringIO()
    line = LiveLine(out)

    for text in ("Pending", "Running", "Running", "Succeeded"):
        line.show(text)
    line.done()

    assert out.getvalue() == "Pending\nRunning\nSucceeded\n"


class _Stream:
    def __init__(self, events):
        self._events = events

    def events(self):
        return iter(self._events)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        pass


class _Client:
    def __init__(self, events):
        self.events = events

    def status_events(self, name, namespace=None, deadline=None):
        return _Stream(self.events)


class _Job:
    name, namespace = "fit", None

    def __init__(self, events):
        self.client = _Client(events)

    def status(self):
        raise AssertionError("the stream had the final status: no poll")


def test_the_final_phase_is_shown_once_with_the_newest_progress():
    def status(phase, step):
        return Event("status", json.dumps({"phase": phase, "progress": {"step": step, "total_steps": 8,
                                                                         "fraction": step / 8, "trainer": "t"}}))
    metrics = Event("metrics", json.dumps({"progress": {"step": 8, "total_steps": 8, "fraction": 1.0, "trainer": "t"}}))
    out = io.StringIO()

    final = watch(_Job([status("Running", 5), status("Succeeded", 7), metrics, Event("end", "{}")]), out=out)

    assert final["phase"] == "Succeeded"
    assert out.getvalue() == "Running  step 5 of 8 (62%)\nSucceeded  step 8 of 8 (100%)\n"
