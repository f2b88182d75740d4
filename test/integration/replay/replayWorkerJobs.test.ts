/**
 * The worker runner's options for hosts: jobs that carry their events (a catalog's trace, no file
 * read), the worker's entry module, and cancellation. Synthetic trace only.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { importTraceFile } from '../../../engine/node/traces/importTraceFile';
import { runReplayJob, runReplayJobs, sharedTokenizer, type ReplayJob } from '../../../engine/node/traces/replayWorker';
import type { ReplayResult } from '../../../engine/traces/replay/ReplayTypes';
import { tempDir } from '../../support/tempDir';
import { writeSyntheticTrace } from '../../support/traceFixtures';

/** A result without its wall-clock figures. */
const untimed = (r: ReplayResult) => ({ ...r, totals: { ...r.totals, overheadMs: 0, overheadP50Ms: 0, overheadP95Ms: 0, tokenizeMs: 0, overheadExclTokenizeP50Ms: 0 }, steps: r.steps.map((s) => ({ ...s, overheadMs: 0, tokenizeMs: 0 })) });

let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(() => {
  tmp?.remove();
  tmp = undefined;
});

describe('runReplayJobs for a host', () => {
  it('[replay-worker] a job carrying its events reads no file and gives the in-thread replay', async () => {
    tmp = tempDir();
    const events = importTraceFile(writeSyntheticTrace(tmp.dir)).events;
    const job: ReplayJob = { trace: 'tr_not_a_path', events, strategy: 'variable', budget: 32_000, provider: 'anthropic' };
    const [done] = await runReplayJobs([job]);
    expect(done?.error).toBeUndefined();
    expect(untimed(done!.result!)).toEqual(untimed(runReplayJob(job, events, sharedTokenizer())));
  }, 60_000);

  it('[replay-worker] aborting terminates the workers and fails the unfinished jobs as cancelled', async () => {
    tmp = tempDir();
    const events = importTraceFile(writeSyntheticTrace(tmp.dir)).events;
    const jobs: ReplayJob[] = ['variable', 'summary'].map((strategy) => ({ trace: 't', events, strategy: strategy as ReplayJob['strategy'], budget: 32_000, provider: 'anthropic' }));
    const abort = new AbortController();
    const running = runReplayJobs(jobs, { signal: abort.signal });
    abort.abort();
    expect((await running).map((r) => r.error)).toEqual(['cancelled', 'cancelled']);
    expect((await runReplayJobs(jobs, { signal: abort.signal })).map((r) => r.error)).toEqual(['cancelled', 'cancelled']);
  }, 60_000);

  it('[replay-worker] workers start from workerUrl when it is given', async () => {
    tmp = tempDir();
    const entry = pathToFileURL(join(tmp.dir, 'no-such-worker.js'));
    const [done] = await runReplayJobs([{ trace: 't', events: [], strategy: 'variable', budget: 32_000, provider: 'anthropic' }], { workerUrl: entry });
    expect(done?.error).toMatch(/the replay worker failed: .*no-such-worker\.js/);
  }, 60_000);
});
