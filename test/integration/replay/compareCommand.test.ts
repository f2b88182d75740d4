import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compareCommand, parseCompareArgs } from '../../../electron/cli/compareCommand';
import { UsageError } from '../../../electron/shared/shellOptions';
import { compareCsv, compareRows, formatCompareTable } from '../../../engine/traces/compare/compareTable';
import { tempDir } from '../../support/tempDir';

const tracesDir = process.env.STRATA_TRACES_DIR ?? resolve(import.meta.dirname, '../../../../shared/traces');
const small = join(tracesDir, 'openai-messages-json', 'Amansolo9__TASK-20__sessions__bugfix-3.json');
const available = existsSync(small);
if (!available) console.warn(`compareCommand: SKIPPED the replay run, ${small} does not exist (set STRATA_TRACES_DIR)`);

let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(() => {
  tmp?.remove();
  tmp = undefined;
  vi.restoreAllMocks();
});

describe('strata compare', () => {
  it('[replay-worker] refuses bad options with a message naming them, before any replay', () => {
    expect(() => parseCompareArgs([])).toThrow(UsageError);
    expect(() => parseCompareArgs(['x', '--strategies', 'variable,magic'])).toThrow(/Unknown strategy magic/);
    expect(() => parseCompareArgs(['x', '--budget', '12'])).toThrow(/--budget takes whole token counts/);
    expect(() => parseCompareArgs(['x', '--provider', 'gemini'])).toThrow(/anthropic or openai/);
    expect(() => parseCompareArgs(['x', '--peers'])).toThrow(/dev-only benchmark set.*bench:compare/);
    expect(() => parseCompareArgs(['x', '--nope'])).toThrow(/Unknown option --nope/);
    expect(parseCompareArgs(['a', 'b', '--strategies', 'variable,full_history_baseline', '--budget', '32000,100000'])).toMatchObject({ paths: ['a', 'b'], strategies: ['variable', 'full_history_baseline'], budgets: [32000, 100000], provider: 'anthropic' });
  });

  it.skipIf(!available)('[replay-counterfactual] replays a real trace under two strategies, prints one row each, and writes JSON and CSV', async () => {
    tmp = tempDir();
    const out: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((s: string) => void out.push(s));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const code = await compareCommand([small, '--strategies', 'variable,full_history', '--budget', '32000', '--json', join(tmp.dir, 'r.json'), '--csv', join(tmp.dir, 'r.csv')]);
    expect(code).toBe(0);
    const table = out.join('\n');
    expect(table).toMatch(/^strategy\s+budget/m);
    expect(table).toMatch(/^variable\s+32,000\s+1\s/m);
    expect(table).toMatch(/^full_history\s+32,000\s+1\s/m);
    const json = JSON.parse(readFileSync(join(tmp.dir, 'r.json'), 'utf8')) as { rows: { name: string; orphans: number; steps: number }[]; results: { steps: unknown[] }[] };
    expect(json.rows.map((r) => r.name).sort()).toEqual(['full_history', 'variable']);
    expect(json.rows.find((r) => r.name === 'variable')!.orphans).toBe(0);
    expect(json.results[0]!.steps.length).toBe(json.rows[0]!.steps);
    const csv = readFileSync(join(tmp.dir, 'r.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toMatch(/^name,budget,traces,steps,promptTokens/);
    expect(csv).toHaveLength(3);
    // The table is the rows as computed from the results.
    expect(formatCompareTable(compareRows(json.results as never))).toBe(table);
    expect(compareCsv(compareRows(json.results as never)).trim().split('\n')).toEqual(csv);
  }, 120_000);
});
