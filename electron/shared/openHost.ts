import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { modelRunDeps } from '../../engine/host/modelRunDeps';
import { demoAgentsFromEnv } from '../../engine/demo/scaledDemoRun';
import { Host, locateWorkspace, type WorkspaceLocation } from '../../engine/host';
import type { GatewaySettings } from '../../engine/host/GatewayService';
import { defaultSessionRoots } from '../../engine/node/traces/live/discoverSessions';

/**
 * `resources/` of this checkout: STRATA_RESOURCES, else the nearest `resources/` above this file
 * (the sources sit in electron/shared/, the built code in out/main/ or out/main/chunks/).
 */
function resourcesDir(): string {
  if (process.env.STRATA_RESOURCES) return resolve(process.env.STRATA_RESOURCES);
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'resources');
    if (existsSync(join(candidate, 'demo'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error(`Cannot find Strata's resources/ folder above ${fileURLToPath(import.meta.url)}; set STRATA_RESOURCES.`);
}

/** Milliseconds between demo steps: STRATA_DEMO_TICK_MS (0 pauses the demo), default 1500. */
function demoTickMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.STRATA_DEMO_TICK_MS;
  if (raw === undefined || raw === '') return 1500;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`STRATA_DEMO_TICK_MS must be a whole number of milliseconds (got "${raw}").`);
  return n;
}

/**
 * A worker's build entry (`out/main/<name>.js`, see electron.vite.config.ts) beside this bundle
 * (out/main or out/main/chunks), or undefined when running from source, where the worker starts
 * from its module itself.
 */
function builtWorker(name: 'replayWorker' | 'liveWorker'): URL | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  const found = [here, dirname(here)].map((dir) => join(dir, `${name}.js`)).find((file) => existsSync(file));
  return found ? pathToFileURL(found) : undefined;
}

/** The replay worker's build entry (`out/main/replayWorker.js`), or undefined when running from source. */
function builtReplayWorker(): URL | undefined {
  return builtWorker('replayWorker');
}

/** The live sessions' worker's build entry (`out/main/liveWorker.js`), or undefined when running from source. */
function builtLiveWorker(): URL | undefined {
  return builtWorker('liveWorker');
}

/**
 * The SQLite module this process should load: STRATA_SQLITE_BINDING (an absolute path; `npm start`
 * sets it to the Electron build when it launches Electron), else undefined for node_modules' Node
 * build, which the web host, the CLI and the tests use.
 */
export function sqliteBinding(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = env.STRATA_SQLITE_BINDING;
  return path === undefined || path === '' ? undefined : path;
}

/** A packaged app's SQLite module (electron-builder.yml ships it as resources/native), when there is one. */
export function packagedSqliteBinding(resources: string): string | undefined {
  const path = join(resources, 'native', 'better_sqlite3.node');
  return existsSync(path) ? path : undefined;
}

export interface OpenedHost {
  host: Host;
  location: WorkspaceLocation;
}

/** Open the Host for a shell: the demo workspace unless `--workspace` names a folder. */
export function openHost(o: { workspace?: string | undefined; userDataDir?: string; resources?: string; sessionsDirs?: readonly string[]; gateway?: GatewaySettings }): OpenedHost {
  const location = locateWorkspace({ workspace: o.workspace, userDataDir: o.userDataDir });
  const host = Host.open({
    catalogPath: location.catalogPath,
    workspaceName: location.name,
    version: __STRATA_VERSION__,
    demoDir: location.demo ? join(o.resources ?? resourcesDir(), 'demo') : undefined,
    skillsDir: join(o.resources ?? resourcesDir(), 'skills'),
    workspaceDir: location.demo || !o.workspace ? undefined : resolve(o.workspace),
    // Model runs need a project folder (its tools and strata.toml); the demo still reports provider settings.
    runDeps: location.demo || !o.workspace ? { providerSettings: modelRunDeps('.').providerSettings } : modelRunDeps(resolve(o.workspace)),
    memory: process.env.STRATA_MEMORY !== 'off',
    demoTickMs: demoTickMs(),
    demoAgents: demoAgentsFromEnv(process.env),
    onInternalError: (err, command) => console.error(`strata: command "${command}" failed:`, err),
    replayWorkerUrl: builtReplayWorker(),
    liveWorkerUrl: builtLiveWorker(),
    nativeBinding: sqliteBinding() ?? (o.resources ? packagedSqliteBinding(o.resources) : undefined),
    sessionRoots: { ...defaultSessionRoots(), extra: (o.sessionsDirs ?? []).map((d) => resolve(d)) },
    ...(o.gateway ? { gateway: o.gateway } : {}),
  });
  return { host, location };
}
