// Makes sure the real-client harness (test/integration/realClients) has what it runs, the way
// provisionChromium.mjs does for the browser tests: the pinned CLIs of this folder's
// package-lock.json (`npm ci` here, only when node_modules is missing or was installed from
// another lock), and the system tools `strace`, `ip` and `unshare` (on Debian as root, apt-get
// installs `strace` and `iproute2` when missing). It prints what it does; anything it cannot
// provide is a clear failure, never a silent skip. Run on its own or through
// `provisionRealClients()` from the harness.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const lockFile = join(here, 'package-lock.json');
const modules = join(here, 'node_modules');
const stamp = join(modules, '.strata-lock-sha256');
const lockDir = join(here, '.provision.lock');

/** Where each client's entry point is after `npm ci`. */
export const CLIENT_ENTRIES = {
  claude: join(modules, '@anthropic-ai', 'claude-code', 'bin', 'claude.exe'),
  codex: join(modules, '@openai', 'codex', 'bin', 'codex.js'),
};

const log = (line) => console.log(`real clients: ${line}`);
const lockHash = () => createHash('sha256').update(readFileSync(lockFile)).digest('hex');

// The Claude Code package ships a small stub at bin/claude.exe that its postinstall replaces with
// the native binary (hundreds of MB); a stub left in place means the install did not finish.
const claudeIsNative = () => existsSync(CLIENT_ENTRIES.claude) && statSync(CLIENT_ENTRIES.claude).size > 10 * 1024 * 1024;

function installedFresh() {
  if (!existsSync(stamp)) return 'node_modules is missing';
  if (readFileSync(stamp, 'utf8').trim() !== lockHash()) return 'node_modules was installed from another package-lock.json';
  if (!claudeIsNative()) return 'the Claude Code native binary is missing';
  if (!existsSync(CLIENT_ENTRIES.codex)) return 'the Codex entry point is missing';
  return undefined;
}

/** One provisioner at a time (the harness's test files run in parallel workers; npm ci and apt-get must not race). */
function withLock(fn) {
  const deadline = Date.now() + 30 * 60 * 1000;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'pid'), String(process.pid));
      break;
    } catch {
      let holder = 0;
      try {
        holder = Number(readFileSync(join(lockDir, 'pid'), 'utf8'));
      } catch {
        // the holder is between mkdir and writing its pid, or just released the lock
      }
      let alive = holder === 0;
      try {
        if (holder > 0) process.kill(holder, 0);
        alive = true;
      } catch {
        // no such process: a stale lock
      }
      if (!alive) rmSync(lockDir, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`real clients: another provisioner (pid ${holder}) held ${lockDir} for 30 minutes`);
      else spawnSync('sleep', ['1']);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

function ensureClients() {
  const why = installedFresh();
  if (!why) {
    log(`using the pinned CLIs in ${modules}`);
    return;
  }
  log(`${why}; running npm ci in ${here} (Claude Code 2.1.332 and Codex 0.171.0, about 800 MB)`);
  rmSync(stamp, { force: true });
  const r = spawnSync('npm', ['ci', '--prefix', here, '--no-audit', '--no-fund'], { cwd: here, stdio: 'inherit', env: { ...process.env, npm_config_engine_strict: 'false' } });
  if (r.status !== 0) throw new Error(`real clients: npm ci in ${here} failed (exit ${r.status}); see the output above`);
  if (!claudeIsNative()) throw new Error('real clients: after npm ci the Claude Code native binary is missing (did its postinstall run?)');
  if (!existsSync(CLIENT_ENTRIES.codex)) throw new Error(`real clients: after npm ci there is no ${CLIENT_ENTRIES.codex}`);
  writeFileSync(stamp, `${lockHash()}\n`);
  log('installed');
}

const which = (tool) => {
  const r = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8', env: { ...process.env, PATH: `${process.env.PATH ?? ''}:/usr/sbin:/sbin` } });
  return r.status === 0 ? r.stdout.trim() : undefined;
};

function ensureTools() {
  const wanted = { strace: 'strace', ip: 'iproute2', unshare: 'util-linux' };
  const missing = Object.keys(wanted).filter((t) => !which(t));
  if (missing.length > 0) {
    const isDebian = existsSync('/etc/debian_version');
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    if (!isDebian || !isRoot) {
      throw new Error(`real clients: missing ${missing.join(', ')}; install the packages ${missing.map((t) => wanted[t]).join(', ')} (the harness runs each client under strace in a network namespace)`);
    }
    const packages = missing.map((t) => wanted[t]);
    log(`no ${missing.join(', ')}; installing Debian packages ${packages.join(' ')} with apt-get`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const install = () => spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { stdio: 'inherit', env });
    let r = install();
    if (r.status !== 0) {
      spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
      r = install();
    }
    const still = Object.keys(wanted).filter((t) => !which(t));
    if (r.status !== 0 || still.length > 0) throw new Error(`real clients: apt-get could not install ${packages.join(' ')}; see the output above`);
  }
  const tools = { strace: which('strace'), ip: which('ip'), unshare: which('unshare') };
  log(`using ${tools.strace}, ${tools.ip}, ${tools.unshare}`);
  return tools;
}

/** Installs what is missing; returns the clients' entry points and the tools' paths. */
export function provisionRealClients() {
  return withLock(() => {
    ensureClients();
    return { clients: CLIENT_ENTRIES, tools: ensureTools() };
  });
}

/** Only the system tools (`strace`, `ip`, `unshare`), for a test of the tracing itself. */
export const provisionSystemTools = () => withLock(ensureTools);

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    provisionRealClients();
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
