import { describe, expect, it } from 'vitest';
import { Commands, ComparisonStrategySchema, EngineStrategySchema, ImportTraceContentArgsSchema, StartComparisonArgsSchema } from '../../../../engine/contract';
import { ATTACH_BUDGET, COMPARISON_BUDGET, COMPARISON_MAX_TRACES, COMPARISON_WINDOW, DEFAULT_ATTACH_BUDGET, MAX_TRACE_CONTENT_BYTES } from '../../../../engine/shared/limits';
import { PURGE_CONFIRMATION } from '../../../../engine/shared/purgePolicy';
import { COMPARISON_STRATEGIES, ENGINE_STRATEGIES } from '../../../../engine/shared/strategyNames';
import { strategyNames } from '../../../../engine/strategies/strategies';

// The pure layer's values are the ones the host enforces: the views check against these before they ask.

const comparison = (over: Record<string, unknown>) => StartComparisonArgsSchema.safeParse({ traceIds: ['tr_a'], strategies: ['variable'], budget: 32_000, ...over }).success;

describe('the pure layer: strategy names', () => {
  it('the contract’s strategy enums are its lists, in their order, and the engine’s table has exactly its engine strategies', () => {
    expect(ComparisonStrategySchema.options).toEqual([...COMPARISON_STRATEGIES]);
    expect(EngineStrategySchema.options).toEqual([...ENGINE_STRATEGIES]);
    expect([...strategyNames].sort()).toEqual([...ENGINE_STRATEGIES].sort());
    expect(COMPARISON_STRATEGIES.slice(0, ENGINE_STRATEGIES.length)).toEqual([...ENGINE_STRATEGIES]);
  });
});

describe('the pure layer: limits', () => {
  it('startComparison accepts budgets, windows and trace counts inside its bounds and refuses one past each', () => {
    expect(comparison({ budget: COMPARISON_BUDGET.min })).toBe(true);
    expect(comparison({ budget: COMPARISON_BUDGET.max })).toBe(true);
    expect(comparison({ budget: COMPARISON_BUDGET.min - 1 })).toBe(false);
    expect(comparison({ budget: COMPARISON_BUDGET.max + 1 })).toBe(false);
    expect(comparison({ window: COMPARISON_WINDOW.min })).toBe(true);
    expect(comparison({ window: COMPARISON_WINDOW.max })).toBe(true);
    expect(comparison({ window: COMPARISON_WINDOW.min - 1 })).toBe(false);
    expect(comparison({ window: COMPARISON_WINDOW.max + 1 })).toBe(false);
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `tr_${i}`);
    expect(comparison({ traceIds: ids(COMPARISON_MAX_TRACES) })).toBe(true);
    expect(comparison({ traceIds: ids(COMPARISON_MAX_TRACES + 1) })).toBe(false);
  });

  it('attachSession accepts budgets inside ATTACH_BUDGET only', () => {
    const attach = (budget: number) => Commands.attachSession.args.safeParse({ path: '/s.jsonl', budget }).success;
    expect(attach(ATTACH_BUDGET.min)).toBe(true);
    expect(attach(ATTACH_BUDGET.max)).toBe(true);
    expect(attach(ATTACH_BUDGET.min - 1)).toBe(false);
    expect(attach(ATTACH_BUDGET.max + 1)).toBe(false);
  });

  it('importTraceContent takes a text of MAX_TRACE_CONTENT_BYTES and refuses a longer one', () => {
    expect(ImportTraceContentArgsSchema.safeParse({ name: 'a.jsonl', content: 'x'.repeat(MAX_TRACE_CONTENT_BYTES) }).success).toBe(true);
    expect(ImportTraceContentArgsSchema.safeParse({ name: 'a.jsonl', content: 'x'.repeat(MAX_TRACE_CONTENT_BYTES + 1) }).success).toBe(false);
  });

  it('the default attach budget is one the attach command accepts', () => {
    expect(DEFAULT_ATTACH_BUDGET).toBeGreaterThanOrEqual(ATTACH_BUDGET.min);
    expect(DEFAULT_ATTACH_BUDGET).toBeLessThanOrEqual(ATTACH_BUDGET.max);
  });
});

describe('the pure layer: purge policy', () => {
  it('purgeMemory takes exactly the confirmation words', () => {
    const purge = (confirm: string) => Commands.purgeMemory.args.safeParse({ confirm }).success;
    expect(purge(PURGE_CONFIRMATION)).toBe(true);
    expect(purge(`${PURGE_CONFIRMATION} `)).toBe(false);
    expect(purge('purge project')).toBe(false);
  });
});
