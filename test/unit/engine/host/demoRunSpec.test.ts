import { describe, expect, it } from 'vitest';
import { generateDemoRun } from '../../../../engine/demo/generateDemoRun';
import { DEMO_RESTART_MS, demoRunSpec } from '../../../../engine/host/demoRunSpec';
import { demoFiles } from '../../../support/demoFiles';
import { quarterTokenizer } from '../../../support/engineFixtures';

describe('demoRunSpec', () => {
  it('[turn-atomic] the demo run\'s policy is on its spec: a failed commit rebuilds it from the catalog, and a finished demo starts over after DEMO_RESTART_MS', () => {
    const spec = demoRunSpec(generateDemoRun(demoFiles, 1), 100, quarterTokenizer);
    expect(spec).toMatchObject({ runId: 'demo', driver: 'trace', tickMs: 100, onCommitFailure: 'rebuild-from-catalog', restartAfterFinishMs: DEMO_RESTART_MS });
  });

  it('moves its scenario clock one step per turn from the demo\'s start', () => {
    const spec = demoRunSpec(generateDemoRun(demoFiles, 1), 0, quarterTokenizer);
    const t0 = spec.clock.now();
    expect(t0).toBe(Date.parse('2026-01-05T09:00:00Z'));
    spec.beforeTurn?.();
    spec.beforeTurn?.();
    expect(spec.clock.now() - t0).toBe(40_000);
  });
});
