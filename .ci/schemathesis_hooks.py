"""Schemathesis hooks for .ci/test-clients: a code package upload's body is bytes as generated."""
import schemathesis


@schemathesis.serializer("application/gzip", "application/x-gzip")
def archive_bytes(ctx, value):
    # The contract says a binary string; Schemathesis ships no serializer for gzip's media types.
    data = getattr(value, "data", value)
    if isinstance(data, str):
        return data.encode("utf-8", errors="ignore")
    return data if isinstance(data, bytes) else str(data).encode()
