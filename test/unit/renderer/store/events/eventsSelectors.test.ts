import { describe, expect, it } from 'vitest';
import { countByKind, eventAgents, filterEvents } from '../../../../../renderer/store/events/eventsSelectors';
import type { EventEntry } from '../../../../../renderer/store/events/eventsSlice';

const entry = (n: number, over: Partial<EventEntry> = {}): EventEntry => ({ id: `log:${n}`, kind: 'log', level: 'info', agentId: null, at: n, text: `line ${n}`, ...over });
const entries = [
  entry(1, { kind: 'refresh', agentId: 'alpha', text: 'Context refreshed · Generation 1 → 2' }),
  entry(2, { kind: 'turn', agentId: 'b', text: 'Turn 1 · gen 1' }),
  entry(3, { kind: 'error', agentId: 'b', text: 'b failed: provider error' }),
  entry(4, { kind: 'memory', text: 'Project memory purged' }),
  entry(5, { kind: 'refresh', agentId: 'b', text: 'Context refreshed · Generation 2 → 3' }),
];

describe('filterEvents', () => {
  it('returns newest first, bounded', () => {
    expect(filterEvents(entries, { kinds: [], agentId: null, text: '' }, 3).map((e) => e.at)).toEqual([5, 4, 3]);
  });
  it('filters by kinds, agent and text together', () => {
    expect(filterEvents(entries, { kinds: ['refresh'], agentId: null, text: '' }, 10).map((e) => e.at)).toEqual([5, 1]);
    expect(filterEvents(entries, { kinds: ['refresh', 'error'], agentId: 'b', text: '' }, 10).map((e) => e.at)).toEqual([5, 3]);
    expect(filterEvents(entries, { kinds: [], agentId: null, text: 'PROVIDER' }, 10).map((e) => e.at)).toEqual([3]);
    // Text matches the agent id too.
    expect(filterEvents(entries, { kinds: ['refresh'], agentId: null, text: ' ALPH ' }, 10).map((e) => e.at)).toEqual([1]);
  });
  it('counts kinds and lists agents', () => {
    expect(countByKind(entries)).toEqual({ refresh: 2, turn: 1, error: 1, memory: 1 });
    expect(eventAgents(entries)).toEqual(['alpha', 'b']);
  });
});
