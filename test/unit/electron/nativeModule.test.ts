import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  attemptEnv,
  buildAttempts,
  builtForAbi,
  electronBindingPath,
  ensureElectronBinding,
  explainBuildFailure,
  runBounded,
  type RunRequest,
  type RunResult,
} from '../../../electron/cli/nativeModule.mjs';
import { tempDir } from '../../support/tempDir';

const VERSION = '45.5.0';
const ABI = '150';
const electronModule = Buffer.from(`\x7fELF fake\0node_register_module_v${ABI}\0`);
const nodeModule = Buffer.from('\x7fELF fake\0node_register_module_v115\0');

/** Output of the real tools on a machine without internet (recorded here). */
const PREBUILD_OFFLINE = `prebuild-install info begin Prebuild-install version 7.1.3
prebuild-install http request GET https://github.com/WiseLibs/better-sqlite3/releases/download/v12.11.1/better-sqlite3-v12.11.1-electron-v150-linux-x64.tar.gz
prebuild-install warn install getaddrinfo ENOTFOUND github.com`;
const REBUILD_OFFLINE = `Searching dependency tree
Building modules: better-sqlite3

Error: This is most likely not a problem with node-gyp or the package itself and
is related to network connectivity. In most cases you are behind a proxy or have bad
network settings.
    at go (/work/main/node_modules/node-gyp/lib/install.js:244:21)

\u001b[31m✖ Rebuild Failed\u001b[39m
node-gyp failed to rebuild '/tmp/x/node_modules/better-sqlite3'`;

/** Every file under `dir` with its bytes, to prove a folder was left as it was. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const visit = (p: string) => {
    if (statSync(p).isDirectory()) for (const name of readdirSync(p)) visit(join(p, name));
    else files[relative(dir, p)] = readFileSync(p, 'base64');
  };
  visit(dir);
  return files;
}

/** A checkout with better-sqlite3 (its Node build included), prebuild-install and @electron/rebuild. */
function fakeRoot(dir: string, tools: { prebuild?: boolean; rebuild?: boolean } = {}): string {
  const root = join(dir, 'checkout');
  const put = (path: string, content: string | Buffer) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  };
  put('node_modules/better-sqlite3/package.json', JSON.stringify({ name: 'better-sqlite3', version: '12.11.1' }));
  put('node_modules/better-sqlite3/binding.gyp', '{}');
  put('node_modules/better-sqlite3/src/better_sqlite3.cpp', '// sources');
  put('node_modules/better-sqlite3/deps/sqlite3/sqlite3.c', '/* amalgamation */');
  put('node_modules/better-sqlite3/lib/index.js', 'module.exports = {};');
  put('node_modules/better-sqlite3/build/Release/better_sqlite3.node', nodeModule);
  if (tools.prebuild !== false) put('node_modules/prebuild-install/bin.js', '');
  if (tools.rebuild !== false) put('node_modules/@electron/rebuild/lib/cli.js', '');
  return root;
}

