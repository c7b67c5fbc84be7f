"""Client and Job: the service's HTTP API, with the standard library only."""

import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request

from .errors import PaddleJobsError, ProblemError
from .job import PaddleJob

DEFAULT_URL = "http://127.0.0.1:8080"
FINISHED = ("Succeeded", "Failed", "Cancelled")


class Client:
    """Talks to one paddle-jobs service.

    ``url``, ``token`` and ``namespace`` default to the environment: ``PADDLE_JOBS_URL`` (else
    http://127.0.0.1:8080), ``PADDLE_JOBS_TOKEN`` (sent as a bearer token) and the seed's
    ``USER_NAMESPACE`` (else the service picks the caller's namespace).
    """

    def __init__(self, url=None, token=None, namespace=None, timeout=30.0):
        self.url = (url or os.environ.get("PADDLE_JOBS_URL") or DEFAULT_URL).rstrip("/")
        self.token = token if token is not None else os.environ.get("PADDLE_JOBS_TOKEN") or None
        self.namespace = namespace if namespace is not None else os.environ.get("USER_NAMESPACE") or None
        self.timeout = timeout

    def submit(self, job, dry_run=False, namespace=None):
        """Submit a PaddleJob (or a request dict). Returns a Job; with dry_run, the plan as a dict."""
        request = job.to_request() if isinstance(job, PaddleJob) else dict(job)
        namespace = namespace or (job.namespace if isinstance(job, PaddleJob) else None)
        query = {"dry_run": "true"} if dry_run else {}
        answer = self._json("POST", "/jobs", query=query, body=request, namespace=namespace)
        if dry_run:
            return answer
        return Job(self, answer["name"], answer.get("namespace"), answer)

    def get(self, name, namespace=None):
        """The job by name, with its plan and status."""
        answer = self._json("GET", "/jobs/" + _quote(name), namespace=namespace)
        return Job(self, answer["name"], answer.get("namespace"), answer)

    def list(self, phase=None, label_selector=None, limit=None, namespace=None):
        """Jobs, newest first (every page, or the first ``limit``), as Job handles with their summary."""
        jobs, token = [], None
        while True:
            query = {"phase": phase, "label_selector": label_selector, "continue": token,
                     "limit": str(min(limit - len(jobs), 500)) if limit else None}
            page = self._json("GET", "/jobs", query=query, namespace=namespace)
            jobs.extend(Job(self, item["name"], item.get("namespace"), summary=item) for item in page["items"])
            token = page.get("continue")
            if not token or (limit and len(jobs) >= limit):
                return jobs

    def cancel(self, name, namespace=None):
        answer = self._json("POST", "/jobs/%s/cancel" % _quote(name), namespace=namespace)
        return Job(self, answer["name"], answer.get("namespace"), answer)

    def delete(self, name, namespace=None):
        self._request("DELETE", "/jobs/" + _quote(name), namespace=namespace).close()

    def status(self, name, namespace=None):
        return self._json("GET", "/jobs/%s/status" % _quote(name), namespace=namespace)

    def logs(self, name, role="trainer", index=0, follow=False, tail=None, namespace=None):
        """One replica's log: the text so far, or with ``follow`` an iterator of lines until it ends."""
        query = {"role": role, "index": str(index), "tail": None if tail is None else str(tail),
                 "follow": "true" if follow else None}
        response = self._request("GET", "/jobs/%s/logs" % _quote(name), query=query, namespace=namespace,
                                 accept="text/plain", timeout=None if follow else self.timeout)
        if not follow:
            with response:
                return response.read().decode("utf-8", "replace")
        return _lines(response)

    def upload(self, archive, namespace=None):
        """Upload a code package (gzipped tar bytes); returns its id, ``sha256:...``."""
        answer = self._json("POST", "/packages", raw=archive, content_type="application/gzip", namespace=namespace)
        return answer["package"]

    def _json(self, method, path, **options):
        with self._request(method, path, **options) as response:
            text = response.read().decode("utf-8")
        return json.loads(text) if text else None

    def _request(self, method, path, query=None, body=None, raw=None, content_type=None, namespace=None,
                 accept="application/json", timeout=0):
        query = {k: v for k, v in (query or {}).items() if v is not None}
        namespace = namespace or self.namespace
        if namespace:
            query["namespace"] = namespace
        url = self.url + path + ("?" + urllib.parse.urlencode(query) if query else "")
        data = raw
        headers = {"Accept": accept + ", application/problem+json"}
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            content_type = "application/json"
        if content_type:
            headers["Content-Type"] = content_type
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            return urllib.request.urlopen(request, timeout=self.timeout if timeout == 0 else timeout)
        except urllib.error.HTTPError as e:
            raise _problem(e) from None
        except urllib.error.URLError as e:
            raise PaddleJobsError("cannot reach the paddle-jobs service at %s: %s" % (self.url, e.reason)) from None


class Job:
    """A submitted job: where to watch it, how it stands, its logs, and how to stop or remove it."""

    def __init__(self, client, name, namespace=None, data=None, summary=None):
        self.client = client
        self.name = name
        self.namespace = namespace
        self.data = data
        self.summary = summary

    def status_url(self):
        """The page (and JSON) that shows the job: open it in a browser."""
        for known in (self.data, self.summary):
            if known and known.get("status_url"):
                return known["status_url"]
        query = "?namespace=" + urllib.parse.quote(self.namespace) if self.namespace else ""
        return "%s/jobs/%s/status%s" % (self.client.url, _quote(self.name), query)

    @property
    def plan(self):
        """What the service planned: topology, resources, every replica's environment, and why."""
        if self.data is None:
            self.refresh()
        return self.data["plan"]

    def refresh(self):
        self.data = self.client.get(self.name, self.namespace).data
        return self

    def status(self):
        """The status now: phase, reason, message, per-role counts and replicas."""
        return self.client.status(self.name, self.namespace)

    def phase(self):
        return self.status()["phase"]

    def wait(self, timeout=None, poll=1.0):
        """Wait until the job ends (Succeeded, Failed or Cancelled) and return its final status.

        Raises TimeoutError when ``timeout`` seconds pass first.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            status = self.status()
            if status["phase"] in FINISHED:
                return status
            if deadline is not None and time.monotonic() >= deadline:
                raise TimeoutError("job %s is still %s after %s s" % (self.name, status["phase"], timeout))
            time.sleep(poll if deadline is None else max(0.0, min(poll, deadline - time.monotonic())))

    def logs(self, role="trainer", index=0, follow=False, tail=None):
        """The replica's log (``role`` trainer or pserver, ``index`` from 0); ``follow`` yields lines as they come."""
        return self.client.logs(self.name, role, index, follow, tail, self.namespace)

    def cancel(self):
        cancelled = self.client.cancel(self.name, self.namespace)
        self.data = cancelled.data
        return self

    def delete(self):
        self.client.delete(self.name, self.namespace)

    def __repr__(self):
        return "Job(%r, namespace=%r)" % (self.name, self.namespace)


def _lines(response):
    with response:
        for line in response:
            yield line.decode("utf-8", "replace")


def _quote(name):
    return urllib.parse.quote(name, safe="")


def _problem(error):
    try:
        problem = json.loads(error.read().decode("utf-8"))
    except (ValueError, OSError):
        problem = {}
    return ProblemError(error.code, problem)
