import { describe, expect, it } from 'vitest';
import { agentFlags, FLAG_THRESHOLDS, flagsTitle, selectAgentFacts } from '../../../../../renderer/store/agents/agentFlags';
import { makeAgent, stateWithAgents } from '../../fixtures';

const now = Date.parse('2026-01-01T12:00:00.000Z');
const fresh = { runRunning: true, now };
const kinds = (flags: { kind: string }[]) => flags.map((f) => f.kind);
const at = (msAgo: number) => new Date(now - msAgo).toISOString();

describe('agentFlags', () => {
  it('raises no flag for an agent that is doing fine', () => {
    expect(agentFlags(makeAgent('a', { updatedAt: at(1000), cacheHitRate: 0.8, usage: { input: 5000, cacheRead: 40_000, cacheWrite: 0, output: 0 } }), fresh)).toEqual([]);
  });

  it.each([
    ['error: a failed agent', makeAgent('a', { status: 'failed', updatedAt: at(0) }), {}, 'error', 'events'],
    ['error: an error line of the agent, with its text', makeAgent('a', { updatedAt: at(0) }), { lastError: 'a failed: provider 500' }, 'error', 'events'],
    ['refreshed: a context-limit refresh into the current generation', makeAgent('a', { generation: 2, updatedAt: at(0) }), { lastRefresh: { generation: 2, reason: 'provider context-limit error: prompt is too long: 203928 tokens > 200000 maximum' } }, 'refreshed', 'agent'],
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
    // A refresh into an older generation: the agent moved on since.
    expect(agentFlags(makeAgent('a', { generation: 3, updatedAt: at(0) }), { ...fresh, lastRefresh: { generation: 2, reason: 'x' } })).toEqual([]);
  });

  it('counts no stall while the run is paused or the agent is not running', () => {
    expect(agentFlags(makeAgent('a', { updatedAt: at(10 * FLAG_THRESHOLDS.stalledMs) }), { ...fresh, runRunning: false })).toEqual([]);
    expect(agentFlags(makeAgent('a', { status: 'waiting', updatedAt: at(10 * FLAG_THRESHOLDS.stalledMs) }), fresh)).toEqual([]);
  });

  it('lists the worst first, opens a refresh on its generation, and says in the tooltip which budget is which', () => {
    const agent = makeAgent('a', { status: 'failed', generation: 2, tokens: 42_000, budget: 64_000, updatedAt: at(0) });
    const flags = agentFlags(agent, { ...fresh, lastError: 'a failed: boom', lastRefresh: { generation: 2, reason: 'provider context-limit error: prompt is too long: 203928 tokens > 200000 maximum' } });
    expect(kinds(flags)).toEqual(['error', 'refreshed']);
    expect(flags[1]?.cause).toEqual({ view: 'agent', agentId: 'a', generation: 2 });
    const title = flagsTitle(flags);
    expect(title).toContain('Error: a failed: boom');
    expect(title).toContain('provider window 200k');
    expect(title).toContain('engine budget 64k');
  });
});

describe('selectAgentFacts', () => {
  it('takes each agent’s newest error line and newest refresh marker, and keeps its result while they do not change', () => {
    const s = stateWithAgents([makeAgent('a'), makeAgent('b')]);
    const state = {
      ...s,
      events: {
        ...s.events,
        entries: [
          { id: 'log:1', kind: 'error' as const, level: 'error' as const, agentId: 'a', at: 1, text: 'a failed: first' },
          { id: 'log:2', kind: 'error' as const, level: 'debug' as const, agentId: 'b', at: 2, text: 'Turn 3 · gen 2 · 1 retry (1 refresh)' },
          { id: 'log:3', kind: 'error' as const, level: 'error' as const, agentId: 'a', at: 3, text: 'a failed: second' },
        ],
      },
      usage: { ...s.usage, markers: { b: [{ agentId: 'b', generation: 2, kind: 'refresh' as const, reason: 'limit' }, { agentId: 'b', generation: 3, kind: 'generation' as const, reason: 'rebuild' }] } },
    };
    const facts = selectAgentFacts(state);
    expect(facts).toEqual({ a: { lastError: 'a failed: second' }, b: { lastRefresh: { generation: 2, reason: 'limit' } } });
    expect(selectAgentFacts(state)).toBe(facts);
  });
});
