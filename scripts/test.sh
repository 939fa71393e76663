#!/usr/bin/env bash
# Command 2: set up from nothing (Debian's Chromium included) and run every test, browser tests too.
# Extra arguments go to pytest (e.g. `scripts/test.sh -k combat`).
source "$(dirname "$0")/_setup.sh"
delve_setup test
ensure_debian_packages chromium postgresql redis-server
export CHROMIUM_PATH="${CHROMIUM_PATH:-$(command -v chromium)}"
echo "==> running the tests"
exec .venv/bin/python -m pytest "$@"
