import { describe, expect, it } from 'vitest';
import { selectActiveRun } from '../../../../../renderer/store/runs/runsSelectors';
import { initialRootState, reduce } from '../../../../../renderer/store/reduce';
import { makeRun } from '../../generationFixtures';

describe('runs selectors', () => {
  it('selectActiveRun prefers a running, paused or idle run over finished ones', () => {
    const s = reduce(initialRootState, { type: 'runs.list', runs: [makeRun({ runId: 'old', status: 'finished' }), makeRun({ runId: 'now', status: 'paused' })] });
    expect(selectActiveRun(s)?.runId).toBe('now');
    expect(selectActiveRun(reduce(initialRootState, { type: 'runs.list', runs: [makeRun({ runId: 'old', status: 'stopped' })] }))?.runId).toBe('old');
    expect(selectActiveRun(initialRootState)).toBeUndefined();
  });
});
