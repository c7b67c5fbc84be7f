"""One live line for a job on a terminal: phase, step of total, rate and time left, rewritten in place
as the status stream tells of changes; on anything but a terminal, one plain line per change."""

import http.client
import json
import sys
import time
from typing import Any, Mapping, Optional, TextIO, cast

from .contract import JobStatus, Progress
from .events import StreamUnavailable
from .waiting import FINISHED, Waitable, until_finished


def describe(status: Mapping[str, Any], progress: Optional[Mapping[str, Any]] = None) -> str:
    """``Running  step 120 of 800 (15%)  2.5 steps/s  about 4 min left``: the status in one line."""
    progress = progress if progress is not None else status.get("progress")
    parts = [status.get("phase", "?")]
    if status.get("reason"):
        parts[0] += " (%s)" % status["reason"]
    if progress:
        total = progress.get("total_steps")
        if total:
            parts.append("step %d of %d (%d%%)" % (progress["step"], total, int(progress.get("fraction", 0) * 100)))
        else:
            parts.append("step %d" % progress["step"])
        if progress.get("steps_per_second") is not None:
            parts.append("%.3g steps/s" % progress["steps_per_second"])
        if progress.get("eta_seconds") is not None:
            parts.append(time_left(progress["eta_seconds"]))
    return "  ".join(parts)


def time_left(seconds: float) -> str:
    """Seconds left in words, rounded as a person would say them."""
    seconds = int(round(seconds))
    if seconds < 60:
        return "less than a minute left"
    if seconds < 3600:
        return "about %d min left" % round(seconds / 60)
    hours, minutes = divmod(round(seconds / 60), 60)
    return "about %d h %d min left" % (hours, minutes) if minutes else "about %d h left" % hours


class LiveLine:
    """Where the line goes: rewritten in place on a terminal, else printed when it changes."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.terminal = out.isatty()
        self.last = ""

    def show(self, text: str) -> None:
        if text == self.last:
            return
        if self.terminal:
            self.out.write("\r\033[K" + text)
        else:
            self.out.write(text + "\n")
        self.out.flush()
        self.last = text

    def done(self) -> None:
        if self.terminal and self.last:
            self.out.write("\n")
            self.out.flush()


def watch(job: Waitable, timeout: Optional[float] = None, out: TextIO = sys.stdout) -> JobStatus:
    """Show the job's line until it ends, and return its final status. Follows the status stream
    (its status and metrics events); where the service will not stream, polls once a second.

    The line is shown for every change while the job runs; the final one only once the stream has
    ended, with the newest progress: the last metrics may come after the final status, and a line
    for the final phase with the progress before them would be stale."""
    line = LiveLine(out)
    deadline = None if timeout is None else time.monotonic() + timeout
    status: Optional[JobStatus] = None
    progress: Optional[Progress] = None
    try:
        with job.client.status_events(job.name, job.namespace, deadline) as stream:
            for event in stream.events():
                if event.name == "status":
                    status = cast(JobStatus, json.loads(event.data))
                    progress = status.get("progress", progress)
                elif event.name == "metrics":
                    progress = json.loads(event.data).get("progress", progress)
                if event.name in ("end", "gone"):
                    break
                if status is not None and status["phase"] not in FINISHED:
                    line.show(describe(status, progress))
    except (StreamUnavailable, OSError, http.client.HTTPException, ValueError, KeyError):
        pass  # polled below
    if status is None or status["phase"] not in FINISHED:
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        status = until_finished(job, left, 1.0)
        progress = status.get("progress") or progress
    line.show(describe(status, progress))
    line.done()
    return status
