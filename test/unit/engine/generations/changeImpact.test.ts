import { describe, expect, it } from 'vitest';
import { changeImpact, type ImpactInput, type ItemChange } from '../../../../engine/generations/changeImpact';
import { identity, item, newEngine, taskItems } from '../../../support/engineFixtures';

const entry = (id: string, layer: 'L1' | 'L2', tokens: number) => ({ item: { id } as never, layer, tokens, score: 0.5, tier: 2 as const, why: '' });

/** a holds x in L1; b holds x in L2 after y (x then z follow); c does not hold x. */
const agents: ImpactInput[] = [
  { agentId: 'a', generation: { number: 2, layerTokens: { L0: 100, L1: 300, L2: 550, L3: 50 }, included: [entry('x', 'L1', 40), entry('y', 'L2', 500)] } },
  { agentId: 'b', generation: { number: 1, layerTokens: { L0: 100, L1: 200, L2: 550, L3: 50 }, included: [entry('y', 'L2', 300), entry('x', 'L2', 150), entry('z', 'L2', 100)] } },
  { agentId: 'c', generation: { number: 4, layerTokens: { L0: 100, L1: 200, L2: 150, L3: 50 }, included: [entry('y', 'L2', 150)] } },
];

describe('changeImpact', () => {
  it.each<[ItemChange, [string, string | null, string, number][]]>([
    ['remove', [['a', 'L1', 'next build', 900], ['b', 'L2', 'next build', 300]]],
    ['verify', [['a', 'L1', 'next boundary', 900], ['b', 'L2', 'next boundary', 300]]],
    ['promote', [['a', 'L1', 'next boundary', 900], ['b', 'L2', 'next boundary', 300]]],
    ['pin', [['a', 'L1', 'next build', 900], ['b', 'L2', 'next build', 800], ['c', null, 'next build', 400]]],
    ['unpin', [['a', 'L1', 'next build', 900], ['b', 'L2', 'next build', 50], ['c', null, 'next build', 50]]],
  ])('[change-preview] %s: who starts a new generation, when, and the tokens its cache loses', (change, expected) => {
    expect(changeImpact('x', change, agents).map((i) => [i.agentId, i.layer, i.when, i.lostTokens])).toEqual(expected);
  });

  it('[change-preview] the Engine previews over every built agent that has not ended, and changes nothing', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity({ budget: 4000 }));
    engine.registerAgent(identity({ agentId: 'worker-2', budget: 4000 }));
    engine.registerAgent(identity({ agentId: 'worker-3', budget: 4000 }));
    for (const i of taskItems()) engine.addItem(i);
    engine.addItem(item({ id: 'f1' }));
    engine.build('worker-1', { phase: 'implement', files: ['src/auth/store.ts'] });
    engine.build('worker-2', { phase: 'implement', files: ['src/auth/store.ts'] });
    const before = [engine.currentGeneration('worker-1'), engine.currentGeneration('worker-2'), engine.items().length];

    const preview = engine.previewChange('acceptance', 'remove');
    expect(preview.map((p) => [p.agentId, p.layer, p.when])).toEqual([
      ['worker-1', 'L1', 'next build'],
      ['worker-2', 'L1', 'next build'],
    ]);
    const g1 = engine.generation('worker-1', 1);
    expect(preview[0]?.lostTokens).toBe(g1.layerTokens.L1 + g1.layerTokens.L2 + g1.layerTokens.L3);
    expect([engine.currentGeneration('worker-1'), engine.currentGeneration('worker-2'), engine.items().length]).toEqual(before);

    // What the preview said happens: both holders start a new generation at their next build.
    engine.remove('acceptance');
    expect(engine.build('worker-1', { phase: 'implement' }).started).toBe(true);
    expect(engine.build('worker-2', { phase: 'implement' }).started).toBe(true);
    engine.endAgent('worker-2');
    expect(engine.previewChange('f1', 'pin').map((p) => p.agentId)).toEqual(['worker-1']);
    expect(() => engine.previewChange('nope', 'remove')).toThrow(/No item "nope"/);
  });
});
