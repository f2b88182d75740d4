import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandName, StrataEvent } from '../../../engine/contract';
import { Host } from '../../../engine/host';
import { modelRunDeps } from '../../../engine/host/modelRunDeps';
import { manualScheduler } from '../../../engine/ports/Scheduler';
import { startAnthropicLoopback, type CapturedRequest, type LoopbackReply, type LoopbackServer } from '../../support/loopback';
import { quarterTokenizer } from '../../support/engineFixtures';
import { tempDir } from '../../support/tempDir';

const KEY = 'sk-ant-loopback-0123456789abcdef';
let server: LoopbackServer | undefined;
let tmp: ReturnType<typeof tempDir> | undefined;
let host: Host | undefined;
afterEach(async () => {
  host?.close();
  await server?.close();
  tmp?.remove();
  host = undefined;
  server = undefined;
  tmp = undefined;
});

/** A primary that reads one file, then finishes. */
const script = (r: CapturedRequest): LoopbackReply =>
  JSON.stringify(r.body).includes('return text.split') ? { kind: 'text', text: 'The parser splits on commas; nothing to change.' } : { kind: 'toolCalls', text: 'Reading the parser.', calls: [{ name: 'read_file', arguments: { path: 'src/parser.ts' } }] };

describe('a model run in a workspace, through the contract', () => {
  it('[runtime-turn] startRun runs a primary through the real SDK against a loopback Anthropic server; usage is the provider\'s; settings show the key only as present', async () => {
    server = await startAnthropicLoopback({ expectedKey: KEY, defaultReply: script, cacheMinTokens: 64 });
    tmp = tempDir();
    const dir = join(tmp.dir, 'project');
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'src', 'parser.ts'), 'export function parse(text: string) {\n  return text.split(",");\n}\n');
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url };
    host = Host.open({ catalogPath: join(dir, '.strata', 'catalog.sqlite'), workspaceName: 'project', version: '1', workspaceDir: dir, scheduler: manualScheduler(), tokenizer: quarterTokenizer, runDeps: modelRunDeps(dir, env) });
    const events: StrataEvent[] = [];
    const conn = host.connect((e) => events.push(e));
    const call = async (name: CommandName, args: unknown) => {
      const r = await conn.call(name, args);
      if (!r.ok) throw new Error(`${name}: ${r.error.code}: ${r.error.message}`);
      return r.value as Record<string, unknown>;
    };
    await call('subscribe', { events: ['run.changed', 'agent.updated'] });
    const settings = await call('getProviderSettings', {});
    expect(settings).toEqual({ providers: [expect.objectContaining({ provider: 'openai', keyPresent: false }), expect.objectContaining({ provider: 'anthropic', keyPresent: true, baseUrl: server.url })] });
    expect(JSON.stringify(settings)).not.toContain(KEY);

    const started = (await call('startRun', { driver: 'model', provider: 'anthropic', model: 'claude-sonnet-4-5', task: 'Check the comma parser in src/parser.ts' })) as { run: { runId: string; status: string } };
    expect(started.run).toMatchObject({ driver: 'model', status: 'running' });
    const runId = started.run.runId;
    for (let i = 0; i < 10 && host.runs.current!.status === 'running'; i++) await call('stepRun', { runId });
    expect(host.runs.current!.status).toBe('finished');
    const primary = `${runId}.primary`;
    const usage = (await call('getUsage', { agentId: primary })) as { calls: { modeled: boolean; usage: { input: number; cacheRead: number; cacheWrite: number }; modeledUsage?: { input: number; cacheRead: number; cacheWrite: number } }[] };
    expect(usage.calls).toHaveLength(2);
    expect(usage.calls.every((c) => !c.modeled && c.usage.input + c.usage.cacheRead + c.usage.cacheWrite > 0)).toBe(true);
    // The provider's figures are authoritative; the cache model's estimate is shown beside them.
    expect(usage.calls.every((c) => c.modeledUsage !== undefined && c.modeledUsage.input + c.modeledUsage.cacheRead + c.modeledUsage.cacheWrite > 0)).toBe(true);
    expect(host.catalog.getAgent(primary)).toMatchObject({ status: 'done', role: 'primary' });
    expect(events.some((e) => e.name === 'run.changed' && e.payload.run.status === 'finished')).toBe(true);
    expect(server.requests.every((r) => (r.headers['x-api-key'] ?? r.headers['authorization'] ?? '').includes(KEY))).toBe(true);
    expect(JSON.stringify(events)).not.toContain(KEY);
    expect(JSON.stringify(host.catalog.recentLog(100))).not.toContain(KEY);
  });

  it('[turn-atomic] a model run whose commit fails is stopped, as its spec says, not rebuilt or restarted', async () => {
    server = await startAnthropicLoopback({ expectedKey: KEY, defaultReply: script, cacheMinTokens: 64 });
    tmp = tempDir();
    const dir = join(tmp.dir, 'project');
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'src', 'parser.ts'), 'export function parse(text: string) {\n  return text.split(",");\n}\n');
    host = Host.open({ catalogPath: join(dir, '.strata', 'catalog.sqlite'), workspaceName: 'project', version: '1', workspaceDir: dir, scheduler: manualScheduler(), tokenizer: quarterTokenizer, runDeps: modelRunDeps(dir, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }) });
    const conn = host.connect(() => {});
    const started = await conn.call('startRun', { driver: 'model', provider: 'anthropic', model: 'claude-sonnet-4-5', task: 'Check the comma parser in src/parser.ts' });
    if (!started.ok) throw new Error(started.error.message);
    const run = host.runs.current!;
    host.catalog.setMeta = () => {
      throw new Error('disk full');
    };
    await expect(host.stepDemo()).rejects.toThrow(/could not be committed: disk full/);
    expect(host.runs.current).toBe(run);
    expect(run.status).toBe('stopped');
    expect(host.catalog.recentLog(5).map((l) => l.message)).toContainEqual(expect.stringMatching(/disk full; the run is stopped$/));
  });

  it('refuses a model run without a key, saying which variable to set, and starts nothing', async () => {
    tmp = tempDir();
    host = Host.open({ catalogPath: join(tmp.dir, 'c.sqlite'), workspaceName: 'project', version: '1', workspaceDir: tmp.dir, scheduler: manualScheduler(), tokenizer: quarterTokenizer, runDeps: modelRunDeps(tmp.dir, {}) });
    const r = await host.connect(() => {}).call('startRun', { driver: 'model', provider: 'openai', model: 'gpt-5.1', task: 'anything' });
    expect(r).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringMatching(/OPENAI_API_KEY/) } });
    expect(host.runs.list()).toEqual([]);
    expect(host.catalog.countAgents()).toBe(0);
  });

  /** A project folder with src/parser.ts and, when given, a strata.toml; a host over it with the loopback's key and URL. */
  function project(toml?: string): { dir: string; host: Host } {
    tmp = tempDir();
    const dir = join(tmp.dir, 'project');
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'src', 'parser.ts'), 'export function parse(text: string) {\n  return text.split(",");\n}\n');
    if (toml !== undefined) writeFileSync(join(dir, 'strata.toml'), toml);
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server!.url };
    host = Host.open({ catalogPath: join(dir, '.strata', 'catalog.sqlite'), workspaceName: 'project', version: '1', workspaceDir: dir, scheduler: manualScheduler(), tokenizer: quarterTokenizer, runDeps: modelRunDeps(dir, env) });
    return { dir, host };
  }

  it('[provider-time-limit] a provider that never answers fails the turn within [providers] turn_timeout_ms: the timed-out attempt is logged and the failure names the limit', { timeout: 60_000 }, async () => {
    server = await startAnthropicLoopback({ expectedKey: KEY, defaultReply: { kind: 'hang' } });
    const { host: h } = project('[providers]\nturn_timeout_ms = 1000\n');
    const conn = h.connect(() => {});
    const started = await conn.call('startRun', { driver: 'model', provider: 'anthropic', model: 'claude-sonnet-4-5', task: 'Check the comma parser in src/parser.ts' });
    expect(started).toMatchObject({ ok: true });
    const runId = (started as { value: { run: { runId: string } } }).value.run.runId;
    await conn.call('stepRun', { runId });
    const primary = `${runId}.primary`;
    expect(h.catalog.getAgent(primary)).toMatchObject({ status: 'failed' });
    const log = h.catalog.recentLog(100).map((e) => e.message);
    expect(log.some((m) => /anthropic: attempt 1 timed out: no response within 0\.5 s; retrying/.test(m))).toBe(true);
    expect(log.some((m) => m.includes(`${primary} failed`) && m.includes('1 s ([providers] turn_timeout_ms in strata.toml)'))).toBe(true);
    // Half the limit per attempt: at most two attempts, never the five of the retry policy. (A
    // loaded machine can leave too little of the limit to start the second, or for its request
    // to arrive before the limit ends, so one is also right.)
    expect(server.requests.length).toBeGreaterThanOrEqual(1);
    expect(server.requests.length).toBeLessThanOrEqual(2);
    expect(JSON.stringify(h.catalog.recentLog(100))).not.toContain(KEY);
  });

  it('[provider-retries-counted] getUsage counts every HTTP retry of a call in its retries, and the turn line says so', { timeout: 60_000 }, async () => {
    server = await startAnthropicLoopback({ expectedKey: KEY, defaultReply: script, cacheMinTokens: 64 });
    server.enqueue({ kind: 'serverError', status: 503 }, { kind: 'rateLimit', retryAfterSeconds: 0 });
    const { host: h } = project();
    const conn = h.connect(() => {});
    const started = (await conn.call('startRun', { driver: 'model', provider: 'anthropic', model: 'claude-sonnet-4-5', task: 'Check the comma parser in src/parser.ts' })) as { ok: true; value: { run: { runId: string } } };
    const runId = started.value.run.runId;
    for (let i = 0; i < 10 && h.runs.current!.status === 'running'; i++) await conn.call('stepRun', { runId });
    expect(h.runs.current!.status).toBe('finished');
    const usage = (await conn.call('getUsage', { agentId: `${runId}.primary` })) as { ok: true; value: { calls: { retries: number; providerRetries?: number }[] } };
    expect(usage.value.calls.map((c) => [c.retries, c.providerRetries])).toEqual([
      [2, 2],
      [0, 0],
    ]);
    const log = h.catalog.recentLog(100).map((e) => e.message);
    expect(log.some((m) => /^Turn 1 · .* · 2 retries \(2 provider\)$/.test(m))).toBe(true);
    expect(log.filter((m) => /anthropic: attempt \d (server error|rate limited)/.test(m))).toHaveLength(2);
  });

  it('[provider-time-limit] a [providers] section it cannot use refuses the run naming the file and the key, and starts nothing', async () => {
    server = await startAnthropicLoopback({ expectedKey: KEY, defaultReply: script });
    const { dir, host: h } = project('[providers]\nturn_timeout_ms = 10\n');
    const r = await h.connect(() => {}).call('startRun', { driver: 'model', provider: 'anthropic', model: 'claude-sonnet-4-5', task: 'anything' });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_args', message: expect.stringContaining(`${join(dir, 'strata.toml')}: providers.turn_timeout_ms must be an integer from 1000`) } });
    expect(h.runs.list()).toEqual([]);
    expect(server.requests).toEqual([]);
  });
});
