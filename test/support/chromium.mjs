// Finds a Chromium for the browser tests. Shared by provisionChromium.mjs and playwright.config.ts.
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Flags that keep Chromium quiet and working on an offline machine (and as root in CI). */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

function playwrightBrowsers() {
  const root = process.env.PLAYWRIGHT_BROWSERS_PATH || join(homedir(), '.cache', 'ms-playwright');
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((d) => d.startsWith('chromium'))
    .sort()
    .reverse()
    .flatMap((d) => [join(root, d, 'chrome-linux', 'chrome'), join(root, d, 'chrome-linux64', 'chrome'), join(root, d, 'chrome-mac', 'Chromium.app', 'Contents', 'MacOS', 'Chromium')]);
}

/** The first Chromium found: STRATA_CHROMIUM, Playwright's own download, then the system's. */
export function findChromium() {
  const candidates = [
    process.env.STRATA_CHROMIUM,
    ...playwrightBrowsers(),
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
  ].filter(Boolean);
  return candidates.find((p) => existsSync(p));
}
