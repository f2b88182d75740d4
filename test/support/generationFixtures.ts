import type { Boundary, Generation } from '../../engine/generations/Generation';
import { startGeneration } from '../../engine/generations/startGeneration';
import type { ContextItem } from '../../engine/items/ContextItem';
import { createItem } from '../../engine/items/createItem';
import { BlockCounter } from '../../engine/prompt/BlockCounter';
import { variable } from '../../engine/strategies/variable';
import { TokenCounter } from '../../engine/tokens/TokenCounter';
import { identity, item, T0, taskItems } from './engineFixtures';

/** A task's tier-1 items (L1) and `codeItems` code findings (L2, most dropped under a small budget). */
export function generationPool(codeItems = 40): ContextItem[] {
  return [
    ...taskItems().map(createItem),
    ...Array.from({ length: codeItems }, (_, n) => createItem(item({ id: `code-${n}`, kind: 'code', class: 'finding', source: 'repository_source', content: `refresh token code ${n} `.repeat(12), files: ['src/auth/refresh.ts'] }))),
  ];
}

/** A real generation (its dropped log attached) packed by `variable` from `pool`. */
export function generationOf(number: number, pool: ContextItem[] = generationPool(), budget = 1500, boundary: Boundary = { kind: number === 1 ? 'start' : 'rebuild', reason: 'test' }): Generation {
  return startGeneration({
    identity: identity({ budget }),
    strategy: variable,
    scope: {},
    number,
    boundary,
    pool,
    seenSeq: pool.length,
    request: { taskId: 'task-auth', task: 'refresh tokens', files: ['src/auth/refresh.ts'], symbols: [], keywords: ['refresh'], role: 'worker', phase: 'implement', failures: [], now: T0 },
    reserve: 40,
    blocks: new BlockCounter(new TokenCounter({ encoding: 'quarter', count: (t) => Math.ceil(t.length / 4) })),
    minOptionalScore: 0.3,
    compressMinTokens: 96,
  }).generation;
}
