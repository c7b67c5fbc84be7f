"""Client and Job: the service's HTTP API, with the standard library only."""

import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timezone
from enum import Enum
from typing import (Any, Dict, Iterator, List, Literal, Mapping, Optional, Sequence, TextIO, Tuple, Union, cast,
                    overload)

from .contract import DryRunView, JobPhase, JobRequest, JobStatus, JobView, Plan
from .errors import PaddleJobsError, ProblemError
from .events import EventStream
from .job import PaddleJob
from .waiting import Document, until_finished

JobLike = Union[PaddleJob, JobRequest, Mapping[str, Any]]


class _Default(Enum):
    """A request that names no timeout of its own waits as long as its client's ``timeout`` says."""

    TIMEOUT = "the client's timeout"

DEFAULT_URL = "http://127.0.0.1:8080"


class Client:
    """Talks to one paddle-jobs service.

    ``url``, ``token`` and ``namespace`` default to the environment: ``PADDLE_JOBS_URL`` (else
    http://127.0.0.1:8080), ``PADDLE_JOBS_TOKEN`` (sent as a bearer token) and
    ``USER_NAMESPACE``, which replicas are given (else the service picks the caller's namespace).
    ``timeout`` is how many seconds one request may wait for the service; None: as long as it takes.
    """

    def __init__(self, url: Optional[str] = None, token: Optional[str] = None, namespace: Optional[str] = None,
                 timeout: Optional[float] = 30.0) -> None:
        self.url = (url or os.environ.get("PADDLE_JOBS_URL") or DEFAULT_URL).rstrip("/")
        self.token = token if token is not None else os.environ.get("PADDLE_JOBS_TOKEN") or None
        self.namespace = namespace if namespace is not None else os.environ.get("USER_NAMESPACE") or None
        self.timeout = timeout

    @overload
    def submit(self, job: JobLike, dry_run: Literal[False] = False, namespace: Optional[str] = None,
               offline: Literal[False] = False) -> "Job": ...

    @overload
    def submit(self, job: JobLike, dry_run: Literal[True], namespace: Optional[str] = None,
               offline: bool = False) -> DryRunView: ...

    @overload
    def submit(self, job: JobLike, dry_run: bool, namespace: Optional[str] = None,
               offline: bool = False) -> Union["Job", DryRunView]: ...

    def submit(self, job: JobLike, dry_run: bool = False, namespace: Optional[str] = None,
               offline: bool = False) -> Union["Job", DryRunView]:
        """Submit a PaddleJob (or a request dict). Returns a Job (``job.created`` is False when the service
        already had an identical job and started nothing); with dry_run, the plan the service answered, and
        with offline too, one that asked the cluster nothing (its ``unchecked`` says what a submit checks besides)."""
        request = job.to_request() if isinstance(job, PaddleJob) else dict(job)
        namespace = namespace or (job.namespace if isinstance(job, PaddleJob) else None)
        query = {"dry_run": "true"} if dry_run else {}
        if offline:
            query["offline"] = "true"
        status, answer = self._json_answer("POST", "/jobs", query=query, body=request, namespace=namespace)
        if dry_run:
            return cast(DryRunView, answer)
        view = cast(JobView, answer)
        return Job(self, view["name"], view.get("namespace"), view, created=status == 201)

    def import_paddlejob(self, manifest: Union[str, bytes], dry_run: bool = False,
                         namespace: Optional[str] = None) -> Dict[str, Any]:
        """Submit a Kubeflow ``kubeflow.org/v1`` PaddleJob manifest (YAML or JSON text) as it is. Returns the
        import's answer: ``request`` (what it became), ``carried`` and ``dropped`` (each manifest field, where it
        went or why it was left out) and ``result`` (the job, or with dry_run the plan). A field the service
        cannot honour raises ProblemError naming it (docs/kubeflow.md)."""
        raw = manifest.encode("utf-8") if isinstance(manifest, str) else manifest
        query = {"dry_run": "true"} if dry_run else {}
        with self._request("POST", "/jobs/import", query=query, raw=raw, content_type="application/yaml",
                           namespace=namespace) as response:
            return cast(Dict[str, Any], json.loads(response.read().decode("utf-8")))

    def get(self, name: str, namespace: Optional[str] = None) -> "Job":
        """The job by name, with its plan and status."""
        answer = cast(JobView, self._json("GET", "/jobs/" + _quote(name), namespace=namespace))
        return Job(self, answer["name"], answer.get("namespace"), answer)

    def list(self, phase: Optional[str] = None, label_selector: Optional[str] = None, limit: Optional[int] = None,
             namespace: Optional[str] = None, created_since: Union[str, datetime, None] = None,
             created_before: Union[str, datetime, None] = None) -> List["Job"]:
        """Jobs, newest first (every page, or the first ``limit``), as Job handles with their summary; with
        created_since/created_before (RFC 3339 text, or a datetime: naive ones are local time), only those
        created at or after / before that time."""
        jobs: List[Job] = []
        token = None
        while True:
            query = {"phase": phase, "label_selector": label_selector, "continue": token,
                     "created_since": _rfc3339(created_since), "created_before": _rfc3339(created_before),
                     "limit": str(min(limit - len(jobs), 500)) if limit else None}
            page = self._json("GET", "/jobs", query=query, namespace=namespace)
            jobs.extend(Job(self, item["name"], item.get("namespace"), summary=item) for item in page["items"])
            token = page.get("continue")
            if not token or (limit and len(jobs) >= limit):
                return jobs

    def cancel(self, name: str, namespace: Optional[str] = None) -> "Job":
        answer = cast(JobView, self._json("POST", "/jobs/%s/cancel" % _quote(name), namespace=namespace))
        return Job(self, answer["name"], answer.get("namespace"), answer)

    @overload
    def rerun(self, job: str, namespace: Optional[str] = None, dry_run: Literal[False] = False,
              **changes: Any) -> "Job": ...

    @overload
    def rerun(self, job: str, namespace: Optional[str] = None, *, dry_run: Literal[True],
              **changes: Any) -> DryRunView: ...

    @overload
    def rerun(self, job: str, namespace: Optional[str] = None, dry_run: bool = False,
              **changes: Any) -> Union["Job", DryRunView]: ...

    def rerun(self, job: str, namespace: Optional[str] = None, dry_run: bool = False,
              **changes: Any) -> Union["Job", DryRunView]:
        """Run a job again: a new job from its request with ``changes`` (request fields; None takes one
        out), named ``job`` + ``-2``, ``-3``, ... unless ``changes`` has a ``name``. Returns the new
        Job; with dry_run, the plan the service answered."""
        query = {"dry_run": "true"} if dry_run else {}
        status, answer = self._json_answer("POST", "/jobs/%s/rerun" % _quote(job), query=query, body=changes,
                                           namespace=namespace)
        if dry_run:
            return cast(DryRunView, answer)
        view = cast(JobView, answer)
        return Job(self, view["name"], view.get("namespace"), view, created=status == 201)

    def delete(self, name: str, namespace: Optional[str] = None) -> None:
        self._request("DELETE", "/jobs/" + _quote(name), namespace=namespace).close()

    def status(self, name: str, namespace: Optional[str] = None) -> JobStatus:
        return cast(JobStatus, self._json("GET", "/jobs/%s/status" % _quote(name), namespace=namespace))

    def status_events(self, name: str, namespace: Optional[str] = None,
                      deadline: Optional[float] = None) -> EventStream:
        """The status URL as a stream (see events.py); raises StreamUnavailable where it is not one."""
        url = self._url("/jobs/%s/status" % _quote(name), None, namespace)
        return EventStream(url, self._headers("text/event-stream"), self.timeout, deadline)

    @overload
    def logs(self, name: str, role: str = "trainer", index: int = 0, follow: Literal[False] = False,
             tail: Optional[int] = None, namespace: Optional[str] = None,
             attempt: Optional[int] = None) -> str: ...

    @overload
    def logs(self, name: str, role: str = "trainer", index: int = 0, *, follow: Literal[True],
             tail: Optional[int] = None, namespace: Optional[str] = None,
             attempt: Optional[int] = None) -> Iterator[str]: ...

    @overload
    def logs(self, name: str, role: str, index: int, follow: Literal[True], tail: Optional[int] = None,
             namespace: Optional[str] = None, attempt: Optional[int] = None) -> Iterator[str]: ...

    @overload
    def logs(self, name: str, role: str = "trainer", index: int = 0, follow: bool = False,
             tail: Optional[int] = None, namespace: Optional[str] = None,
             attempt: Optional[int] = None) -> Union[str, Iterator[str]]: ...

    def logs(self, name: str, role: str = "trainer", index: int = 0, follow: bool = False, tail: Optional[int] = None,
             namespace: Optional[str] = None, attempt: Optional[int] = None) -> Union[str, Iterator[str]]:
        """One replica's log: the text so far, or with ``follow`` an iterator of lines until it ends.
        ``attempt`` (from 0) reads an earlier attempt's log, where the service keeps them."""
        query = {"role": role, "index": str(index), "tail": None if tail is None else str(tail),
                 "follow": "true" if follow else None, "attempt": None if attempt is None else str(attempt)}
        # A followed log is open as long as the replica runs: no timeout.
        response = self._request("GET", "/jobs/%s/logs" % _quote(name), query=query, namespace=namespace,
                                 accept="text/plain", timeout=None if follow else self.timeout)
        if not follow:
            with response:
                return cast(bytes, response.read()).decode("utf-8", "replace")
        return _lines(response)

    def exec(self, name: str, command: Sequence[str], role: str = "trainer", index: int = 0,
             namespace: Optional[str] = None, output: Optional[TextIO] = None) -> int:
        """Run ``command`` (its words: ``["sh", "-c", "ls; env"]``) in one replica of a held job (``debug_hold``),
        as that replica ran: its environment, working directory and sandbox. Writes what it prints to ``output``
        (standard output) as it comes and returns its exit code. A job that is not held raises ProblemError 409."""
        out = output if output is not None else sys.stdout
        query = {"role": role, "index": str(index)}
        # As long as the command runs: no timeout.
        response = self._request("POST", "/jobs/%s/exec" % _quote(name), query=query, body={"command": list(command)},
                                 namespace=namespace, accept="application/x-ndjson", timeout=None)
        with response:
            for raw in response:
                line = json.loads(cast(bytes, raw).decode("utf-8"))
                if "exit_code" in line:
                    return cast(int, line["exit_code"])
                out.write(line.get("output", ""))
                out.flush()
        raise PaddleJobsError("the service ended the answer of exec on job %s before the command's exit code" % name)

    def upload(self, archive: bytes, namespace: Optional[str] = None) -> str:
        """Upload a code package (gzipped tar bytes); returns its id, ``sha256:...``."""
        answer = self._json("POST", "/packages", raw=archive, content_type="application/gzip", namespace=namespace)
        return cast(str, answer["package"])

    def packages(self, namespace: Optional[str] = None) -> List[Document]:
        """The namespace's code packages, oldest first: ``package``, ``size``, ``created``, ``last_used``, ``used_by``."""
        return cast(List[Document], self._json("GET", "/packages", namespace=namespace)["items"])

    def delete_package(self, package: str, namespace: Optional[str] = None) -> None:
        """Delete a code package; a ProblemError 409 names the unfinished jobs that still use it."""
        self._request("DELETE", "/packages/" + _quote(package), namespace=namespace).close()

    def sweep(self, request: Mapping[str, Any], namespace: Optional[str] = None) -> Document:
        """Start a sweep (docs/experiments.md): ``request`` as ``POST /sweeps`` takes it (``template``,
        ``parameters``, ``parallel``, ``objective``, ``early_stopping``, ...). Returns the sweep as the service
        answered: its ``trials`` (each an ordinary job), ``status_url`` and ``compare_url``. The same request
        under the same name again returns the existing sweep."""
        return cast(Document, self._json("POST", "/sweeps", body=dict(request), namespace=namespace))

    def get_sweep(self, name: str, namespace: Optional[str] = None) -> Document:
        """A sweep: its request, each trial's phase and objective, and ``best``, the best trial so far."""
        return cast(Document, self._json("GET", "/sweeps/" + _quote(name), namespace=namespace))

    def sweeps(self, namespace: Optional[str] = None, limit: Optional[int] = None) -> List[Document]:
        """The namespace's sweeps, newest first."""
        query = {"limit": str(limit) if limit else None}
        return cast(List[Document], self._json("GET", "/sweeps", query=query, namespace=namespace)["items"])

    def wait_sweep(self, name: str, timeout: Optional[float] = None, poll: float = 1.0,
                   namespace: Optional[str] = None) -> Document:
        """The sweep once it has ended (it has ``finished_at``); TimeoutError after ``timeout`` seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            sweep = self.get_sweep(name, namespace)
            if sweep.get("finished_at"):
                return sweep
            if deadline is not None and time.monotonic() >= deadline:
                raise TimeoutError("sweep %s still %s after %s s" % (name, sweep.get("phase"), timeout))
            time.sleep(poll)

    def cancel_sweep(self, name: str, namespace: Optional[str] = None) -> Document:
        """Start no more of its trials and cancel the running ones; returns the sweep."""
        return cast(Document, self._json("POST", "/sweeps/%s/cancel" % _quote(name), namespace=namespace))

    def delete_sweep(self, name: str, namespace: Optional[str] = None) -> None:
        """Cancel the sweep, then delete its trials' jobs and the sweep."""
        self._request("DELETE", "/sweeps/" + _quote(name), namespace=namespace).close()

    def compare(self, jobs: Optional[Sequence[str]] = None, sweep: Optional[str] = None,
                namespace: Optional[str] = None) -> Document:
        """Runs side by side, a sweep's trials or any jobs: each run's parameters and metric summaries, and
        the requests field by field (``differs`` marks where they differ)."""
        return cast(Document, self._json("GET", "/compare", query=_compared(jobs, sweep), namespace=namespace))

    def compare_csv(self, jobs: Optional[Sequence[str]] = None, sweep: Optional[str] = None,
                    namespace: Optional[str] = None) -> str:
        """The same comparison's table as CSV text."""
        with self._request("GET", "/compare", query=_compared(jobs, sweep), namespace=namespace,
                           accept="text/csv") as response:
            return cast(bytes, response.read()).decode("utf-8")

    def _json(self, method: str, path: str, **options: Any) -> Any:
        return self._json_answer(method, path, **options)[1]

    def _json_answer(self, method: str, path: str, **options: Any) -> Tuple[int, Any]:
        """The answer's status code and its JSON body (None when it has none)."""
        with self._request(method, path, **options) as response:
            status = cast(int, response.status)
            text = cast(bytes, response.read()).decode("utf-8")
        return status, json.loads(text) if text else None

    def _request(self, method: str, path: str, query: Optional[Mapping[str, Optional[str]]] = None,
                 body: Any = None, raw: Optional[bytes] = None, content_type: Optional[str] = None,
                 namespace: Optional[str] = None, accept: str = "application/json",
                 timeout: Union[float, None, _Default] = _Default.TIMEOUT) -> Any:
        """The open response. ``timeout``: seconds to wait for the service (None: no limit); the
        client's own when not given."""
        data = raw
        headers = self._headers(accept)
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            content_type = "application/json"
        if content_type:
            headers["Content-Type"] = content_type
        request = urllib.request.Request(self._url(path, query, namespace), data=data, method=method, headers=headers)
        try:
            seconds = self.timeout if timeout is _Default.TIMEOUT else timeout
            if seconds is None:  # urlopen's own default is the socket's: no limit
                return urllib.request.urlopen(request)
            return urllib.request.urlopen(request, timeout=seconds)
        except urllib.error.HTTPError as e:
            raise _problem(e) from None
        except urllib.error.URLError as e:
            raise PaddleJobsError("cannot reach the paddle-jobs service at %s: %s" % (self.url, e.reason)) from None

    def _url(self, path: str, query: Optional[Mapping[str, Optional[str]]], namespace: Optional[str]) -> str:
        given = {k: v for k, v in (query or {}).items() if v is not None}
        namespace = namespace or self.namespace
        if namespace:
            given["namespace"] = namespace
        return self.url + path + ("?" + urllib.parse.urlencode(given) if given else "")

    def _headers(self, accept: str) -> Dict[str, str]:
        headers = {"Accept": accept + ", application/problem+json"}
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        return headers


