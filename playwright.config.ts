import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { chromiumArgs, findChromium } from './test/support/chromium.mjs';

const executablePath = findChromium();

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  // Spec files run side by side (each starts its own host over its own STRATA_HOME); the tests of one
  // file run in order. Two at most: each also runs a Chromium.
  fullyParallel: false,
  workers: Math.min(2, availableParallelism()),
  retries: 0,
  reporter: [['list']],
  // A test (and its hooks, which start a host) is called hung after this long, whatever else runs on the machine.
  timeout: 180_000,
  // An assertion that names no timeout retries this long (Playwright's default is 5 s, which a loaded machine can miss; 30 s leaves it ample room).
  expect: { timeout: 30_000 },
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { args: chromiumArgs, ...(executablePath ? { executablePath } : {}) },
    trace: 'off',
  },
});
