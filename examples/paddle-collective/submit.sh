#!/usr/bin/env bash
# Submits job.json to paddle-jobs. Replicas run in a per-job working directory with the service's
# environment, so the entry point names the interpreter and train.py by absolute path:
# @PYTHON@ becomes the python of a virtual environment with Paddle 3.3.1 (PADDLE_VENV, by default the
# one .ci/prepare-paddle builds), @EXAMPLE_DIR@ this directory.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${PADDLE_VENV:-${PADDLEJOBS_CACHE:-$HOME/.cache/paddle-jobs}/venvs/paddle-3.3.1}"
for path in "$here" "$venv"; do
    case "$path" in
        *[!A-Za-z0-9._/+-]*) echo "submit.sh: $path has characters the entry point would need quoted" >&2; exit 2 ;;
    esac
done
[ -x "$venv/bin/python" ] || { echo "submit.sh: no Paddle 3.3.1 venv at $venv (run .ci/prepare-paddle)" >&2; exit 2; }
url="${PADDLE_JOBS_URL:-http://127.0.0.1:8080}"
sed -e "s|@EXAMPLE_DIR@|$here|g" -e "s|@PYTHON@|$venv/bin/python|g" "$here/job.json" |
    curl -sS --fail-with-body -X POST -H 'Content-Type: application/json' --data-binary @- -w '\nHTTP %{http_code}\n' "$url/jobs"
