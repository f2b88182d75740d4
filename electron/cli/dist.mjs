#!/usr/bin/env node
// `npm run dist`: build the control room (electron-vite build), then pack it with electron-builder for
// this platform only (AppImage + deb, dmg or nsis; see electron-builder.yml) into dist/. Other
// arguments pass through to electron-builder (e.g. --x64, --dir). The package's SQLite module is the
// Electron build `npm start` uses (nativeModule.mjs), shipped as resources/native/better_sqlite3.node;
// electron-builder never rebuilds node_modules/better-sqlite3 (npmRebuild: false), which stays the
// Node build the tests and the web host load. When packing fails, the tool's output stays on screen
// and one last line says what could not be done and why (distFailure.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { explainDistFailure } from './distFailure.mjs';
import { ensureElectronBinding, installedElectron, runBounded } from './nativeModule.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PLATFORM_FLAGS = { linux: '--linux', darwin: '--mac', win32: '--win' };

function fail(message) {
  console.error(`Strata: ${message}`);
  process.exit(1);
}

const flag = PLATFORM_FLAGS[process.platform];
if (!flag) fail(`packaging is set up for Linux, macOS and Windows, not ${process.platform}.`);

const viteBin = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
const builderBin = join(root, 'node_modules', 'electron-builder', 'cli.js');
const electronPkg = join(root, 'node_modules', 'electron', 'package.json');
for (const file of [viteBin, builderBin, electronPkg]) {
  if (!existsSync(file)) fail(`${file.slice(root.length + 1)} is missing. Run \`npm install\` first.`);
}
const electronVersion = JSON.parse(readFileSync(electronPkg, 'utf8')).version;

console.log(`Strata: getting the SQLite module for Electron ${electronVersion} (made once, shared with \`npm start\`)…`);
const sqlite = await ensureElectronBinding({
  root,
  electronVersion,
  abi: installedElectron(root)?.abi,
  platform: process.platform,
  arch: process.arch,
  run: runBounded,
});
if ('reason' in sqlite) fail(`nothing was packed: the package needs the SQLite module for Electron, and ${sqlite.reason}. Run \`npm run dist\` where the network is available.`);
// electron-builder.yml ships this folder as resources/native (see openHost's packagedSqliteBinding).
const staged = join(root, 'out', 'native', 'package');
mkdirSync(staged, { recursive: true });
copyFileSync(sqlite.path, join(staged, 'better_sqlite3.node'));

console.log('Strata: building the control room (electron-vite build)…');
const build = spawnSync(process.execPath, [viteBin, 'build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) fail('the build failed (see above), so nothing was packed.');

console.log(`Strata: packing Strata for ${process.platform}-${process.arch} with Electron ${electronVersion} (electron-builder ${flag})…`);
// An npm `nodedir` setting (npm exports it to scripts as npm_config_nodedir) points node-gyp at
// Node's headers: the rebuild for Electron would then compile better-sqlite3 for Node's ABI and pack
// a module Electron cannot load.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => key.toLowerCase() !== 'npm_config_nodedir'));
const builder = spawn(process.execPath, [builderBin, flag, ...process.argv.slice(2)], { cwd: root, env, stdio: ['inherit', 'pipe', 'pipe'] });
let output = '';
builder.stdout.setEncoding('utf8');
builder.stderr.setEncoding('utf8');
builder.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  output += chunk;
});
builder.stderr.on('data', (chunk) => {
  process.stderr.write(chunk);
  output += chunk;
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => builder.kill(signal));
builder.on('close', (code, signal) => {
  if (code === 0) {
    console.log('Strata: packages written to dist/.');
    return;
  }
  // 128 + n: electron-builder, or a compiler under it, was ended by signal n before it could report.
  const killedBy = signal ?? (code > 128 ? Object.keys(constants.signals).find((name) => constants.signals[name] === code - 128) : undefined);
  const reason = killedBy
    ? `Strata: packaging was stopped by ${killedBy} before electron-builder finished; nothing was packed, run \`npm run dist\` again.`
    : explainDistFailure(output, { electronVersion, platform: process.platform, arch: process.arch });
  console.error(reason);
  process.exit(code || 1);
});
