import { chmodSync, existsSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkspaceTools, type ToolRegistry } from '../../../engine/node/tools/registry';
import { minimalEnv } from '../../../engine/node/tools/runCommand';
import { DEFAULT_TOOLS_CONFIG, type ToolsConfig } from '../../../engine/node/tools/toolsConfig';
import type { RunCommandMeta, ToolErrorMeta, ToolResult } from '../../../engine/node/tools/types';
import { makeWorkspace, type Fixture } from './workspaceFixture';

/**
 * Scripts the tests run. `run_command` refuses `( ) ; > $` and the like outright, so the brief's
 * `node -e "setInterval(()=>{},1000)"` cannot be typed as a command: each program lives in a file of
 * the workspace and runs as `node <file>`, which is the same process doing the same thing.
 */
const SCRIPTS: Record<string, string> = {
  'spin.js': `
    const { spawn } = require('node:child_process');
    const fs = require('node:fs');
    // A grandchild in the same process group: the timeout must kill it too.
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    fs.writeFileSync('pids.json', JSON.stringify({ self: process.pid, child: child.pid }));
    console.log('spinning');
    setInterval(() => {}, 1000);
  `,
  'leave-behind.js': `
    const { spawn } = require('node:child_process');
    const fs = require('node:fs');
    // Exits at once but leaves a child holding stdout open.
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.unref();
    fs.writeFileSync('pids.json', JSON.stringify({ self: process.pid, child: child.pid }));
    console.log('bye');
  `,
  'env.js': 'console.log(JSON.stringify(process.env));',
  'cwd.js': 'console.log(process.cwd());',
  'exit.js': 'console.log("stdout line"); console.error("stderr line"); process.exit(Number(process.argv[2] ?? 0));',
  'args.js': 'console.log(JSON.stringify(process.argv.slice(2)));',
  'flood.js': `
    process.stdout.write('HEAD-MARK\\n');
    for (let i = 0; i < 20000; i++) process.stdout.write('filler line ' + i + '\\n');
    process.stdout.write('TAIL-MARK\\n');
  `,
  'color.js': 'console.log("\\u001b[31mred\\u001b[0m plain");',
  'slow.js': 'setTimeout(() => console.log("done"), 60000);',
  // A grandchild in a session (and process group) of its own, out of reach of the group kill.
  'escape.js': `
    const { spawn } = require('node:child_process');
    const fs = require('node:fs');
    const path = require('node:path');
    const which = (name) => process.env.PATH.split(':').map((d) => path.join(d, name)).find((f) => fs.existsSync(f));
    // "clean": the grandchild starts with an empty environment, so only the process tree can find it.
    const clean = process.argv.includes('clean');
    spawn(which('setsid'), [which('sh'), '-c', 'echo $$ > grandchild.pid; exec ' + which('sleep') + ' 300'], { stdio: 'ignore', env: clean ? {} : process.env }).unref();
    const started = Date.now();
    const wait = () => {
      const pid = fs.existsSync('grandchild.pid') ? fs.readFileSync('grandchild.pid', 'utf8').trim() : '';
      if (pid !== '') {
        const marked = fs.readFileSync('/proc/' + pid + '/environ', 'latin1').includes('STRATA_RUN_COMMAND');
        fs.writeFileSync('pids.json', JSON.stringify({ self: process.pid, child: Number(pid), marked }));
        console.log('escaped');
        if (process.argv.includes('spin')) setInterval(() => {}, 1000);
      } else if (Date.now() - started < 60000) setTimeout(wait, 20);
    };
    wait();
  `,
};

let fx: Fixture;
let n = 0;
beforeEach(() => {
  fx = makeWorkspace(SCRIPTS);
});
afterEach(() => fx.remove());

/** Each script as an exact entry (an entry permits itself; `node` alone would permit only `node`). */
const SCRIPT_ENTRIES = ['node exit.js 0', 'node exit.js 3', 'node cwd.js', 'node env.js', 'node spin.js', 'node leave-behind.js', 'node flood.js', 'node color.js', 'node slow.js', 'node --test'];
const tools = (over: Partial<ToolsConfig> = {}, limits = {}) => createWorkspaceTools(fx.root, { ...DEFAULT_TOOLS_CONFIG, allow: SCRIPT_ENTRIES, ...over }, limits);
const run = (registry: ToolRegistry, command: string, signal?: AbortSignal) =>
  registry.call({ id: `call-${++n}`, name: 'run_command', arguments: JSON.stringify({ command }) }, signal ? { signal } : {});
