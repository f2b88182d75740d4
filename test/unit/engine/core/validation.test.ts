import { describe, expect, it } from 'vitest';
import type { StrategyName } from '../../../../engine/strategies/Strategy';
import { identity, newEngine } from '../../../support/engineFixtures';

describe('bad strategy names are refused and change nothing', () => {
  it.each(['bogus', 'toString', 'constructor', '__proto__'])('configure refuses %j', (name) => {
    // `name in strategies` also accepts Object.prototype keys: 'toString' gets a NaN budget.
    const { engine } = newEngine();
    engine.registerAgent(identity());
    const before = engine.build('worker-1', { phase: 'x' }).text;
    expect(() => engine.configure('worker-1', { strategy: name as StrategyName })).toThrow(/Unknown strategy/);
    const after = engine.build('worker-1', { phase: 'x' });
    expect(after.started).toBe(false);
    expect(after.text).toBe(before);
  });

  it.each(['bogus', 'toString'])('registerAgent refuses %j', (name) => {
    const { engine } = newEngine();
    expect(() => engine.registerAgent(identity(), name as StrategyName)).toThrow(/Unknown strategy/);
    expect(engine.agentIds()).toEqual([]);
  });
});
