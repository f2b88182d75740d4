import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Path of the downloaded Electron binary, or why there is none. Reads the electron package's own
 * files instead of `require('electron')`, which would try to download the binary.
 */
export function electronBinary(root = process.cwd()): { path: string } | { missing: string } {
  const pkg = join(root, 'node_modules', 'electron');
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    const p = join(process.env.ELECTRON_OVERRIDE_DIST_PATH, 'electron');
    return existsSync(p) ? { path: p } : { missing: `ELECTRON_OVERRIDE_DIST_PATH has no electron binary (${p})` };
  }
  const pathFile = join(pkg, 'path.txt');
  if (!existsSync(pathFile)) return { missing: `the Electron binary was never downloaded (no ${pathFile}); it downloads on first launch and this machine cannot reach its host` };
  const binary = join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? { path: binary } : { missing: `the Electron binary is missing at ${binary}` };
}
