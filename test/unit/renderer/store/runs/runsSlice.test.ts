import { describe, expect, it } from 'vitest';
import { reduceRuns, runsInitialState } from '../../../../../renderer/store/runs/runsSlice';
import { makeRun } from '../../generationFixtures';

describe('reduceRuns', () => {
  it('takes the listed runs, then keeps them current from run.changed and command results', () => {
    let s = reduceRuns(runsInitialState, { type: 'runs.list', runs: [makeRun({ status: 'running' })] });
    expect(s.loaded).toBe(true);
    s = reduceRuns(s, { type: 'event', event: { name: 'run.changed', payload: { run: makeRun({ status: 'paused', turns: 9 }) } } });
    expect(s.list).toEqual([makeRun({ status: 'paused', turns: 9 })]);
    s = reduceRuns(s, { type: 'run.result', run: makeRun({ runId: 'run-2', status: 'running' }) });
    expect(s.list.map((r) => r.runId)).toEqual(['run-2', 'demo']);
  });

  it('ignores other actions', () => {
    expect(reduceRuns(runsInitialState, { type: 'tree.filter', text: 'x' })).toBe(runsInitialState);
  });
});
