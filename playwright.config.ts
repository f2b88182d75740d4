import { defineConfig } from '@playwright/test';
import { chromiumArgs, findChromium } from './test/support/chromium.mjs';

const executablePath = findChromium();

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  timeout: 60_000,
  // An assertion that names no timeout retries this long (Playwright's default is 5 s, which a loaded machine can miss).
  expect: { timeout: 15_000 },
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { args: chromiumArgs, ...(executablePath ? { executablePath } : {}) },
    trace: 'off',
  },
});
