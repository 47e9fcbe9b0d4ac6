import { defineConfig } from '@playwright/test';

// End-to-end tests drive Debian's Chromium (never a downloaded browser) on the built renderer, with
// window.perps bridged to the real main-process handlers running in the test process.
export default defineConfig({
  testDir: 'test/e2e',
  testMatch: /.*\.spec\.ts$/,
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  // Each spec starts its own simulator and app on ephemeral loopback ports; two run at a time (the
  // machine's cores), PERPS_E2E_WORKERS overrides.
  workers: Number(process.env['PERPS_E2E_WORKERS'] ?? 2),
  timeout: 60_000,
  // The json report gives each spec file's time to CI's log (scripts/ci/testTimes.ts).
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    headless: true,
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env['PERPS_CHROMIUM'] ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
});
