import { defineConfig } from 'vitest/config';

// Unit and integration tests run under Node. Keychain tests need a Secret Service
// (scripts/test.sh starts one); they are ordinary tests, not mocked. The global setup builds the
// command line (out/cli) first: the CLI tests spawn bin/perps.js, which runs that build.
//
// Two groups. Most files wait on sockets, child processes and the simulator's clock rather than on the
// CPU, so they run several at a time ("parallel"; PERPS_TEST_WORKERS overrides the count). The files
// that build, clone or install the whole project, or bind the README's fixed simulator port, run one at
// a time after every other file has finished ("serial"), so they neither starve the rest nor race them.
const SERIAL = ['test/build/**/*.test.ts'];
const WORKERS = Number(process.env.PERPS_TEST_WORKERS ?? 3);

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
          name: 'parallel',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'node_modules/**', ...SERIAL],
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'serial',
          include: SERIAL,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
