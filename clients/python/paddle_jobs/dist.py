"""dist_train: one script for both sides of a job. Run by you, it ships this script's directory and submits it;
run in a replica (the same script, started by the service), it trains."""

import gzip
import io
import os
import shlex
import sys
import tarfile
import traceback
from typing import Any, Callable, Dict, NoReturn, Optional, Set

from .client import Client, Job
from .errors import PaddleJobsError
from .job import PaddleJob
from .replica import in_replica

_SKIPPED = {"__pycache__", ".git", ".hg", ".svn", ".venv", "venv", ".tox", ".mypy_cache", ".pytest_cache",
            "node_modules"}


def dist_train(train_fn: Callable[[], Any], paddle_job: Optional[PaddleJob] = None, client: Optional[Client] = None,
               script: Optional[str] = None) -> Job:
    """Train on the cluster with one call, from the script that defines ``train_fn``.

    Outside a replica: packages the script's directory, together with this client (so that the
    script imports ``paddle_jobs`` unchanged in the replicas), uploads it, submits ``paddle_job``
    with an entry point that runs the same script with the same arguments, and returns the Job.
    Inside a replica: calls ``train_fn()`` and ends the process with its outcome, so that the
    script's code after the call (printing the status URL, waiting for the job) runs only where
    the job was submitted: exit status 0 when it returns, 1 with the traceback on standard error
    when it raises, and the status it asks for when it calls ``sys.exit``.
    """
    if in_replica():
        _train_and_exit(train_fn)
    client = client or Client()
    paddle_job = paddle_job or PaddleJob()
    namespace = paddle_job.namespace or client.namespace
    fields: Dict[str, Any] = {}
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


def _train_and_exit(train_fn: Callable[[], Any]) -> NoReturn:
    # SystemExit rather than os._exit: atexit handlers and buffered output still run. And not the
    # exception itself: a script that wraps dist_train in "except Exception" to report a refused
    # submission would swallow it, and the replica would go on as if it had trained.
    try:
        train_fn()
    except Exception:
        traceback.print_exc()
        sys.stderr.flush()
        raise SystemExit(1) from None
    raise SystemExit(0)


def package(directory: str, with_client: bool = True) -> bytes:
    """A gzipped tar of ``directory`` (caches and version-control folders left out), plus this client.

    The same files make the same bytes (no times, owners or order in them), so the service
    answers the same package id and keeps one copy.
    """
    buffer = io.BytesIO()
    names: Set[str] = set()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as gz:
        with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
            _add_tree(tar, directory, "", names)
            if with_client:
                here = os.path.dirname(os.path.abspath(__file__))
                _add_tree(tar, here, "paddle_jobs", names)
    return buffer.getvalue()


def _add_tree(tar: tarfile.TarFile, directory: str, prefix: str, names: Set[str]) -> None:
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


def _add(tar: tarfile.TarFile, path: str, name: str, names: Set[str]) -> None:
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


def _script(script: Optional[str]) -> str:
    if script is None:
        main = sys.modules.get("__main__")
        script = getattr(main, "__file__", None)
    if not script or not os.path.isfile(script):
        raise PaddleJobsError("dist_train ships the script it is called from; run it as 'python3 your_script.py'")
    return os.path.abspath(script)
