import { expect } from 'vitest';
import { endToEndHeaders, exchangePairs } from './exchangePairs';
import { longTaskPlan } from './longTask';
import { describeAttempts, type RealClientRun } from './realClientHarness';
import { isLoopback } from './straceNetwork';

/** The assertions both clients' long-task tests share (the run's own checks; the final answer is the client's). */

/** Offline, the one turn exited 0, every scripted reply was asked for, nothing refused, unscripted or unknown. */
export function expectFinishedUnrefused(run: RealClientRun): void {
  expect(describeAttempts(run.offLoopback), 'addresses off loopback').toBe('');
  const port = Number(new URL(run.origin).port);
  expect(run.network.some((a) => a.syscall === 'connect' && a.port === port && isLoopback(a.address)), 'the trace shows the client reaching its origin').toBe(true);
  expect(run.steps.map((s) => [s.label, s.exitCode, s.timedOut])).toEqual([['the long task', 0, false]]);
  expect(run.calls.filter((c) => c.refusal).map((c) => `#${c.index} ${c.path}: ${c.refusal!.message}`), 'requests refused').toEqual([]);
  expect(run.calls.filter((c) => c.status !== 200 || c.agent === 'unscripted').map((c) => `${c.method} ${c.path} ${c.status} ${c.rule ?? ''}`)).toEqual([]);
  expect(run.unusedRules).toEqual([]);
  // One call per tool call of the plan, and one for the answer: every tool ran, each once.
  expect(run.modelCalls.map((c) => c.rule)).toEqual([...longTaskPlan().map((_, i) => `lt-step-${String(i).padStart(2, '0')}`), 'lt-answer']);
}

/** Through the byte-forwarding proxy: per call, the upstream received the client's bytes and end-to-end headers, and the client got the upstream's bytes. */
export function expectByteIdenticalThroughProxy(run: RealClientRun): void {
  expect(run.proxy).toBe('byte-forwarding');
  expect(run.origin).not.toBe(run.upstreamOrigin);
  const pairs = exchangePairs(run.clientSent, run.calls);
  expect(pairs).toHaveLength(run.calls.length);
  expect(pairs.filter((p) => p.route === 'POST /v1/messages' || p.route === 'POST /v1/responses')).toHaveLength(run.modelCalls.length);
  for (const { route, sent, received } of pairs) {
    const label = `${route} #${sent.index}`;
    expect(received, label).toBeDefined();
    expect([received!.path, received!.bodyBytes, received!.bodySha256], label).toEqual([sent.path, sent.bodyBytes, sent.bodySha256]);
    expect(endToEndHeaders(received!.headers), label).toEqual(endToEndHeaders(sent.headers));
    expect([sent.status, sent.responseBytes, sent.responseSha256], label).toEqual([received!.status, received!.responseBytes, received!.responseSha256]);
  }
}

/** Every tool result the client sent back is a large output (the plan's 4-20 KB files; the failure listing is small). */
export function expectLargeResults(resultSizes: readonly number[]): void {
  const plan = longTaskPlan();
  expect(resultSizes).toHaveLength(plan.length);
  const large = resultSizes.filter((n, i) => plan[i]!.kind !== 'list-failures' && n >= 4_000);
  expect(large.length).toBeGreaterThanOrEqual(40);
}
