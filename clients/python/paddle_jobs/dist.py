"""dist_train: the seed's promise. Run by you, it ships this script's directory and submits it;
run in a replica (the same script, started by the service), it trains."""

import gzip
import io
import os
import shlex
import sys
import tarfile

from .client import Client, Job
from .errors import PaddleJobsError
from .job import PaddleJob

# Injected by the service into every replica, never set on a user's machine.
REPLICA_MARKER = "PADDLE_JOB_NAME"
_SKIPPED = {"__pycache__", ".git", ".hg", ".svn", ".venv", "venv", ".tox", ".mypy_cache", ".pytest_cache",
            "node_modules"}


def in_replica():
    """Whether this process is one of a job's replicas (the service's injected environment is present)."""
    return bool(os.environ.get(REPLICA_MARKER))


def dist_train(train_fn, paddle_job=None, client=None, script=None):
    """Train on the cluster with one call, from the script that defines ``train_fn``.

    Outside a replica: packages the script's directory, together with this client (so that the
    script imports ``paddle_jobs`` unchanged in the replicas), uploads it, submits ``paddle_job``
    with an entry point that runs the same script with the same arguments, and returns the Job.
    Inside a replica: calls ``train_fn()`` and returns a Job for the job it belongs to, with the
    function's result as ``job.result``.
    """
    if in_replica():
        result = train_fn()
        job = Job(Client(), os.environ[REPLICA_MARKER], os.environ.get("USER_NAMESPACE") or None)
        job.result = result
        return job
    client = client or Client()
    paddle_job = paddle_job or PaddleJob()
    namespace = paddle_job.namespace or client.namespace
    fields = {}
    if paddle_job.package is None:
        script = _script(script)
        fields["package"] = client.upload(package(os.path.dirname(script)), namespace=namespace)
        if paddle_job.entry_point is None:
            arguments = [os.path.basename(script)] + sys.argv[1:]
            fields["entry_point"] = "python3 " + " ".join(shlex.quote(a) for a in arguments)
    elif paddle_job.entry_point is None:
        raise PaddleJobsError("with a package of your own, give the entry_point that runs it")
    env = dict(paddle_job.env or {})
    # So that the replicas' dist_train can name the service and namespace (no token is shipped).
    env.setdefault("PADDLE_JOBS_URL", client.url)
    if namespace:
        env.setdefault("USER_NAMESPACE", namespace)
    fields["env"] = env
    return client.submit(paddle_job.with_fields(**fields), namespace=namespace)


def package(directory, with_client=True):
    """A gzipped tar of ``directory`` (caches and version-control folders left out), plus this client.

    The same files make the same bytes (no times, owners or order in them), so the service
    answers the same package id and keeps one copy.
    """
    buffer = io.BytesIO()
    names = set()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as gz:
        with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
            _add_tree(tar, directory, "", names)
            if with_client:
                here = os.path.dirname(os.path.abspath(__file__))
                _add_tree(tar, here, "paddle_jobs", names)
    return buffer.getvalue()


def _add_tree(tar, directory, prefix, names):
    if prefix:
        _add(tar, directory, prefix, names)
    for entry in sorted(os.listdir(directory)):
        path = os.path.join(directory, entry)
        name = prefix + "/" + entry if prefix else entry
        if entry in _SKIPPED or entry.endswith(".pyc"):
            continue
        if os.path.islink(path):
            sys.stderr.write("paddle_jobs: not shipping %s: links are not unpacked by the service\n" % path)
        elif os.path.isdir(path):
            _add_tree(tar, path, name, names)
        elif os.path.isfile(path):
            _add(tar, path, name, names)


def _add(tar, path, name, names):
    if name in names:
        return  # the script's folder has its own copy of this client: that one wins
    names.add(name)
    info = tar.gettarinfo(path, arcname=name)
    info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
    info.mode = 0o755 if info.isdir() or info.mode & 0o100 else 0o644
    if info.isfile():
        with open(path, "rb") as content:
            tar.addfile(info, content)
    else:
        tar.addfile(info)


def _script(script):
    if script is None:
        main = sys.modules.get("__main__")
        script = getattr(main, "__file__", None)
    if not script or not os.path.isfile(script):
        raise PaddleJobsError("dist_train ships the script it is called from; run it as 'python3 your_script.py'")
    return os.path.abspath(script)
