// better-sqlite3 for Electron's ABI, made once per Electron version beside the Node build that the
// tests, the web host and the CLI load from node_modules. `npm start` calls ensureElectronBinding
// before it launches Electron and passes the result as STRATA_SQLITE_BINDING (see openHost).
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Bounds of each attempt: a prebuilt is one download; compiling SQLite takes about 70 s on 2 cores. */
export const PREBUILT_TIMEOUT_MS = 90_000;
export const REBUILD_TIMEOUT_MS = 300_000;

/** Where the Electron build lives: per Electron version, platform and arch, under the git-ignored out/. */
export function electronBindingPath(root, electronVersion, platform, arch) {
  return join(root, 'out', 'native', `electron-${electronVersion}-${platform}-${arch}`, 'better_sqlite3.node');
}

/** The version and module ABI (NODE_MODULE_VERSION) of node_modules/electron, or undefined when it is not installed. */
export function installedElectron(root) {
  const pkg = join(root, 'node_modules', 'electron');
  if (!existsSync(join(pkg, 'package.json'))) return undefined;
  const abiFile = join(pkg, 'abi_version');
  return {
    version: JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).version,
    abi: existsSync(abiFile) ? readFileSync(abiFile, 'utf8').trim() : undefined,
  };
}

/**
 * Whether a built module is for ABI `abi`: a module made with NODE_MODULE_INIT, as better-sqlite3
 * is, exports `node_register_module_v<abi>`. Catches a compile that silently used Node's headers.
 */
export function builtForAbi(bytes, abi) {
  return bytes.includes(Buffer.from(`node_register_module_v${abi}\0`));
}

const NPM_OVERRIDES = new Set(['nodedir', 'target', 'runtime', 'disturl', 'dist_url', 'arch', 'target_arch', 'platform', 'build_from_source']);

/**
 * The environment of an attempt: npm's settings that would override the Electron target are
 * removed (`npm start` exports them; a global `nodedir` makes node-gyp compile against Node's
 * headers and produce a module Electron refuses).
 */
export function attemptEnv(env) {
  return Object.fromEntries(
    Object.entries(env).filter(([key]) => {
      const setting = /^npm_config_(.+)$/i.exec(key)?.[1].toLowerCase().replace(/-/g, '_');
      return setting === undefined || !NPM_OVERRIDES.has(setting);
    }),
  );
}

/** Known causes, first match wins: [pattern over the tool's output, what to tell a person]. */
const CAUSES = [
  [/No prebuilt binaries found|404 Not Found/i, 'none published for this version'],
  [/getaddrinfo (ENOTFOUND|EAI_AGAIN) (\S+)/, (m) => `cannot reach ${m[2]}`],
  // node-gyp's words when it cannot fetch the headers it compiles against.
  [/related to network connectivity/, "cannot download Electron's headers, no network"],
  [/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|socket hang up/, 'no network to download from'],
  [/certificate|self[- ]signed/i, 'the download was refused: TLS certificate problem'],
  [/find Python|python.*not found|No Python/i, 'node-gyp cannot find Python'],
  [/not found: make|make: not found|No Xcode|xcode-select|Visual Studio|(g\+\+|c\+\+|cc|gcc): (command )?not found/i, 'no C++ toolchain (a compiler and make)'],
  [/ENOSPC/, 'no space left on the disk'],
];

