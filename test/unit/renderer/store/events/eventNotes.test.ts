import { describe, expect, it } from 'vitest';
import { eventNotes } from '../../../../../renderer/store/events/eventNotes';
import type { EventEntry } from '../../../../../renderer/store/events/eventsSlice';

const entry = (id: string, kind: EventEntry['kind'], agentId: string | null, text: string): EventEntry => ({ id, kind, level: kind === 'error' ? 'debug' : 'info', agentId, at: 0, text });

describe('eventNotes', () => {
  const refresh = entry('log:1', 'refresh', 'worker-store', 'Context refreshed · Generation 1 → 2 · Reason: provider context-limit error: prompt is too long: 203928 tokens > 200000 maximum');
  const retried = entry('log:2', 'error', 'worker-store', 'Turn 32 · gen 2 · 1 tool call(s) · prompt 42828 tokens, 0% cached (modeled) · prefix reuse 2% · 1 retry (1 refresh)');
  const other = entry('log:3', 'error', 'worker-x', 'Turn 5 · gen 1 · 1 tool call(s) · prompt 100 tokens, 0% cached · prefix reuse 2% · 1 retry (1 refresh)');

  it('shows the error behind a turn retried after a refresh, with the budgets named', () => {
    const notes = eventNotes([refresh, retried], [retried, refresh], { 'worker-store': 64_000 });
    expect(notes['log:2']).toBe('Error: provider context-limit error: prompt is too long: 203928 tokens > 200000 maximum · 204k tokens > provider window 200k; engine budget 64k (the context % in the tree) is a different figure');
    expect(notes['log:1']).toBe('204k tokens > provider window 200k; engine budget 64k (the context % in the tree) is a different figure');
  });

  it('adds nothing where the cause is not known, and only for the rows shown', () => {
    expect(eventNotes([refresh, retried, other], [other], {})).toEqual({});
    expect(eventNotes([refresh, retried], [], {})).toEqual({});
  });
});
