// Makes sure the e2e tests have a Chromium: one that Playwright or the system already has; on
// Debian as root with none, Debian's `chromium` package; otherwise a clear failure saying what to
// install. Browser tests are never skipped for want of a browser.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findChromium } from '../support/chromium.mjs';

const found = findChromium();
if (found) {
  console.log(`e2e: using Chromium at ${found}`);
  process.exit(0);
}

const isDebian = existsSync('/etc/debian_version');
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (isDebian && isRoot) {
  console.log('e2e: no Chromium found; installing Debian package "chromium" with apt-get');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env });
  let r = install();
  if (r.status !== 0) {
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
    r = install();
  }
  const now = findChromium();
  if (r.status === 0 && now) {
    console.log(`e2e: installed Chromium at ${now}`);
    process.exit(0);
  }
  console.error('e2e: apt-get could not install "chromium"; see the output above.');
  process.exit(1);
}

console.error(
  'e2e: no Chromium found. Install one and run again: `npx playwright install chromium`, or your ' +
    "system's chromium package (Debian/Ubuntu: `sudo apt-get install chromium`), or point STRATA_CHROMIUM at a Chrome/Chromium binary.",
);
process.exit(1);
