"""Schemathesis hooks for .ci/test-clients: a code package upload's body is bytes as generated."""
import schemathesis


@schemathesis.serializer("application/gzip", "application/x-gzip")
def archive_bytes(ctx, value):
    # The contract says a binary string; Schemathesis ships no serializer for gzip's media types.
    data = getattr(value, "data", value)
    if isinstance(data, str):
        return data.encode("utf-8", errors="ignore")
    return data if isinstance(data, bytes) else str(data).encode()


# Streams last as long as what they follow: a watch without timeout_seconds until the client leaves,
# a log with follow until its replica ends, a status stream until its job ends. A generated request
# would wait for the request timeout instead of an answer (and hold one of the user's stream slots
# while the service has not noticed it gone), so these requests are bounded here; the streams
# themselves are tested in the service's own tests (JobWatchApiTest, LogStreamingTest, StreamSharesTest).
_TRUE = {"true", "on", "yes", "1"}


def _is_true(value):
    return str(value).lower() in _TRUE


# A submitted job runs its entry point as a shell command, and in mode none unconfined, as the user
# CI runs as (root). Generated text is not to be run on the machine: a valid entry point becomes the
# harmless command `true` (valid in the same way, so every check still judges the answer as it would
# have); an invalid one is left as generated, since it is refused before anything runs.
_HARMLESS = "true"
_ENTRY_POINTS = ("entry_point", "pserver_entry_point")


def _runnable(value):
    return isinstance(value, str) and value.strip() != "" and len(value) <= 4096 and "\x00" not in value


def _defuse(body):
    if isinstance(body, dict):
        for field in _ENTRY_POINTS:
            if _runnable(body.get(field)):
                body[field] = _HARMLESS


@schemathesis.hook
def before_call(ctx, case, kwargs):
    path, method = case.operation.path, case.method.upper()
    query = case.query if isinstance(case.query, dict) else None
    if method == "POST" and path == "/jobs":
        _defuse(case.body)
        return
    if method != "GET":
        return
    if path == "/jobs" and query is not None and query.get("watch") in (True, "true"):
        limit = query.get("timeout_seconds")
        # An invalid value stays as generated: it is answered 400 at once.
        if limit is None or (str(limit).isdigit() and 1 <= int(str(limit)) <= 86400):
            query["timeout_seconds"] = 1
    elif path == "/jobs/{name}/logs" and query is not None and "follow" in query and _is_true(query["follow"]):
        query["follow"] = False
    elif path == "/jobs/{name}/status" and isinstance(case.headers, dict):
        for header in [h for h in case.headers if h.lower() == "accept"]:
            if "event-stream" in str(case.headers[header]):
                case.headers[header] = "application/json"
