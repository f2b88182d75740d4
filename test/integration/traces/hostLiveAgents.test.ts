import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentDetailDto, AgentDto, GenerationDiffDto, GenerationDto, GenerationSummaryDto, LiveSessionDetailDto, StrataEvent, UsageDto } from '../../../engine/contract';
import { Host } from '../../../engine/host';
import { SESSION_EVENT_MS } from '../../../engine/host/LiveSessions';
import { manualClock } from '../../../engine/ports/Clock';
import { manualScheduler } from '../../../engine/ports/Scheduler';
import { importTraceText } from '../../../engine/traces/importTrace';
import { recordedTruth } from '../../../engine/traces/replay/recordedTruth';
import { compactionSteps, subagentThreads } from '../../../engine/node/traces/live/sessionThreads';
import { quarterTokenizer } from '../../support/engineFixtures';
import { madeUpSession, SECRETS } from '../../support/liveSessionFixture';
import { tempDir } from '../../support/tempDir';

describe('[live-agents] an attached session in the agent tree, inspector, diff and charts', () => {
  const tmp = tempDir('strata-live-agents-');
  const catalogPath = join(tmp.dir, 'catalog.sqlite');
  const file = join(tmp.dir, 'session.jsonl');
  // Long enough for Strata's replay to begin a second generation within the 4,000-token budget.
  const ROUNDS = 30;
  const lines = madeUpSession(ROUNDS);
  const text = `${lines.join('\n')}\n`;
  let host: Host;
  let conn: ReturnType<Host['connect']>;
  const events: StrataEvent[] = [];
  const value = async <T,>(name: string, args: unknown): Promise<T> => {
    const envelope = await conn.call(name, args);
    if (!envelope.ok) throw new Error(`${name}: ${envelope.error.code}: ${envelope.error.message}`);
    return envelope.value as T;
  };
  const refusal = async (name: string, args: unknown) => {
    const envelope = await conn.call(name, args);
    return envelope.ok ? undefined : envelope.error;
  };

  beforeAll(async () => {
    // The host's clock and timers, moved only by this test. The session's thread stamps its lines with
    // the real clock, which is never behind this one by more than the test moved it on: the session
    // stays running (a line within SESSION_ACTIVE_MS) however long the machine takes.
    const clock = manualClock(Date.now());
    const scheduler = manualScheduler(clock);
    /** The thread reads and converts what was written and replays it; the host's spacing lets the updates out. */
    const settle = async () => {
      host.liveSessions.flush();
      await host.liveSessions.idle();
      scheduler.advance(SESSION_EVENT_MS);
    };
    host = Host.open({ catalogPath, workspaceName: 'live', version: '1', tokenizer: quarterTokenizer, sessionRoots: {}, clock, scheduler });
    conn = host.connect((e) => events.push(e));
    await conn.call('subscribe', { events: ['session.updated', 'session.detached', 'agent.updated'] });
    writeFileSync(file, '');
    await value('attachSession', { path: file, budget: 4_000 });
    // Written line by line, the last line in two halves, as an agent writes it.
    for (const [i, line] of lines.slice(0, -1).entries()) {
      appendFileSync(file, `${line}\n`);
      if (i % 4 === 3) await settle();
    }
    const last = lines.at(-1) as string;
    appendFileSync(file, last.slice(0, 40));
    await settle();
    const half = await value<LiveSessionDetailDto>('getSession', { sessionId: 'ses-1' });
    expect(half.session.lines).toBe(lines.length - 1);
    appendFileSync(file, `${last.slice(40)}\n`);
    await settle();
    const whole = recordedTruth(importTraceText(text, file).events);
    const d = await value<LiveSessionDetailDto>('getSession', { sessionId: 'ses-1' });
    expect(d.session.real.steps).toBe(whole.steps);
    expect(d.session.shadow?.replayedEvents).toBe(d.session.events);
  }, 90_000);

  afterAll(() => {
    host.close();
    tmp.remove();
  });

  it('[live-agents] [live-windows] the session and its subagent are agents of the tree, announced as they change', async () => {
    const { agents } = await value<{ agents: AgentDto[] }>('listAgents', {});
    const main = agents.find((a) => a.agentId === 'ses-1');
    const sub = agents.find((a) => a.agentId === 'ses-1/explorer');
    const threads = subagentThreads(importTraceText(text, file).events);
    const whole = recordedTruth(importTraceText(text, file).events);
    expect(main).toMatchObject({ parent: null, role: 'primary', sessionId: 'ses-1', model: 'claude-made-up-1', budget: 4_000, status: 'running', cacheHitRate: whole.hitRate });
    expect(main?.usage).toEqual({ input: whole.input, cacheRead: whole.cacheRead, cacheWrite: whole.cacheWrite, output: whole.output });
    // [live-windows] Strata's figures against the replay budget, as the Context tab has them; the real client's apart, against its own window.
    const current = await value<GenerationDto>('getGeneration', { agentId: 'ses-1' });
    expect(main?.tokens).toBe(current.tokens);
    // [agent-boundary] How the shadow's current generation began, as for a native agent.
    expect(main?.generation).toBe(current.number);
    expect(main?.boundary).toEqual(current.boundary);
    expect(main?.recorded).toEqual({ client: 'Claude Code', tokens: whole.perStep.at(-1)?.prompt, window: 200_000, windowSource: 'model' });
    const subTruth = recordedTruth(threads[0]!.events);
    expect(sub).toMatchObject({ parent: 'ses-1', role: 'worker', sessionId: 'ses-1', task: 'find where sessions expire', status: 'done', cacheHitRate: subTruth.hitRate });
    expect(subTruth.steps).toBe(2);
    const detail = await value<AgentDetailDto>('getAgent', { agentId: 'ses-1' });
    expect(detail.children).toEqual(['ses-1/explorer']);
    const announced = events.filter((e): e is Extract<StrataEvent, { name: 'agent.updated' }> => e.name === 'agent.updated');
    expect(announced.some((e) => e.payload.agent.agentId === 'ses-1/explorer')).toBe(true);
    const mains = announced.filter((e) => e.payload.agent.agentId === 'ses-1').map((e) => e.payload.agent);
    // Live: the tree saw the session grow, each announcement a new revision.
    expect(mains.length).toBeGreaterThan(1);
    expect(mains.map((a) => a.revision)).toEqual([...mains.map((a) => a.revision)].sort((x, y) => x - y));
    expect(new Set(mains.map((a) => a.revision)).size).toBe(mains.length);
    expect(mains.at(-1)).toEqual(main);
  });

  it('[live-agents] the inspector, the generation diff and the charts serve the shadow engine and the recorded calls', async () => {
    const { session } = await value<LiveSessionDetailDto>('getSession', { sessionId: 'ses-1' });
    // A Claude model: priced with Anthropic's cache model; the revision counted every snapshot.
    expect(session.shadow?.provider).toBe('anthropic');
    const sessionUpdates = events.filter((e): e is Extract<StrataEvent, { name: 'session.updated' }> => e.name === 'session.updated').map((e) => e.payload.session.revision);
    expect(sessionUpdates).toEqual([...sessionUpdates].sort((x, y) => x - y));
    expect(session.revision).toBeGreaterThanOrEqual(sessionUpdates.at(-1) ?? 0);
    const detail = await value<LiveSessionDetailDto>('getSession', { sessionId: 'ses-1' });
    // The recording compacted once (after the ninth read).
    expect(detail.compactions).toEqual(compactionSteps(importTraceText(text, file).events));
    expect(detail.compactions).toHaveLength(1);
    // Strata's new generations are where its replay's generation number went up.
    const ups = detail.shadow.filter((m, i) => i > 0 && m.generation > detail.shadow[i - 1]!.generation).map((m) => ({ step: m.step, generation: m.generation }));
    expect(ups.length).toBeGreaterThan(0);
    expect(detail.generations.map(({ step, generation }) => ({ step, generation }))).toEqual(ups);
    const { generations } = await value<{ generations: GenerationSummaryDto[] }>('listGenerations', { agentId: 'ses-1' });
    expect(generations.length).toBe(session.shadow?.generation);
    const current = await value<GenerationDto>('getGeneration', { agentId: 'ses-1' });
    expect(current).toMatchObject({ agentId: 'ses-1', number: generations.at(-1)?.number, strategy: 'variable', budget: 4_000 });
    expect(current.included.length).toBeGreaterThan(0);
    expect(current.included.every((e) => e.item.id.startsWith('ses-1#') && e.item.provenance.agentId === 'ses-1')).toBe(true);
    expect(current.prompt?.L2).toContain(`src/auth/module${ROUNDS - 1}.ts`);
    const diff = await value<GenerationDiffDto>('diffGenerations', { agentId: 'ses-1', from: generations[0]!.number, to: current.number });
    expect(diff).toMatchObject({ agentId: 'ses-1', from: generations[0]!.number, to: current.number });
    expect(diff.added.length + diff.kept.length).toBe(current.included.length);
    const subGen = await value<GenerationDto>('getGeneration', { agentId: 'ses-1/explorer' });
    expect(subGen.included.some((e) => e.item.content.includes('src/auth/session.ts'))).toBe(true);

    const whole = recordedTruth(importTraceText(text, file).events);
    const usage = await value<UsageDto>('getUsage', { agentId: 'ses-1' });
    expect(usage.calls.map((c) => c.usage)).toEqual(whole.perStep.map((s) => ({ input: s.input, cacheRead: s.cacheRead, cacheWrite: s.cacheWrite, output: s.output })));
    expect(usage.calls.every((c) => c.modeled === false && c.prefixReuse === null && c.agentId === 'ses-1')).toBe(true);
    expect(usage.calls.map((c) => c.at)).toEqual(whole.perStep.map((s) => s.at));
    expect(usage.totals).toMatchObject({ calls: whole.callsWithUsage, hitRate: whole.hitRate });
    expect((await value<UsageDto>('getUsage', { agentId: 'ses-1', limit: 3 })).calls.map((c) => c.turn)).toEqual([whole.perStep.length - 2, whole.perStep.length - 1, whole.perStep.length]);
  });

  it('[live-agents] a session is read-only: changes to its agents and items are refused, nothing reaches the catalog, its file is untouched', async () => {
    const current = await value<GenerationDto>('getGeneration', { agentId: 'ses-1' });
    const itemId = current.included[0]!.item.id;
    for (const [name, args] of [
      ['pin', { itemId }],
      ['unpin', { itemId }],
      ['verify', { itemId }],
      ['promote', { itemId, target: 'pool' }],
      ['remove', { itemId }],
      ['promoteToMemory', { itemId }],
      ['rebuild', { agentId: 'ses-1' }],
      ['refresh', { agentId: 'ses-1/explorer' }],
      ['controlAgent', { agentId: 'ses-1', action: 'pause' }],
    ] as const) {
      expect(await refusal(name, args), name).toMatchObject({ code: 'conflict', message: expect.stringContaining('read-only') });
    }
    expect(await refusal('getConversation', { agentId: 'ses-1' })).toMatchObject({ code: 'not_found', message: expect.stringContaining('attached session') });
    expect(await refusal('getGeneration', { agentId: 'ses-1', number: 99 })).toMatchObject({ code: 'not_found' });
    expect(await refusal('getAgent', { agentId: 'ses-1/nobody' })).toMatchObject({ code: 'not_found' });
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('[mask-secrets] no secret of the session leaves the host or reaches the catalog; the views see it masked', async () => {
    const seen = JSON.stringify([
      await value('listAgents', {}),
      await value('getAgent', { agentId: 'ses-1' }),
      await value('listAttached', {}),
      await value('getSession', { sessionId: 'ses-1' }),
      await value('getGeneration', { agentId: 'ses-1', number: 1 }),
      await value('getGeneration', { agentId: 'ses-1' }),
      await value('getGeneration', { agentId: 'ses-1/explorer' }),
      await value('diffGenerations', { agentId: 'ses-1', from: 1, to: (await value<GenerationDto>('getGeneration', { agentId: 'ses-1' })).number }),
      events,
    ]);
    // The session's content is there (masked), so the absence of the secrets means something.
    expect(seen).toContain('Fix the login bug');
    expect(seen).toContain('[secret masked');
    expect(seen).toContain('src/auth/session.ts:12');
    for (const secret of SECRETS) expect(seen).not.toContain(secret);
    for (const f of [catalogPath, `${catalogPath}-wal`]) {
      if (!existsSync(f)) continue;
      const bytes = readFileSync(f).toString('latin1');
      for (const secret of SECRETS) expect(bytes).not.toContain(secret);
      expect(bytes).not.toContain('Fix the login bug');
    }
  });

  it('[live-agents] detaching removes the session\'s agents from the tree', async () => {
    await value('detachSession', { sessionId: 'ses-1' });
    expect(events.at(-1)).toEqual({ name: 'session.detached', payload: { sessionId: 'ses-1' } });
    const { agents } = await value<{ agents: AgentDto[] }>('listAgents', {});
    expect(agents.some((a) => a.sessionId !== undefined)).toBe(false);
    expect(await refusal('getGeneration', { agentId: 'ses-1' })).toMatchObject({ code: 'not_found' });
  });
});
