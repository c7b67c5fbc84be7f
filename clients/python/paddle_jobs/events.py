"""A job's status URL read as Server-Sent Events (``Accept: text/event-stream``): ``status`` at once
and at every change, ``metrics``, then ``end`` (or ``gone`` once deleted), with a comment every
15 s while nothing happens."""

import http.client
import socket
import time
import urllib.parse
from typing import Iterable, Iterator, List, Mapping, NamedTuple, Optional


class Event(NamedTuple):
    name: str
    data: str


class StreamUnavailable(Exception):
    """The service would not stream this status (an older service, or every stream slot taken)."""


def parse(lines: Iterable[bytes]) -> Iterator[Event]:
    """Events from the stream's lines, by the WHATWG framing: ``event:`` and ``data:`` fields, an
    event ends at a blank line, ``:`` starts a comment."""
    name: str = "message"
    data: List[str] = []
    for raw in lines:
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        if not line:
            if data:
                yield Event(name, "\n".join(data))
            name, data = "message", []
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "event":
            name = value
        elif field == "data":
            data.append(value)


class EventStream:
    """One open stream. No read waits past ``deadline`` (a time.monotonic()) nor longer than
    ``timeout`` (the service sends a comment every 15 s, so a longer silence is a dead stream):
    both raise ``socket.timeout``. A deadline on each read needs the socket, which urllib hides
    once the response is open, hence http.client."""

    def __init__(self, url: str, headers: Mapping[str, str], timeout: Optional[float],
                 deadline: Optional[float] = None) -> None:
        parts = urllib.parse.urlsplit(url)
        kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        self._timeout, self._deadline = timeout, deadline
        self._connection = kind(parts.hostname or "", parts.port, timeout=self._read_timeout())
        target = (parts.path or "/") + ("?" + parts.query if parts.query else "")
        try:
            self._connection.request("GET", target, headers=dict(headers, Accept="text/event-stream"))
            # Kept before getresponse(), which drops it from the connection when the response owns it.
            self._socket = self._connection.sock
            self._response = self._connection.getresponse()
        except BaseException:
            self._connection.close()
            raise
        media_type = self._response.getheader("Content-Type", "")
        if self._response.status != 200 or not media_type.startswith("text/event-stream"):
            self.close()
            raise StreamUnavailable("HTTP %d %s" % (self._response.status, media_type))

    def events(self) -> Iterator[Event]:
        return parse(iter(self._readline, b""))

    def _readline(self) -> bytes:
        if self._socket is not None:
            self._socket.settimeout(self._read_timeout())
        return self._response.readline()

    def _read_timeout(self) -> Optional[float]:
        """Seconds the next read may wait; None: as long as it takes (no timeout and no deadline)."""
        if self._deadline is None:
            return self._timeout
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise socket.timeout("the deadline has passed")
        return left if self._timeout is None else min(left, self._timeout)

    def close(self) -> None:
        self._response.close()
        self._connection.close()

    def __enter__(self) -> "EventStream":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
