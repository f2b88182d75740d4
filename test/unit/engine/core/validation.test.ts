import { describe, expect, it } from 'vitest';
import type { StrategyName } from '../../../../engine/strategies/Strategy';
import { identity, newEngine } from '../../../support/engineFixtures';

describe('bad strategy names are refused and change nothing', () => {
  it.each(['bogus', 'toString', 'constructor', '__proto__'])('registerAgent refuses %j', (name) => {
    // `name in strategies` also accepts Object.prototype keys: 'toString' would get a NaN budget.
    const { engine } = newEngine();
    expect(() => engine.registerAgent(identity(), name as StrategyName)).toThrow(/Unknown strategy/);
    expect(engine.agentIds()).toEqual([]);
  });
});
