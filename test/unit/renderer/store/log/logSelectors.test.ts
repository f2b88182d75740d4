import { describe, expect, it } from 'vitest';
import type { RootState } from '../../../../../renderer/store/reduce';
import { logTarget, selectLog, selectLogSummary, selectStripLog } from '../../../../../renderer/store/log/logSelectors';
import { makeLogEntry, stateWithAgents } from '../../fixtures';

describe('selectLog', () => {
  it('the newest lines, of one agent when asked', () => {
    const s: RootState = {
      ...stateWithAgents([]),
      log: { entries: [1, 2, 3, 4, 5].map((seq) => makeLogEntry(seq, { agentId: seq % 2 ? 'odd' : 'even' })) },
    };
    expect(selectLog(s, 2).map((e) => e.seq)).toEqual([4, 5]);
    expect(selectLog(s, 10).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(selectLog(s, 2, 'odd').map((e) => e.seq)).toEqual([3, 5]);
    expect(selectLog(s, 5, 'nobody')).toEqual([]);
  });
});

describe('the log strip selectors', () => {
  it('logTarget: a line leads to its agent and the generation it names', () => {
    expect(logTarget(makeLogEntry(1, { agentId: 'w', message: 'Turn 4 · gen 2 · 1 tool call(s) · prompt 900 tokens' }))).toEqual({ agentId: 'w', generation: 2 });
    expect(logTarget(makeLogEntry(2, { agentId: 'w', message: 'Context refreshed · Generation 1 → 3 · Reason: context limit' }))).toEqual({ agentId: 'w', generation: 3 });
    expect(logTarget(makeLogEntry(3, { agentId: 'w', message: 'Spawned x (worker) for: y' }))).toEqual({ agentId: 'w', generation: null });
    expect(logTarget(makeLogEntry(4, { agentId: null, message: 'Turn 4 · gen 2' }))).toBeNull();
  });

  it('selectStripLog leaves out the hidden kinds and still fills the limit', () => {
    const entries = [
      makeLogEntry(1, { message: 'Turn 1 · gen 1 · 0 tool call(s)' }),
      makeLogEntry(2, { message: 'Conversation summarize (threshold) compacted: 9000 → 2000 tokens' }),
      makeLogEntry(3, { message: 'Spawned a' }),
      makeLogEntry(4, { message: 'Conversation summarize (threshold) compacted: 8000 → 2000 tokens' }),
    ];
    const s: RootState = { ...stateWithAgents([], { hiddenKinds: ['compaction'] }), log: { entries } };
    expect(selectStripLog(s, 2).map((e) => e.seq)).toEqual([1, 3]);
    expect(selectStripLog({ ...s, ui: { ...s.ui, hiddenKinds: [] } }, 2).map((e) => e.seq)).toEqual([3, 4]);
  });

  it('selectLogSummary counts only errors and warnings, so it changes when one arrives', () => {
    const s = (levels: ('info' | 'warn' | 'error')[]): RootState => ({ ...stateWithAgents([]), log: { entries: levels.map((level, i) => makeLogEntry(i + 1, { level })) } });
    expect(selectLogSummary(s(['info', 'info']))).toBe('No errors or warnings');
    expect(selectLogSummary(s(['info', 'error', 'warn', 'warn']))).toBe('1 error · 2 warnings');
    expect(selectLogSummary(s(['warn']))).toBe('1 warning');
  });
});
