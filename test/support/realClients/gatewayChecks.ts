import { expect } from 'vitest';
import type { GatewayCall } from '../../../engine/gateway/types';
import { endToEndHeaders, exchangePairs } from './exchangePairs';
import type { GatewayRunRecords } from './gatewayProxy';
import { expectedUsage } from './importExpectations';
import type { RealClientRun } from './realClientHarness';
import type { RunFigures } from './runFigures';

/**
 * The assertions of a real client's long task through the Strata gateway (SPEC
 * `[gateway-real-clients-observe]`, `[gateway-real-clients-manage]`), shared by both clients.
 */

const MODEL_ROUTES = new Set(['POST /v1/messages', 'POST /v1/responses']);

/** The gateway's records of a run that went through it. */
export function gatewayRecords(run: RealClientRun): GatewayRunRecords {
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
export function expectExchangesThroughGateway(run: RealClientRun, identical: boolean): ReturnType<typeof exchangePairs> {
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
export function expectRecordsMatchUpstream(run: RealClientRun, client: string, mode: 'observe' | 'manage'): GatewayCall[] {
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
export const describeBoundaries = (calls: readonly GatewayCall[]): string =>
  calls.flatMap((c, i) => (c.rewrite?.boundary ? [`  call ${i}: generation ${c.rewrite.generation}, ${c.rewrite.reason ?? '?'} (${c.rewrite.originalTokens} -> ${c.rewrite.rewrittenTokens} o200k, ${c.rewrite.compressed.length} results hidden)`] : [])).join('\n');

/**
 * Which calls of a managed run the 90% cache-read target applies to, and why the others are
 * excluded (`[gateway-real-clients-manage]`): a generation boundary changes the prefix on purpose;
 * a call whose new tokens (its prompt less the previous call's) are more than a tenth of its
 * prompt cannot read 90% from any cache, since a cache holds at most what was sent before.
 */
export function readShareExclusions(figures: RunFigures, calls: readonly GatewayCall[]): { index: number; why: string }[] {
  return figures.calls.flatMap((f, i) => {
    if (calls[i]!.rewrite?.boundary) return [{ index: i, why: `generation boundary (${calls[i]!.rewrite!.reason})` }];
    const previous = i > 0 ? figures.calls[i - 1]!.prompt : 0;
    if (previous < 0.9 * f.prompt) return [{ index: i, why: `adds ${f.prompt - previous} of its ${f.prompt} tokens (${((1 - previous / f.prompt) * 100).toFixed(1)}%): no cache can read 90%` }];
    return [];
  });
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The observe-vs-manage table the tests print. */
export function formatComparison(title: string, observe: RunFigures, manage: RunFigures, boundaries: number, savedUsd: number): string {
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
