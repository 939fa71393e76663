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
# One process, in order: the browser tests and the production proofs (real servers, timeouts) are
# timing-sensitive, and running them beside the busy engine and web tests made them flaky.
exec .venv/bin/python -m pytest "$@"
