import { describe, expect, it } from 'vitest';
import type { AgentDto, StrataEvent } from '../../../../../engine/contract';
import { contextLimitReason } from '../../../../../engine/shared/contextLimitReason';
import { agentFlags, FLAG_THRESHOLDS, flagsTitle, limitRefreshOf } from '../../../../../renderer/store/agents/agentFlags';
import { initialRootState, reduce, type RootState } from '../../../../../renderer/store/reduce';
import { agentUpdated, logEvent, makeAgent, makeLogEntry, stateWithAgents } from '../../fixtures';

const now = Date.parse('2026-01-01T12:00:00.000Z');
const fresh = { runRunning: true, now };
const kinds = (flags: { kind: string }[]) => flags.map((f) => f.kind);
const at = (msAgo: number) => new Date(now - msAgo).toISOString();
const refusal = 'prompt is too long: 203928 tokens > 200000 maximum';
const limitBoundary = { kind: 'refresh' as const, reason: contextLimitReason(refusal) };
const lastError = (message: string, seq = 9) => ({ message, at: at(0), seq });

describe('agentFlags', () => {
  it('raises no flag for an agent that is doing fine', () => {
    expect(agentFlags(makeAgent('a', { updatedAt: at(1000), cacheHitRate: 0.8, usage: { input: 5000, cacheRead: 40_000, cacheWrite: 0, output: 0 } }), fresh)).toEqual([]);
  });

  it.each([
    ['error: a failed agent', makeAgent('a', { status: 'failed', updatedAt: at(0) }), {}, 'error', 'events'],
    ['error: an agent that carries an error line, with its text', makeAgent('a', { updatedAt: at(0), lastError: lastError('a failed: provider 500') }), {}, 'error', 'events'],
    ['refreshed: a context-limit refresh began the current generation', makeAgent('a', { generation: 2, updatedAt: at(0), boundary: limitBoundary }), {}, 'refreshed', 'agent'],
    ['over budget: tokens above the engine budget', makeAgent('a', { tokens: 10_001, budget: 10_000, updatedAt: at(0) }), {}, 'overBudget', 'agent'],
    ['low hit rate: below the threshold after enough prompt tokens', makeAgent('a', { cacheHitRate: FLAG_THRESHOLDS.lowHitRate - 0.01, usage: { input: FLAG_THRESHOLDS.lowHitRateMinPromptTokens, cacheRead: 0, cacheWrite: 0, output: 0 }, updatedAt: at(0) }), {}, 'lowHitRate', 'charts'],
    ['stalled: running with no change for the stall time', makeAgent('a', { status: 'running', updatedAt: at(FLAG_THRESHOLDS.stalledMs) }), {}, 'stalled', 'events'],
  ])('%s', (_, agent, facts, kind, view) => {
    const flags = agentFlags(agent, { ...fresh, ...facts });
    expect(kinds(flags)).toEqual([kind]);
    expect(flags[0]?.cause).toMatchObject({ view, agentId: 'a' });
  });

  it('keeps each flag just below its threshold quiet', () => {
    expect(agentFlags(makeAgent('a', { tokens: 10_000, budget: 10_000, updatedAt: at(0) }), fresh)).toEqual([]);
    expect(agentFlags(makeAgent('a', { cacheHitRate: 0, usage: { input: FLAG_THRESHOLDS.lowHitRateMinPromptTokens - 1, cacheRead: 0, cacheWrite: 0, output: 0 }, updatedAt: at(0) }), fresh)).toEqual([]);
    expect(agentFlags(makeAgent('a', { updatedAt: at(FLAG_THRESHOLDS.stalledMs - 1) }), fresh)).toEqual([]);
    // The generation after the refreshed one began with a rebuild: the agent moved on since.
    expect(agentFlags(makeAgent('a', { generation: 3, updatedAt: at(0), boundary: { kind: 'rebuild', reason: 'budget reached: appending would exceed 64000 tokens' } }), fresh)).toEqual([]);
  });

  it('counts no stall while the run is paused or the agent is not running', () => {
    expect(agentFlags(makeAgent('a', { updatedAt: at(10 * FLAG_THRESHOLDS.stalledMs) }), { ...fresh, runRunning: false })).toEqual([]);
    expect(agentFlags(makeAgent('a', { status: 'waiting', updatedAt: at(10 * FLAG_THRESHOLDS.stalledMs) }), fresh)).toEqual([]);
  });

  it('lists the worst first, opens a refresh on its generation, and says in the tooltip which budget is which', () => {
    const agent = makeAgent('a', { status: 'failed', generation: 2, tokens: 42_000, budget: 64_000, updatedAt: at(0), boundary: limitBoundary, lastError: lastError('a failed: boom') });
    const flags = agentFlags(agent, fresh);
    expect(kinds(flags)).toEqual(['error', 'refreshed']);
    expect(flags[1]?.cause).toEqual({ view: 'agent', agentId: 'a', generation: 2 });
    const title = flagsTitle(flags);
    expect(title).toContain('Error: a failed: boom');
    expect(title).toContain('provider window 200k');
    expect(title).toContain('engine budget 64k');
  });
});

