import { describe, expect, it } from 'vitest';
import type { RootState } from '../../../../../renderer/store/reduce';
import { selectLog } from '../../../../../renderer/store/log/logSelectors';
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
