#!/usr/bin/env bash
# Command 1: set up from nothing and serve Delve on SQLite, one process, the production way.
# HOST and PORT pick the address (default 127.0.0.1:8000; one gevent worker holds thousands of pages);
# DATABASE_URL, REDIS_URL and the rest: README "Configuration".
source "$(dirname "$0")/_setup.sh"
delve_setup
echo "==> database migrations"
.venv/bin/python -m webapp.storage.migrate
echo "==> Delve on http://${HOST:-127.0.0.1}:${PORT:-8000}/ (Ctrl+C to stop)"
exec .venv/bin/gunicorn -c gunicorn.conf.py 'webapp.wsgi:app'