/** Where each real tool leaves the module, relative to the folder it runs in. */
const madeAt = (req: RunRequest) =>
  req.step === 'prebuilt' ? join(req.cwd, 'build', 'Release', 'better_sqlite3.node') : join(req.cwd, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

type Outcome = RunResult | { make: Buffer };

/** A runner that plays the given outcome per step and records what it was asked to run. */
function fakeRun(outcomes: Partial<Record<RunRequest['step'], Outcome>>) {
  const calls: RunRequest[] = [];
  const sawSources: boolean[] = [];
  const run = async (req: RunRequest): Promise<RunResult> => {
    calls.push(req);
    const pkg = dirname(dirname(dirname(madeAt(req))));
    sawSources.push(existsSync(join(pkg, 'src', 'better_sqlite3.cpp')) && !existsSync(join(pkg, 'build')));
    const outcome = outcomes[req.step] ?? { ok: false, output: 'not simulated' };
    if ('make' in outcome) {
      mkdirSync(dirname(madeAt(req)), { recursive: true });
      writeFileSync(madeAt(req), outcome.make);
      return { ok: true, output: 'ok' };
    }
    return outcome;
  };
  return { run, calls, sawSources };
}

describe('nativeModule (the Electron build of better-sqlite3)', () => {
  let tmp: ReturnType<typeof tempDir>;
  let root: string;
  let work: string;
  const target = () => electronBindingPath(root, VERSION, 'linux', 'x64');
  const ensure = (run: (r: RunRequest) => Promise<RunResult>, abi: string | undefined = ABI) =>
    ensureElectronBinding({ root, electronVersion: VERSION, abi, platform: 'linux', arch: 'x64', run, workRoot: work });

  beforeEach(() => {
    tmp = tempDir();
    root = fakeRoot(tmp.dir);
    work = join(tmp.dir, 'work');
    mkdirSync(work);
  });
  afterEach(() => tmp.remove());

  it('keeps one build per Electron version, platform and arch under out/native', () => {
    expect(electronBindingPath('/r', '45.5.0', 'linux', 'x64')).toBe(join('/r', 'out', 'native', 'electron-45.5.0-linux-x64', 'better_sqlite3.node'));
    expect(electronBindingPath('/r', '46.0.1', 'darwin', 'arm64')).toBe(join('/r', 'out', 'native', 'electron-46.0.1-darwin-arm64', 'better_sqlite3.node'));
  });

  it('does nothing when the build for this version is already there', async () => {
    mkdirSync(dirname(target()), { recursive: true });
    writeFileSync(target(), electronModule);
    const { run, calls } = fakeRun({});
    expect(await ensure(run)).toEqual({ path: target() });
    expect(calls).toEqual([]);
  });

  it('replaces a build left there for another ABI', async () => {
    mkdirSync(dirname(target()), { recursive: true });
    writeFileSync(target(), nodeModule);
    const { run, calls } = fakeRun({ prebuilt: { make: electronModule } });
    expect(await ensure(run)).toEqual({ path: target() });
    expect(calls.map((c) => c.step)).toEqual(['prebuilt']);
    expect(readFileSync(target()).equals(electronModule)).toBe(true);
  });

  it('uses the prebuilt when it downloads, without compiling', async () => {
    const { run, calls } = fakeRun({ prebuilt: { make: electronModule } });
    expect(await ensure(run)).toEqual({ path: target() });
    expect(calls.map((c) => c.step)).toEqual(['prebuilt']);
    expect(calls[0]!.args.slice(1)).toEqual(['--runtime', 'electron', '--target', VERSION, '--arch', 'x64', '--platform', 'linux']);
    expect(readFileSync(target()).equals(electronModule)).toBe(true);
  });

  it('compiles in a copy when no prebuilt downloads, and never touches node_modules/better-sqlite3', async () => {
    const before = snapshot(join(root, 'node_modules', 'better-sqlite3'));
    const { run, calls, sawSources } = fakeRun({ prebuilt: { ok: false, output: PREBUILD_OFFLINE }, rebuild: { make: electronModule } });
    expect(await ensure(run)).toEqual({ path: target() });
    expect(calls.map((c) => c.step)).toEqual(['prebuilt', 'rebuild']);
    expect(calls[1]!.args).toEqual(expect.arrayContaining(['--version', VERSION, '--only', 'better-sqlite3', '--build-from-source']));
    for (const c of calls) expect(relative(root, c.cwd).startsWith('..')).toBe(true);
    expect(sawSources).toEqual([false, true]);
    expect(readFileSync(target()).equals(electronModule)).toBe(true);
    expect(snapshot(join(root, 'node_modules', 'better-sqlite3'))).toEqual(before);
    expect(readdirSync(work)).toEqual([]);
  });

  it('fails in one line naming the version and why each attempt failed, leaving nothing behind', async () => {
    const before = snapshot(join(root, 'node_modules', 'better-sqlite3'));
    const { run } = fakeRun({ prebuilt: { ok: false, output: PREBUILD_OFFLINE }, rebuild: { ok: false, output: REBUILD_OFFLINE } });
    const result = await ensure(run);
    expect(result).toEqual({
      reason: "cannot build the SQLite module for Electron 45.5.0 (prebuilt: cannot reach github.com; compiling: cannot download Electron's headers, no network)",
    });
    expect(existsSync(target())).toBe(false);
    expect(snapshot(join(root, 'node_modules', 'better-sqlite3'))).toEqual(before);
    expect(readdirSync(work)).toEqual([]);
  });

  it('reports a timed-out attempt and refuses a module built for another ABI', async () => {
    const { run } = fakeRun({ prebuilt: { ok: false, output: '', timedOut: true }, rebuild: { make: nodeModule } });
    const result = await ensure(run);
    expect(result).toEqual({
      reason: 'cannot build the SQLite module for Electron 45.5.0 (prebuilt: timed out after 90 s; compiling: made a module for another runtime, not NODE_MODULE_VERSION 150)',
    });
    expect(existsSync(target())).toBe(false);
  });

  it('says which tool is not installed, and that better-sqlite3 itself is missing', async () => {
    root = fakeRoot(join(tmp.dir, 'bare'), { prebuild: false, rebuild: false });
    const { run, calls } = fakeRun({});
    expect(await ensure(run)).toEqual({
      reason: 'cannot build the SQLite module for Electron 45.5.0 (prebuilt: prebuild-install is not installed; compiling: @electron/rebuild is not installed)',
    });
    expect(calls).toEqual([]);
    root = join(tmp.dir, 'empty');
    expect(await ensure(run)).toEqual({ reason: 'cannot build the SQLite module for Electron 45.5.0 (better-sqlite3 is not installed; run `npm install`)' });
  });

  it('keeps every reason on one line', async () => {
    const { run } = fakeRun({ prebuilt: { ok: false, output: 'Error: something\nbroke\r\n  badly' }, rebuild: { ok: false, output: '' } });
    const result = await ensure(run);
    expect('reason' in result && result.reason).not.toMatch(/[\r\n]/);
  });

  it('runs prebuild-install in a copy of the package, then @electron/rebuild in a throwaway project', () => {
    const attempts = buildAttempts({ root, electronVersion: VERSION, platform: 'linux', arch: 'x64', workDir: '/w' });
    expect(attempts.map((a) => [a.step, a.tool && relative(root, a.tool), a.cwd, a.packageDir])).toEqual([
      ['prebuilt', join('node_modules', 'prebuild-install', 'bin.js'), join('/w', 'prebuilt', 'better-sqlite3'), join('/w', 'prebuilt', 'better-sqlite3')],
      ['rebuild', join('node_modules', '@electron', 'rebuild', 'lib', 'cli.js'), join('/w', 'rebuild'), join('/w', 'rebuild', 'node_modules', 'better-sqlite3')],
    ]);
  });
});

describe('explainBuildFailure', () => {
  it.each([
    ['prebuild-install offline', PREBUILD_OFFLINE, 'cannot reach github.com'],
    ['node-gyp without network', REBUILD_OFFLINE, "cannot download Electron's headers, no network"],
    ['no prebuilt for the version', 'prebuild-install warn install No prebuilt binaries found (target=45.5.0 runtime=electron arch=x64 libc= platform=linux)', 'none published for this version'],
    ['refused connection', 'Error: connect ECONNREFUSED 127.0.0.1:443', 'no network to download from'],
    ['no python', 'gyp ERR! find Python Python is not set from command line or npm configuration', 'node-gyp cannot find Python'],
    ['no make', 'gyp ERR! build error\ngyp ERR! stack Error: not found: make', 'no C++ toolchain (a compiler and make)'],
    ['anything else: the last error line', 'building\nError: first\n    at x (y.js:1:1)\nerror: the real one\ndone', 'error: the real one'],
    ['no output', '', 'failed without output'],
  ])('%s', (_name, output, expected) => {
    expect(explainBuildFailure(output)).toBe(expected);
  });

  it('clips a long line', () => {
    const said = explainBuildFailure(`Error: ${'x'.repeat(300)}`);
    expect(said.length).toBe(100);
    expect(said.endsWith('…')).toBe(true);
  });
});

describe('builtForAbi and attemptEnv', () => {
  it('reads the ABI a module registers for', () => {
    expect(builtForAbi(electronModule, '150')).toBe(true);
    expect(builtForAbi(nodeModule, '150')).toBe(false);
    expect(builtForAbi(Buffer.from('node_register_module_v1500\0'), '150')).toBe(false);
  });

  it("drops npm settings that would retarget the build (a global nodedir compiles against Node's headers)", () => {
    const env = attemptEnv({ PATH: '/bin', npm_config_nodedir: '/usr', NPM_CONFIG_TARGET: '20.0.0', npm_config_runtime: 'node', npm_config_cache: '/c', HOME: '/h' });
    expect(env).toEqual({ PATH: '/bin', npm_config_cache: '/c', HOME: '/h' });
  });
});

describe('runBounded', () => {
  it('collects the output and the exit status', async () => {
    const r = await runBounded({ step: 'prebuilt', command: process.execPath, args: ['-e', 'console.log("out"); console.error("err"); process.exit(3)'], cwd: process.cwd(), timeoutMs: 10_000 });
    expect(r.ok).toBe(false);
    expect(r.timedOut).toBe(false);
    expect(r.output).toContain('out');
    expect(r.output).toContain('err');
  });

  it('kills the whole process group at the timeout, grandchildren included', async () => {
    // The child starts a grandchild holding the same output pipe. runBounded answers once the pipe
    // closes: killed with the group, the grandchild never prints; left alive, it would print its
    // line after 20 s and only then let the pipe close.
    const grandchild = `setTimeout(() => console.log('grandchild outlived the kill'), 20000)`;
    const script = `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { stdio: 'inherit' }); setTimeout(() => {}, 20000);`;
    const r = await runBounded({ step: 'rebuild', command: process.execPath, args: ['-e', script], cwd: process.cwd(), timeoutMs: 300 });
    expect(r).toMatchObject({ ok: false, timedOut: true });
    expect(r.output).not.toContain('grandchild outlived the kill');
  });
});

describe('packaged SQLite module', () => {
  it('a packaged app loads resources/native/better_sqlite3.node when the package holds it, else the default', async () => {
    const { packagedSqliteBinding } = await import('../../../electron/shared/openHost');
    const dir = mkdtempSync(join(tmpdir(), 'strata-packaged-'));
    try {
      expect(packagedSqliteBinding(dir)).toBeUndefined();
      mkdirSync(join(dir, 'native'));
      writeFileSync(join(dir, 'native', 'better_sqlite3.node'), 'x');
      expect(packagedSqliteBinding(dir)).toBe(join(dir, 'native', 'better_sqlite3.node'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
