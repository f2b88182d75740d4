import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedLongTaskAnswer, longTaskPlan } from '../../support/realClients/longTask';
import { expectFinishedUnrefused } from '../../support/realClients/longTaskChecks';
import { describeBoundaries, expectExchangesThroughGateway, expectRecordsMatchUpstream, formatComparison, gatewayRecords, readShareExclusions } from '../../support/realClients/gatewayChecks';
import type { ProxyName } from '../../support/realClients/proxies';
import { runRealClient, type RealClientRun } from '../../support/realClients/realClientHarness';
import { viewRequest } from '../../support/realClients/replyScript';
import { formatFigures, runFigures } from '../../support/realClients/runFigures';
import { compareSavings } from '../../support/realClients/savingsCheck';

// The real Claude Code CLI (2.1.332) through the Strata gateway (engine/host/startGateway.ts) on
// the long task (test/support/realClients/longTask.ts: one `claude -p` turn, 45 tool calls with
// 4-20 KB outputs, the prompt growing to about 190,000 tokens), behind the recording tap, against
// the validating scripted server; once in observe mode and once in manage mode (contextWindow
// 200,000, the default 0.4/0.25 watermarks: `LONG_TASK_MANAGE` in proxies.ts says why). The
// managed run is measured against the observed one. Nothing the client wrote is kept.

const finalAnswer = (run: RealClientRun): string => (JSON.parse(run.steps[0]!.stdout) as { result?: string }).result ?? '';

/** How far the estimated saving may be from the real one, as a share of the real one. */
const SAVING_TOLERANCE = 0.25;

const run = (proxy: ProxyName): Promise<RealClientRun> => runRealClient('claude-code-long-task', { proxy });

