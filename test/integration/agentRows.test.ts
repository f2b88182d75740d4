import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentDto, StrataEvent } from '../../engine/contract';
import { Host } from '../../engine/host';
import { modelRunDeps } from '../../engine/host/modelRunDeps';
import { manualClock } from '../../engine/ports/Clock';
import { manualScheduler } from '../../engine/ports/Scheduler';
import { quarterTokenizer } from '../support/engineFixtures';
import { madeUpSession } from '../support/liveSessionFixture';
import { startAnthropicLoopback, type LoopbackServer } from '../support/loopback';
import { demoDir, tempDir } from '../support/tempDir';

const KEY = 'sk-ant-loopback-0123456789abcdef';
const T0 = Date.parse('2026-12-01T10:00:00Z');
let server: LoopbackServer | undefined;
let tmp: ReturnType<typeof tempDir> | undefined;
const hosts: Host[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) h.close();
  await server?.close();
  tmp?.remove();
  server = undefined;
  tmp = undefined;
});

/** A host on a manual clock whose agent announcements are collected. */
function open(options: Omit<Parameters<typeof Host.open>[0], 'catalogPath' | 'workspaceName' | 'version'>, dir: string) {
  const clock = manualClock(T0);
  const host = Host.open({ catalogPath: join(dir, `${hosts.length}.sqlite`), workspaceName: 'w', version: '1', tokenizer: quarterTokenizer, sessionRoots: {}, clock, scheduler: manualScheduler(clock), ...options });
  hosts.push(host);
  const announced: AgentDto[] = [];
  const conn = host.connect((e: StrataEvent) => {
    if (e.name === 'agent.updated') announced.push(e.payload.agent);
  });
  const call = async <T,>(name: string, args: unknown): Promise<T> => {
    const r = await conn.call(name, args);
    if (!r.ok) throw new Error(`${name}: ${r.error.code}: ${r.error.message}`);
    return r.value as T;
  };
  return { host, clock, announced, call };
}

const keys = (a: object) => Object.keys(a).sort();

/** Every announcement of an agent carries the next revision of its row, stamped with the host's clock. */
function expectStampedInOrder(announced: AgentDto[], catalogRows: AgentDto[], at: string) {
  const byAgent = new Map<string, number[]>();
  for (const a of announced) byAgent.set(a.agentId, [...(byAgent.get(a.agentId) ?? []), a.revision]);
  for (const [agentId, revisions] of byAgent) {
    // `running` is shown at once and stored with the turn's commit: the same revision may be announced twice, never a lower one.
    for (let i = 1; i < revisions.length; i++) expect(revisions[i]! - revisions[i - 1]!, agentId).toBeGreaterThanOrEqual(0);
    expect(catalogRows.find((r) => r.agentId === agentId)?.revision, agentId).toBe(Math.max(...revisions));
  }
  for (const r of catalogRows) expect(r.updatedAt).toBe(at);
}

describe('the agent rows: one writer for the demo, a model run and a live attach', () => {
  it('the demo, a model run and an attached session list agents of one shape, and every stored row is stamped by the same writer', async () => {
    server = await startAnthropicLoopback({ expectedKey: KEY, defaultReply: { kind: 'text', text: 'Nothing to change.' }, cacheMinTokens: 64 });
    tmp = tempDir();
    const project = join(tmp.dir, 'project');
    mkdirSync(project, { recursive: true });

    const demo = open({ demoDir }, tmp.dir);
    await demo.call('subscribe', { events: ['agent.updated'] });
    for (let i = 0; i < 12; i++) await demo.host.stepDemo();
    demo.host.runs.flush();
    const demoRows = (await demo.call<{ agents: AgentDto[] }>('listAgents', {})).agents;

    const model = open({ workspaceDir: project, runDeps: modelRunDeps(project, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }) }, tmp.dir);
    await model.call('subscribe', { events: ['agent.updated'] });
    const { run } = await model.call<{ run: { runId: string } }>('startRun', { driver: 'model', provider: 'anthropic', model: 'claude-sonnet-4-5', task: 'Check the project' });
    for (let i = 0; i < 5 && model.host.runs.current!.status === 'running'; i++) await model.call('stepRun', { runId: run.runId });
    const modelRows = (await model.call<{ agents: AgentDto[] }>('listAgents', {})).agents;

    const live = open({}, tmp.dir);
    const file = join(tmp.dir, 'session.jsonl');
    writeFileSync(file, `${madeUpSession(4).join('\n')}\n`);
    await live.call('attachSession', { path: file, budget: 4_000 });
    live.host.liveSessions.flush();
    await live.host.liveSessions.idle();
    const liveRows = (await live.call<{ agents: AgentDto[] }>('listAgents', {})).agents;

    expect(demoRows.length).toBeGreaterThan(1);
    expect(modelRows.map((a) => a.agentId)).toEqual([`${run.runId}.primary`]);
    expect(liveRows.length).toBeGreaterThan(0);
    const shape = keys(demoRows[0]!);
    for (const a of [...demoRows, ...modelRows]) expect(keys(a)).toEqual(shape);
    // An attached session's agents are the same record plus the session they belong to and the real
    // client's own figures beside Strata's (`recorded`); they are never stored.
    for (const a of liveRows) expect(keys(a)).toEqual([...shape, 'recorded', 'sessionId'].sort());
    expect(live.host.catalog.countAgents()).toBe(0);

    // Stored rows: what the catalog holds is what was announced last, stamped with the wall clock.
    const iso = new Date(T0).toISOString();
    expectStampedInOrder(demo.announced, demo.host.catalog.listAgents().map((r) => ({ ...r, cacheHitRate: 0, boundary: null, lastError: null })), iso);
    expectStampedInOrder(model.announced, model.host.catalog.listAgents().map((r) => ({ ...r, cacheHitRate: 0, boundary: null, lastError: null })), iso);
    expect(modelRows[0]).toMatchObject({ role: 'primary', status: 'done', parent: null });
    expect(demoRows.every((a) => a.generation >= 1 && a.revision >= 0)).toBe(true);
  });
});
