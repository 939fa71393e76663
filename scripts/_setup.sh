# Sourced by serve.sh and test.sh: makes .venv from nothing and installs Delve into it.
# Usage: delve_setup [extra]   (extra = "test" adds the test tools)
set -euo pipefail
DELVE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"

delve_setup() {
  local extra="${1:-}"
  cd "$DELVE_ROOT"
  if [ ! -x .venv/bin/python ]; then
    echo "==> creating .venv with $($PYTHON --version)"
    "$PYTHON" -m venv .venv
  fi
  local spec="."
  [ -n "$extra" ] && spec=".[$extra]"
  # Reinstall only when pyproject.toml changed since the last install.
  local stamp=".venv/.delve-installed-$extra"
  if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    echo "==> installing Python dependencies ($spec)"
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$spec"
    touch "$stamp"
  fi
}

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "need root to run: $*" >&2; return 1; fi
}

# Debian packages the tests need (Playwright cannot download browsers here).
ensure_debian_packages() {
  local missing=()
  for pkg in "$@"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "==> installing Debian packages: ${missing[*]}"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}
