import { generationOverflow, generationTokens } from '../../../../engine/generations/Generation';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../../engine/Engine';
import { manualClock } from '../../../../engine/ports/Clock';
import { createTiktokenTokenizer } from '../../../../engine/tokens/tiktokenTokenizer';
import { identity, T0, taskItems } from '../../../support/engineFixtures';
import { longLivedScenario } from '../../../support/longLivedScenario';

/** Run the long-lived worker scenario and return its figures. */
function run(budget: number, turns: number) {
  const clock = manualClock(T0);
  const engine = new Engine({ tokenizer: createTiktokenTokenizer('o200k_base'), clock });
  engine.registerAgent(identity({ budget }));
  for (const i of taskItems()) engine.addItem(i);
  let maxTokens = 0;
  for (const turn of longLivedScenario({ turns, seed: 7, agentId: 'worker-1', taskId: 'task-auth', t0: T0 })) {
    clock.set(turn.items[0]?.at ?? clock.now());
    for (const i of turn.items) engine.addItem(i);
    const r = engine.build('worker-1', turn.request);
    maxTokens = Math.max(maxTokens, generationTokens(r.generation) - generationOverflow(r.generation));
  }
  const s = engine.stats('worker-1');
  return { reuse: s.reusedBytes / s.promptBytes, generations: s.generations, builds: s.builds, maxTokens, reasons: s.refreshReasons };
}

describe('a long-lived agent', () => {
  it('[reuse-target] reaches at least 95% prefix reuse over 240 turns under variable at a 100k budget', () => {
    const r = run(100_000, 240);
    console.log(
      `long-lived worker, 240 turns, budget 100k, variable: prefix reuse ${(r.reuse * 100).toFixed(2)}%, ${r.generations} generations, max prompt ${r.maxTokens} tokens`,
    );
    expect(r.builds).toBe(240);
    expect(r.maxTokens).toBeLessThanOrEqual(100_000);
    expect(r.generations).toBeGreaterThan(1);
    expect(r.reuse).toBeGreaterThanOrEqual(0.95);
  }, 60_000);
});
