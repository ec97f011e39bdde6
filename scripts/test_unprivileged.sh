#!/usr/bin/env bash
# Run the sandbox and session tests again as unprivileged users, when we are root.
# As root the sandbox drops to another uid itself; this run checks the path a regular desktop user
# takes: bubblewrap started without privileges, paths bound by name, RLIMIT_NPROC in force.
# Two users run at once, tests/sandbox as uid 65534 and tests/service as uid 65533: RLIMIT_NPROC
# counts every task of a uid on the machine, so each user's tests have their uid to themselves.
# Arguments go to both pytest runs; with JUNIT_DIR set, each writes its JUnit XML report there.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then
  echo "test-unprivileged: already unprivileged (uid $(id -u)); the main run covered it."
  exit 0
fi

run_as() {  # uid, name, test directory, pytest's arguments…
  local uid=$1 name=$2 tests=$3
  shift 3
  if ! setpriv --reuid="$uid" --regid="$uid" --clear-groups test -r pyproject.toml -a -x .venv/bin/python; then
    echo "test-unprivileged: SKIPPED: uid $uid cannot read $(pwd) or run .venv/bin/python"
    echo "  (clone the repository under a world-readable directory to run it)"
    return 0
  fi
  local home report=()
  home=$(mktemp -d "/tmp/bunseki-unprivileged-$name-XXXXXX")
  chown "$uid:$uid" "$home"
  if [ -n "${JUNIT_DIR:-}" ]; then report=("--junitxml=$JUNIT_DIR/unprivileged-$name.xml"); fi
  local status=0
  setpriv --reuid="$uid" --regid="$uid" --clear-groups \
    env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$home" TMPDIR="$home" LANG=C.UTF-8 \
    PYTHONDONTWRITEBYTECODE=1 \
    .venv/bin/python -m pytest "$tests" -q -p no:cacheprovider "${report[@]}" "$@" || status=$?
  rm -rf "$home"
  return $status
}

echo "test-unprivileged: running tests/sandbox as uid 65534 and tests/service (SQLite) as uid 65533, side by side"
logs=$(mktemp -d /tmp/bunseki-unprivileged-logs-XXXXXX)
trap 'rm -rf "$logs"' EXIT
run_as 65534 sandbox tests/sandbox "$@" >"$logs/sandbox" 2>&1 &
sandbox=$!
run_as 65533 service tests/service "$@" >"$logs/service" 2>&1 &
service=$!
status=0
wait $sandbox || status=1
wait $service || status=1
for name in sandbox service; do
  echo "--- test-unprivileged: tests/$name"
  cat "$logs/$name"
done
exit $status
