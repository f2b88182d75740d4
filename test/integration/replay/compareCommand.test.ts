import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compareCommand, parseCompareArgs, PEERS_RUNNER, peersRunner } from '../../../electron/cli/compareCommand';
import { UsageError } from '../../../electron/shared/shellOptions';
import { importTraceText } from '../../../engine/traces/importTrace';
import { MAX_TRACE_LINE_BYTES } from '../../../engine/traces/jsonText';
import { traceCounts } from '../../../engine/traces/traceCounts';
import { compareCsv, compareRows, formatCompareTable } from '../../../engine/traces/compare/compareTable';
import { tempDir } from '../../support/tempDir';
import { madeUpSession } from '../../support/liveSessionFixture';
import { SYNTHETIC_TRACE, writeSyntheticTrace } from '../../support/traceFixtures';

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
    expect(parseCompareArgs(['x', '--peers'])).toMatchObject({ paths: ['x'], peers: true });
    expect(parseCompareArgs(['x'])).toMatchObject({ peers: false });
    expect(() => parseCompareArgs(['x', '--nope'])).toThrow(/Unknown option --nope/);
    expect(() => parseCompareArgs(['x', '--ttl', '10m'])).toThrow(/--ttl is 5m or 1h/);
    expect(() => parseCompareArgs(['x', '--model'])).toThrow(/--model needs a value/);
    expect(parseCompareArgs(['x', '--ttl', '1h', '--model', 'claude-opus-4-6'])).toMatchObject({ ttl: '1h', model: 'claude-opus-4-6' });
    expect(parseCompareArgs(['x'])).not.toHaveProperty('ttl');
    expect(parseCompareArgs(['a', 'b', '--strategies', 'variable,full_history_baseline', '--budget', '32000,100000'])).toMatchObject({ paths: ['a', 'b'], strategies: ['variable', 'full_history_baseline'], budgets: [32000, 100000], provider: 'anthropic' });
  });

  it('[replay-window-default] --window takes one whole token count from 1,000 to 10,000,000; anything else is refused with what it takes, before any replay', async () => {
    expect(parseCompareArgs(['x', '--window', '150000'])).toMatchObject({ window: 150_000 });
    expect(parseCompareArgs(['x', '--window', '1000'])).toMatchObject({ window: 1000 });
    expect(parseCompareArgs(['x'])).not.toHaveProperty('window');
    for (const bad of ['0', '999', '10000001', '1e6', '150000.5', '-5', 'abc', '150,000', ' ', '0x1000']) {
      expect(() => parseCompareArgs(['x', '--window', bad]), bad).toThrow(/^--window takes one whole token count from 1000 to 10000000 \(got "/);
    }
    expect(() => parseCompareArgs(['x', '--window'])).toThrow(/--window needs a value/);
    expect(() => parseCompareArgs(['x', '--window', '--json', 'r.json'])).toThrow(/--window needs a value/);
    tmp = tempDir();
    const json = join(tmp.dir, 'r.json');
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    await expect(compareCommand([writeSyntheticTrace(tmp.dir), '--window', '12', '--json', json])).rejects.toThrow(UsageError);
    expect(err).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
    expect(existsSync(json)).toBe(false);
  });

  it('[trace-folder-search] a dangling symbolic link in a folder is named on stderr and skipped; the other traces are still compared', async () => {
    tmp = tempDir();
    writeSyntheticTrace(tmp.dir, 'a.json');
    const dangling = join(tmp.dir, 'b.jsonl');
    symlinkSync(join(tmp.dir, 'gone.jsonl'), dangling);
    const json = join(tmp.dir, 'out', 'r.json');
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const code = await compareCommand([tmp.dir, '--strategies', 'variable', '--json', json]);
    expect(code).toBe(0);
    const written = err.mock.calls.map((c) => String(c[0])).join('');
    expect(written).toContain(`strata: skipped ${dangling}: a symbolic link to ${join(tmp.dir, 'gone.jsonl')}, which does not exist`);
    const out = JSON.parse(readFileSync(json, 'utf8')) as { files: string[]; results: { steps: unknown[] }[] };
    expect(out.files).toEqual([join(tmp.dir, 'a.json')]);
    expect(out.results).toHaveLength(1);
  }, 120_000);

  it('[trace-line-cap] a line over the cap is left out of the comparison as the import leaves it out, and the notes say so', async () => {
    tmp = tempDir();
    const file = join(tmp.dir, 'capped.jsonl');
    const lines = madeUpSession(6);
    const huge = JSON.stringify({ type: 'user', uuid: 'huge', sessionId: 's', message: { role: 'user', content: 'x'.repeat(MAX_TRACE_LINE_BYTES + 10) } });
    writeFileSync(file, `${[...lines.slice(0, 3), huge, ...lines.slice(3)].join('\n')}\n`);
    const out: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((s: string) => void out.push(s));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const json = join(tmp.dir, 'r.json');
    expect(await compareCommand([file, '--strategies', 'variable', '--json', json])).toBe(0);
    expect(out.join('\n')).toMatch(/^capped\.jsonl: one line was left out, longer than the 16 MiB a line may be \(line 4, 16\.0 MiB\); its figures are those of the file without it\.$/m);
    const written = JSON.parse(readFileSync(json, 'utf8')) as { results: { steps: unknown[] }[] };
    expect(written.results[0]?.steps).toHaveLength(traceCounts(importTraceText(`${lines.join('\n')}\n`, file).events).steps);
  }, 120_000);

  it('[replay-window-default] [replay-roles] the notes state each trace\'s window and where it came from, the agents\' roles, and where role_optimized equals variable, why', async () => {
    tmp = tempDir();
    const recordedFile = join(tmp.dir, 'made-up.jsonl');
    writeFileSync(recordedFile, `${madeUpSession(6).join('\n')}\n`);
    const out: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((s: string) => void out.push(s));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const json = join(tmp.dir, 'r.json');
    expect(await compareCommand([recordedFile, writeSyntheticTrace(tmp.dir), '--strategies', 'variable,role_optimized', '--json', json])).toBe(0);
    const printed = out.join('\n');
    expect(printed).toMatch(/^context window none: no known window for claude-made-up-1 \(no request is checked against a window\) \(made-up\.jsonl\)$/m);
    expect(printed).toMatch(/^context window 200,000: default model \(the trace names none\) claude-sonnet-4-5 \(https:\/\/platform\.claude\.com\/docs\/en\/models\/sonnet-4-5\/overview, read 2026-12-01\) \(session\.json\)$/m);
    expect(printed).toMatch(/^agent roles on made-up\.jsonl: main agent primary \(main agent, launches 1 subagent\); subagents worker \(subagent of unrecorded type\)$/m);
    expect(printed).toMatch(/^role_optimized = variable on session\.json at 32,000: one agent, role worker; role_optimized differs only for a primary/m);
    expect(printed).not.toMatch(/^role_optimized = variable on made-up\.jsonl/m);
    const written = JSON.parse(readFileSync(json, 'utf8')) as { rows: { name: string; window: string }[]; results: { window: { tokens: number | null; source: string } }[] };
    expect(written.rows.map((r) => r.window)).toEqual(['none ×1; 200,000 (model table) ×1', 'none ×1; 200,000 (model table) ×1']);
    expect(written.results.map((r) => r.window.source).sort()).toEqual(['none', 'none', 'table', 'table']);
    // --window for every trace, said so.
    out.length = 0;
    expect(await compareCommand([recordedFile, '--strategies', 'variable', '--window', '150000'])).toBe(0);
    expect(out.join('\n')).toMatch(/^context window 150,000: --window \(made-up\.jsonl\)$/m);
  }, 60_000);

  it('[replay-truth-reported] [compare-money] prints what the recording agent was billed under the table, with the baseline as the cache model prices it, and writes it to the JSON', async () => {
    tmp = tempDir();
    const recordedFile = join(tmp.dir, 'made-up.jsonl');
    writeFileSync(recordedFile, `${madeUpSession(6).join('\n')}\n`);
    const out: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((s: string) => void out.push(s));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const json = join(tmp.dir, 'r.json');
    expect(await compareCommand([recordedFile, writeSyntheticTrace(tmp.dir), '--strategies', 'variable,as_recorded', '--json', json])).toBe(0);
    const printed = out.join('\n');
    expect(printed).toMatch(/^recorded \(provider\)\s+model\s+calls/m);
    // One row for the trace with usage; the synthetic one records none, so no row and no total.
    // Every agent's calls: the session's 8 and its subagent's 2.
    expect(printed).toMatch(/^made-up\.jsonl\s+claude-made-up-1\s+10\s/m);
    expect(printed).not.toMatch(/^session\.json\s+/m);
    expect(printed).not.toMatch(/^all traces/m);
    expect(printed).toMatch(/^ {2}made-up\.jsonl: nothing recorded; estimated stand-in [\d,]+ tokens/m);
    expect(printed).toMatch(/token scale fitted on the recording/);
    // Money in dollars, with what it rests on: the made-up model has no list price, the synthetic trace is priced at the default model.
    expect(printed).toMatch(/^strategy\s+budget\s+traces\s+steps\s+prompt tokens\s+mean prompt\s+uncached\s+prompt USD\s+total USD\s+hit rate/m);
    expect(printed).toMatch(/^USD: US dollars at list prices/m);
    expect(printed).toMatch(/^no list price for claude-made-up-1 \(made-up\.jsonl\): left out of the dollar figures/m);
    expect(printed).toMatch(/^price \(the default model, for traces that name none: session\.json\): claude-sonnet-4-5 \(Claude Sonnet 4\.5, 4\.6\): \$3 input, .*read 2026-12-01\)$/m);
    expect(printed).toMatch(/^cache TTL of the breakpoints: 5m: default \(every trace\)$/m);
    expect(printed).not.toMatch(/cost units/);
    const written = JSON.parse(readFileSync(json, 'utf8')) as { notes: string[]; recorded: { trace: string; calls: number; costUsd: number | null; asRecorded: { matched: number } | null }[] };
    expect(written.recorded).toMatchObject([{ trace: 'made-up.jsonl', calls: 10, costUsd: null, asRecorded: { matched: 10 } }]);
    expect(written.notes).toContainEqual('cache TTL of the breakpoints: 5m: default (every trace)');
    // --ttl 1h for every trace, said so.
    out.length = 0;
    expect(await compareCommand([recordedFile, '--strategies', 'full_history_baseline', '--ttl', '1h', '--model', 'claude-opus-4-6'])).toBe(0);
    expect(out.join('\n')).toMatch(/^cache TTL of the breakpoints: 1h: --ttl \(made-up\.jsonl\)$/m);
    expect(out.join('\n')).toMatch(/^price \(--model\): claude-opus-4-6 /m);
  }, 60_000);

  it('[replay-worker] --peers where the dev-only peer runner is absent (a packaged app) is refused with what to do, and runs nothing', async () => {
    tmp = tempDir();
    const trace = writeSyntheticTrace(tmp.dir);
    expect(peersRunner(tmp.dir)).toEqual({ missing: `${PEERS_RUNNER} (not a source checkout)` });
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await expect(compareCommand([trace, '--peers', '--json', join(tmp.dir, 'r.json')], tmp.dir)).rejects.toThrow(/--peers runs the peer libraries.*not a source checkout.*npm install/);
    expect(err).not.toHaveBeenCalled();
    expect(existsSync(join(tmp.dir, 'r.json'))).toBe(false);
  });

  it('[replay-worker] --peers from this checkout puts every peer library beside the strategies, at every budget, in the same table and files', async () => {
    tmp = tempDir();
    const trace = writeSyntheticTrace(tmp.dir);
    const json = join(tmp.dir, 'out', 'r.json');
    const csv = join(tmp.dir, 'out', 'r.csv');
    // The child process writes the table to this process's stdout; the files carry the same rows.
    const code = await compareCommand([trace, '--peers', '--strategies', 'variable', '--budget', '32000,100000', '--json', json, '--csv', csv]);
    expect(code).toBe(0);
    const out = JSON.parse(readFileSync(json, 'utf8')) as { rows: { name: string; budget: number; steps: number; orphans: number; invalid: number }[]; errors: unknown[]; results: never[] };
    expect(out.errors).toEqual([]);
    const names = ['variable', 'fullHistory', 'langchainTrim', 'langchainTrimValidTail', 'mastraTokenLimiter', 'vercelPruneMessages', 'vercelPrepareStep'];
    expect(out.rows.map((r) => `${r.name}@${r.budget}`).sort()).toEqual(names.flatMap((n) => [`${n}@32000`, `${n}@100000`]).sort());
    for (const r of out.rows) expect(r.steps).toBe(SYNTHETIC_TRACE.steps);
    // Every row of the JSON says how many of its requests a provider would refuse.
    for (const r of out.rows) expect(Number.isInteger(r.invalid)).toBe(true);
    expect(readFileSync(csv, 'utf8').trim().split('\n')).toEqual(compareCsv(compareRows(out.results)).trim().split('\n'));
  }, 120_000);

  it.skipIf(!available)('[replay-counterfactual] replays a real trace under two strategies, prints one row each, and writes JSON and CSV', async () => {
    tmp = tempDir();
    const out: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((s: string) => void out.push(s));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const code = await compareCommand([small, '--strategies', 'variable,full_history', '--budget', '32000', '--json', join(tmp.dir, 'r.json'), '--csv', join(tmp.dir, 'r.csv')]);
    expect(code).toBe(0);
    // The strategies' table comes first; the recorded table (this trace records usage) follows it.
    const table = out[0]!;
    expect(out.slice(1).join('\n')).toMatch(/^recorded \(provider\)/m);
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
