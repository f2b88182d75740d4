import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DemoFiles } from '../../demo/world';

/**
 * The demo's virtual repository, read from `<demoDir>/workspace` (resources/demo/workspace, shipped
 * beside the app as demo/workspace): every regular file under it by its posix path relative to the
 * folder, as UTF-8 text exactly as stored, in path order. The demo is generated from these files,
 * so the same files give the same demo byte for byte. The only part of the demo that touches the
 * disk; a missing folder is an error naming it.
 */
export function readDemoWorkspace(demoDir: string): DemoFiles {
  const root = join(demoDir, 'workspace');
  const paths: string[] = [];
  const walk = (dir: string, prefix: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      throw new Error(`Cannot read the demo workspace ${root}: ${(err as Error).message}. It ships with Strata in resources/demo/workspace.`);
    }
    for (const e of entries) {
      if (e.isDirectory()) walk(join(dir, e.name), `${prefix}${e.name}/`);
      else if (e.isFile()) paths.push(`${prefix}${e.name}`);
    }
  };
  walk(root, '');
  paths.sort();
  return Object.freeze(Object.fromEntries(paths.map((p) => [p, readFileSync(join(root, ...p.split('/')), 'utf8')])));
}

/**
 * Where the demo ships when no `demoDir` is given (a project workspace that plays the demo script):
 * `$STRATA_RESOURCES/demo`, else a packaged app's `process.resourcesPath/demo`, else the nearest
 * `resources/demo` above this file (the sources, or the built code in out/main). The same places
 * the shells look for resources (electron/shared/openHost.ts).
 */
export function bundledDemoDir(): string {
  const has = (dir: string) => existsSync(join(dir, 'workspace'));
  const env = process.env.STRATA_RESOURCES;
  if (env) return join(resolve(env), 'demo');
  const packaged = (process as { resourcesPath?: string }).resourcesPath;
  if (packaged && has(join(packaged, 'demo'))) return join(packaged, 'demo');
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (has(join(dir, 'resources', 'demo'))) return join(dir, 'resources', 'demo');
    dir = dirname(dir);
  }
  throw new Error(`Cannot find Strata's demo workspace (resources/demo/workspace) above ${fileURLToPath(import.meta.url)}; set STRATA_RESOURCES.`);
}
