#!/usr/bin/env bash
# Submits job.json to paddle-jobs. Replicas run in a per-job working directory, so the entry point
# needs train.py's absolute path: @EXAMPLE_DIR@ in job.json is replaced by this directory.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
case "$here" in
    *[!A-Za-z0-9._/+-]*) echo "submit.sh: $here has characters the entry point would need quoted" >&2; exit 2 ;;
esac
url="${PADDLE_JOBS_URL:-http://127.0.0.1:8080}"
sed "s|@EXAMPLE_DIR@|$here|g" "$here/job.json" |
    curl -sS --fail-with-body -X POST -H 'Content-Type: application/json' --data-binary @- -w '\nHTTP %{http_code}\n' "$url/jobs"
