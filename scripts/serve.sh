#!/usr/bin/env bash
# Command 1: set up from nothing and serve Delve on SQLite, one process, the production way.
# HOST and PORT pick the address (default 127.0.0.1:8000); see README "Configuration".
source "$(dirname "$0")/_setup.sh"
delve_setup
HOST="${HOST:-127.0.0.1}"
PORT="${PORT:-8000}"
echo "==> Delve on http://$HOST:$PORT/ (Ctrl+C to stop)"
exec .venv/bin/gunicorn --worker-class gthread -w 1 --threads "${THREADS:-100}" --no-control-socket \
  --graceful-timeout 10 -b "$HOST:$PORT" 'webapp.wsgi:app'
