/**
 * A trace import through the host stays bounded (issue 20): the file is read in slices and its lines
 * parsed one by one with turns of the event loop between them, and a line over the cap is skipped
 * unparsed and reported.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TraceDto } from '../../../engine/contract';
import { importTraceFile } from '../../../engine/node/traces/importTraceFile';
import { importTraceText } from '../../../engine/traces/importTrace';
import { MAX_TRACE_LINE_BYTES } from '../../../engine/traces/jsonText';
import { traceCounts } from '../../../engine/traces/traceCounts';
import { useTraceHost } from '../../support/traceHost';

const tracesDir = process.env.STRATA_TRACES_DIR ?? resolve(import.meta.dirname, '../../../../shared/traces');
const claudeTrace = join(tracesDir, 'claude-code-jsonl', 'Eyob-smax__FitCommerce-task-15__sessions__session-1.jsonl');
const have = existsSync(claudeTrace);
if (!have) console.warn(`traceImportBounds: SKIPPED, the shared Claude Code trace is not at ${tracesDir} (set STRATA_TRACES_DIR)`);

afterEach(() => vi.restoreAllMocks());

type Imported = { trace: TraceDto; alreadyImported: boolean; skippedLines?: { file: string; line: number; bytes: number }[] };

describe.skipIf(!have)('[trace-import-yields] a large import leaves the event loop turning', () => {
  const t = useTraceHost(['trace.imported']);

  it('[trace-import-yields] while a session of several MiB imports, a setImmediate scheduled alongside runs before the import ends, and again and again', async () => {
    const conn = await t.connect();
    const lines = readFileSync(claudeTrace, 'utf8').split('\n').filter((l) => l.trim() !== '');
    const file = join(t.tmp.dir, 'large.jsonl');
    let text = `${lines.join('\n')}\n`;
    while (Buffer.byteLength(text) < 12 * 2 ** 20) text += `${lines.slice(1).join('\n')}\n`;
    writeFileSync(file, text);
    const order: string[] = [];
    let turns = 0;
    let importing = true;
    const turn = () => {
      turns++;
      if (importing) setImmediate(turn);
    };
    const call = conn.call('importTrace', { path: file }).then((r) => {
      importing = false;
      order.push('import ended');
      return r;
    });
    setImmediate(() => order.push('setImmediate ran'));
    setImmediate(turn);
    const r = await call;
    if (!r.ok) throw new Error(r.error.message);
    expect(order).toEqual(['setImmediate ran', 'import ended']);
    // One turn per slice read and per MiB of lines parsed, at the least.
    expect(turns).toBeGreaterThan(12);
    const whole = importTraceText(text, file).events;
    expect((r.value as Imported).trace).toMatchObject(traceCounts(whole));
  }, 120_000);
});

describe.skipIf(!have)('[trace-line-cap] a line over the cap in an imported trace', () => {
  const t = useTraceHost(['trace.imported']);

  it('[trace-line-cap] is skipped without being parsed and reported with its line and size; the rest imports as the file without it', async () => {
    const conn = await t.connect();
    const lines = readFileSync(claudeTrace, 'utf8').split('\n').filter((l) => l.trim() !== '').slice(0, 80);
    const huge = JSON.stringify({ type: 'user', uuid: 'huge', sessionId: 's', message: { role: 'user', content: 'x'.repeat(MAX_TRACE_LINE_BYTES + 1024) } });
    const file = join(t.tmp.dir, 'capped.jsonl');
    writeFileSync(file, `${[...lines.slice(0, 40), huge, ...lines.slice(40)].join('\n')}\n`);
    const parse = vi.spyOn(JSON, 'parse');
    const r = await conn.call('importTrace', { path: file });
    if (!r.ok) throw new Error(r.error.message);
    expect(parse.mock.calls.some((c) => typeof c[0] === 'string' && c[0].length > MAX_TRACE_LINE_BYTES)).toBe(false);
    const imported = r.value as Imported;
    expect(imported.skippedLines).toEqual([{ file, line: 41, bytes: Buffer.byteLength(huge) + 1 }]);
    const without = importTraceText(`${[...lines.slice(0, 40), '', ...lines.slice(40)].join('\n')}\n`, file).events;
    expect(imported.trace).toMatchObject(traceCounts(without));
    // The file read in place (`strata compare`, the replay workers) is read the same way: the same line left out, the same events.
    const inPlace = importTraceFile(file);
    expect(inPlace.skippedLines).toEqual([{ file, line: 41, bytes: Buffer.byteLength(huge) + 1 }]);
    expect(inPlace.events).toEqual(without);
  }, 120_000);
});
