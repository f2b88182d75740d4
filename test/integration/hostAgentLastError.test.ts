import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentDetailDto, AgentDto, CommandName, LogEntry, RunDto, StrataEvent } from '../../engine/contract';
import { Host } from '../../engine/host';
import { manualScheduler } from '../../engine/ports/Scheduler';
import { quarterTokenizer } from '../support/engineFixtures';
import { demoDir, tempDir } from '../support/tempDir';

// `[agent-last-error]`: what a page that loads the agents learns of each one's newest error.
describe('Host: each listed agent carries its newest error line', () => {
  let tmp: ReturnType<typeof tempDir>;
  let host: Host;
  const open = () => Host.open({ catalogPath: join(tmp.dir, 'c.sqlite'), workspaceName: 'demo', version: '1', demoDir, scheduler: manualScheduler(), tokenizer: quarterTokenizer });
  beforeEach(() => {
    tmp = tempDir();
    host = open();
  });
  afterEach(() => {
    host.close();
    tmp.remove();
  });
  const value = async <T,>(name: CommandName, args: unknown, events: StrataEvent[] = []): Promise<T> => {
    const r = await host.connect((e) => events.push(e)).call(name, args);
    if (!r.ok) throw new Error(`${name} failed: ${JSON.stringify(r)}`);
    return r.value as T;
  };
  const listed = async () => (await value<{ agents: AgentDto[] }>('listAgents', {})).agents;
  const agent = async (id: string) => (await listed()).find((a) => a.agentId === id);

  it('[agent-last-error] an agent with no error line has none; a cancelled one carries the error line in the update, the listing and the detail', async () => {
    for (let i = 0; i < 6; i++) await host.stepDemo();
    expect((await listed()).every((a) => a.lastError === null)).toBe(true);
    const worker = (await listed()).find((a) => a.parent !== null && a.status !== 'done');
    expect(worker).toBeDefined();
    const id = worker!.agentId;

    const events: StrataEvent[] = [];
    const conn = host.connect((e) => events.push(e));
    await conn.call('subscribe', { events: ['agent.updated', 'log'] });
    const done = await conn.call('controlAgent', { agentId: id, action: 'cancel' });
    expect(done.ok).toBe(true);
    const line = events.flatMap((e) => (e.name === 'log' && e.payload.entry.level === 'error' && e.payload.entry.agentId === id ? [e.payload.entry] : [])).at(-1) as LogEntry;
    expect(line?.message).toMatch(new RegExp(`^${id} cancelled`));
    const expected = { message: line.message, at: line.at, seq: line.seq };
    // The update that follows the line carries it, so a watching page's flag comes from the agent too.
    const lineAt = events.findIndex((e) => e.name === 'log' && e.payload.entry.seq === line.seq);
    const update = events.slice(lineAt).find((e) => e.name === 'agent.updated' && e.payload.agent.agentId === id);
    expect(update?.name === 'agent.updated' && update.payload.agent.lastError).toEqual(expected);
    // A page that loads now (a reload) reads the same, from the listing and the detail.
    expect((await agent(id))?.lastError).toEqual(expected);
    expect((await value<AgentDetailDto>('getAgent', { agentId: id })).agent.lastError).toEqual(expected);
    // Nobody else got it.
    for (const a of await listed()) if (a.agentId !== id) expect(a.lastError).toBeNull();
  });

  it('[agent-last-error] a run that starts over with the same ids starts with no error; a host reopened on the catalog reads the error back', async () => {
    for (let i = 0; i < 6; i++) await host.stepDemo();
    const id = (await listed()).find((a) => a.parent !== null && a.status !== 'done')!.agentId;
    await value('controlAgent', { agentId: id, action: 'cancel' });
    const error = (await agent(id))?.lastError;
    expect(error?.message).toMatch(/cancelled/);

    // The same catalog, a new host process: the error line is read from the log table.
    host.close();
    host = open();
    await host.runs.ready();
    const reopened = await agent(id);
    expect(reopened?.lastError).toEqual(error);

    // Stop → Start: a new run, the same agent ids again, and none of them carries the old run's error.
    expect((await value<{ run: RunDto }>('stopRun', { runId: 'demo' })).run.status).toBe('stopped');
    await value('startRun', { driver: 'trace', tickMs: 0 });
    for (let i = 0; i < 6; i++) await value('stepRun', { runId: 'demo' });
    const again = await listed();
    expect(again.some((a) => a.agentId === id)).toBe(true);
    expect(again.every((a) => a.lastError === null)).toBe(true);
  });
});
