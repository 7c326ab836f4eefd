# Sourced by the other scripts: a virtual environment in .venv with the project installed.
# $1: the extras to install, e.g. "[test,postgres]" (empty for the app alone).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
  echo "Installing python3-venv (Debian keeps it separate)..."
  as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
# pip runs only when pyproject.toml or the extras changed since it last succeeded here: a restart then needs
# no package registry (a table on a laptop hotspot has no internet). Quiet unless pip fails.
stamp="$(sha256sum pyproject.toml | cut -c1-16) ${1:-[]}"
if ! grep -qxF "$stamp" .venv/installed 2>/dev/null; then
  if ! log=$(.venv/bin/python -m pip install -q --disable-pip-version-check -e ".${1:-}" 2>&1); then
    echo "$log" >&2
    exit 1
  fi
  echo "$stamp" >> .venv/installed
fi
.venv/bin/pybabel -q compile -d translations   # compiled catalogues are built here, never committed
