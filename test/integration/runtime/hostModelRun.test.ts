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

  it('refuses a model run without a key, saying which variable to set, and starts nothing', async () => {
    tmp = tempDir();
    host = Host.open({ catalogPath: join(tmp.dir, 'c.sqlite'), workspaceName: 'project', version: '1', workspaceDir: tmp.dir, scheduler: manualScheduler(), tokenizer: quarterTokenizer, runDeps: modelRunDeps(tmp.dir, {}) });
    const r = await host.connect(() => {}).call('startRun', { driver: 'model', provider: 'openai', model: 'gpt-5.1', task: 'anything' });
    expect(r).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringMatching(/OPENAI_API_KEY/) } });
    expect(host.runs.list()).toEqual([]);
    expect(host.catalog.countAgents()).toBe(0);
  });
});
