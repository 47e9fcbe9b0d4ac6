import { defineConfig } from 'vitest/config';

// Unit and integration tests run under Node. Keychain tests need a Secret Service
// (scripts/test.sh starts one); they are ordinary tests, not mocked.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
