#!/usr/bin/env node
// `npm start`: build if the sources changed, then launch the Electron control room. Where Electron
// cannot run (binary missing and not downloadable, no display, no SQLite module for Electron's ABI
// and none can be made) say so in one line and serve the same control room on http://127.0.0.1
// instead. The Electron main process loads better-sqlite3 from STRATA_SQLITE_BINDING, an Electron
// build made once per Electron version (nativeModule.mjs); everything else loads node_modules' Node build.
// `npm run web` (--web) serves it on purpose. Other arguments pass through (--port, --workspace).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuilt } from './ensureBuilt.mjs';
import { ensureElectronBinding, installedElectron, runBounded } from './nativeModule.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(root, 'out');
/** Exit code of electron/main when its SQLite module was built for another ABI than Electron's. */
const EXIT_NATIVE_MODULE = 78;

const argv = process.argv.slice(2);
const webOnly = argv.includes('--web');
const passThrough = argv.filter((a) => a !== '--web');

function fail(message) {
  console.error(`Strata: ${message}`);
  process.exit(1);
}

/** The Electron executable, downloading it once if it is missing; or the reason there is none. */
function electronExecutable() {
  const pkg = join(root, 'node_modules', 'electron');
  if (!existsSync(join(pkg, 'package.json'))) return { missing: 'the electron package is not installed (run `npm install`)' };
  const located = () => {
    if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
      const p = join(process.env.ELECTRON_OVERRIDE_DIST_PATH, 'electron');
      return existsSync(p) ? p : undefined;
    }
    const pathFile = join(pkg, 'path.txt');
    if (!existsSync(pathFile)) return undefined;
    const p = join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(p) ? p : undefined;
  };
  let path = located();
  if (path) return { path };
  console.log('Strata: downloading the Electron binary (first launch)…');
  const r = spawnSync(process.execPath, [join(pkg, 'install.js')], { cwd: pkg, encoding: 'utf8', timeout: 300_000 });
  path = located();
  if (path) return { path };
  const why = `${r.stderr ?? ''}${r.stdout ?? ''}`.split('\n').map((l) => l.trim()).find((l) => l && !l.startsWith('at ')) ?? `exit ${r.status}`;
  return { missing: `the Electron binary is not installed and could not be downloaded (${why})` };
}

/** The Electron that will run: its version and module ABI (an override binary says its own version). */
function electronTarget() {
  const installed = installedElectron(root);
  const overrideVersionFile = process.env.ELECTRON_OVERRIDE_DIST_PATH ? join(process.env.ELECTRON_OVERRIDE_DIST_PATH, 'version') : undefined;
  const version = overrideVersionFile && existsSync(overrideVersionFile) ? readFileSync(overrideVersionFile, 'utf8').trim().replace(/^v/, '') : installed.version;
  return { version, abi: version === installed.version ? installed.abi : undefined };
}

/** better-sqlite3 built for this Electron, made on first launch: `{ path }`, or `{ reason }` in one line. */
async function electronSqlite({ version, abi }) {
  return ensureElectronBinding({
    root,
    electronVersion: version,
    abi,
    platform: process.platform,
    arch: process.arch,
    run: runBounded,
    onAttempt: (step) =>
      console.log(
        step === 'prebuilt'
          ? `Strata: getting the SQLite module for Electron ${version} (first launch)…`
          : `Strata: no prebuilt SQLite module for Electron ${version}; compiling one (first launch, a few minutes)…`,
      ),
  });
}

async function serveWeb(reason) {
  if (reason) console.log(`Strata: ${reason}; serving the control room in your browser instead.`);
  process.argv = [process.argv[0], join(out, 'main', 'web.js'), ...passThrough];
  await import(pathToFileURL(join(out, 'main', 'web.js')).href);
}

/** Electron with its SQLite module; if that still does not load there (exit 78), the web host instead. */
function launchElectron(executable, sqliteBinding, version) {
  const child = spawn(executable, [root, ...passThrough], { stdio: 'inherit', env: { ...process.env, STRATA_SQLITE_BINDING: sqliteBinding } });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (code === EXIT_NATIVE_MODULE) {
      void serveWeb(`the SQLite module at ${sqliteBinding} does not load in Electron ${version}`);
    } else {
      process.exit(code ?? (signal ? 1 : 0));
    }
  });
}

{
  const why = ensureBuilt();
  if (why) fail(why);
}
if (webOnly) {
  await serveWeb();
} else if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
  await serveWeb('no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset)');
} else {
  const electron = electronExecutable();
  if ('missing' in electron) {
    await serveWeb(electron.missing);
  } else {
    const target = electronTarget();
    const sqlite = await electronSqlite(target);
    if ('reason' in sqlite) await serveWeb(sqlite.reason);
    else launchElectron(electron.path, sqlite.path, target.version);
  }
}
