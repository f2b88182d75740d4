/**
 * One real recorded session, read in place from the shared traces folder (never copied), imported
 * through the host and compared under one strategy. Skipped, with the reason, when the folder is
 * absent; STRATA_TRACES_DIR names another one.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComparisonDto, TraceDto } from '../../../engine/contract';
import { Host } from '../../../engine/host';
import { importTraceFile } from '../../../engine/node/traces/importTraceFile';
import { traceCounts } from '../../../engine/traces/traceCounts';
import { quarterTokenizer } from '../../support/engineFixtures';
import { tempDir } from '../../support/tempDir';

const tracesDir = process.env.STRATA_TRACES_DIR ?? resolve(import.meta.dirname, '../../../../shared/traces');
const file = join(tracesDir, 'openai-messages-json', 'Amansolo9__TASK-20__sessions__bugfix-3.json');
const available = existsSync(file);
if (!available) console.warn(`realTraceImport: SKIPPED, ${file} does not exist (set STRATA_TRACES_DIR to a folder holding openai-messages-json/Amansolo9__TASK-20__sessions__bugfix-3.json)`);

describe.skipIf(!available)('a real trace imported through the host', () => {
  let tmp: ReturnType<typeof tempDir>;
  let host: Host;
  beforeAll(() => {
    tmp = tempDir();
    host = Host.open({ catalogPath: join(tmp.dir, 'catalog.sqlite'), workspaceName: 'real', version: '1', tokenizer: quarterTokenizer });
  });
  afterAll(() => {
    host.close();
    tmp.remove();
  });

  const value = async <T,>(name: 'importTrace' | 'startComparison' | 'getComparison', args: unknown): Promise<T> => {
    const envelope = await host.connect(() => {}).call(name, args);
    if (!envelope.ok) throw new Error(`${name}: ${envelope.error.message}`);
    return envelope.value as T;
  };

  it('[trace-catalog] [trace-import-idempotent] [trace-compare] imports it in place with the importer\'s counts, once, and replays every step', async () => {
    const { trace, alreadyImported } = await value<{ trace: TraceDto; alreadyImported: boolean }>('importTrace', { path: file });
    const events = importTraceFile(file).events;
    expect(alreadyImported).toBe(false);
    expect(trace).toMatchObject({ format: 'openai-messages-json', sourcePath: file, name: 'Amansolo9__TASK-20__sessions__bugfix-3.json', ...traceCounts(events) });
    expect(trace.steps).toBeGreaterThan(0);
    expect(host.catalog.traceEvents(trace.id)).toEqual(events);
    expect((await value<{ alreadyImported: boolean }>('importTrace', { path: file })).alreadyImported).toBe(true);

    await value('startComparison', { traceIds: [trace.id], strategies: ['variable'], budget: 32_000, provider: 'openai' });
    let comparison: ComparisonDto;
    const deadline = Date.now() + 150_000;
    do {
      await new Promise((r) => setTimeout(r, 100));
      comparison = (await value<{ comparison: ComparisonDto }>('getComparison', { comparisonId: 'cmp-1' })).comparison;
    } while (comparison.status === 'running' && Date.now() < deadline);
    expect(comparison.status).toBe('finished');
    const [result] = comparison.results;
    expect(result?.series).toHaveLength(trace.steps);
    expect(result?.totals.orphans).toBe(0);
  }, 180_000);
});
