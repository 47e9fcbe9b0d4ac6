#!/usr/bin/env bash
# The whole test suite: typecheck, lint, build, then every test, inside a private D-Bus session with its
# own unlocked gnome-keyring. Keychain tests run against that real Secret Service, never a mock and never
# the keyring of the person running them. Each step prints its seconds; vitest and Playwright also write
# JSON reports with each file's time (test-results/vitest.json, test-results/playwright.json), summed up
# per file at the end (scripts/ci/testTimes.ts).
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

# shellcheck source=ci/steps.sh
source scripts/ci/steps.sh
# Run alone (not under .ci/run), this script prints its own table.
[ -n "${PERPS_CI_STEPS_OWNER:-}" ] || { export PERPS_CI_STEPS_OWNER=test.sh; trap step_table EXIT; }

# Inside the session: start the keyring unlocked with a throwaway password.
echo -n perps-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null

mkdir -p test-results
# The type check and the linter read the same sources and need nothing of each other: side by side they
# take the longer one's time on two cores, not the sum (about 15 s of CI). Each one's output is kept and
# printed whole, typecheck's first, so two reports never interleave; either failing fails the step.
checks() {
  local dir; dir="$(mktemp -d)"
  npm run --silent typecheck >"$dir/typecheck" 2>&1 & local tc=$!
  npm run --silent lint >"$dir/lint" 2>&1 & local li=$!
  local tcs=0 lis=0
  wait "$tc" || tcs=$?
  wait "$li" || lis=$?
  cat "$dir/typecheck" "$dir/lint"
  rm -rf "$dir"
  [ "$tcs" -eq 0 ] || echo "typecheck failed (exit $tcs)" >&2
  [ "$lis" -eq 0 ] || echo "lint failed (exit $lis)" >&2
  [ "$tcs" -eq 0 ] && [ "$lis" -eq 0 ]
}
step "typecheck and lint, side by side" checks
build() { npm run --silent build >/dev/null; }
step "build" build

# The README's front doors (vitest's "readme" project: `npx perps sim &` on the sim profile's fixed port)
# run after every other vitest file, and beside the end-to-end tests, which use ephemeral ports only:
# alone they kept about half of the two cores busy for the last 20 to 25 s of vitest. Their output is
# kept and printed whole once both have ended, so it never interleaves with Playwright's; either failing
# fails the step. Arguments given to this script (a file filter) make one vitest run, then Playwright.
readme_beside_e2e() {
  local log; log="$(mktemp)"
  npx vitest run --project readme --reporter=default --reporter=json --outputFile.json=test-results/vitest-readme.json >"$log" 2>&1 & local rd=$!
  local pws=0 rds=0
  npx playwright test || pws=$?
  wait "$rd" || rds=$?
  echo "== the README's front doors (vitest project readme, run beside the end-to-end tests)"
  cat "$log"
  rm -f "$log"
  [ "$rds" -eq 0 ] || echo "the README's front doors failed (exit $rds)" >&2
  [ "$pws" -eq 0 ] || echo "end-to-end tests failed (exit $pws)" >&2
  [ "$rds" -eq 0 ] && [ "$pws" -eq 0 ]
}
if [ $# -eq 0 ]; then
  rm -f test-results/vitest-readme.json
  step "unit, keychain and integration tests" npx vitest run --project '!readme' --reporter=default --reporter=json --outputFile.json=test-results/vitest.json
  step "end-to-end tests (Chromium), the README's front doors beside them" readme_beside_e2e
  npx tsx scripts/ci/testTimes.ts test-results/vitest.json,test-results/vitest-readme.json test-results/playwright.json || echo "(per-file times unavailable)"
else
  step "unit, keychain and integration tests" npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json "$@"
  step "end-to-end tests (Chromium)" npx playwright test
  npx tsx scripts/ci/testTimes.ts test-results/vitest.json test-results/playwright.json || echo "(per-file times unavailable)"
fi
