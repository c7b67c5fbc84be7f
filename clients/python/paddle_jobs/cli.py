"""The paddle-jobs command: submit, import, rerun, status, logs, exec, list, cancel, delete, sweep, compare."""

import argparse
import json
import os
import sys
from typing import Any, Dict, List, Mapping, Optional, cast

from .client import Client, Job
from .contract import JobPhase, JobStatus
from .dist import package
from .errors import PaddleJobsError, ProblemError
from .live import watch


# Exit statuses besides 0: a job that failed or was cancelled (--wait, --follow, --watch), a refused request
# or an unreachable service, and a submit that started nothing because an identical job exists.
JOB_FAILED = 1
REFUSED = 2
NOTHING_STARTED = 3
# As a process killed by SIGPIPE: `paddle-jobs list | head` is no error worth a message.
CLOSED_PIPE = 128 + 13


def main(argv: Optional[List[str]] = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    # exec's command is every word after its first --, whatever it holds (options of its own included).
    command: List[str] = []
    if "exec" in words and "--" in words[words.index("exec"):]:
        at = words.index("--", words.index("exec"))
        words, command = words[:at], words[at + 1:]
    args = _parser().parse_args(words)
    args.cmd = command
    client = Client(url=args.url, token=args.token, namespace=args.namespace)
    try:
        status = int(args.run(client, args) or 0)
        sys.stdout.flush()  # here, where a closed pipe is caught, not at exit
        return status
    except BrokenPipeError:
        # The reader went away (| head): say nothing, and send what Python still flushes at exit nowhere.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return CLOSED_PIPE
    except ProblemError as e:
        sys.stderr.write("error: %s\n" % e)
        for error in e.errors:
            sys.stderr.write("  %s: %s\n" % (error.get("field"), error.get("message")))
        return REFUSED
    except (PaddleJobsError, TimeoutError, OSError) as e:
        sys.stderr.write("error: %s\n" % e)
        return REFUSED
    except KeyboardInterrupt:
        return 130


def _submit(client: Client, args: argparse.Namespace) -> int:
    request = _json_file(args.file, "job request")
    if args.package:
        request["package"] = client.upload(package(args.package, with_client=False))
    if args.max_restarts is not None:
        request["max_restarts"] = args.max_restarts
    if args.dry_run:
        _print_json(client.submit(request, dry_run=True, offline=args.offline))
        return 0
    if args.offline:
        raise PaddleJobsError("--offline is for a dry run: add --dry-run")
    job = client.submit(request)
    if not _started(job):
        if not (args.wait or args.follow) or _phase(job) in FINISHED_PHASES:
            return NOTHING_STARTED
    if args.follow:
        for line in job.logs(follow=True):
            sys.stdout.write(line)
            sys.stdout.flush()
    if args.follow:
        return _finished(job, job.wait(timeout=args.timeout))
    if args.wait:
        return _finished(job, watch(job, args.timeout))
    return 0


def _import(client: Client, args: argparse.Namespace) -> int:
    text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
    answer = client.import_paddlejob(text, dry_run=args.dry_run)
    for field in answer.get("dropped", []):
        sys.stderr.write("dropped %s: %s\n" % (field["field"], field.get("reason")))
    _print_json(answer["result"] if args.dry_run else answer["request"])
    return 0


def _rerun(client: Client, args: argparse.Namespace) -> int:
    changes: Dict[str, Any] = {}
    sets: List[str] = args.set or []
    for change in sets:
        field, equals, text = change.partition("=")
        if not equals or not field:
            raise PaddleJobsError("--set takes FIELD=VALUE (a JSON value, else text), not %r" % change)
        try:
            changes[field] = json.loads(text)
        except ValueError:
            changes[field] = text
    for field in ("name", "trainers", "max_run_time"):
        if getattr(args, field) is not None:
            changes[field] = getattr(args, field)
    if args.dry_run:
        _print_json(client.rerun(args.job, dry_run=True, **changes))
        return 0
    job = client.rerun(args.job, None, False, **changes)
    _started(job)
    if args.wait:
        return _finished(job, watch(job, args.timeout))
    return 0


FINISHED_PHASES = (JobPhase.SUCCEEDED, JobPhase.FAILED, JobPhase.CANCELLED)


def _started(job: Job) -> bool:
    """Says what the submit did: started the job, or nothing because an identical one exists."""
    for warning in job.data["warnings"] if job.data is not None else []:
        sys.stderr.write("warning: %s\n" % warning)
    if job.created:
        print("job %s submitted; status: %s" % (job.name, job.status_url()))
    else:
        print("nothing started: an identical job %s exists (%s); status: %s" % (job.name, _phase(job), job.status_url()))
    return job.created


def _phase(job: Job) -> str:
    return job.data["status"]["phase"] if job.data is not None else "?"


def _finished(job: Job, status: JobStatus) -> int:
    why = " (%s)" % status.get("message") if status.get("message") else ""
    print("job %s %s%s" % (job.name, status["phase"], why))
    return 0 if status["phase"] == JobPhase.SUCCEEDED.value else JOB_FAILED


def _status(client: Client, args: argparse.Namespace) -> int:
    if args.watch:
        return _finished(Job(client, args.name, client.namespace), watch(Job(client, args.name, client.namespace)))
    _print_json(client.status(args.name))
    return 0


def _logs(client: Client, args: argparse.Namespace) -> None:
    text = client.logs(args.name, role=args.role, index=args.index, follow=bool(args.follow), tail=args.tail,
                       attempt=args.attempt)
    for line in ([text] if isinstance(text, str) else text):
        sys.stdout.write(line)
        sys.stdout.flush()


def _exec(client: Client, args: argparse.Namespace) -> int:
    if not args.cmd:
        raise PaddleJobsError("exec needs a command after --: paddle-jobs exec JOB --role trainer --index 1 -- sh")
    return client.exec(args.name, args.cmd, role=args.role, index=args.index)


def _list(client: Client, args: argparse.Namespace) -> None:
    jobs = client.list(phase=args.phase, label_selector=args.selector, limit=args.limit, created_since=args.since,
                       created_before=args.before)
    print("%-40s %-10s %-8s %-8s %-9s %s" % ("NAME", "PHASE", "PSERVERS", "TRAINERS", "PROGRESS", "CREATED"))
    for job in jobs:
        s: Mapping[str, Any] = job.summary or {}
        progress: Mapping[str, Any] = s.get("progress") or {}
        done = "%d%%" % int(progress["fraction"] * 100) if "fraction" in progress else (
            "step %d" % progress["step"] if "step" in progress else "")
        print("%-40s %-10s %-8s %-8s %-9s %s" % (s["name"], s["phase"], s.get("pservers", ""), s.get("trainers", ""),
                                                 done, s.get("created_at", "")))


def _cancel(client: Client, args: argparse.Namespace) -> None:
    job = client.cancel(args.name)
    print("job %s %s" % (job.name, _phase(job)))


def _delete(client: Client, args: argparse.Namespace) -> None:
    client.delete(args.name)
    print("job %s deleted" % args.name)


def _sweep(client: Client, args: argparse.Namespace) -> int:
    request = _json_file(args.file, "sweep request")
    sweep = client.sweep(request)
    print("sweep %s: %d trials, %s" % (sweep["name"], len(sweep["trials"]), sweep["phase"]))
    print("status: %s" % sweep["status_url"])
    print("compare: %s" % sweep["compare_url"])
    for warning in sweep.get("warnings", []):
        sys.stderr.write("warning: %s\n" % warning)
    if not args.wait:
        return 0
    ended = client.wait_sweep(sweep["name"], timeout=args.timeout)
    for trial in ended["trials"]:
        objective = "" if trial.get("objective") is None else " objective %s" % trial["objective"]
        print("%-40s %-10s %-14s%s" % (trial["name"], trial.get("phase", "-"), trial.get("reason") or "", objective))
    best = ended.get("best")
    print("sweep %s %s%s" % (ended["name"], ended["phase"], "; best: %s" % best["name"] if best else ""))
    return 0 if ended["phase"] == JobPhase.SUCCEEDED.value else JOB_FAILED


def _compare(client: Client, args: argparse.Namespace) -> None:
    if bool(args.sweep) == bool(args.jobs):
        raise PaddleJobsError("name a sweep (--sweep NAME) or jobs (NAME NAME ...), not both")
    if args.csv:
        sys.stdout.write(client.compare_csv(jobs=args.jobs, sweep=args.sweep))
    else:
        _print_json(client.compare(jobs=args.jobs, sweep=args.sweep))


def _json_file(name: str, what: str) -> Dict[str, Any]:
    text = sys.stdin.read() if name == "-" else open(name, encoding="utf-8").read()
    try:
        return cast(Dict[str, Any], json.loads(text))
    except ValueError as e:
        raise PaddleJobsError("%s is not a JSON %s: %s" % (name, what, e)) from None


def _phase_named(text: str) -> str:
    """A phase as the service spells it, whatever case it was typed in; unknown text is left for argparse
    to refuse with the list of phases."""
    for phase in JobPhase:
        if phase.value.lower() == text.lower():
            return phase.value
    return text


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
    submit.add_argument("--wait", action="store_true",
                        help="wait for the end, showing phase and progress; exit 0 only if it succeeded")
    submit.add_argument("--follow", "-f", action="store_true", help="print trainer 0's log as it runs, then wait")
    submit.add_argument("--dry-run", action="store_true", help="print the plan; start nothing")
    submit.add_argument("--offline", action="store_true",
                        help="with --dry-run: ask the cluster nothing; the exact objects, and what a submit checks besides")
    submit.add_argument("--package", metavar="DIR", help="ship this folder: replicas start in a copy of it")
    submit.add_argument("--timeout", type=float, help="with --wait: give up after this many seconds")
    submit.add_argument("--max-restarts", type=int, metavar="N",
                        help="start the whole job again up to N times after a failure (the request's max_restarts)")
    submit.set_defaults(run=_submit)

    imports = commands.add_parser("import", help="submit a Kubeflow PaddleJob manifest as it is (YAML or JSON file,"
                                  " or - for standard input); prints the request it became, and what it dropped")
    imports.add_argument("file")
    imports.add_argument("--dry-run", action="store_true", help="print the plan; start nothing")
    imports.set_defaults(run=_import)

    rerun = commands.add_parser("rerun", help="run a job again as a new job (NAME-2, -3, ...), with changes")
    rerun.add_argument("job", metavar="NAME")
    rerun.add_argument("--name", help="the new job's name (default: the first free NAME-2, NAME-3, ...)")
    rerun.add_argument("--trainers", type=int, help="the new job's trainers")
    rerun.add_argument("--max-run-time", dest="max_run_time", metavar="DURATION", help="such as 90m or 2h")
    rerun.add_argument("--set", action="append", metavar="FIELD=VALUE",
                       help="change any request field (VALUE as JSON, else text; null takes it out); repeatable")
    rerun.add_argument("--dry-run", action="store_true", help="print the plan; start nothing")
    rerun.add_argument("--wait", action="store_true",
                       help="wait for the end, showing phase and progress; exit 0 only if it succeeded")
    rerun.add_argument("--timeout", type=float, help="with --wait: give up after this many seconds")
    rerun.set_defaults(run=_rerun)

    status = commands.add_parser("status", help="a job's status as JSON")
    status.add_argument("name")
    status.add_argument("--watch", "-w", action="store_true",
                        help="one live line (phase, step of total, rate, time left) until it ends")
    status.set_defaults(run=_status)
    for name, run, text in (("cancel", _cancel, "cancel a job"), ("delete", _delete, "delete a job and all it made")):
        command = commands.add_parser(name, help=text)
        command.add_argument("name")
        command.set_defaults(run=run)

    logs = commands.add_parser("logs", help="a replica's log")
    logs.add_argument("name")
    logs.add_argument("--role", default="trainer", choices=("trainer", "pserver"))
    logs.add_argument("--index", type=int, default=0)
    logs.add_argument("--tail", type=int, help="only the last lines")
    logs.add_argument("--attempt", type=int, help="an earlier attempt's log (from 0, as restarts count them)")
    logs.add_argument("--follow", "-f", action="store_true", help="keep printing until the replica ends")
    logs.set_defaults(run=_logs)

    execs = commands.add_parser("exec", help="run a command in a replica of a held job (debug_hold) and exit with"
                                " its exit code: exec JOB --role trainer --index 1 -- CMD [ARG...]")
    execs.add_argument("name")
    execs.add_argument("--role", default="trainer", choices=("trainer", "pserver"))
    execs.add_argument("--index", type=int, default=0)
    execs.epilog = "everything after -- is the command and its arguments, run as they are (no shell unless named)"
    execs.set_defaults(run=_exec)

    sweep = commands.add_parser("sweep", help="start a sweep (a JSON file, or - for standard input): docs/experiments.md")
    sweep.add_argument("file")
    sweep.add_argument("--wait", action="store_true",
                       help="wait for its end and print each trial; exit 0 only if it succeeded")
    sweep.add_argument("--timeout", type=float, help="with --wait: give up after this many seconds")
    sweep.set_defaults(run=_sweep)

    compare = commands.add_parser("compare", help="runs side by side: a sweep's trials or any jobs, as JSON or CSV")
    compare.add_argument("jobs", nargs="*", metavar="NAME", help="the jobs to compare")
    compare.add_argument("--sweep", help="compare this sweep's trials")
    compare.add_argument("--csv", action="store_true", help="the table as CSV")
    compare.set_defaults(run=_compare)

    listing = commands.add_parser("list", help="jobs, newest first")
    listing.add_argument("--phase", type=_phase_named, choices=[phase.value for phase in JobPhase],
                         help="only jobs in this phase (any case: running, Running)")
    listing.add_argument("--selector", "-l", help="labels: key=value[,key=value]")
    listing.add_argument("--limit", type=int)
    listing.add_argument("--since", help="only jobs created at or after this time (RFC 3339: 2026-12-01T12:00:00Z)")
    listing.add_argument("--before", help="only jobs created before this time (RFC 3339)")
    listing.set_defaults(run=_list)
    return parser
