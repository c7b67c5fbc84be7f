"""The paddle-jobs command: submit, status, logs, list, cancel, delete."""

import argparse
import json
import sys
from typing import Any, Dict, List, Optional

from .client import Client, Job
from .contract import JobPhase
from .dist import package
from .errors import PaddleJobsError, ProblemError


def main(argv: Optional[List[str]] = None) -> int:
    args = _parser().parse_args(argv)
    client = Client(url=args.url, token=args.token, namespace=args.namespace)
    try:
        return args.run(client, args) or 0
    except ProblemError as e:
        sys.stderr.write("error: %s\n" % e)
        for error in e.errors:
            sys.stderr.write("  %s: %s\n" % (error.get("field"), error.get("message")))
        return 2
    except (PaddleJobsError, TimeoutError, OSError) as e:
        sys.stderr.write("error: %s\n" % e)
        return 2
    except KeyboardInterrupt:
        return 130


def _submit(client: Client, args: argparse.Namespace) -> int:
    text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
    try:
        request = json.loads(text)
    except ValueError as e:
        raise PaddleJobsError("%s is not a JSON job request: %s" % (args.file, e)) from None
    if args.package:
        request["package"] = client.upload(package(args.package, with_client=False))
    if args.max_restarts is not None:
        request["max_restarts"] = args.max_restarts
    if args.dry_run:
        _print_json(client.submit(request, dry_run=True))
        return 0
    job = client.submit(request)
    for warning in job.data.get("warnings", []):
        sys.stderr.write("warning: %s\n" % warning)
    print("job %s submitted; status: %s" % (job.name, job.status_url()))
    if args.follow:
        for line in job.logs(follow=True):
            sys.stdout.write(line)
            sys.stdout.flush()
    if args.wait or args.follow:
        return _finished(job, job.wait(timeout=args.timeout))
    return 0


def _finished(job: Job, status: Dict[str, Any]) -> int:
    why = " (%s)" % status.get("message") if status.get("message") else ""
    print("job %s %s%s" % (job.name, status["phase"], why))
    return 0 if status["phase"] == JobPhase.SUCCEEDED else 1


def _status(client: Client, args: argparse.Namespace) -> None:
    _print_json(client.status(args.name))


def _logs(client: Client, args: argparse.Namespace) -> None:
    text = client.logs(args.name, role=args.role, index=args.index, follow=args.follow, tail=args.tail)
    for line in ([text] if isinstance(text, str) else text):
        sys.stdout.write(line)
        sys.stdout.flush()


def _list(client: Client, args: argparse.Namespace) -> None:
    jobs = client.list(phase=args.phase, label_selector=args.selector, limit=args.limit)
    print("%-40s %-10s %-8s %-8s %s" % ("NAME", "PHASE", "PSERVERS", "TRAINERS", "CREATED"))
    for job in jobs:
        s = job.summary or {}
        print("%-40s %-10s %-8s %-8s %s" % (s["name"], s["phase"], s.get("pservers", ""), s.get("trainers", ""),
                                            s.get("created_at", "")))


def _cancel(client: Client, args: argparse.Namespace) -> None:
    job = client.cancel(args.name)
    print("job %s %s" % (job.name, (job.data or {})["status"]["phase"]))


def _delete(client: Client, args: argparse.Namespace) -> None:
    client.delete(args.name)
    print("job %s deleted" % args.name)


def _print_json(document: Any) -> None:
    print(json.dumps(document, indent=2, sort_keys=False))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="paddle-jobs", description="Submit and watch PaddlePaddle training jobs.")
    parser.add_argument("--url", help="the service (default: $PADDLE_JOBS_URL, else http://127.0.0.1:8080)")
    parser.add_argument("--token", help="bearer token (default: $PADDLE_JOBS_TOKEN)")
    parser.add_argument("--namespace", "-n", help="namespace (default: $USER_NAMESPACE, else the caller's)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    submit = commands.add_parser("submit", help="submit a job request (a JSON file, or - for standard input)")
    submit.add_argument("file")
    submit.add_argument("--wait", action="store_true", help="wait for the end; exit 0 only if it succeeded")
    submit.add_argument("--follow", "-f", action="store_true", help="print trainer 0's log as it runs, then wait")
    submit.add_argument("--dry-run", action="store_true", help="print the plan; start nothing")
    submit.add_argument("--package", metavar="DIR", help="ship this folder: replicas start in a copy of it")
    submit.add_argument("--timeout", type=float, help="with --wait: give up after this many seconds")
    submit.add_argument("--max-restarts", type=int, metavar="N",
                        help="start the whole job again up to N times after a failure (the request's max_restarts)")
    submit.set_defaults(run=_submit)

    for name, run, text in (("status", _status, "a job's status as JSON"), ("cancel", _cancel, "cancel a job"),
                            ("delete", _delete, "delete a job and all it made")):
        command = commands.add_parser(name, help=text)
        command.add_argument("name")
        command.set_defaults(run=run)

    logs = commands.add_parser("logs", help="a replica's log")
    logs.add_argument("name")
    logs.add_argument("--role", default="trainer", choices=("trainer", "pserver"))
    logs.add_argument("--index", type=int, default=0)
    logs.add_argument("--tail", type=int, help="only the last lines")
    logs.add_argument("--follow", "-f", action="store_true", help="keep printing until the replica ends")
    logs.set_defaults(run=_logs)

    listing = commands.add_parser("list", help="jobs, newest first")
    listing.add_argument("--phase", choices=[phase.value for phase in JobPhase])
    listing.add_argument("--selector", "-l", help="labels: key=value[,key=value]")
    listing.add_argument("--limit", type=int)
    listing.set_defaults(run=_list)
    return parser
