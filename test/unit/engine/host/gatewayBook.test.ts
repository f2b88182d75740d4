import { describe, expect, it } from 'vitest';
import type { GatewaySession, GatewayThread } from '../../../../engine/gateway/GatewaySessions';
import type { GatewayCall, GatewayUsage, OriginalPrefix } from '../../../../engine/gateway/types';
import { GatewayBook, REQUESTS_PER_SESSION, REQUESTS_PER_THREAD, savingsOf } from '../../../../engine/host/GatewayBook';

// The book's savings totals over hand-made managed calls (Claude Sonnet 4.5: cache read $0.30,
// 5-minute write $3.75 per million tokens; the figures are worked out in managedSaving.test.ts).

const session: GatewaySession = { id: 'gws_1', client: 'claude-cli', model: 'claude-sonnet-4-5', mainThreadId: 'gwt_1', calls: 0 };
const thread: GatewayThread = { id: 'gwt_1', sessionId: 'gws_1', label: 'main', calls: 0 };
const usage = (u: Partial<GatewayUsage>): GatewayUsage => ({ input: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, output: 100, ...u });
const appended = (previousTokens: number, bytes: number): OriginalPrefix => ({ cacheBreak: { at: 'appended', blockIndex: 5, unchangedBytes: bytes - 1_000 }, bytes, previousTokens });

function managed(id: string, u: GatewayUsage, originalTokens: number, rewrittenTokens: number, original: OriginalPrefix | undefined, boundary: boolean): GatewayCall {
  const call: GatewayCall = {
    id,
    sessionId: session.id,
    threadId: thread.id,
    api: 'anthropic-messages',
    model: 'claude-sonnet-4-5',
    mode: 'manage',
    startedAt: 0,
    status: 200,
    usage: u,
    prefixReuse: 0,
    cacheBreak: boundary ? { at: 'message 3', blockIndex: 3, unchangedBytes: 1 } : { at: 'appended', blockIndex: 5, unchangedBytes: 1 },
    rewrite: { generation: 2, boundary, compressed: [], dropped: [], breakpoints: [], originalTokens, rewrittenTokens },
  };
  if (original) call.original = original;
  return call;
}

describe('GatewayBook savings', () => {
  it('[gateway-host-savings] the session total is the sum of each ended call\'s saving, negative boundaries included; count_tokens and calls not rewritten save nothing', () => {
    const book = new GatewayBook(() => 0);
    // A boundary: 1,000 read + 4,000 written ($0.0153) where the original would have read 9,500 and written 500 ($0.004725).
    const boundary = managed('gwc_1', usage({ cacheRead: 1_000, cacheWrite: 4_000 }), 10_000, 5_000, appended(9_500, 10_000), true);
    // Inside the generation: the 6,000 hidden tokens would have been read, $0.0018.
    const inside = managed('gwc_2', usage({ cacheRead: 3_150, cacheWrite: 450 }), 10_000, 4_000, appended(9_000, 10_000), false);
    const counted = { ...managed('gwc_3', usage({ output: 0 }), 10_000, 4_000, appended(10_000, 10_000), false), api: 'anthropic-count-tokens' as const };
    const { rewrite: _r, original: _o, ...fellBack } = { ...managed('gwc_4', usage({ cacheRead: 9_000, cacheWrite: 900 }), 10_000, 10_000, undefined, false), fallback: 'the engine failed' };
    for (const call of [boundary, inside, counted, fellBack]) {
      book.record({ event: 'started', call, session, thread });
      book.record({ event: 'ended', call, session, thread });
    }
    expect(savingsOf(boundary).usd).toBeCloseTo(0.004725 - 0.0153, 12);
    expect(savingsOf(counted)).toEqual({ tokens: 0, usd: 0 });
    expect(savingsOf(fellBack)).toEqual({ tokens: 0, usd: 0 });
    const totals = book.session(session.id)!.totals;
    expect(totals.savedUsd).toBeCloseTo(0.004725 - 0.0153 + 0.0018, 12);
    expect(totals.savedUsd).toBeLessThan(0);
    expect(totals.savedTokens).toBe(5_000 + 6_000);
    // The thread's totals agree; a call's second end is not counted again.
    const before = totals.savedUsd;
    book.record({ event: 'ended', call: inside, session, thread });
    expect(book.session(session.id)!.totals.savedUsd).toBe(before);
    expect(book.session(session.id)!.threads.get(thread.id)!.totals.savedUsd).toBeCloseTo(before, 12);
  });
});

describe('GatewayBook kept requests', () => {
  it('[gateway-host-book] keeps the newest 20 requests of a thread and 40 of a session, the oldest dropped first, other sessions untouched', () => {
    const book = new GatewayBook(() => 0);
    const keep = (id: string, sessionId: string, threadId: string) => {
      const call = { ...managed(id, usage({}), 10, 10, undefined, false), sessionId, threadId };
      book.keepRequest({ call, original: `{"call":"${id}"}`, rewritten: `{"sent":"${id}"}` });
    };
    // One session that compacted into three threads, 25 managed calls each; another session with 5.
    for (const t of [1, 2, 3]) for (let i = 1; i <= 25; i++) keep(`a${t}-${i}`, 'gws_a', `gwt_a${t}`);
    for (let i = 1; i <= 5; i++) keep(`b-${i}`, 'gws_b', 'gwt_b');
    expect(REQUESTS_PER_THREAD).toBe(20);
    expect(REQUESTS_PER_SESSION).toBe(40);
    expect(book.keptRequests().count).toBe(REQUESTS_PER_SESSION + 5);
    // The newest thread keeps its newest 20, the one before it the rest of the session's 40.
    expect(book.hasRequest('a3-6')).toBe(true);
    expect(book.hasRequest('a3-5')).toBe(false);
    expect(book.hasRequest('a2-25')).toBe(true);
    expect(book.hasRequest('a2-6')).toBe(true);
    expect(book.hasRequest('a2-5')).toBe(false);
    expect([...Array(25).keys()].some((i) => book.hasRequest(`a1-${i + 1}`))).toBe(false);
    expect(book.request('a3-25')).toEqual({ original: '{"call":"a3-25"}', rewritten: '{"sent":"a3-25"}' });
    for (let i = 1; i <= 5; i++) expect(book.hasRequest(`b-${i}`)).toBe(true);
  });
});
