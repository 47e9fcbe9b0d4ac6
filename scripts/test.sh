#!/usr/bin/env bash
# The whole test suite: typecheck, lint, build, then every test, inside a private D-Bus session with its
# own unlocked gnome-keyring. Keychain tests run against that real Secret Service, never a mock and never
# the keyring of the person running them.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${PERPS_TEST_IN_KEYRING_SESSION:-}" ]; then
  for tool in dbus-run-session gnome-keyring-daemon; do
    command -v "$tool" >/dev/null || { echo "missing $tool: install dbus and gnome-keyring (see README, 'Running the tests')" >&2; exit 2; }
  done
  keyring_home="$(mktemp -d)"
  trap 'rm -rf "$keyring_home"' EXIT
  XDG_DATA_HOME="$keyring_home" PERPS_TEST_IN_KEYRING_SESSION=1 dbus-run-session -- bash "$0" "$@"
  exit $?
fi

# Inside the session: start the keyring unlocked with a throwaway password.
echo -n perps-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null

echo "== typecheck"; npm run --silent typecheck
echo "== lint"; npm run --silent lint
echo "== build"; npm run --silent build >/dev/null
echo "== unit, keychain and integration tests"; npx vitest run "$@"
echo "== end-to-end tests (Chromium)"; npx playwright test