const meta = (r: ToolResult) => r.meta as RunCommandMeta;
const errorCode = (r: ToolResult) => (r.meta as ToolErrorMeta).error;

/** Alive and not a zombie (a container's PID 1 may never reap orphans). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** How long a killed process may take to be gone: a wait, not a speed check (it returns as soon as the process is). */
const DEATH_WAIT_MS = 20_000;

async function eventuallyDead(pid: number, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return !alive(pid);
}

const readPids = () => JSON.parse(readFileSync(join(fx.root, 'pids.json'), 'utf8')) as { self: number; child: number };

describe('run_command allowlist', () => {
  const allow = ['npm test', 'npx vitest run', 'node args.js'];
  it.each<[string, string]>([
    ['npm testx', 'is not an allowed command'],
    ['npm tes', 'is not an allowed command'],
    ['"npm test"', 'is not an allowed command'],
    ['npm run test', 'is not an allowed command'],
    ['npx vitest', 'is not an allowed command'],
    ['node args.jsx', 'is not an allowed command'],
    ['node env.js', 'is not an allowed command'],
    ['rm -rf /', 'is not an allowed command'],
    ['npm test; rm -rf /', 'shell metacharacter'],
    ['npm test && rm -rf /', 'shell metacharacter'],
    ['npm test || true', 'shell metacharacter'],
    ['npm test | tee out', 'shell metacharacter'],
    ['npm test > /tmp/x', 'shell metacharacter'],
    ['npm test < /etc/passwd', 'shell metacharacter'],
    ['npm test $HOME', 'shell metacharacter'],
    ['npm test `id`', 'shell metacharacter'],
    ['npm test $(id)', 'shell metacharacter'],
    ['npm test "a;b"', 'shell metacharacter'],
    ['npm test\nrm -rf /', 'line break'],
    ['npm test\r\nid', 'line break'],
    ['node -e "setInterval(()=>{},1000)"', 'shell metacharacter'],
    ['npm "test', 'unclosed double quote'],
  ])('[tools] %j is refused (%s) without running anything', async (command, fragment) => {
    const r = await run(tools({ allow }), command);
    expect(r.isError).toBe(true);
    expect(errorCode(r)).toBe('not_allowed');
    expect(r.content).toContain(fragment);
    expect(r.content.startsWith('Refused')).toBe(true);
  });

  it('[tools] [allow-exact] an entry runs exactly as written, quotes grouping words; one more argument is refused', async () => {
    const entry = `node args.js --flag "two words" 'single'`;
    const r = await run(tools({ allow: [entry] }), entry);
    expect(r.isError).toBe(false);
    expect(r.content).toBe(`$ ${entry}\n["--flag","two words","single"]\n[exit code 0]`);
    expect(meta(r)).toMatchObject({ tool: 'run_command', argv: ['node', 'args.js', '--flag', 'two words', 'single'], exitCode: 0, timedOut: false, truncated: false, testCommand: false });
    const more = await run(tools({ allow: [entry] }), `${entry} --inspect`);
    expect([more.isError, errorCode(more)]).toEqual([true, 'not_allowed']);
    expect(more.content).toContain(`permits exactly "${entry}" and nothing more, and "--inspect" follows it`);
  });

  it('[tools] [allow-exact] a test file named after a grammar entry must lie inside the workspace', async () => {
    writeFileSync(join(fx.root, 'ok.test.js'), 'require("node:test")("ok", () => {});');
    symlinkSync(fx.outside, join(fx.root, 'out-link'));
    const registry = tools({ allow: ['node --test'] });
    const ok = await run(registry, 'node --test ok.test.js');
    expect([ok.isError, meta(ok).exitCode]).toEqual([false, 0]);
    for (const [path, fragment] of [
      [join(fx.outside, 'secret.txt'), 'is outside the workspace'],
      ['out-link/secret.txt', 'outside the workspace'],
      ['.strata/x.test.js', '.strata/'],
    ] as const) {
      const r = await run(registry, `node --test ${path}`);
      expect([r.isError, errorCode(r)]).toEqual([true, 'not_allowed']);
      expect(r.content).toContain(`argument ${JSON.stringify(path)} is not a place inside the workspace`);
      expect(r.content).toContain(fragment);
    }
  });

  it('[tools] by default no command is allowed, and run_command is not advertised', async () => {
    const registry = createWorkspaceTools(fx.root);
    expect(registry.specs.map((s) => s.name)).toEqual(['list_files', 'read_file', 'grep']);
    const r = await run(registry, 'node args.js');
    expect([r.isError, errorCode(r)]).toEqual([true, 'not_allowed']);
    expect(r.content).toContain('no command is allowed in this workspace');
    expect(readFileSafe('pids.json')).toBeUndefined();
  });

  it('[tools] [allow-exact] the spec tells the model what each allowed entry permits', () => {
    const spec = tools({ allow }).specs.find((s) => s.name === 'run_command');
    expect(spec?.description).toContain('- "npm test": exactly "npm test", or "npm test -- <args>"');
    expect(spec?.description).toContain('- "node args.js": exactly "node args.js" and nothing more');
    expect(spec?.description).toContain('an entry permits exactly itself');
    expect(spec?.parameters).toMatchObject({ required: ['command'] });
  });

  it('[tools] a program that does not exist is an error result', async () => {
    const r = await run(tools({ allow: ['definitely-not-a-program-7f3a --x'] }), 'definitely-not-a-program-7f3a --x');
    expect([r.isError, errorCode(r)]).toEqual([true, 'spawn_failed']);
    expect(r.content).toContain('was not found on PATH');
  });
});

