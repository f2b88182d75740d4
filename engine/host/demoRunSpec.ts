import type { DemoRunScript } from '../demo/generateDemoRun';
import { demoToolItems } from '../demo/demoToolItems';
import { manualClock } from '../ports/Clock';
import { createCacheModel } from '../providers/cacheModel';
import { priceWithCacheModel } from '../runtime/priceWithCacheModel';
import { TraceDriver } from '../runtime/TraceDriver';
import type { Tokenizer } from '../tokens/Tokenizer';
import type { RunSpec } from './HostRun';

/** The demo run's id; its position in the catalog is `run.demo.turns` (written by `HostRun`). */
export const DEMO_RUN_ID = 'demo';
/** Scenario time of the demo's first turn, and how far its clock moves per turn. */
const DEMO_T0 = Date.parse('2026-01-05T09:00:00Z');
const DEMO_TURN_MS = 20_000;
/** Milliseconds the finished demo rests before it starts over. */
export const DEMO_RESTART_MS = 15_000;

/**
 * The demo as a run: the generated script through the trace driver, on its own scenario clock (one
 * step of `DEMO_TURN_MS` per turn from `DEMO_T0`), priced by the provider cache model as Anthropic
 * would. Its policy: a failed commit rebuilds it from the catalog and it carries on; once finished
 * (while ticking) it rests `DEMO_RESTART_MS` and starts over.
 */
export function demoRunSpec(script: DemoRunScript, tickMs: number, tokenizer: Tokenizer): RunSpec {
  const clock = manualClock(DEMO_T0);
  return {
    runId: DEMO_RUN_ID,
    driver: 'trace',
    label: `Demo: ${script.primary.task}`,
    tickMs,
    primary: script.primary,
    seed: script.pinned.map((p) => ({ ...p, at: DEMO_T0 })),
    makeDriver: () => new TraceDriver(script.scripts),
    toolItems: demoToolItems,
    priceCall: priceWithCacheModel(createCacheModel({ provider: 'anthropic' }), tokenizer),
    clock,
    beforeTurn: () => clock.advance(DEMO_TURN_MS),
    onCommitFailure: 'rebuild-from-catalog',
    restartAfterFinishMs: DEMO_RESTART_MS,
  };
}
