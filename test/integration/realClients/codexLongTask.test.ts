import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODEX_LAST_MESSAGE } from '../../support/realClients/codexLongTask';
import { expectedLongTaskAnswer, longTaskPlan } from '../../support/realClients/longTask';
import { expectByteIdenticalThroughProxy, expectFinishedUnrefused, expectLargeResults } from '../../support/realClients/longTaskChecks';
import { runRealClient, type RealClientRun } from '../../support/realClients/realClientHarness';
import { viewRequest } from '../../support/realClients/replyScript';
import { formatFigures, runFigures } from '../../support/realClients/runFigures';

// The real Codex CLI (0.171.0) through the long task (test/support/realClients/longTask.ts):
// one `codex exec` turn of 45 tool calls with 4-20 KB outputs, against the scripted server in
// validating mode; first directly (the baseline figures a managed gateway run is measured
// against), then through a byte-forwarding proxy behind the recording tap (the seam the gateway
// takes). Nothing it wrote is kept.

/** The final message, as `codex exec --output-last-message` wrote it. */
const finalAnswer = (run: RealClientRun): string => readFileSync(join(run.clientHome, CODEX_LAST_MESSAGE), 'utf8').trim();
const resultSizes = (run: RealClientRun): number[] => viewRequest('responses', run.modelCalls[run.modelCalls.length - 1]!.body).results.map((r) => r.text.length);

const run = (proxy?: 'byte-forwarding'): Promise<RealClientRun> => runRealClient('codex-long-task', proxy ? { proxy } : {});

describe('[real-client-long-task] Codex 0.171.0 runs the long task directly against the validating server', () => {
  let direct: RealClientRun;
  beforeAll(async () => {
    direct = await run();
  }, 20 * 60_000);
  afterAll(() => direct?.remove());

  it('[real-client-long-task] [real-client-validating] the one turn finishes offline with every scripted tool call, none refused, and the answer the generated logs call for', () => {
    expectFinishedUnrefused(direct);
    expect(longTaskPlan().length).toBeGreaterThanOrEqual(40);
    expectLargeResults(resultSizes(direct));
    expect(finalAnswer(direct)).toBe(expectedLongTaskAnswer());
  });

  it('[real-client-long-task] the baseline figures: every call billed, the prompt growing call by call, printed for the managed run to be measured against', () => {
    const figures = runFigures(direct.modelCalls);
    console.log(formatFigures('Codex long task, direct (baseline)', figures));
    expect(figures.calls).toHaveLength(longTaskPlan().length + 1);
    for (const [i, c] of figures.calls.entries()) if (i > 0) expect(c.prompt, `call ${c.index}`).toBeGreaterThan(figures.calls[i - 1]!.prompt);
    expect(figures.billedPromptTokens).toBe(direct.modelCalls.reduce((n, c) => n + c.promptTokens, 0));
    // An append-only thread reads most of each prompt from cache once the first call wrote it.
    expect(figures.calls.slice(1).every((c) => c.cacheRead > 0)).toBe(true);
  });
});

describe('[real-client-proxy-seam] Codex 0.171.0 runs the long task through a byte-forwarding proxy behind the tap', () => {
  let proxied: RealClientRun;
  beforeAll(async () => {
    proxied = await run('byte-forwarding');
  }, 20 * 60_000);
  afterAll(() => proxied?.remove());

  it('[real-client-proxy-seam] the client, pointed at the tap, finishes the same task, and per call the upstream received exactly the bytes and end-to-end headers the client sent, and the client the upstream\'s bytes', () => {
    expectFinishedUnrefused(proxied);
    expect(finalAnswer(proxied)).toBe(expectedLongTaskAnswer());
    expectByteIdenticalThroughProxy(proxied);
  });
});
