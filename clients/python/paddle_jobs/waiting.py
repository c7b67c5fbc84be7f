"""Job.wait(): follow the status stream to the job's end, polling where the service will not stream."""

import http.client
import json
import os
import time
from typing import Any, ContextManager, Dict, Optional, Protocol, cast

from .contract import JobPhase, JobStatus
from .errors import PaddleJobsError
from .events import StreamUnavailable
from .replica import own_job

FINISHED = (JobPhase.SUCCEEDED, JobPhase.FAILED, JobPhase.CANCELLED)

Document = Dict[str, Any]


class _Streams(Protocol):
    def status_events(self, name: str, namespace: Optional[str] = None,
                      deadline: Optional[float] = None) -> ContextManager[Any]: ...


class Waitable(Protocol):
    """What waiting needs of a job (a ``client.Job``), named here so that this module does not
    import the client that imports it. Read-only: a job's own attributes may be narrower types."""

    @property
    def name(self) -> str: ...

    @property
    def namespace(self) -> Optional[str]: ...

    @property
    def client(self) -> _Streams: ...

    def status(self) -> JobStatus: ...


def until_finished(job: Waitable, timeout: Optional[float], poll: float) -> JobStatus:
    """The job's final status. A broken or refused stream (an older service, every stream slot
    taken, the job deleted) leaves the rest to polling, whose first look surfaces any refusal."""
    if _waits_for_itself(job):
        raise PaddleJobsError("job %s cannot be waited for from one of its own replicas: it ends only when they do"
                              % job.name)
    deadline = None if timeout is None else time.monotonic() + timeout
    status = _follow(job, deadline)
    while status is None or status["phase"] not in FINISHED:
        if status is not None:
            if deadline is not None and time.monotonic() >= deadline:
                raise _timed_out(job, status, timeout)
            time.sleep(poll if deadline is None else max(0.0, min(poll, deadline - time.monotonic())))
        status = job.status()
    return status


def _follow(job: Waitable, deadline: Optional[float]) -> Optional[JobStatus]:
    """The last status the stream sent: the final one, unless the stream ended, broke or reached
    the deadline first (then the caller's one last look decides)."""
    status: Optional[JobStatus] = None
    try:
        with job.client.status_events(job.name, job.namespace, deadline) as stream:
            for event in stream.events():
                if event.name == "status":
                    status = cast(JobStatus, json.loads(event.data))
                    if status["phase"] in FINISHED:
                        return status
    except (StreamUnavailable, OSError, http.client.HTTPException, ValueError, KeyError):
        pass  # socket.timeout included: an OSError
    return status


def _waits_for_itself(job: Waitable) -> bool:
    # The service names a replica's job but not its namespace; dist_train passes USER_NAMESPACE on.
    mine = os.environ.get("USER_NAMESPACE")
    return own_job() == job.name and not (mine and job.namespace and mine != job.namespace)


def _timed_out(job: Waitable, status: JobStatus, timeout: Optional[float]) -> TimeoutError:
    return TimeoutError("job %s is still %s after %s s" % (job.name, status["phase"], timeout))
