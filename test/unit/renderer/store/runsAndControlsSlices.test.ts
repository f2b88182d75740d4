import { describe, expect, it } from 'vitest';
import { controlsInitialState, reduceControls } from '../../../../renderer/store/controls/controlsSlice';
import { reduceRuns, runsInitialState } from '../../../../renderer/store/runs/runsSlice';
import { makeRun } from '../generationFixtures';

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

describe('reduceControls', () => {
  it('moves a target from pending to ok or error and can dismiss it', () => {
    let s = reduceControls(controlsInitialState, { type: 'control.pending', key: 'item:a', label: 'pin' });
    expect(s.byKey['item:a']).toEqual({ status: 'pending', label: 'pin', message: 'pin…' });
    s = reduceControls(s, { type: 'control.failed', key: 'item:a', label: 'pin', message: 'pin failed: No item a.' });
    expect(s.byKey['item:a']?.status).toBe('error');
    s = reduceControls(s, { type: 'control.done', key: 'agent:x', label: 'refresh', message: 'Context refreshed' });
    expect(Object.keys(s.byKey)).toEqual(['item:a', 'agent:x']);
    s = reduceControls(s, { type: 'control.dismiss', key: 'item:a' });
    expect(Object.keys(s.byKey)).toEqual(['agent:x']);
    expect(reduceControls(s, { type: 'control.dismiss', key: 'nope' })).toBe(s);
  });
});
