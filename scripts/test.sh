#!/usr/bin/env bash
# Command 2: set up from nothing (Debian's Chromium included) and run every test, browser tests too.
# Extra arguments go to pytest (e.g. `scripts/test.sh -k combat`); without any, ruff, mypy and lint-imports run first.
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
echo "==> running the tests"
if [ "$#" -gt 0 ]; then
  exec .venv/bin/python -m pytest "$@"
fi
# The whole run uses both cores: the browser tests (mostly waiting on Chromium and their server)
# run beside the engine and web tests (one busy process); then the production proofs (tests/ops:
# real servers, kills and timeouts) run alone. Together the three lanes are pyproject's testpaths
# (rules_engine, webapp, tests, e2e), each test collected once (a path named on the command line is
# collected even if --ignore names it: the lanes name their paths).
browser_log="$(mktemp)"
trap 'rm -f "$browser_log"' EXIT
.venv/bin/python -m pytest e2e >"$browser_log" 2>&1 &
browser_pid=$!
echo "==> engine and web tests (the browser tests run beside them; their report follows)"
set +e
.venv/bin/python -m pytest rules_engine webapp tests --ignore=tests/ops
engine_and_web=$?
wait "$browser_pid"
browser=$?
echo "==> browser tests (e2e/)"
cat "$browser_log"
echo "==> production proofs (tests/ops/)"
.venv/bin/python -m pytest tests/ops
ops=$?
set -e
echo "==> engine and web: exit $engine_and_web · browser: exit $browser · production proofs: exit $ops"
[ "$engine_and_web" -eq 0 ] && [ "$browser" -eq 0 ] && [ "$ops" -eq 0 ]
