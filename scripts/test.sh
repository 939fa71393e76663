#!/usr/bin/env bash
# Command 2: set up from nothing (Debian's Chromium included) and run every test, browser tests too.
# Extra arguments go to pytest (e.g. `scripts/test.sh -k combat`); without any, ruff and mypy run first.
source "$(dirname "$0")/_setup.sh"
delve_setup test
ensure_debian_packages chromium postgresql redis-server
export CHROMIUM_PATH="${CHROMIUM_PATH:-$(command -v chromium)}"
if [ "$#" -eq 0 ]; then
  # The whole run also holds the code to its habits: lint, formatting, types (zero findings).
  echo "==> ruff (lint and formatting)"
  .venv/bin/ruff check .
  .venv/bin/ruff format --check .
  echo "==> mypy (strict on rules_engine/)"
  .venv/bin/mypy
fi
echo "==> running the tests"
exec .venv/bin/python -m pytest "$@"