describe('limitRefreshOf', () => {
  it('[agent-boundary] reads a context-limit refresh from how the current generation began, with the provider refusal as its reason', () => {
    expect(limitRefreshOf(makeAgent('a', { generation: 2, boundary: limitBoundary }))).toEqual({ generation: 2, reason: refusal });
  });

  it.each([
    ['an agent not built yet', undefined],
    ['a first build', { kind: 'start' as const, reason: 'first build' }],
    ['a rebuild at the budget', { kind: 'rebuild' as const, reason: 'budget reached: appending would exceed 64000 tokens' }],
    ["an operator's refresh", { kind: 'refresh' as const, reason: 'manual refresh by an operator' }],
    ['a refresh the indicators asked for', { kind: 'refresh' as const, reason: 'indicators: utilization, transcriptBloat' }],
    ['a rebuild that only quotes the words', { kind: 'rebuild' as const, reason: contextLimitReason(refusal) }],
  ])('[agent-boundary] finds none for %s', (_, boundary) => {
    expect(limitRefreshOf(makeAgent('a', { generation: 2, ...(boundary ? { boundary } : {}) }))).toBeUndefined();
  });

  it('[agent-boundary] flags the same after a reload as while the page watched the refresh happen', () => {
    const before = makeAgent('worker-store', { generation: 1, revision: 4, updatedAt: at(0), boundary: { kind: 'start', reason: 'first build' } });
    const after: AgentDto = { ...before, generation: 2, revision: 7, tokens: 42_000, budget: 64_000, boundary: limitBoundary };
    const events: StrataEvent[] = [
      { name: 'context.refreshed', payload: { refreshes: [{ agentId: 'worker-store', from: 1, to: 2, reason: refusal }] } },
      logEvent(makeLogEntry(1, { agentId: 'worker-store', message: `Context refreshed · Generation 1 → 2 · Reason: ${contextLimitReason(refusal)}` })),
      agentUpdated(after),
    ];
    const watched = events.reduce<RootState>((s, event) => reduce(s, { type: 'event', event }), reduce(initialRootState, { type: 'agents.snapshot', agents: [before] }));
    // A reload: a new page, nothing seen, only the agents the host lists.
    const reloaded = reduce(initialRootState, { type: 'agents.snapshot', agents: [after] });
    const flagsOf = (s: RootState) => {
      const agent = s.agents.byId['worker-store'] as AgentDto;
      return agentFlags(agent, fresh);
    };
    const seen = flagsOf(watched);
    expect(seen.map((f) => f.kind)).toEqual(['refreshed']);
    expect(seen[0]?.detail).toBe(`Refreshed by a context limit into generation 2: ${refusal} (204k tokens > provider window 200k; engine budget 64k (the context % in the tree) is a different figure)`);
    expect(flagsOf(reloaded)).toEqual(seen);
  });
});

describe('the error flag after a reload', () => {
  it('[agent-last-error] flags the same, with the same text, as while the page watched the error happen', () => {
    const before = makeAgent('worker-store', { revision: 4, updatedAt: at(0) });
    const after: AgentDto = { ...before, status: 'done', revision: 5, lastError: lastError('worker-store cancelled: provider 500 after 3 retries', 12) };
    const events: StrataEvent[] = [logEvent(makeLogEntry(12, { agentId: 'worker-store', level: 'error', message: after.lastError!.message })), agentUpdated(after)];
    const watched = events.reduce<RootState>((s, event) => reduce(s, { type: 'event', event }), reduce(initialRootState, { type: 'agents.snapshot', agents: [before] }));
    const reloaded = reduce(initialRootState, { type: 'agents.snapshot', agents: [after] });
    const flagsOf = (s: RootState) => agentFlags(s.agents.byId['worker-store'] as AgentDto, fresh);
    const seen = flagsOf(watched);
    expect(seen.map((f) => [f.kind, f.detail])).toEqual([['error', 'Error: worker-store cancelled: provider 500 after 3 retries']]);
    expect(flagsOf(reloaded)).toEqual(seen);
  });

  it('[agent-last-error] raises no error flag from a log line alone: an old run’s error does not stick to the new run’s agent of the same id', () => {
    const s = stateWithAgents([makeAgent('a', { updatedAt: at(0) })]);
    const withLine = reduce(s, { type: 'event', event: logEvent(makeLogEntry(3, { agentId: 'a', level: 'error', message: 'a failed: an older run' })) });
    expect(agentFlags(withLine.agents.byId['a'] as AgentDto, fresh)).toEqual([]);
  });
});
