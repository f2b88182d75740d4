import { generationTokens } from '../../../../engine/generations/Generation';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../../../engine/Engine';
import type { EngineEvent } from '../../../../engine/EngineEvent';
import type { ContextItem } from '../../../../engine/items/ContextItem';
import { createItem, type ItemInput } from '../../../../engine/items/createItem';
import { autoRefreshDue, computeIndicators, indicatorThresholds, type IndicatorInput, type Indicators } from '../../../../engine/refresh/indicators';
import { identity, item, newEngine, T0, taskItems } from '../../../support/engineFixtures';

const mk = (over: Partial<ItemInput> = {}): ContextItem =>
  createItem({ id: 'x', kind: 'note', class: 'finding', content: 'c', source: 'worker_finding', agentId: 'worker-1', taskId: 't', at: T0, ...over });
const input = (over: Partial<IndicatorInput> = {}): IndicatorInput => ({ tokens: 100, budget: 1000, phase: 'implement', ownItems: [], included: [], stalledBuilds: 0, ...over });
const fired = (i: Indicators) => i.fired;

describe('computeIndicators', () => {
  it('[indicators-recorded] a quiet context fires nothing', () => {
    expect(computeIndicators(input())).toEqual({ utilization: 0.1, repeatedToolSignatures: 0, repeatedFailedEdits: 0, stalledBuilds: 0, obsoletePhaseShare: 0, transcriptShare: 0, fired: [] });
    expect(computeIndicators(input({ budget: 0 })).utilization).toBe(0);
  });

  it.each<[string, Partial<IndicatorInput>, Partial<Indicators>, string[]]>([
    ['utilization at the threshold', { tokens: 850 }, { utilization: 0.85 }, ['utilization']],
    ['utilization below it', { tokens: 849 }, { utilization: 0.849 }, []],
    ['one tool signature three times', { ownItems: [1, 2, 3].map(() => mk({ signature: 'grep token' })) }, { repeatedToolSignatures: 3 }, ['repeatedToolSignatures']],
    ['signatures twice each', { ownItems: ['a', 'b', 'a', 'b'].map((s) => mk({ signature: s })) }, { repeatedToolSignatures: 2 }, []],
    ['a failed edit repeated on one signature', { ownItems: [1, 2].map(() => mk({ kind: 'failure', signature: 'edit src/a.ts' })) }, { repeatedFailedEdits: 2 }, ['repeatedFailedEdits']],
    ['a failed edit repeated on one file', { ownItems: [1, 2].map((n) => mk({ kind: 'failure', files: ['src/a.ts'], title: `fail ${n}` })) }, { repeatedFailedEdits: 2 }, ['repeatedFailedEdits']],
    ['failures on different files', { ownItems: ['a', 'b'].map((f) => mk({ kind: 'failure', files: [`src/${f}.ts`] })) }, { repeatedFailedEdits: 0 }, []],
    ['stalled for eight builds', { stalledBuilds: 8 }, { stalledBuilds: 8 }, ['stalledBuilds']],
    ['stalled for seven', { stalledBuilds: 7 }, { stalledBuilds: 7 }, []],
    ['material of another phase', { included: [{ item: mk({ phase: 'explore' }), tokens: 30 }, { item: mk({ phase: 'implement' }), tokens: 70 }] }, { obsoletePhaseShare: 0.3 }, ['obsoletePhaseShare']],
    ['phase-less material is not obsolete', { included: [{ item: mk(), tokens: 30 }] }, { obsoletePhaseShare: 0 }, []],
    ['transcript bloat', { included: [{ item: mk({ kind: 'tool_output' }), tokens: 20 }, { item: mk({ kind: 'transcript' }), tokens: 10 }, { item: mk({ class: 'ephemeral' }), tokens: 10 }, { item: mk({ class: 'raw_history' }), tokens: 10 }, { item: mk(), tokens: 50 }] }, { transcriptShare: 0.5 }, ['transcriptShare']],
  ])('[indicators-recorded] %s', (_name, over, values, expectFired) => {
    const i = computeIndicators(input(over));
    expect(i).toMatchObject(values);
    expect(fired(i)).toEqual(expectFired);
  });

  it('[indicators-recorded] the thresholds are the documented ones', () => {
    expect(indicatorThresholds).toEqual({ utilization: 0.85, repeatedToolSignatures: 3, repeatedFailedEdits: 2, stalledBuilds: 8, obsoletePhaseShare: 0.3, transcriptShare: 0.5 });
  });

  it.each<[string[], boolean]>([
    [[], false],
    [['utilization'], false],
    [['transcriptShare'], false],
    [['repeatedToolSignatures', 'repeatedFailedEdits', 'stalledBuilds', 'obsoletePhaseShare', 'transcriptShare'], false],
    [['utilization', 'stalledBuilds'], true],
    [['utilization', 'repeatedToolSignatures', 'transcriptShare'], true],
  ])('[no-single-trigger] [auto-refresh-rule] fired %j: refresh due %s', (names, due) => {
    expect(autoRefreshDue({ ...computeIndicators(input()), fired: names })).toBe(due);
  });
});

