#!/usr/bin/env bash
# Command 2: set up from nothing (Debian's Chromium included) and run every test, browser tests too.
# Extra arguments go to one pytest run (e.g. `scripts/test.sh -k combat`); without any, ruff, mypy and
# lint-imports run first, then every test in three steps (below).
source "$(dirname "$0")/_setup.sh"
delve_setup test
ensure_debian_packages chromium postgresql redis-server
export CHROMIUM_PATH="${CHROMIUM_PATH:-$(command -v chromium)}"
if [ "$#" -eq 0 ]; then
  # The whole run also holds the code to its habits: lint, formatting, types, import contracts
  # (zero findings; the contracts are pyproject.toml's [tool.importlinter]).
  echo "==> ruff (lint and formatting)"
  .venv/bin/ruff check .
  .venv/bin/ruff format --check .
  echo "==> mypy (strict on rules_engine/)"
  .venv/bin/mypy
  echo "==> lint-imports (webapp's layers; no web framework in domain/storage; rules_engine knows no webapp)"
  .venv/bin/lint-imports
fi
if [ "$#" -gt 0 ]; then
  echo "==> running the tests: $*"
  exec .venv/bin/python -m pytest "$@"
fi
# The whole run, on every core the machine has (pytest-xdist; --dist loadfile keeps a file's tests
# and its module fixtures in one worker), in three steps:
#  1. the engine and web tests (pure CPU: the Flask test client, no servers);
#  2. the browser tests (each worker its own gunicorn and Chromium); one that fails is run once
#     more, as Playwright's own runner does in CI: a real browser on a busy machine now and then
#     loses a race no server code can win (a redraw between a button's press and its release
#     swallows the click); the summary lists every rerun ("R"), so a flaky test is still seen;
#  3. the production proofs (tests/ops: kills, restarts, outages, two processes on PostgreSQL
#     and Redis; each worker starts its own servers): mostly waiting on real servers, so they get
#     the machine to themselves rather than share it with the busy steps.
# Each step runs even if an earlier one failed, so one run reports every failure; the exit code is
# the first failure's.
WORKERS="${DELVE_TEST_WORKERS:-$(nproc)}"
status=0
run_step() {
  echo "==> $1"
  shift
  .venv/bin/python -m pytest -n "$WORKERS" --dist loadfile --durations=10 "$@" || { rc=$?; [ "$status" -ne 0 ] || status=$rc; }
}
run_step "engine and web tests ($WORKERS workers)" rules_engine webapp tests --ignore=tests/ops
run_step "browser tests ($WORKERS workers)" --reruns 1 e2e
run_step "production proofs ($WORKERS workers)" tests/ops
exit "$status"