class Job:
    """A submitted job: where to watch it, how it stands, its logs, and how to stop or remove it.

    ``data`` is the service's last full answer about it (a ``JobView``: plan, status, status URL),
    ``summary`` its line in a list; ``created`` is False for a submit that started nothing because an
    identical job existed.
    """

    def __init__(self, client: Client, name: str, namespace: Optional[str] = None, data: Optional[JobView] = None,
                 summary: Optional[Document] = None, created: bool = True) -> None:
        self.client = client
        self.name = name
        self.namespace = namespace
        self.data = data
        self.summary = summary
        self.created = created

    def status_url(self) -> str:
        """The page (and JSON) that shows the job: open it in a browser."""
        for known in (self.data, self.summary):
            if known and known.get("status_url"):
                return str(known["status_url"])
        query = "?namespace=" + urllib.parse.quote(self.namespace) if self.namespace else ""
        return "%s/jobs/%s/status%s" % (self.client.url, _quote(self.name), query)

    @property
    def plan(self) -> Optional[Plan]:
        """What the service planned (topology, resources, every replica's environment, and why), as its
        last answer about the job said; None for a job known only from a list: ``refresh()`` reads it."""
        return self.data["plan"] if self.data is not None else None

    def refresh(self) -> "Job":
        """Reads the job again: its plan and status (``data``)."""
        self.data = self.client.get(self.name, self.namespace).data
        return self

    def status(self) -> JobStatus:
        """The status now: phase, reason, message, per-role counts and replicas."""
        return self.client.status(self.name, self.namespace)

    def phase(self) -> JobPhase:
        return JobPhase(self.status()["phase"])

    def wait(self, timeout: Optional[float] = None, poll: float = 1.0) -> JobStatus:
        """Wait until the job ends (Succeeded, Failed or Cancelled) and return its final status.

        Follows the status stream, and polls every ``poll`` seconds where the service will not
        stream or the stream breaks. Raises TimeoutError when ``timeout`` seconds pass first, and
        PaddleJobsError at once when called from one of this job's own replicas, which it would
        wait for forever. ``timeout``: seconds; None waits as long as the job runs.
        """
        return until_finished(self, timeout, poll)

    @overload
    def logs(self, role: str = "trainer", index: int = 0, follow: Literal[False] = False,
             tail: Optional[int] = None, attempt: Optional[int] = None) -> str: ...

    @overload
    def logs(self, role: str = "trainer", index: int = 0, *, follow: Literal[True],
             tail: Optional[int] = None, attempt: Optional[int] = None) -> Iterator[str]: ...

    @overload
    def logs(self, role: str, index: int, follow: Literal[True], tail: Optional[int] = None,
             attempt: Optional[int] = None) -> Iterator[str]: ...

    @overload
    def logs(self, role: str = "trainer", index: int = 0, follow: bool = False,
             tail: Optional[int] = None, attempt: Optional[int] = None) -> Union[str, Iterator[str]]: ...

    def logs(self, role: str = "trainer", index: int = 0, follow: bool = False,
             tail: Optional[int] = None, attempt: Optional[int] = None) -> Union[str, Iterator[str]]:
        """The replica's log (``role`` trainer or pserver, ``index`` from 0) as text; with ``follow``,
        an iterator of its lines as they come, until the replica ends; ``attempt`` (from 0): an earlier
        attempt's log, where the service keeps them."""
        return self.client.logs(self.name, role, index, follow, tail, self.namespace, attempt)

    def exec(self, command: Sequence[str], role: str = "trainer", index: int = 0,
             output: Optional[TextIO] = None) -> int:
        """Run ``command`` in one of its replicas while it is held (``debug_hold``); returns its exit code."""
        return self.client.exec(self.name, command, role=role, index=index, namespace=self.namespace, output=output)

    def cancel(self) -> "Job":
        cancelled = self.client.cancel(self.name, self.namespace)
        self.data = cancelled.data
        return self

    def delete(self) -> None:
        self.client.delete(self.name, self.namespace)

    def rerun(self, **changes: Any) -> "Job":
        """Run this job again as a new job, with some request fields changed: ``job.rerun(trainers=4)``.

        The new job is named ``<name>-2``, ``-3``, ... unless ``name=`` is given; a field given None
        is taken out of the request. The same checks as a submit; raises ProblemError naming a bad field.
        """
        return self.client.rerun(self.name, self.namespace, False, **changes)

    def __repr__(self) -> str:
        return "Job(%r, namespace=%r)" % (self.name, self.namespace)


def _lines(response: Any) -> Iterator[str]:
    with response:
        for line in response:
            yield cast(bytes, line).decode("utf-8", "replace")


def _compared(jobs: Optional[Sequence[str]], sweep: Optional[str]) -> Dict[str, Optional[str]]:
    return {"jobs": ",".join(jobs) if jobs else None, "sweep": sweep}


def _quote(name: str) -> str:
    return urllib.parse.quote(name, safe="")


def _problem(error: urllib.error.HTTPError) -> ProblemError:
    try:
        problem = json.loads(error.read().decode("utf-8"))
    except (ValueError, OSError):
        problem = {}
    return ProblemError(error.code, problem)


def _rfc3339(at: Union[str, datetime, None]) -> Optional[str]:
    """A time as the service's query parameters take it: text as given, a datetime in UTC."""
    if at is None or isinstance(at, str):
        return at
    return at.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
