"""A webhook receiver for the tests, written as a user would: it verifies every delivery with the
Standard Webhooks library (standardwebhooks, from PyPI) and records what it got.

    python receiver.py RECORD_FILE

listens on 127.0.0.1 (a port of the system's choosing, printed as "listening on PORT") and answers
by the path's first part:
  /ok/...        200 for a verified delivery (400 for one that does not verify)
  /fail-once/... 500 to the first attempt of each webhook-id, then as /ok
  /never/...     reads the request and never answers (until the sender hangs up)
  /down/...      503 while the file RECORD_FILE.down exists, then as /ok
Secrets are read, one a line, from RECORD_FILE.secrets at each request (a test adds a job's secret
there once its submit answered). Each request appends one JSON line to RECORD_FILE: path, headers'
webhook-id, whether it verified, the payload, and what was answered.
"""
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

RECORD = sys.argv[1]
lock = threading.Lock()
seen_once = set()
never = threading.Event()


def secrets():
    try:
        with open(RECORD + ".secrets") as f:
            return [line.strip() for line in f if line.strip()]
    except FileNotFoundError:
        return []


def verify(body, headers):
    for secret in secrets():
        try:
            return Webhook(secret).verify(body, headers)
        except WebhookVerificationError:
            continue
    return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0"))).decode("utf-8")
        headers = {k.lower(): v for k, v in self.headers.items()}
        mode = self.path.strip("/").split("/")[0]
        msg_id = headers.get("webhook-id")
        if mode == "never":
            self.record(msg_id, None, body, "never answered")
            never.wait()  # until the test ends; the service gives up on its own
            return
        payload = verify(body, headers)
        if payload is None:
            self.answer(400, msg_id, None, body, "signature did not verify")
            return
        if mode == "fail-once":
            with lock:
                first = msg_id not in seen_once
                seen_once.add(msg_id)
            if first:
                self.answer(500, msg_id, payload, body, "failed on purpose")
                return
        if mode == "down" and os.path.exists(RECORD + ".down"):
            self.answer(503, msg_id, payload, body, "down")
            return
        self.answer(200, msg_id, payload, body, "ok")

    def answer(self, status, msg_id, payload, body, words):
        data = words.encode()
        self.send_response(status)
        self.send_header("content-type", "text/plain")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.record(msg_id, payload, body, words, status)

    def record(self, msg_id, payload, body, words, status=None):
        line = {"path": self.path, "id": msg_id, "verified": payload is not None, "payload": payload,
                "body": body, "answer": status, "words": words}
        with lock:
            with open(RECORD, "a") as f:
                f.write(json.dumps(line) + "\n")


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print("listening on %d" % server.server_address[1], flush=True)
server.serve_forever()
