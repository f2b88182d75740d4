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
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { args: chromiumArgs, ...(executablePath ? { executablePath } : {}) },
    trace: 'off',
  },
});
