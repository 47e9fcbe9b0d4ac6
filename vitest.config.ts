import { defineConfig } from 'vitest/config';

// Unit and integration tests run under Node. Keychain tests need a Secret Service
// (scripts/test.sh starts one); they are ordinary tests, not mocked. The global setup builds the
// command line (out/cli) first: the CLI tests spawn bin/perps.js, which runs that build.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    environment: 'node',
    globalSetup: ['test/support/globalSetup.ts'],
    testTimeout: 120_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
