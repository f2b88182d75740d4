import { expect } from 'vitest';
import type { GatewayCall } from '../../../engine/gateway/types';
import { endToEndHeaders, exchangePairs } from './exchangePairs';
import type { GatewayRunRecords } from './gatewayProxy';
import { expectedUsage } from './importExpectations';
import { expectedLongTaskAnswer, longTaskPlan } from './longTask';
import { expectFinishedUnrefused } from './longTaskChecks';
import type { GatewayRuns } from './longTaskClients';
import type { RealClientRun } from './realClientHarness';
import { viewRequest } from './replyScript';
import { formatFigures, runFigures, type RunFigures } from './runFigures';
import { compareSavings } from './savingsCheck';

/**
 * The assertions of a real client's long task through the Strata gateway (SPEC
 * `[gateway-real-clients-observe]`, `[gateway-real-clients-manage]`, `[gateway-host-savings]`),
 * shared by both clients (`longTaskClients.ts` says what differs between them).
 */

const MODEL_ROUTES = new Set(['POST /v1/messages', 'POST /v1/responses']);

/** The gateway's records of a run that went through it. */
function gatewayRecords(run: RealClientRun): GatewayRunRecords {
  expect(run.proxy === 'gateway-observe' || run.proxy === 'gateway-manage', `run through ${run.proxy}`).toBe(true);
  expect(run.gateway, 'the runner handed back the gateway records').toBeDefined();
  return run.gateway!;
}

/** The gateway's model calls (count_tokens apart), in the order it announced them. */
const gatewayModelCalls = (g: GatewayRunRecords): GatewayCall[] => g.calls.filter((c) => c.api !== 'anthropic-count-tokens');

/** Headers the gateway sets per hop (besides the per-connection ones): `host` becomes the upstream's; a rewritten body gets its own `content-length`. */
const hopHeaders = (headers: Readonly<Record<string, string>>, rewritten: boolean): Record<string, string> => {
  const out = endToEndHeaders(headers);
  delete out['host'];
  if (rewritten) delete out['content-length'];
  return out;
};

/**
 * Per call: what the client sent beside what the upstream received. `identical` (observe): the same
 * path, body bytes and end-to-end headers, and the client got the upstream's bytes. Otherwise only
 * the path, the headers (a rewritten body's length apart) and the answer are compared, and the
 * pairs are returned for the caller to judge the bodies.
 */
function expectExchangesThroughGateway(run: RealClientRun, identical: boolean): ReturnType<typeof exchangePairs> {
  const pairs = exchangePairs(run.clientSent, run.calls);
  expect(pairs).toHaveLength(run.calls.length);
  expect(pairs.filter((p) => MODEL_ROUTES.has(p.route))).toHaveLength(run.modelCalls.length);
  for (const { route, sent, received } of pairs) {
    const label = `${route} #${sent.index}`;
    expect(received, label).toBeDefined();
    const rewritten = received!.bodySha256 !== sent.bodySha256;
    expect(received!.path, label).toBe(sent.path);
    if (identical) expect([received!.bodyBytes, received!.bodySha256], label).toEqual([sent.bodyBytes, sent.bodySha256]);
    expect(hopHeaders(received!.headers, rewritten), label).toEqual(hopHeaders(sent.headers, rewritten));
    expect([sent.status, sent.responseBytes, sent.responseSha256], label).toEqual([received!.status, received!.responseBytes, received!.responseSha256]);
  }
  return pairs;
}

/**
 * The gateway's own records agree with the upstream's log: one call per model call, each ended
 * with the status and exactly the usage the upstream returned, priced; one session of the client
 * with one main thread holding every call; nothing unobserved, refused or left open.
 */
function expectRecordsMatchUpstream(run: RealClientRun, client: string, mode: 'observe' | 'manage'): GatewayCall[] {
  const g = gatewayRecords(run);
  const calls = gatewayModelCalls(g);
  expect(g.mode).toBe(mode);
  expect(g.unended, 'calls announced but never ended').toEqual([]);
  expect(g.unobserved, 'requests forwarded unobserved').toEqual([]);
  expect(g.refused, 'requests manage mode refused').toEqual([]);
  expect(calls.map((c) => [c.status, c.mode, c.fallback])).toEqual(run.modelCalls.map(() => [200, mode, undefined]));
  expect(calls.map((c) => c.usage)).toEqual(run.modelCalls.map((c) => expectedUsage(c)));
  for (const c of calls) expect(c.costUsd, c.id).toBeGreaterThan(0);
  expect(g.sessions.map((s) => s.client)).toEqual([client]);
  expect(g.threads.map((t) => t.label)).toEqual(['main']);
  expect(new Set(calls.map((c) => c.threadId))).toEqual(new Set([g.threads[0]!.id]));
  // The control room's session totals add up the calls.
  const totals = g.totals.find((t) => t.sessionId === g.sessions[0]!.id)!;
  expect(totals.calls).toBe(g.calls.length);
  expect(totals.costUsd).toBeCloseTo(calls.reduce((n, c) => n + c.costUsd!, 0), 9);
  expect(totals.usage.cacheRead).toBe(calls.reduce((n, c) => n + c.usage!.cacheRead, 0));
  return calls;
}