/** Adds the agent's own items and builds until utilization reaches its threshold (85%). */
function fillTo(engine: Engine, budget: number, make: (k: number) => Partial<ItemInput>, start = 0): number {
  let k = start;
  for (; k < start + 500; k++) {
    engine.addItem(item({ id: `fill-${k}`, content: `filler ${k} `.repeat(4), ...make(k) }));
    const r = engine.build('worker-1', { phase: 'implement' });
    expect(r.started, `fill build ${k} must stay in the generation`).toBe(false);
    if (generationTokens(r.generation) / budget >= indicatorThresholds.utilization) return k + 1;
  }
  throw new Error('never filled');
}

function setup(over: { autoRefresh?: boolean; budget?: number } = {}) {
  const budget = over.budget ?? 2000;
  const { engine } = newEngine(over.autoRefresh === undefined ? {} : { autoRefresh: over.autoRefresh });
  engine.registerAgent(identity({ budget }));
  for (const i of taskItems()) engine.addItem(i);
  const events: EngineEvent[] = [];
  engine.on((e) => events.push(e));
  engine.build('worker-1', { phase: 'implement' });
  return { engine, budget, events };
}

describe('indicators on every build', () => {
  it('[indicators-recorded] each indicator moves with its own input, and every build records and announces them', () => {
    const { engine, events } = setup({ budget: 20_000 });
    const build = () => engine.build('worker-1', { phase: 'implement' }).generation.indicators;
    const series: Indicators[] = [];

    // Stalled: builds without a new finding, decision or report.
    series.push(build(), build());
    expect(series.map((i) => i.stalledBuilds)).toEqual([2, 3]);
    engine.addItem(item({ id: 'progress', kind: 'finding', class: 'finding' }));
    expect(build().stalledBuilds).toBe(0);
    expect(build().stalledBuilds).toBe(1);

    // Repeated tool signatures: only the agent's own items count.
    engine.addItem(item({ id: 'theirs', kind: 'tool_output', class: 'ephemeral', signature: 'grep token', agentId: 'other', relevance: 1, confidence: 1 }));
    expect(build().repeatedToolSignatures).toBe(0);
    for (const n of [1, 2, 3]) {
      engine.addItem(item({ id: `grep-${n}`, kind: 'tool_output', class: 'ephemeral', signature: 'grep token', content: `grep hit ${n}` }));
      expect(build().repeatedToolSignatures).toBe(n);
    }
    expect(build().fired).toContain('repeatedToolSignatures');

    // Repeated failed edits on one signature.
    engine.addItem(item({ id: 'fail-1', kind: 'failure', class: 'task_state', signature: 'edit src/auth/refresh.ts', content: 'edit failed: conflict' }));
    expect(build().repeatedFailedEdits).toBe(0);
    engine.addItem(item({ id: 'fail-2', kind: 'failure', class: 'task_state', signature: 'edit src/auth/refresh.ts', content: 'edit failed again' }));
    expect(build().repeatedFailedEdits).toBe(2);

    // Obsolete phase material and transcript share grow with what is included.
    const before = build();
    engine.addItem(item({ id: 'explore-dump', kind: 'tool_output', class: 'ephemeral', phase: 'explore', content: 'ls -R output\n'.repeat(80) }));
    const after = build();
    expect(after.obsoletePhaseShare).toBeGreaterThan(before.obsoletePhaseShare);
    expect(after.transcriptShare).toBeGreaterThan(before.transcriptShare);
    expect(after.utilization).toBeGreaterThan(before.utilization);

    // Recorded on the generation and announced with every build.
    const g = engine.generations('worker-1').at(-1)!;
    expect(g.indicators).toEqual(after);
    expect(g.indicators.utilization).toBe(generationTokens(g) / g.budget);
    const built = events.filter((e) => e.type === 'generation.built');
    expect(built).toHaveLength(g.builds);
    expect(built.at(-1)).toMatchObject({ type: 'generation.built', indicators: after });
  });

  it('[no-single-trigger] with autoRefresh off (the default) every indicator firing at once starts no new generation', () => {
    const { engine, budget } = setup();
    let k = 0;
    for (const n of [1, 2, 3]) engine.addItem(item({ id: `grep-${n}`, kind: 'tool_output', class: 'ephemeral', signature: 'grep token', phase: 'explore', content: `grep ${n}` }));
    for (const n of [1, 2]) engine.addItem(item({ id: `fail-${n}`, kind: 'failure', class: 'task_state', signature: 'edit src/a.ts', content: `edit failed ${n}` }));
    k = fillTo(engine, budget, () => ({ kind: 'tool_output', class: 'ephemeral', phase: 'explore' }), k);
    let last = engine.build('worker-1', { phase: 'implement' });
    for (let n = 0; n < 8; n++) last = engine.build('worker-1', { phase: 'implement' });
    expect(last.generation.indicators.fired).toEqual(Object.keys(indicatorThresholds));
    const next = engine.build('worker-1', { phase: 'implement' });
    expect(next.started).toBe(false);
    expect(engine.generations('worker-1')).toHaveLength(1);
  });

  it('[no-single-trigger] with autoRefresh on, utilization alone does not refresh', () => {
    const { engine, budget } = setup({ autoRefresh: true });
    fillTo(engine, budget, () => ({ kind: 'finding', class: 'finding' }));
    const at = engine.build('worker-1', { phase: 'implement' });
    expect(at.generation.indicators.fired).toEqual(['utilization']);
    expect(engine.build('worker-1', { phase: 'implement' }).started).toBe(false);
    expect(engine.generations('worker-1')).toHaveLength(1);
  });

  it('[no-single-trigger] with autoRefresh on, another indicator without utilization does not refresh', () => {
    const { engine } = setup({ autoRefresh: true, budget: 20_000 });
    for (const n of [1, 2, 3, 4]) engine.addItem(item({ id: `grep-${n}`, kind: 'tool_output', class: 'ephemeral', signature: 'grep token', content: `grep ${n}` }));
    const at = engine.build('worker-1', { phase: 'implement' });
    expect(at.generation.indicators.fired).toEqual(['repeatedToolSignatures']);
    expect(engine.build('worker-1', { phase: 'implement' }).started).toBe(false);
  });

  it('[auto-refresh-rule] with autoRefresh on, utilization and another indicator refresh at the next build', () => {
    const { engine, budget, events } = setup({ autoRefresh: true });
    for (const n of [1, 2, 3]) engine.addItem(item({ id: `grep-${n}`, kind: 'tool_output', class: 'ephemeral', signature: 'grep token', content: `grep ${n}` }));
    fillTo(engine, budget, () => ({ kind: 'finding', class: 'finding' }));
    const due = engine.generations('worker-1').at(-1)!;
    expect(due.indicators.fired).toEqual(['utilization', 'repeatedToolSignatures']);
    // The build that saw the indicators was not itself replaced.
    expect(engine.generations('worker-1')).toHaveLength(1);

    const next = engine.build('worker-1', { phase: 'implement' });
    expect(next.started).toBe(true);
    expect(next.generation.boundary).toEqual({ kind: 'refresh', reason: 'indicators: utilization, repeatedToolSignatures' });
    expect(events.filter((e) => e.type === 'generation.started').at(-1)).toMatchObject({
      text: 'Context refreshed · Generation 1 → 2 · Reason: indicators: utilization, repeatedToolSignatures',
    });
    expect(engine.stats('worker-1').refreshReasons).toEqual(['indicators: utilization, repeatedToolSignatures']);
  });
});
