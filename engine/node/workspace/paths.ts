import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';

/** Where a workspace's catalog lives and what the control room calls it. */
export interface WorkspaceLocation {
  name: string;
  catalogPath: string;
  /** True for the bundled demo workspace (seeded from `resources/demo/`). */
  demo: boolean;
}

export interface LocateOptions {
  /** `--workspace <dir>`: a project folder; its catalog is `<dir>/.strata/catalog.sqlite`. */
  workspace?: string | undefined;
  /** Overrides the user data dir (`STRATA_HOME`). */
  home?: string | undefined;
  /** Electron's `app.getPath('userData')` when running in Electron. */
  userDataDir?: string | undefined;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

/**
 * The per-user data folder, the same one Electron's `app.getPath('userData')` gives for the
 * product name "Strata", so the desktop app and the headless host share one catalog.
 */
export function defaultUserDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const home = env.HOME ?? env.USERPROFILE ?? homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Strata');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Strata');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Strata');
}

/**
 * Resolve which catalog to open. Precedence: `--workspace` (a project folder) > `STRATA_HOME`
 * (or `home`) > the user data dir; without `--workspace` the host opens the demo workspace.
 */
export function locateWorkspace(o: LocateOptions = {}): WorkspaceLocation {
  const env = o.env ?? process.env;
  if (o.workspace) {
    const dir = resolve(o.workspace);
    return { name: basename(dir), catalogPath: join(dir, '.strata', 'catalog.sqlite'), demo: false };
  }
  const home = o.home ?? env.STRATA_HOME ?? o.userDataDir ?? defaultUserDataDir(env, o.platform);
  return { name: 'demo', catalogPath: join(resolve(home), 'workspaces', 'demo', 'catalog.sqlite'), demo: true };
}
