#!/usr/bin/env bash
# Line coverage of src/ by the vitest suite (@vitest/coverage-v8), outside CI: the same tests as
# `npm test`'s vitest step, inside the same private D-Bus session with an unlocked gnome-keyring
# (scripts/test.sh), with V8's coverage on. Prints the summary and writes coverage/coverage-summary.json
# and an HTML report in coverage/, also when a test failed (vitest's default is none then: a flaky test on
# a loaded machine cost a 22-minute run its figures), and exits with the tests' status. The end-to-end
# tests drive a built bundle in Chromium and are not counted.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${PERPS_TEST_IN_KEYRING_SESSION:-}" ]; then
  keyring_home="$(mktemp -d)"
  trap 'rm -rf "$keyring_home"' EXIT
  XDG_DATA_HOME="$keyring_home" PERPS_TEST_IN_KEYRING_SESSION=1 dbus-run-session -- bash "$0" "$@"
  exit $?
fi
echo -n perps-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null
npx vitest run --coverage.enabled --coverage.reportOnFailure --coverage.provider=v8 --coverage.include='src/**' \
  --coverage.reporter=text-summary --coverage.reporter=json-summary --coverage.reporter=html \
  --coverage.reportsDirectory=coverage "$@"
