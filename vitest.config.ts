import { defineConfig } from 'vitest/config';

// Unit and integration tests run under Node. Keychain tests need a Secret Service
// (scripts/test.sh starts one); they are ordinary tests, not mocked. The global setup builds the
// command line (out/cli) first: the CLI tests spawn bin/perps.js, which runs that build.
//
// Two groups. Most files wait on sockets, child processes and the simulator's clock rather than on the
// CPU, so they run several at a time (every project of group 0, one pool of PERPS_TEST_WORKERS workers:
// four, so that a file waiting on a clock leaves the two cores to the others). The README's front doors
// (readme.test: `npx perps sim &` binds the sim profile's fixed port, 8645) run after every other file
// has finished ("readme"), so no other test's simulator, or a test that counts on nothing listening
// there, meets the one it starts. `npm test` (scripts/test.sh) runs that project on its own, beside the
// end-to-end tests, whose simulators use ephemeral ports.
const SERIAL = ['test/build/readme.test.ts'];
const WORKERS = Number(process.env.PERPS_TEST_WORKERS ?? 4);
/**
 * Pure rules, the simulator's engine in memory, and the simulator's server, conformance and companion
 * tests (each starts its own simulator on port 0 and closes it): nothing kept open past a file, nothing
 * global changed. A worker reuses its loaded modules from one such file to the next ("unit",
 * isolate: false) instead of forking and importing afresh for each: on the 2-core machine of 2026-12-06,
 * the 128 unit and engine files took 62 s one to a fork and 22-40 s this way, the 33 simulator files 88 s
 * and 34 s, most of it import. The files that stub globals, fake the timers or reset modules keep a fork
 * of their own (ISOLATED_UNIT).
 */
const UNIT = ['test/unit/**/*.test.ts', 'test/sim/engine/**/*.test.ts', 'test/sim/server/**/*.test.ts', 'test/sim/conformance/**/*.test.ts', 'test/sim/companion/**/*.test.ts'];
/**
 * The app's, the command line's and the services' tests over HTTP to a simulator of their own, the
 * venue-following simulator's, the keychain's and the security ones: each file starts what it uses (a
 * simulator on port 0, an AppCore on a data folder of its own, a keychain service name of its own) and
 * closes it, and restores any variable it sets, so they too share a worker's loaded modules from one
 * file to the next ("integration", isolate: false). On the 2-core machine of 2026-12-06 their 115 files
 * took 425 s of CPU one to a fork (134 s of it import) and 251 s this way (26 s import); every one passed
 * in both orders vitest ran them in (slowest first, with its cache, and largest first, without).
 * The boot tests load the built main bundle under a fake `electron` module and keep a fork each.
 */
const INTEGRATION = [
  'test/integration/**/*.test.ts',
  'test/sim/venue/**/*.test.ts',
  'test/sim/follow/**/*.test.ts',
  'test/sim/storm/**/*.test.ts',
  'test/keychain/**/*.test.ts',
  'test/security/**/*.test.ts',
];
const ISOLATED_UNIT = [
  'test/unit/renderer/liveFrame.dom.test.ts',
  'test/unit/renderer/announcer.test.ts',
  'test/unit/renderer/firstScreenRead.dom.test.ts',
  'test/unit/renderer/toastStore.test.ts',
  'test/unit/renderer/sharedClock.test.ts',
  'test/unit/renderer/firstScreenCache.dom.test.ts',
  'test/unit/services/alertFeed.test.ts',
  'test/unit/risk/panicTray.test.ts',
  'test/unit/vaultGate.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    globalSetup: ['test/support/globalSetup.ts'],
    testTimeout: 120_000,
    hookTimeout: 30_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT,
          exclude: ['node_modules/**', ...ISOLATED_UNIT],
          isolate: false,
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: INTEGRATION,
          isolate: false,
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          // Everything else, a fork each: the boot tests (the built main bundle under a fake `electron`)
          // and the build tests, which build, clone or stage the project in a folder of their own. Among
          // the rest rather than after them: two at a time after everything else, they and readme.test
          // took the last 32 s of the run with a core mostly idle.
          name: 'own fork',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'node_modules/**', ...SERIAL, ...UNIT, ...INTEGRATION],
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'unit, own fork',
          include: ISOLATED_UNIT,
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'readme',
          include: SERIAL,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
