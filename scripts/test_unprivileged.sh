#!/usr/bin/env bash
# Run the sandbox and session tests again as an unprivileged user (uid 65534), when we are root.
# As root the sandbox drops to that uid itself; this run checks the path a regular desktop user
# takes: bubblewrap started without privileges, paths bound by name, RLIMIT_NPROC in force.
# Arguments go to pytest; make test passes its parallel options (-n 4 --dist loadgroup ...).
set -euo pipefail
cd "$(dirname "$0")/.."
uid=65534
if [ "$(id -u)" != 0 ]; then
  echo "test-unprivileged: already unprivileged (uid $(id -u)); the main run covered it."
  exit 0
fi
if ! setpriv --reuid=$uid --regid=$uid --clear-groups test -r pyproject.toml -a -x .venv/bin/python; then
  echo "test-unprivileged: SKIPPED: uid $uid cannot read $(pwd) or run .venv/bin/python"
  echo "  (clone the repository under a world-readable directory to run it)"
  exit 0
fi
home=$(mktemp -d /tmp/bunseki-unprivileged-XXXXXX)
chown $uid:$uid "$home"
trap 'rm -rf "$home"' EXIT
echo "test-unprivileged: running tests/sandbox and tests/service (SQLite) as uid $uid"
setpriv --reuid=$uid --regid=$uid --clear-groups \
  env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$home" TMPDIR="$home" LANG=C.UTF-8 \
  PYTHONDONTWRITEBYTECODE=1 \
  .venv/bin/python -m pytest tests/sandbox tests/service -q -p no:cacheprovider "$@"
