import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentDetailDto, AgentDto, CommandName, StrataEvent } from '../../engine/contract';
import { Host } from '../../engine/host';
import { generateDemoRun } from '../../engine/demo/generateDemoRun';
import { manualScheduler } from '../../engine/ports/Scheduler';
import { demoFiles } from '../support/demoFiles';
import { demoDir, tempDir } from '../support/tempDir';
import { quarterTokenizer } from '../support/engineFixtures';

const script = generateDemoRun(demoFiles, 1);
const TOTAL_TURNS = [...script.scripts.values()].reduce((n, turns) => n + turns.length, 0);

// `[agent-boundary]`: what a page that loads the agents learns of why each is in its generation.
describe('Host: each listed agent says how its current generation began', () => {
  let tmp: ReturnType<typeof tempDir>;
  let host: Host;
  beforeEach(() => {
    tmp = tempDir();
    host = Host.open({ catalogPath: join(tmp.dir, 'c.sqlite'), workspaceName: 'demo', version: '1', demoDir, scheduler: manualScheduler(), tokenizer: quarterTokenizer });
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

  it('[agent-boundary] an agent not built yet has none; its first build is a start', async () => {
    expect((await listed()).find((a) => a.agentId === 'primary')).toMatchObject({ boundary: null });
    await host.stepDemo();
    expect((await listed()).find((a) => a.agentId === 'primary')).toMatchObject({ generation: 1, boundary: { kind: 'start', reason: 'first build' } });
  });

  it('[agent-boundary] after a context-limit refresh, the listing, the detail and the update name the refusal; a rebuild then replaces it', async () => {
    const events: StrataEvent[] = [];
    await value('subscribe', { events: ['agent.updated'] }, events);
    let agentId: string | undefined;
    for (let i = 0; i < TOTAL_TURNS && agentId === undefined; i++) {
      await host.stepDemo();
      const run = host.runs.current!.runtime;
      agentId = run.agentIds().find((id) => run.limitRetries(id) > 0);
    }
    expect(agentId).toBeDefined();
    const id = agentId as string;
    const generation = host.engine.currentGeneration(id);
    const agent = (await listed()).find((a) => a.agentId === id);
    expect(agent).toMatchObject({ generation, boundary: { kind: 'refresh', reason: expect.stringMatching(/^provider context-limit error: prompt is too long: \d+ tokens > 200000 maximum$/) } });
    expect(agent?.boundary).toEqual(host.engine.generation(id, generation).boundary);
    expect((await value<AgentDetailDto>('getAgent', { agentId: id })).agent.boundary).toEqual(agent?.boundary);
    const updates = events.flatMap((e) => (e.name === 'agent.updated' && e.payload.agent.agentId === id ? [e.payload.agent] : []));
    expect(updates.at(-1)?.boundary).toEqual(agent?.boundary);
    // Every listed agent says how the generation it is listed in began, as its engine recorded it.
    for (const a of await listed()) expect(a.boundary).toEqual(host.engine.currentGeneration(a.agentId) > 0 ? host.engine.generation(a.agentId, a.generation).boundary : null);

    await value('rebuild', { agentId: id });
    expect((await listed()).find((a) => a.agentId === id)).toMatchObject({ generation: generation + 1, boundary: { kind: 'rebuild', reason: 'manual rebuild by an operator' } });
  });
});