describe('[gateway-real-clients-observe] [gateway-real-clients-manage] Claude Code 2.1.332 runs the long task through the Strata gateway, observing then managing', () => {
  let observe: RealClientRun;
  let manage: RealClientRun;
  beforeAll(async () => {
    observe = await run('gateway-observe');
    manage = await run('gateway-manage');
  }, 40 * 60_000);
  afterAll(() => {
    observe?.remove();
    manage?.remove();
  });

  it('[gateway-real-clients-observe] observing, the client finishes the task with the right answer, none refused, and every request reaches the upstream byte for byte with its headers, the answers reach the client unchanged', () => {
    expectFinishedUnrefused(observe);
    expect(finalAnswer(observe)).toBe(expectedLongTaskAnswer());
    expectExchangesThroughGateway(observe, true);
  });

  it("[gateway-real-clients-observe] observing, the gateway's records match the upstream's log: one call per model call with the usage it returned, one session and its main thread, the cache break at the first call and then appended, prefix reuse growing", () => {
    const calls = expectRecordsMatchUpstream(observe, 'claude-cli', 'observe');
    expect(calls).toHaveLength(longTaskPlan().length + 1);
    expect(calls.map((c) => c.cacheBreak.at)).toEqual(['first call', ...calls.slice(1).map(() => 'appended')]);
    for (const c of calls.slice(1)) expect(c.prefixReuse, c.id).toBeGreaterThan(0.7);
    expect(calls.every((c) => c.rewrite === undefined)).toBe(true);
  });

  it('[gateway-real-clients-manage] managing, the client finishes the task with the right answer and the validating upstream refuses nothing; old results go up as placeholders that keep their call, and the gateway keeps the original of each newest call', () => {
    expectFinishedUnrefused(manage);
    expect(finalAnswer(manage)).toBe(expectedLongTaskAnswer());
    const pairs = expectExchangesThroughGateway(manage, false);
    const calls = expectRecordsMatchUpstream(manage, 'claude-cli', 'manage');
    // The last request upstream: every result still paired with its call (the server validated it), the old ones hidden.
    const last = viewRequest('anthropic', manage.modelCalls[manage.modelCalls.length - 1]!.body);
    expect(last.results).toHaveLength(longTaskPlan().length);
    const hidden = last.results.filter((r) => r.text.startsWith('[strata: '));
    expect(hidden.length).toBeGreaterThanOrEqual(20);
    for (const r of hidden) expect(r.text).toMatch(/hidden at generation \d+/);
    expect(calls[calls.length - 1]!.rewrite!.compressed.map((c) => c.key).sort()).toEqual(hidden.map((r) => r.callId).sort());
    // What the gateway keeps is what the client sent.
    const g = gatewayRecords(manage);
    expect(g.kept.length).toBeGreaterThan(0);
    const sentOf = new Map(pairs.filter((p) => p.route === 'POST /v1/messages').map((p, i) => [calls[i]!.id, p.sent.bodySha256]));
    for (const k of g.kept) expect(k.originalSha256, k.callId).toBe(sentOf.get(k.callId));
  });

  it('[gateway-real-clients-manage] managing, the billed prompt tokens fall at least 40% against observing, and every call that is not a generation boundary reads at least 90% of its prompt from cache unless no cache could (listed), reading all the previous call sent', () => {
    const o = runFigures(observe.modelCalls);
    const m = runFigures(manage.modelCalls);
    const calls = expectRecordsMatchUpstream(manage, 'claude-cli', 'manage');
    const boundaries = calls.filter((c) => c.rewrite?.boundary).length;
    const saved = gatewayRecords(manage).totals[0]!.savedUsd;
    console.log(formatComparison('Claude Code long task through the gateway', o, m, boundaries, saved));
    console.log(`Generation boundaries (manage):\n${describeBoundaries(calls)}`);
    const excluded = readShareExclusions(m, calls);
    console.log(`Calls outside the 90% target:\n${excluded.map((e) => `  call ${e.index}: ${e.why}`).join('\n')}`);
    console.log(formatFigures('Claude Code long task, managed', m));
    expect(m.calls).toHaveLength(o.calls.length);
    expect(1 - m.billedPromptTokens / o.billedPromptTokens).toBeGreaterThanOrEqual(0.4);
    // Manage mode acted more than once over the task, each time because the budget was reached.
    expect(calls.filter((c) => c.rewrite?.reason?.startsWith('budget reached')).length).toBeGreaterThanOrEqual(2);
    const skip = new Set(excluded.map((e) => e.index));
    const under = m.calls.flatMap((c, i) => (!skip.has(i) && c.readShare < 0.9 ? [`call ${i}: ${(c.readShare * 100).toFixed(1)}%`] : []));
    expect(under, 'non-boundary calls under 90% cache reads').toEqual([]);
    // Inside a generation the cache reads everything the previous call sent (Anthropic: its prompt up to its last breakpoint, here all of it).
    for (const [i, c] of calls.entries()) if (i > 0 && !c.rewrite?.boundary) expect(m.calls[i]!.cacheRead, `call ${i}`).toBe(m.calls[i - 1]!.prompt);
    // Within a generation the gateway sees the prefix it sent unchanged; a budget boundary breaks it at a message.
    for (const c of calls.slice(1)) {
      if (!c.rewrite!.boundary) expect(c.cacheBreak.at, c.id).toBe('appended');
      else if (c.rewrite!.reason!.startsWith('budget reached')) expect(c.cacheBreak.at, c.id).toMatch(/^message \d+$/);
    }
  });

  it("[gateway-host-savings] managing, the control room's estimated saving is within 25% of the real one (the observe run's bill less the manage run's)", () => {
    const o = runFigures(observe.modelCalls);
    const m = runFigures(manage.modelCalls);
    const calls = expectRecordsMatchUpstream(manage, 'claude-cli', 'manage');
    const saved = gatewayRecords(manage).totals[0]!.savedUsd;
    const cmp = compareSavings(o, m, calls);
    console.log(`Claude Code long task: ${cmp.report}`);
    // The session's total is the sum of the calls' estimates (count_tokens calls save nothing).
    expect(saved).toBeCloseTo(cmp.estimatedUsd, 9);
    expect(cmp.realUsd).toBeGreaterThan(0);
    expect(Math.abs(cmp.estimatedUsd - cmp.realUsd), `estimated $${cmp.estimatedUsd.toFixed(4)} vs real $${cmp.realUsd.toFixed(4)}`).toBeLessThanOrEqual(SAVING_TOLERANCE * cmp.realUsd);
  });
});
