import { describe, expect, it } from 'vitest';
import type { StrataEvent } from '../../../../../engine/contract';
import { initialRootState, reduce, type RootState } from '../../../../../renderer/store/reduce';
import { selectActiveRun } from '../../../../../renderer/store/runs/runsSelectors';
import { startsNewRun } from '../../../../../renderer/store/runs/runsSlice';
import { selectStatusCounts, selectTotals, selectTreeRows } from '../../../../../renderer/store/agents/agentsSelectors';
import { agentUpdated, makeAgent } from '../../fixtures';
import { makeRun } from '../../generationFixtures';
import { makeCall, usageRecorded } from '../../usageFixtures';

const runChanged = (over: Parameters<typeof makeRun>[0]): StrataEvent => ({ name: 'run.changed', payload: { run: makeRun(over) } });
const ev = (s: RootState, event: StrataEvent) => reduce(s, { type: 'event', event });

/** A page that watched run A of the demo for a while: three agents at high revisions, charts filled, the primary inspected. */
function watchedRunA(): RootState {
  let s = reduce(initialRootState, { type: 'runs.list', runs: [makeRun({ status: 'running', startedAt: 1_000, turns: 69, agents: 3 })] });
  s = reduce(s, { type: 'agents.snapshot', agents: [makeAgent('primary', { revision: 300, status: 'running' }), makeAgent('worker-a', { parent: 'primary', revision: 120, status: 'done' }), makeAgent('worker-b', { parent: 'primary', revision: 90, status: 'done' })] });
  s = reduce(s, { type: 'agent.select', agentId: 'primary' });
  s = ev(s, usageRecorded([makeCall('primary', 60), makeCall('worker-a', 61)]));
  // An attached session's agent belongs to no run.
  s = ev(s, agentUpdated(makeAgent('ses-1', { sessionId: 'ses-1', revision: 4 })));
  return s;
}

describe('[run-follow] the views follow the run that is running', () => {
  it('after Stop → Start the tree, counts and charts show the new run, even with its revisions started over (the freeze)', () => {
    let s = watchedRunA();
    s = ev(s, runChanged({ status: 'stopped', startedAt: 1_000, turns: 69, agents: 3 }));
    expect(s.runs.epoch).toBe(0);
    s = ev(s, runChanged({ status: 'running', startedAt: 2_000, turns: 0, agents: 1 }));
    // The new run's primary at revision 0: before, revision 300 of the old run kept it frozen.
    s = ev(s, agentUpdated(makeAgent('primary', { revision: 0, status: 'waiting', tokens: 10 })));

    expect(s.runs.epoch).toBe(1);
    expect(selectTreeRows(s).map((r) => r.agent.agentId)).toEqual(['primary', 'ses-1']);
    expect(s.agents.byId.primary).toMatchObject({ revision: 0, status: 'waiting', tokens: 10 });
    expect(selectTotals(s)).toMatchObject({ agents: 2, running: 1 });
    expect(selectStatusCounts(['running', 'waiting', 'done'])(s)).toEqual([1, 1, 0]);
    expect(s.usage.byAgent.primary).toBeUndefined();
    expect(s.usage.overall).toEqual([]);
    expect(selectActiveRun(s)).toMatchObject({ status: 'running', turns: 0, agents: 1 });
    // The selection stays; its generations start over for the new run's agent of that id.
    expect(s.ui.selectedAgentId).toBe('primary');
    expect(s.generations).toMatchObject({ agentId: 'primary', list: { status: 'idle', value: [] } });
  });

  it('the demo starting over by itself (finished, then running again) begins a new run too; a start answered before its event begins it once', () => {
    let s = ev(watchedRunA(), runChanged({ status: 'finished', startedAt: 1_000 }));
    s = reduce(s, { type: 'run.result', run: makeRun({ status: 'running', startedAt: 1_000 }) });
    expect(s.runs.epoch).toBe(1);
    s = ev(s, runChanged({ status: 'running', startedAt: 1_000 }));
    expect(s.runs.epoch).toBe(1);
    expect(Object.keys(s.agents.byId)).toEqual(['ses-1']);
  });

  it('pause, resume, progress and the first listing are not a new run', () => {
    const list = reduce(initialRootState, { type: 'runs.list', runs: [makeRun({ status: 'running', startedAt: 1_000 })] }).runs;
    expect(startsNewRun(initialRootState.runs, makeRun({ status: 'running' }))).toBe(false);
    expect(startsNewRun(list, makeRun({ status: 'paused', startedAt: 1_000 }))).toBe(false);
    expect(startsNewRun(list, makeRun({ status: 'running', startedAt: 1_000, turns: 80 }))).toBe(false);
    expect(startsNewRun(list, makeRun({ status: 'stopped', startedAt: 1_000 }))).toBe(false);
    // Another id (a model run after the demo) or another start time is a new run.
    expect(startsNewRun(list, makeRun({ runId: 'run-1', status: 'running' }))).toBe(true);
    expect(startsNewRun(list, makeRun({ status: 'running', startedAt: 5_000 }))).toBe(true);
  });
});