function readFileSafe(rel: string): string | undefined {
  try {
    return readFileSync(join(fx.root, rel), 'utf8');
  } catch {
    return undefined;
  }
}

describe('run_command execution', () => {
  it('[tools] reports the exit code; a non-zero exit is an error; stdout and stderr are both captured', async () => {
    const ok = await run(tools(), 'node exit.js 0');
    expect(ok.isError).toBe(false);
    expect(ok.content).toContain('stdout line');
    expect(ok.content).toContain('stderr line');
    expect(ok.content.endsWith('[exit code 0]')).toBe(true);
    const failed = await run(tools(), 'node exit.js 3');
    expect(failed.isError).toBe(true);
    expect(failed.content.endsWith('[exit code 3]')).toBe(true);
    expect(meta(failed).exitCode).toBe(3);
  });

  it('[tools] runs in the workspace root', async () => {
    const r = await run(tools(), 'node cwd.js');
    expect(r.content.split('\n')[1]).toBe(realpathSync(fx.root));
  });

  it('[tools] the environment is minimal: no API keys or other secrets pass through', async () => {
    const saved = { ...process.env };
    process.env['OPENAI_API_KEY'] = 'sk-openai-should-not-leak';
    process.env['ANTHROPIC_API_KEY'] = 'sk-ant-should-not-leak';
    process.env['GITHUB_TOKEN'] = 'ghp_should_not_leak';
    process.env['AWS_SECRET_ACCESS_KEY'] = 'aws-should-not-leak';
    try {
      const r = await run(tools(), 'node env.js');
      expect(r.isError).toBe(false);
      expect(r.content).not.toContain('should-not-leak');
      expect(r.content).not.toContain('should_not_leak');
      const env = JSON.parse(r.content.split('\n')[1] as string) as Record<string, string>;
      const allowed = [...(process.platform === 'win32' ? ['PATH', 'HOME', 'LANG', 'NO_COLOR', 'USERPROFILE', 'SystemRoot', 'PATHEXT', 'TEMP', 'TMP'] : ['PATH', 'HOME', 'LANG', 'NO_COLOR']), 'STRATA_RUN_COMMAND'];
      for (const key of Object.keys(env)) expect(allowed).toContain(key);
      expect(Object.keys(env)).not.toContain('OPENAI_API_KEY');
      expect(Object.keys(env)).not.toContain('ANTHROPIC_API_KEY');
      expect(env['PATH']).toBeTruthy();
    } finally {
      for (const key of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY']) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    }
  });

  // The limit leaves spin.js time to start its grandchild and print on a loaded machine; the
  // lower bound is safe under load (a timeout never fires early), an upper one would not be.
  it('[tools] a timeout kills the whole process group and says so', async () => {
    const registry = tools({ timeoutMs: 3000 }, { killGraceMs: 500 });
    const started = Date.now();
    const r = await run(registry, 'node spin.js');
    const elapsed = Date.now() - started;
    expect(r.isError).toBe(true);
    expect(meta(r).timedOut).toBe(true);
    expect(meta(r).exitCode).toBeNull();
    expect(r.content).toContain('spinning');
    expect(r.content.endsWith('[timed out after 3000 ms: the process group was killed]')).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(2950);
    const pids = readPids();
    expect(await eventuallyDead(pids.self, DEATH_WAIT_MS)).toBe(true);
    expect(await eventuallyDead(pids.child, DEATH_WAIT_MS)).toBe(true);
  });

  // The child never exits on its own: had the call waited for the output to close, it would have
  // ended at the 20 s limit, timed out.
  it('[tools] a command that exits while a child holds its output open still ends, and the child is killed', async () => {
    const r = await run(tools({ timeoutMs: 20_000 }), 'node leave-behind.js');
    expect(r.isError).toBe(false);
    expect(r.content).toContain('bye');
    expect(meta(r).timedOut).toBe(false);
    expect(await eventuallyDead(readPids().child, DEATH_WAIT_MS)).toBe(true);
  });

  it('[tools] output is capped at max_output_bytes keeping head and tail, the middle elided with a marker', async () => {
    const r = await run(tools({ maxOutputBytes: 4096 }), 'node flood.js');
    expect(r.isError).toBe(false);
    const m = meta(r);
    expect(m.truncated).toBe(true);
    expect(m.outputBytes).toBeGreaterThan(200_000);
    expect(r.content).toContain('HEAD-MARK\nfiller line 0\n');
    expect(r.content).toContain('filler line 19999\nTAIL-MARK\n[exit code 0]');
    expect(r.content).toMatch(/\[… \d+ bytes of output elided \(\d+ bytes in all; max_output_bytes = 4096\) …\]/);
    const output = r.content.slice(r.content.indexOf('\n') + 1, r.content.lastIndexOf('\n['));
    expect(Buffer.byteLength(output)).toBeLessThanOrEqual(4096);
  });

  it('[tools] colour escape sequences are stripped', async () => {
    const r = await run(tools(), 'node color.js');
    expect(r.content).toContain('\nred plain\n');
  });

  // slow.js prints "done" after 60 s: a cancel that did not kill it would show that line.
  it('[tools] a cancelled call kills the command and is an error', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const r = await run(tools(), 'node slow.js', controller.signal);
    expect(r.isError).toBe(true);
    expect(r.content).toContain('[cancelled: the process group was killed]');
    expect(r.content).not.toContain('done');
    expect(meta(r).timedOut).toBe(false);
  });

  it('[tools] a test command is recognised in the result meta', async () => {
    writeFileSync(join(fx.root, 'test.js'), 'process.exit(1)');
    const r = await run(tools(), 'node --test test.js');
    expect(meta(r).testCommand).toBe(true);
    expect(r.isError).toBe(true);
  });
});

describe('minimalEnv', () => {
  it('[tools] keeps only absolute PATH entries, HOME and LANG, and adds NO_COLOR', () => {
    const env = minimalEnv({ PATH: '.:/usr/bin::bin:/opt/node/bin', HOME: '/home/a', OPENAI_API_KEY: 'x', SECRET: 'y' }, 'linux');
    expect(env).toEqual({ PATH: '/usr/bin:/opt/node/bin', HOME: '/home/a', LANG: 'C.UTF-8', NO_COLOR: '1' });
    expect(minimalEnv({ PATH: '/bin', LANG: 'de_DE.UTF-8' }, 'linux')).toEqual({ PATH: '/bin', LANG: 'de_DE.UTF-8', NO_COLOR: '1' });
    expect(minimalEnv({ Path: 'C:\\Windows;relative', SystemRoot: 'C:\\Windows', ANTHROPIC_API_KEY: 'k' }, 'win32')).toEqual({
      PATH: 'C:\\Windows',
      SystemRoot: 'C:\\Windows',
      LANG: 'C.UTF-8',
      NO_COLOR: '1',
    });
  });
});

/** Every character but letters and digits percent-encoded: what an attacker sends to dodge the metacharacter check. */
const percentEncoded = (js: string) => [...js].map((c) => (/[A-Za-z0-9]/.test(c) ? c : `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`)).join('');
/** JavaScript that leaves a mark outside the workspace (it proves code of the model's choosing ran). */
const markOutside = (file: string) => percentEncoded(`import{writeFileSync}from"node:fs";writeFileSync(${JSON.stringify(file)},"pwned")`);

describe('[allow-exact] run_command: an allow entry runs no code of the model’s choosing (issue 20, item 1)', () => {
  const withScript = () => writeFileSync(join(fx.root, 'package.json'), JSON.stringify({ name: 'ws', scripts: { test: 'node args.js' } }));

  it('[allow-exact] "npm test --node-options=--import=data:…" is refused and no JavaScript of its runs', { timeout: 60_000 }, async () => {
    withScript();
    const mark = join(fx.outside, 'pwned-npm');
    const r = await run(tools({ allow: ['npm test'] }), `npm test --node-options=--import=data:text/javascript,${markOutside(mark)}`);
    expect(existsSync(mark)).toBe(false);
    expect([r.isError, errorCode(r)]).toEqual([true, 'not_allowed']);
    expect(r.content).toContain('--node-options');
  });

  it('[allow-exact] "node --test --import=data:…" is refused and no JavaScript of its runs', { timeout: 60_000 }, async () => {
    writeFileSync(join(fx.root, 'ok.test.js'), 'require("node:test")("ok", () => {});');
    const mark = join(fx.outside, 'pwned-node');
    const r = await run(tools({ allow: ['node --test'] }), `node --test --import=data:text/javascript,${markOutside(mark)} ok.test.js`);
    expect(existsSync(mark)).toBe(false);
    expect([r.isError, errorCode(r)]).toEqual([true, 'not_allowed']);
    expect(r.content).toContain('--import');
  });

  it('[allow-exact] "npm test --script-shell=<a program outside>" is refused and the program never runs', { timeout: 60_000 }, async () => {
    withScript();
    const mark = join(fx.outside, 'pwned-shell');
    const shell = join(fx.outside, 'evil.js');
    writeFileSync(shell, `#!/usr/bin/env node\nrequire('node:fs').writeFileSync(${JSON.stringify(mark)}, 'pwned');\n`);
    chmodSync(shell, 0o755);
    const r = await run(tools({ allow: ['npm test'] }), `npm test --script-shell=${shell}`);
    expect(existsSync(mark)).toBe(false);
    expect([r.isError, errorCode(r)]).toEqual([true, 'not_allowed']);
    expect(r.content).toContain('--script-shell');
  });
});

describe('[kill-descendants] run_command: descendants that leave the process group die too (issue 20, item 17)', () => {
  const linux = process.platform === 'linux';
  /** The "spin" cases wait out this limit; it leaves escape.js time to start its setsid grandchild (three process starts) on a loaded machine. */
  const ESCAPE_LIMIT_MS = 5000;
  if (!linux) console.warn('Skipping the setsid tests: they need Linux /proc; elsewhere only the process group is killed (docs/security.md).');
  const killLeft = (pid: number | undefined) => {
    try {
      if (pid !== undefined) process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone, as it should be.
    }
  };

  it.skipIf(!linux)('[kill-descendants] a "setsid sleep 300" grandchild is killed when the command ends (Linux /proc)', { timeout: 60_000 }, async () => {
    const registry = tools({ allow: ['node escape.js'], timeoutMs: 30_000 });
    const r = await run(registry, 'node escape.js');
    const pids = readPids();
    try {
      expect(r.content).toContain('escaped');
      expect((pids as { marked?: boolean }).marked).toBe(true);
      expect(meta(r).timedOut).toBe(false);
      expect(await eventuallyDead(pids.child, DEATH_WAIT_MS)).toBe(true);
    } finally {
      killLeft(pids.child);
    }
  });

  it.skipIf(!linux)('[kill-descendants] a "setsid sleep 300" grandchild is killed when the command times out (Linux /proc)', { timeout: 60_000 }, async () => {
    const registry = tools({ allow: ['node escape.js spin'], timeoutMs: ESCAPE_LIMIT_MS }, { killGraceMs: 500 });
    const r = await run(registry, 'node escape.js spin');
    const pids = readPids();
    try {
      expect(r.content).toContain('escaped');
      expect(meta(r).timedOut).toBe(true);
      expect(await eventuallyDead(pids.self, DEATH_WAIT_MS)).toBe(true);
      expect(await eventuallyDead(pids.child, DEATH_WAIT_MS)).toBe(true);
    } finally {
      killLeft(pids.child);
    }
  });

  it.skipIf(!linux)('[kill-descendants] a grandchild that dropped the environment (and with it the marker) is killed when the command times out (Linux /proc)', { timeout: 60_000 }, async () => {
    const registry = tools({ allow: ['node escape.js spin clean'], timeoutMs: ESCAPE_LIMIT_MS }, { killGraceMs: 500 });
    const r = await run(registry, 'node escape.js spin clean');
    const pids = readPids();
    try {
      expect(r.content).toContain('escaped');
      expect((pids as { marked?: boolean }).marked).toBe(false);
      expect(meta(r).timedOut).toBe(true);
      expect(await eventuallyDead(pids.child, DEATH_WAIT_MS)).toBe(true);
    } finally {
      killLeft(pids.child);
    }
  });
});
