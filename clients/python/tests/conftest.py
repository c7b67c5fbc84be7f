"""The real service for the client's tests: the jar `./mvnw verify` built, on a free loopback port,
with a temporary data root. Without a jar (or java) the service tests skip, unless
PADDLE_JOBS_CLIENTS_REQUIRED=true, when they fail."""

import glob
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
REQUIRED = os.environ.get("PADDLE_JOBS_CLIENTS_REQUIRED", "").lower() == "true"


def _jar():
    if os.environ.get("PADDLE_JOBS_JAR"):
        return os.environ["PADDLE_JOBS_JAR"]
    jars = [j for j in glob.glob(os.path.join(REPOSITORY, "target", "*.jar")) if not j.endswith(("-plain.jar",))]
    return max(jars, key=os.path.getmtime) if jars else None


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _unavailable(why):
    if REQUIRED:
        pytest.fail(why + " (PADDLE_JOBS_CLIENTS_REQUIRED=true)")
    pytest.skip(why)


@pytest.fixture(scope="session")
def service():
    """The service's base URL; its data root and log live in a temporary folder removed afterwards."""
    jar, java = _jar(), shutil.which("java")
    if not jar or not java:
        _unavailable("no service to test against: build it with ./mvnw verify (and have java)")
    root = tempfile.mkdtemp(prefix="paddle-jobs-client-test-")
    port = _free_port()
    log = open(os.path.join(root, "service.log"), "wb")
    # C1 alone, as the service tests' JVMs (the pom's test.jvm.options): these tests are a few hundred requests.
    process = subprocess.Popen([java, "-XX:TieredStopAtLevel=1", "-jar", jar, "--server.port=%d" % port,
                                "--paddlejobs.local.data-root=" + os.path.join(root, "data"),
                                "--paddlejobs.local.max-running-jobs=20"],
                               stdout=log, stderr=subprocess.STDOUT, cwd=root)
    url = "http://127.0.0.1:%d" % port
    try:
        _await_ready(url, process, os.path.join(root, "service.log"))
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
        shutil.rmtree(root, ignore_errors=True)


def _await_ready(url, process, log_path, deadline_seconds=120):
    deadline = time.monotonic() + deadline_seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail("the service exited with %s:\n%s" % (process.returncode, open(log_path).read()[-4000:]))
        try:
            with urllib.request.urlopen(url + "/actuator/health/readiness", timeout=2) as response:
                if json.loads(response.read()).get("status") == "UP":
                    return
        except OSError:
            pass
        time.sleep(0.2)
    pytest.fail("the service was not ready within %d s" % deadline_seconds)


@pytest.fixture
def client(service):
    import paddle_jobs

    return paddle_jobs.Client(url=service, token="", namespace="")


@pytest.fixture
def python():
    """The interpreter the tests run on (the one the client is installed for)."""
    return sys.executable
