// Builds the app (electron-vite build) when its sources changed since the last build: what `npm
// start` and the `strata` command run first, so both work straight after `npm install`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(root, 'out');
const OUTPUTS = ['main/index.js', 'main/web.js', 'main/cli.js', 'main/replayWorker.js', 'main/liveWorker.js', 'preload/index.cjs', 'renderer/index.html'];

function newestSourceMtime() {
  let newest = 0;
  const visit = (p) => {
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p)) if (name !== 'node_modules' && !name.startsWith('.')) visit(join(p, name));
    } else newest = Math.max(newest, st.mtimeMs);
  };
  for (const p of ['electron', 'engine', 'renderer', 'electron.vite.config.ts', 'package.json', 'package-lock.json']) {
    if (existsSync(join(root, p))) visit(join(root, p));
  }
  return newest;
}

/**
 * Whether a build is needed: an output is missing, or a source is newer than the oldest output
 * (a build writes them all, whoever ran it: `npm start`, this command or `npm run build`).
 */
export function buildIsStale() {
  const outputs = OUTPUTS.map((f) => join(out, f));
  if (!outputs.every((f) => existsSync(f))) return true;
  return Math.min(...outputs.map((f) => statSync(f).mtimeMs)) < newestSourceMtime();
}

/**
 * Builds when stale. `quiet` sends the build's own output and the note to stderr, so a command
 * whose stdout is data (`strata health` prints JSON) keeps it clean. Returns an error sentence, or
 * undefined once the build is current.
 */
export function ensureBuilt({ quiet = false } = {}) {
  if (!buildIsStale()) return undefined;
  (quiet ? console.error : console.log)('Strata: building the control room (electron-vite build)…');
  const bin = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  if (!existsSync(bin)) return 'electron-vite is not installed. Run `npm install` first.';
  const r = spawnSync(process.execPath, [bin, 'build'], { cwd: root, stdio: quiet ? ['ignore', 2, 2] : 'inherit' });
  if (r.status !== 0) return 'the build failed (see above).';
  return undefined;
}