/** One line per managed boundary: call, generation, why. */
const describeBoundaries = (calls: readonly GatewayCall[]): string =>
  calls.flatMap((c, i) => (c.rewrite?.boundary ? [`  call ${i}: generation ${c.rewrite.generation}, ${c.rewrite.reason ?? '?'} (${c.rewrite.originalTokens} -> ${c.rewrite.rewrittenTokens} o200k, ${c.rewrite.compressed.length} results hidden)`] : [])).join('\n');

/**
 * Which calls of a managed run the 90% cache-read target applies to, and why the others are
 * excluded (`[gateway-real-clients-manage]`): a generation boundary changes the prefix on purpose;
 * a call whose new tokens (its prompt less the previous call's) are more than a tenth of its
 * prompt cannot read 90% from any cache, since a cache holds at most what was sent before.
 */
function readShareExclusions(figures: RunFigures, calls: readonly GatewayCall[]): { index: number; why: string }[] {
  return figures.calls.flatMap((f, i) => {
    if (calls[i]!.rewrite?.boundary) return [{ index: i, why: `generation boundary (${calls[i]!.rewrite!.reason})` }];
    const previous = i > 0 ? figures.calls[i - 1]!.prompt : 0;
    if (previous < 0.9 * f.prompt) return [{ index: i, why: `adds ${f.prompt - previous} of its ${f.prompt} tokens (${((1 - previous / f.prompt) * 100).toFixed(1)}%): no cache can read 90%` }];
    return [];
  });
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The observe-vs-manage table the tests print. */
function formatComparison(title: string, observe: RunFigures, manage: RunFigures, boundaries: number, savedUsd: number): string {
  const row = (name: string, f: RunFigures, b: number | string) =>
    `  ${name.padEnd(8)} ${String(f.calls.length).padStart(5)}  ${String(f.billedPromptTokens).padStart(12)}  ${String(f.cacheRead).padStart(11)}  ${pct(f.readShare).padStart(6)}  ${f.usd === null ? '     n/a' : `$${f.usd.toFixed(4)}`.padStart(8)}  ${String(b).padStart(10)}`;
  return [
    `${title} (${observe.priceNote})`,
    `  ${'mode'.padEnd(8)} calls  billed prompt  cache reads   share     money  boundaries`,
    row('observe', observe, '-'),
    row('manage', manage, boundaries),
    `  billed prompt tokens ${pct(1 - manage.billedPromptTokens / observe.billedPromptTokens)} fewer managed; money ${observe.usd !== null && manage.usd !== null ? `$${(observe.usd - manage.usd).toFixed(4)} less` : 'n/a'}; the control room's estimated saving $${savedUsd.toFixed(4)}`,
  ].join('\n');
}

/** Observing: the client finished the task with the right answer, none refused, and every exchange went through byte for byte with its headers. */
export function expectObservedRunFinished({ client, observe }: GatewayRuns): void {
  expectFinishedUnrefused(observe);
  expect(client.finalAnswer(observe)).toBe(expectedLongTaskAnswer());
  expectExchangesThroughGateway(observe, true);
}

/** Observing: the gateway's records match the upstream's log, the cache break at the first call and then appended, prefix reuse growing, nothing rewritten. */
export function expectObservedRecords({ client, observe }: GatewayRuns): void {
  const calls = expectRecordsMatchUpstream(observe, client.gatewayClient, 'observe');
  expect(calls).toHaveLength(longTaskPlan().length + 1);
  expect(calls.map((c) => c.cacheBreak.at)).toEqual(['first call', ...calls.slice(1).map(() => 'appended')]);
  for (const c of calls.slice(1)) expect(c.prefixReuse, c.id).toBeGreaterThan(0.7);
  expect(calls.every((c) => c.rewrite === undefined)).toBe(true);
}

/** Managing: the client finished with the right answer, nothing refused; old results went up as placeholders that keep their call, and the gateway kept the original of each newest call. */
export function expectManagedPlaceholders({ client, manage }: GatewayRuns): void {
  expectFinishedUnrefused(manage);
  expect(client.finalAnswer(manage)).toBe(expectedLongTaskAnswer());
  const pairs = expectExchangesThroughGateway(manage, false);
  const calls = expectRecordsMatchUpstream(manage, client.gatewayClient, 'manage');
  // The last request upstream: every result still paired with its call (the server validated it), the old ones hidden.
  const last = viewRequest(client.wire, manage.modelCalls[manage.modelCalls.length - 1]!.body);
  expect(last.results).toHaveLength(longTaskPlan().length);
  const hidden = last.results.filter((r) => r.text.startsWith('[strata: '));
  expect(hidden.length).toBeGreaterThanOrEqual(20);
  for (const r of hidden) expect(r.text).toMatch(/hidden at generation \d+/);
  expect(calls[calls.length - 1]!.rewrite!.compressed.map((c) => c.key).sort()).toEqual(hidden.map((r) => r.callId).sort());
  // What the gateway keeps is what the client sent.
  const g = gatewayRecords(manage);
  expect(g.kept.length).toBeGreaterThan(0);
  const sentOf = new Map(pairs.filter((p) => p.route === client.modelRoute).map((p, i) => [calls[i]!.id, p.sent.bodySha256]));
  for (const k of g.kept) expect(k.originalSha256, k.callId).toBe(sentOf.get(k.callId));
}

/**
 * Managing against observing: the billed prompt tokens fall at least 40%, manage mode acts at least
 * twice on the budget, and every call that is not a generation boundary reads at least 90% of its
 * prompt from cache unless no cache could (`readShareExclusions`, listed), reading all the previous
 * call sent. Prints the comparison, the boundaries and the managed run's figures.
 */
export function expectManagedSavings({ client, observe, manage }: GatewayRuns): void {
  const o = runFigures(observe.modelCalls);
  const m = runFigures(manage.modelCalls);
  const calls = expectRecordsMatchUpstream(manage, client.gatewayClient, 'manage');
  const boundaries = calls.filter((c) => c.rewrite?.boundary).length;
  const saved = gatewayRecords(manage).totals[0]!.savedUsd;
  console.log(formatComparison(`${client.name} long task through the gateway`, o, m, boundaries, saved));
  console.log(`Generation boundaries (manage):\n${describeBoundaries(calls)}`);
  const excluded = readShareExclusions(m, calls);
  console.log(`Calls outside the 90% target:\n${excluded.map((e) => `  call ${e.index}: ${e.why}`).join('\n')}`);
  console.log(formatFigures(`${client.name} long task, managed`, m));
  expect(m.calls).toHaveLength(o.calls.length);
  expect(1 - m.billedPromptTokens / o.billedPromptTokens).toBeGreaterThanOrEqual(0.4);
  // Manage mode acted more than once over the task, each time because the budget was reached.
  expect(calls.filter((c) => c.rewrite?.reason?.startsWith('budget reached')).length).toBeGreaterThanOrEqual(2);
  const skip = new Set(excluded.map((e) => e.index));
  const under = m.calls.flatMap((c, i) => (!skip.has(i) && c.readShare < 0.9 ? [`call ${i}: ${(c.readShare * 100).toFixed(1)}%`] : []));
  expect(under, 'non-boundary calls under 90% cache reads').toEqual([]);
  // Inside a generation the cache reads everything the previous call sent (as the provider counts it: `expectReadsPrevious`).
  for (const [i, c] of calls.entries()) if (i > 0 && !c.rewrite?.boundary) client.expectReadsPrevious(m.calls[i]!.cacheRead, m.calls[i - 1]!.prompt, `call ${i}`);
  // Within a generation the gateway sees the prefix it sent unchanged; a budget boundary breaks it at a message (an input item on the Responses wire).
  for (const c of calls.slice(1)) {
    if (!c.rewrite!.boundary) expect(c.cacheBreak.at, c.id).toBe('appended');
    else if (c.rewrite!.reason!.startsWith('budget reached')) expect(c.cacheBreak.at, c.id).toMatch(client.boundaryBreak);
  }
}

/** How far the estimated saving may be from the real one, as a share of the real one. */
const SAVING_TOLERANCE = 0.25;

/** Managing: the control room's estimated saving is within `SAVING_TOLERANCE` of the real one (the observe run's bill less the manage run's). */
export function expectEstimatedSaving({ client, observe, manage }: GatewayRuns): void {
  const o = runFigures(observe.modelCalls);
  const m = runFigures(manage.modelCalls);
  const calls = expectRecordsMatchUpstream(manage, client.gatewayClient, 'manage');
  const saved = gatewayRecords(manage).totals[0]!.savedUsd;
  const cmp = compareSavings(o, m, calls);
  console.log(`${client.name} long task: ${cmp.report}`);
  // The session's total is the sum of the calls' estimates (count_tokens calls save nothing).
  expect(saved).toBeCloseTo(cmp.estimatedUsd, 9);
  expect(cmp.realUsd).toBeGreaterThan(0);
  expect(Math.abs(cmp.estimatedUsd - cmp.realUsd), `estimated $${cmp.estimatedUsd.toFixed(4)} vs real $${cmp.realUsd.toFixed(4)}`).toBeLessThanOrEqual(SAVING_TOLERANCE * cmp.realUsd);
}