const oneLine = (text) => text.replace(/\s+/g, ' ').trim();
const clip = (text, max = 100) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A short one-line cause from a failed tool's output (prebuild-install, electron-rebuild, node-gyp). */
export function explainBuildFailure(rawOutput) {
  const output = rawOutput.replace(/\u001b\[[0-9;]*m/g, '');
  for (const [pattern, say] of CAUSES) {
    const m = pattern.exec(output);
    if (m) return typeof say === 'function' ? say(m) : say;
  }
  const lines = output.split('\n').map(oneLine).filter((l) => l && !l.startsWith('at '));
  const error = lines.filter((l) => /error|ERR!|failed|cannot|unable/i.test(l)).at(-1) ?? lines.at(-1);
  return error ? clip(error) : 'failed without output';
}

/** The first of `candidates` that exists, or undefined. */
const firstExisting = (candidates) => candidates.find((p) => existsSync(p));

/**
 * The attempts in order: the prebuilt from better-sqlite3's releases (prebuild-install, inside a
 * copy of the package), then a compile against Electron's headers (@electron/rebuild, inside a
 * throwaway project holding a copy). Each names the tool, the folder it runs in and where the
 * module appears when it succeeds. node_modules/better-sqlite3 is only ever read.
 */
export function buildAttempts({ root, electronVersion, platform, arch, workDir }) {
  const source = join(root, 'node_modules', 'better-sqlite3');
  const prebuiltPkg = join(workDir, 'prebuilt', 'better-sqlite3');
  const rebuildProject = join(workDir, 'rebuild');
  const rebuildPkg = join(rebuildProject, 'node_modules', 'better-sqlite3');
  return [
    {
      step: 'prebuilt',
      label: 'prebuilt',
      tool: firstExisting([join(root, 'node_modules', 'prebuild-install', 'bin.js'), join(source, 'node_modules', 'prebuild-install', 'bin.js')]),
      toolName: 'prebuild-install',
      args: ['--runtime', 'electron', '--target', electronVersion, '--arch', arch, '--platform', platform],
      cwd: prebuiltPkg,
      packageDir: prebuiltPkg,
      // prebuild-install reads only package.json and unpacks the download beside it.
      sources: false,
      timeoutMs: PREBUILT_TIMEOUT_MS,
    },
    {
      step: 'rebuild',
      label: 'compiling',
      tool: firstExisting([join(root, 'node_modules', '@electron', 'rebuild', 'lib', 'cli.js')]),
      toolName: '@electron/rebuild',
      args: ['--version', electronVersion, '--arch', arch, '--platform', platform, '--module-dir', rebuildProject, '--only', 'better-sqlite3', '--force', '--build-from-source'],
      cwd: rebuildProject,
      packageDir: rebuildPkg,
      sources: true,
      project: rebuildProject,
      timeoutMs: REBUILD_TIMEOUT_MS,
    },
  ];
}

/** Copy better-sqlite3's package.json, and with `sources` what compiles it, never its build/ (the Node build). */
function copyPackage(source, dest, sources) {
  mkdirSync(dest, { recursive: true });
  copyFileSync(join(source, 'package.json'), join(dest, 'package.json'));
  if (!sources) return;
  for (const part of ['binding.gyp', 'src', 'deps', 'lib']) {
    if (existsSync(join(source, part))) cpSync(join(source, part), join(dest, part), { recursive: true });
  }
}

/** Put `built` at `target` in one rename, so a concurrent start never sees half a file. */
function install(built, target) {
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}.partial`;
  copyFileSync(built, partial);
  renameSync(partial, target);
}

/**
 * The Electron build of better-sqlite3, made if missing: `{ path }`, or `{ reason }`, one line
 * naming the Electron version and why each attempt failed. With `abi` (Electron's
 * NODE_MODULE_VERSION) a module built for another ABI is refused, not kept. `run({ step, command,
 * args, cwd, timeoutMs })` runs one attempt and resolves to `{ ok, output, timedOut? }`
 * (runBounded; a fake in tests). `onAttempt(step)` is told before each attempt runs.
 */
export async function ensureElectronBinding({ root, electronVersion, abi, platform, arch, run, workRoot = tmpdir(), onAttempt = () => {} }) {
  const target = electronBindingPath(root, electronVersion, platform, arch);
  if (existsSync(target)) {
    if (abi === undefined || builtForAbi(readFileSync(target), abi)) return { path: target };
    rmSync(target);
  }
  const fail = (why) => ({ reason: oneLine(`cannot build the SQLite module for Electron ${electronVersion} (${why})`) });
  const source = join(root, 'node_modules', 'better-sqlite3');
  if (!existsSync(join(source, 'package.json'))) return fail('better-sqlite3 is not installed; run `npm install`');

  const version = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')).version;
  const failures = [];
  const workDir = mkdtempSync(join(workRoot, 'strata-sqlite-electron-'));
  try {
    for (const attempt of buildAttempts({ root, electronVersion, platform, arch, workDir })) {
      if (!attempt.tool) {
        failures.push(`${attempt.label}: ${attempt.toolName} is not installed`);
        continue;
      }
      copyPackage(source, attempt.packageDir, attempt.sources);
      if (attempt.project) {
        writeFileSync(join(attempt.project, 'package.json'), JSON.stringify({ name: 'strata-sqlite-electron', private: true, dependencies: { 'better-sqlite3': version } }));
      }
      onAttempt(attempt.step);
      const r = await run({ step: attempt.step, command: process.execPath, args: [attempt.tool, ...attempt.args], cwd: attempt.cwd, timeoutMs: attempt.timeoutMs });
      const built = join(attempt.packageDir, 'build', 'Release', 'better_sqlite3.node');
      const made = r.ok && existsSync(built);
      const rightAbi = made && (abi === undefined || builtForAbi(readFileSync(built), abi));
      if (rightAbi) {
        install(built, target);
        return { path: target };
      }
      const why = r.timedOut
        ? `timed out after ${Math.round(attempt.timeoutMs / 1000)} s`
        : made
          ? `made a module for another runtime, not NODE_MODULE_VERSION ${abi}`
          : r.ok
            ? 'finished without producing the module'
            : explainBuildFailure(r.output ?? '');
      failures.push(`${attempt.label}: ${why}`);
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  return fail(failures.join('; '));
}

/**
 * Run one attempt as a child process with its output collected (the last 64 KB). It runs in a
 * process group of its own (node-gyp starts compilers of its own), killed whole past `timeoutMs`
 * or when this process is interrupted, so no compiler outlives `npm start`.
 */
export function runBounded({ command, args, cwd, timeoutMs }) {
  return new Promise((resolvePromise) => {
    let output = '';
    let timedOut = false;
    const group = process.platform !== 'win32';
    const child = spawn(command, args, { cwd, env: attemptEnv(process.env), detached: group, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const kill = () => {
      try {
        if (group) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const interrupted = (signal) => {
      kill();
      done();
      process.kill(process.pid, signal);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      for (const signal of ['SIGINT', 'SIGTERM']) process.off(signal, interrupted);
    };
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, interrupted);
    const collect = (chunk) => {
      output = (output + chunk).slice(-65_536);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    child.on('error', (err) => {
      done();
      resolvePromise({ ok: false, output: `${output}\n${err.message}`, timedOut });
    });
    child.on('close', (code) => {
      done();
      resolvePromise({ ok: code === 0 && !timedOut, output, timedOut });
    });
  });
}
