import { expect } from 'vitest';
import { endToEndHeaders, exchangePairs } from './exchangePairs';
import { expectedLongTaskAnswer, longTaskPlan } from './longTask';
import type { LongTaskRun } from './longTaskClients';
import { describeAttempts, type RealClientRun } from './realClientHarness';
import { viewRequest } from './replyScript';
import { formatFigures, runFigures } from './runFigures';
import { isLoopback } from './straceNetwork';

/** The assertions both clients' long-task tests share (`longTaskClients.ts` says what differs between them). */

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
function expectByteIdenticalThroughProxy(run: RealClientRun): void {
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
function expectLargeResults(resultSizes: readonly number[]): void {
  const plan = longTaskPlan();
  expect(resultSizes).toHaveLength(plan.length);
  const large = resultSizes.filter((n, i) => plan[i]!.kind !== 'list-failures' && n >= 4_000);
  expect(large.length).toBeGreaterThanOrEqual(40);
}

/** The size of each tool result in the last request, as the client sent it. */
const resultSizes = ({ client, run }: LongTaskRun): number[] => viewRequest(client.wire, run.modelCalls[run.modelCalls.length - 1]!.body).results.map((r) => r.text.length);

/** Directly: the one turn finished offline with every scripted tool call, none refused, each tool's large output sent back, and the answer the generated logs call for. */
export function expectDirectRunFinished(direct: LongTaskRun): void {
  expectFinishedUnrefused(direct.run);
  expect(longTaskPlan().length).toBeGreaterThanOrEqual(40);
  expectLargeResults(resultSizes(direct));
  expect(direct.client.finalAnswer(direct.run)).toBe(expectedLongTaskAnswer());
}

/** Directly: every call billed, the prompt growing call by call; the figures printed for the managed run to be measured against. */
export function expectBaselineFigures({ client, run }: LongTaskRun): void {
  const figures = runFigures(run.modelCalls);
  console.log(formatFigures(`${client.name} long task, direct (baseline)`, figures));
  expect(figures.calls).toHaveLength(longTaskPlan().length + 1);
  for (const [i, c] of figures.calls.entries()) if (i > 0) expect(c.prompt, `call ${c.index}`).toBeGreaterThan(figures.calls[i - 1]!.prompt);
  expect(figures.billedPromptTokens).toBe(run.modelCalls.reduce((n, c) => n + c.promptTokens, 0));
  // An append-only thread reads most of each prompt from cache once the first call wrote it.
  expect(figures.calls.slice(1).every((c) => c.cacheRead > 0)).toBe(true);
}

/** Through the byte-forwarding proxy: the same task finished with the same answer, every exchange byte for byte. */
export function expectSameTaskThroughProxy({ client, run }: LongTaskRun): void {
  expectFinishedUnrefused(run);
  expect(client.finalAnswer(run)).toBe(expectedLongTaskAnswer());
  expectByteIdenticalThroughProxy(run);
}
