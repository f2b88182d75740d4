import fc from 'fast-check';
import type { Engine } from '../../engine/Engine';
import type { ContextItem, InfoClass, ItemKind, Source } from '../../engine/items/ContextItem';
import type { ItemInput } from '../../engine/items/createItem';
import type { Scope } from '../../engine/pack/Scope';
import { strategyNames } from '../../engine/strategies/strategies';
import type { StrategyName } from '../../engine/strategies/Strategy';
import { identity, newEngine, T0 } from './engineFixtures';

/** Every value of the engine's item vocabularies, for tables and generators. */
const KINDS: readonly ItemKind[] = [
  'objective', 'task', 'acceptance', 'constraint', 'code', 'failure', 'finding', 'decision',
  'architecture', 'report', 'tool_output', 'transcript', 'note', 'input',
];
export const CLASSES: readonly InfoClass[] = ['ephemeral', 'task_state', 'finding', 'project_memory', 'raw_history'];
export const SOURCES: readonly Source[] = [
  'user_requirement', 'verified_fact', 'worker_finding', 'unverified_hypothesis', 'generated_summary',
  'test_result', 'repository_source', 'parent_report', 'recalled_memory',
];
const PHASES = ['explore', 'implement', 'verify'] as const;
export const STRATEGIES: readonly StrategyName[] = strategyNames;

const WORDS = [
  'refresh', 'token', 'rotation', 'src/auth/refresh.ts', 'src/auth/store.ts', 'saveToken()', 'rotateRefreshToken',
  'session', 'FAILED', 'expected', 'decided', 'must', 'never', 'log', 'database', 'row', 'lock', 'npm', 'test',
  'passed', 'risk:', 'grep', 'README.md', 'migration', 'users', 'café', '上下文', 'emoji😀', '\n',
];
const FILES = ['src/auth/refresh.ts', 'src/auth/store.ts', 'src/db/users.ts', 'docs/README.md'];

/** The shape of one random pool item before it gets its id and index-derived fields. */
export interface PoolItemSpec {
  kind: ItemKind;
  class: InfoClass;
  source: Source;
  words: string[];
  agent: 'worker-1' | 'other' | 'user';
  task: 'task-auth' | 'task-db';
  ageMinutes: number;
  confidence: number;
  relevance: number;
  files: string[];
  flag: 'none' | 'pinned' | 'mandatory';
  phase: (typeof PHASES)[number] | undefined;
  signature: string | undefined;
}

/** A random item: any kind/class/source mix, 1..300 words, now and then pinned or mandatory. */
export const poolItemSpec: fc.Arbitrary<PoolItemSpec> = fc.record({
  kind: fc.constantFrom(...KINDS),
  class: fc.constantFrom(...CLASSES),
  source: fc.constantFrom(...SOURCES),
  words: fc.oneof(
    { weight: 4, arbitrary: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 40 }) },
    { weight: 1, arbitrary: fc.array(fc.constantFrom(...WORDS), { minLength: 40, maxLength: 300 }) },
  ),
  agent: fc.constantFrom('worker-1' as const, 'other' as const, 'user' as const),
  task: fc.constantFrom('task-auth' as const, 'task-db' as const),
  ageMinutes: fc.integer({ min: 0, max: 600 }),
  confidence: fc.double({ min: 0, max: 1, noNaN: true }),
  relevance: fc.double({ min: 0, max: 1, noNaN: true }),
  files: fc.subarray(FILES),
  flag: fc.constantFrom('none', 'none', 'none', 'none', 'none', 'none', 'none', 'pinned', 'mandatory') as fc.Arbitrary<PoolItemSpec['flag']>,
  phase: fc.option(fc.constantFrom(...PHASES), { nil: undefined }),
  signature: fc.option(fc.constantFrom('grep token', 'read src/auth/store.ts', 'npm test'), { nil: undefined }),
});

/** The item input for a spec; `index` makes the id unique and the content distinct. */
export function toItemInput(spec: PoolItemSpec, index: number): ItemInput {
  const input: ItemInput = {
    id: `p${String(index).padStart(3, '0')}`,
    kind: spec.kind,
    class: spec.class,
    title: `${spec.kind} ${index}`,
    content: `${spec.words.join(' ')} #${index}`,
    source: spec.source,
    agentId: spec.agent,
    taskId: spec.task,
    at: T0 - spec.ageMinutes * 60_000,
    confidence: spec.confidence,
    relevance: spec.relevance,
    files: spec.files,
    pinned: spec.flag === 'pinned',
    mandatory: spec.flag === 'mandatory',
  };
  if (spec.phase !== undefined) input.phase = spec.phase;
  if (spec.signature !== undefined) input.signature = spec.signature;
  return input;
}

/** A random pool of 0..maxItems items with ids p000, p001, … */
export const pool = (maxItems = 40): fc.Arbitrary<ItemInput[]> =>
  fc.array(poolItemSpec, { maxLength: maxItems }).map((specs) => specs.map(toItemInput));

/** Budgets from a few hundred tokens (pinned content overflows) to generous ones. */
export const budget: fc.Arbitrary<number> = fc.integer({ min: 300, max: 20_000 });
export const strategy: fc.Arbitrary<StrategyName> = fc.constantFrom(...STRATEGIES);
export const phase = fc.constantFrom(...PHASES);

/** A random scope: class limits, memory exclusion, dependency tasks and clipping, each optional. */
export const scope: fc.Arbitrary<Scope> = fc.record(
  {
    classes: fc.subarray([...CLASSES], { minLength: 1 }),
    excludeProjectMemory: fc.boolean(),
    dependencyTaskIds: fc.subarray(['task-auth', 'task-db']),
    maxItemTokens: fc.integer({ min: 40, max: 400 }),
  },
  { requiredKeys: [] },
);

/** A build request over the shared vocabulary. */
export const request = fc.record({
  phase,
  files: fc.subarray(FILES),
  keywords: fc.subarray(['refresh', 'token', 'database', 'migration', 'session']),
  input: fc.constantFrom('', 'next turn', 'Please run the tests again.'),
});

/** An engine with one worker agent and the pool added in order. */
export function engineWith(items: readonly ItemInput[], o: { budget: number; strategy?: StrategyName; scope?: Scope; autoRefresh?: boolean }): Engine {
  const { engine } = newEngine(o.autoRefresh === undefined ? {} : { autoRefresh: o.autoRefresh });
  engine.registerAgent(identity({ budget: o.budget, scope: o.scope ?? {} }), o.strategy ?? 'variable');
  for (const i of items) engine.addItem(i);
  return engine;
}

/** Ids of items that must always enter whole. */
export const isProtected = (i: Pick<ContextItem, 'pinned' | 'mandatory'>): boolean => i.pinned || i.mandatory;

/** The quarter tokenizer of the fixtures, for counting a whole prompt the way the engine counts. */
export const quarter = (text: string): number => Math.ceil(text.length / 4);
