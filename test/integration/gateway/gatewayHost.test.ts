import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StrataEvent } from '../../../engine/contract';
import { manualScheduler } from '../../../engine/ports/Scheduler';
import { GatewayService } from '../../../engine/host/GatewayService';
import { REQUESTS_PER_THREAD, savingsOf } from '../../../engine/host/GatewayBook';
import { type RunningGateway, startGateway } from '../../../engine/host/startGateway';
import type { GatewayCall } from '../../../engine/gateway/types';
import { startAnthropicLoopback, type AnthropicLoopback } from '../../support/loopback';
import { claudeBody, claudeHeaders, codexBody, codexHeaders, codexUser, toolResult, toolUse, userText } from '../../unit/engine/gateway/gatewayFixtures';
import { startUpstream } from './gatewayFixture';

/**
 * The gateway as the host runs it (`startGateway`, `GatewayService`): real sockets, g2's server,
 * a loopback upstream, requests sent with fetch as a client would.
 */

type Json = Record<string, unknown>;
const open: (RunningGateway | AnthropicLoopback | GatewayService)[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await (o instanceof GatewayService ? o.close() : o.close());
});

/** A tool output of about `lines` × 12 tokens, different per `seed`. */
/** How a text appears inside a JSON body. */
const inJson = (text: string) => JSON.stringify(text).slice(1, -1);
const bigOutput = (seed: number, lines = 80) => Array.from({ length: lines }, (_, n) => `src/mod${seed}/file${n}.ts:${n * 7 + seed}: const value${n}_${seed} = compute(${n}, "${seed}-${n}");`).join('\n');

/** A Claude Code conversation of `n` tool calls with large outputs, the last one's result the current turn. */
function conversation(n: number): Json[] {
  const messages: Json[] = [userText('Find where compute is defined and fix its bug.')];
  for (let i = 1; i <= n; i++) messages.push(toolUse(`toolu_${i}`, 'Bash', { command: `grep -rn compute src/mod${i}` }), toolResult(`toolu_${i}`, bigOutput(i)));
  return messages;
}

async function send(origin: string, path: string, body: Json | string, headers: Record<string, string>): Promise<Response> {
  const res = await fetch(`${origin}${path}`, { method: 'POST', headers: { ...headers, 'x-api-key': 'sk-ant-test-key' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  await res.arrayBuffer();
  return res;
}

const calls = (g: RunningGateway): GatewayCall[] => g.sessions().flatMap((s) => [...s.threads.values()].flatMap((t) => t.calls));
const ended = async (g: RunningGateway, count: number) => vi.waitFor(() => expect(calls(g).filter((c) => c.durationMs !== undefined)).toHaveLength(count), { timeout: 20_000, interval: 20 });

const MANAGE = { contextWindow: 4_000, highWatermark: 0.4, lowWatermark: 0.2, keepLastResults: 1, keepLastTokens: 0, minResultTokens: 50 };

async function anthropicGateway(mode: 'observe' | 'manage' = 'observe') {
  const upstream = await startAnthropicLoopback();
  open.push(upstream);
  const g = await startGateway({ mode, upstreams: { anthropic: upstream.origin }, manageOptions: MANAGE });
  open.push(g);
  return { upstream, g };
}

describe('startGateway: observe', () => {
  it('[gateway-host-start] [gateway-host-book] a streamed Anthropic call and its continuation: one session, its main thread, calls with the upstream usage, money, reuse and cache break', async () => {
    const { upstream, g } = await anthropicGateway();
    const first = claudeBody(conversation(1));
    const second = claudeBody(conversation(2));
    expect((await send(g.origin, '/v1/messages?beta=true', first, claudeHeaders())).status).toBe(200);
    await ended(g, 1);
    expect((await send(g.origin, '/v1/messages?beta=true', second, claudeHeaders())).status).toBe(200);
    await ended(g, 2);

    // Observe: the upstream got the client's bytes unchanged.
    expect(upstream.requests.map((r) => r.rawBody)).toEqual([JSON.stringify(first), JSON.stringify(second)]);
    const [s] = g.sessions();
    expect(g.sessions()).toHaveLength(1);
    expect(s!.session.client).toBe('claude-cli');
    const [main] = [...s!.threads.values()];
    expect(main!.thread.label).toBe('main');
    const [a, b] = main!.calls;
    expect(a!.mode).toBe('observe');
    expect(a!.cacheBreak.at).toBe('first call');
    expect(b!.cacheBreak.at).not.toBe('first call');
    expect(b!.prefixReuse).toBeGreaterThan(0.3);
    expect(b!.prefixReuse).toBeLessThan(1);
    // Usage is what the upstream reported on the wire.
    const wire = upstream.requests[1]!.usage as Record<string, number>;
    expect(b!.usage).toMatchObject({ input: wire['input_tokens'], cacheRead: wire['cache_read_input_tokens'], cacheWrite: wire['cache_creation_input_tokens'], output: wire['output_tokens'] });
    expect(b!.usage!.cacheRead).toBeGreaterThan(0);
    expect(b!.costUsd).toBeGreaterThan(0);
    // Totals add up every ended call; reuse leaves each thread's first call out.
    expect(s!.totals.calls).toBe(2);
    expect(s!.totals.usage.cacheRead).toBe(a!.usage!.cacheRead + b!.usage!.cacheRead);
    expect(s!.totals.costUsd).toBeCloseTo(a!.costUsd! + b!.costUsd!, 12);
    expect(s!.totals.prefixReuse).toBeCloseTo(b!.prefixReuse, 12);
    expect(s!.totals.savedTokens).toBe(0);
  });

  it('[gateway-host-book] a Responses call: usage parts from the upstream, cached tokens taken out of input', async () => {
    const up = await startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'resp_1', object: 'response', status: 'completed', output: [], usage: { input_tokens: 1500, input_tokens_details: { cached_tokens: 1280 }, output_tokens: 40 } }));
    });
    const g = await startGateway({ mode: 'observe', upstreams: { openai: `${up.base}/v1` } });
    open.push(g);
    const body = { ...codexBody([codexUser('List the files.')]), stream: false };
    expect((await send(g.origin, '/v1/responses', body, codexHeaders('thread-a'))).status).toBe(200);
    await ended(g, 1);
    expect(up.requests[0]!.path).toBe('/v1/responses');
    expect(up.requests[0]!.body.toString()).toBe(JSON.stringify(body));
    const [call] = calls(g);
    expect(call).toMatchObject({ api: 'openai-responses', model: 'gpt-5.5', status: 200, usage: { input: 220, cacheRead: 1280, cacheWrite: 0, output: 40 } });
    expect(call!.costUsd).toBeGreaterThan(0);
  });
});

describe('startGateway: manage, switched live', () => {
  it('[gateway-host-modes] [gateway-host-controls] [gateway-host-savings] switched to manage, the next call is rewritten and recorded as a generation; a removal applies at the next call; originals are kept', async () => {
    const { upstream, g } = await anthropicGateway('observe');
    await send(g.origin, '/v1/messages', claudeBody(conversation(4)), claudeHeaders());
    await ended(g, 1);
    const sessionId = g.sessions()[0]!.session.id;
    g.handler.setMode(sessionId, 'manage');
    expect(g.handler.modeOf(sessionId)).toBe('manage');

    const b = claudeBody(conversation(5));
    await send(g.origin, '/v1/messages', b, claudeHeaders());
    await ended(g, 2);
    const managed = calls(g)[1]!;
    expect(managed.mode).toBe('manage');
    expect(managed.rewrite).toMatchObject({ generation: 1, boundary: true });
    expect(managed.rewrite!.reason).toMatch(/^first call/);
    expect(managed.rewrite!.compressed.map((c) => c.key)).toContain('toolu_1');
    expect(managed.rewrite!.rewrittenTokens).toBeLessThan(managed.rewrite!.originalTokens);
    const sent = upstream.requests[1]!.rawBody;
    expect(sent).toContain('[strata: ');
    expect(sent).not.toContain(inJson(bigOutput(1)));
    expect(sent).toContain(inJson(bigOutput(5)));
    // The operator can see both: the original as the client sent it, the rewritten as it went upstream.
    expect(g.request(managed.id)).toEqual({ original: JSON.stringify(b), rewritten: sent });
    // Reuse and the cache break are of what was sent, against what the observed call sent before it:
    // system and tools unchanged, the break at the first result the rewrite compressed (not 'first call').
    expect(managed.cacheBreak.at).toMatch(/^message \d+/);
    expect(managed.cacheBreak.unchangedBytes).toBeGreaterThan(0);
    expect(managed.prefixReuse).toBeGreaterThan(0);
    expect(managed.promptBytes).toBeGreaterThan(0);

    const threadId = managed.threadId;
    g.handler.controls(threadId).removals.add('toolu_5');
    await send(g.origin, '/v1/messages', claudeBody(conversation(6)), claudeHeaders());
    await ended(g, 3);
    const third = calls(g)[2]!;
    expect(third.rewrite).toMatchObject({ generation: 2, boundary: true });
    expect(third.rewrite!.reason).toMatch(/^the operator changed pins or removals/);
    expect(third.rewrite!.dropped).toEqual([{ key: 'toolu_5', why: 'removed by the operator' }]);
    expect(upstream.requests[2]!.rawBody).toContain('removed by the operator');
    expect(upstream.requests[2]!.rawBody).not.toContain(inJson(bigOutput(5)));
    expect(third.cacheBreak.at).not.toBe('first call');
    expect(g.handler.generations(threadId)!.total).toBe(2);

    // What the estimate knows of each original: against the thread's previous original, whose o200k only a managed call counted.
    expect(managed.original).toEqual({ cacheBreak: expect.objectContaining({ at: 'appended' }), bytes: expect.any(Number) });
    expect(third.original).toMatchObject({ cacheBreak: { at: 'appended' }, previousTokens: managed.rewrite!.originalTokens });
    // Savings: each managed call's counterfactual (its original as observe mode would have been billed) less what was billed.
    const s = g.sessions()[0]!;
    expect(s.totals.managed).toBe(2);
    const expected = [managed, third].map(savingsOf);
    expect(s.totals.savedTokens).toBe(expected[0]!.tokens + expected[1]!.tokens);
    expect(s.totals.savedTokens).toBeGreaterThan(0);
    expect(s.totals.savedUsd).toBeCloseTo(expected[0]!.usd + expected[1]!.usd, 12);
    expect(s.totals.savedUsd).toBeGreaterThan(0);

    // Back to observe: the client's next request goes as it came, measured against the rewritten
    // request that went upstream before it (so the break is where the rewrite differed), while its
    // original still merely appends to the previous original.
    g.handler.setMode(sessionId, 'observe');
    await send(g.origin, '/v1/messages', claudeBody(conversation(7)), claudeHeaders());
    await ended(g, 4);
    const observed = calls(g)[3]!;
    expect(observed.mode).toBe('observe');
    expect(upstream.requests[3]!.rawBody).toBe(JSON.stringify(claudeBody(conversation(7))));
    expect(observed.cacheBreak.at).toMatch(/^message \d+/);
    expect(observed.cacheBreak.unchangedBytes).toBeLessThan(Buffer.byteLength(upstream.requests[2]!.rawBody));
    expect(observed.prefixReuse).toBeLessThan(1);
  });

  it('[gateway-host-modes] a request manage mode cannot read gets the provider\'s 400 and never goes upstream; the refusal is recorded', async () => {
    const upstream = await startAnthropicLoopback();
    open.push(upstream);
    const refused: string[] = [];
    const g = await startGateway({ mode: 'manage', upstreams: { anthropic: upstream.origin }, onRefused: (r) => refused.push(r.reason) });
    open.push(g);
    const res = await fetch(`${g.origin}/v1/messages`, { method: 'POST', headers: { ...claudeHeaders(), 'x-api-key': 'k' }, body: '{"model": "claude-opus-5-5", "messages": ' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(/not valid JSON/);
    // A body that parses but that the manager cannot read (a tool result without its id) is refused too, as a recorded call.
    const bad = claudeBody([userText('hi'), { role: 'user', content: [{ type: 'tool_result', content: 'x' }] }]);
    const res2 = await send(g.origin, '/v1/messages', bad, claudeHeaders());
    expect(res2.status).toBe(400);
    await ended(g, 1);
    expect(calls(g)[0]).toMatchObject({ status: 400, mode: 'manage' });
    // The call's error is the reply the client got, in the provider's words.
    expect(calls(g)[0]!.error).toBe('invalid_request_error: messages.1.content.0.tool_use_id must be a string');
    expect(upstream.requests).toHaveLength(0);
    // A thread's refused call went nowhere: the client's retry of its previous request is measured
    // against what went upstream before the refusal, and is unchanged.
    const good = claudeBody(conversation(1));
    expect((await send(g.origin, '/v1/messages', good, claudeHeaders())).status).toBe(200);
    const broken = claudeBody([...conversation(1), { role: 'assistant', content: [{ type: 'tool_use', name: 'Read', input: {} }] }]);
    expect((await send(g.origin, '/v1/messages', broken, claudeHeaders())).status).toBe(400);
    expect((await send(g.origin, '/v1/messages', good, claudeHeaders())).status).toBe(200);
    await ended(g, 4);
    const [first, refusedCall, retry] = calls(g).slice(1);
    expect(refusedCall!.status).toBe(400);
    expect(new Set([first!.threadId, refusedCall!.threadId, retry!.threadId]).size).toBe(1);
    expect(retry!.cacheBreak.at).toBe('unchanged');
    expect(retry!.prefixReuse).toBe(1);
    expect(upstream.requests).toHaveLength(2);
    // Refused as a thread's first call: the call after it is still the thread's first that went upstream.
    const fresh = (n: number) => claudeBody([userText('Another task entirely.'), ...conversation(n).slice(1)]);
    const brokenFirst = claudeBody([userText('Another task entirely.'), { role: 'assistant', content: [{ type: 'tool_use', name: 'Read', input: {} }] }]);
    expect((await send(g.origin, '/v1/messages', brokenFirst, claudeHeaders())).status).toBe(400);
    expect((await send(g.origin, '/v1/messages', fresh(1), claudeHeaders())).status).toBe(200);
    await ended(g, 6);
    const [refusedFirst, afterIt] = calls(g).filter((c) => c.threadId !== first!.threadId && c.startedAt >= retry!.startedAt);
    expect(refusedFirst!.status).toBe(400);
    expect(afterIt!.threadId).toBe(refusedFirst!.threadId);
    expect(afterIt!.cacheBreak.at).toBe('first call');
  });

  it('[gateway-host-modes] an engine fault forwards the original unchanged, recorded as fallback on the call', async () => {
    const { upstream, g } = await anthropicGateway('manage');
    await send(g.origin, '/v1/messages', claudeBody(conversation(2)), claudeHeaders());
    await ended(g, 1);
    const threadId = calls(g)[0]!.threadId;
    // Contradicting controls (the service refuses them; set here directly) make the manager throw.
    const c = g.handler.controls(threadId);
    c.pins.add('toolu_1');
    c.removals.add('toolu_1');
    const body = claudeBody(conversation(3));
    expect((await send(g.origin, '/v1/messages', body, claudeHeaders())).status).toBe(200);
    await ended(g, 2);
    expect(upstream.requests[1]!.rawBody).toBe(JSON.stringify(body));
    expect(calls(g)[1]!.fallback).toMatch(/both pinned and removed/);
  });

  it('[gateway-host-book] originals are kept for the newest calls of a thread only', async () => {
    const { g } = await anthropicGateway('manage');
    const n = REQUESTS_PER_THREAD + 3;
    for (let i = 1; i <= n; i++) await send(g.origin, '/v1/messages', claudeBody(conversation(i), { stream: false }), claudeHeaders());
    await ended(g, n);
    const all = calls(g);
    expect(all).toHaveLength(n);
    expect(g.book.keptRequests().count).toBe(REQUESTS_PER_THREAD);
    expect(g.request(all[0]!.id)).toBeUndefined();
    expect(g.request(all[n - 1]!.id)?.original).toBe(JSON.stringify(claudeBody(conversation(n), { stream: false })));
  });

  it('[gateway-manage-release] a session holds the last request of its 8 most recently used threads; a thread past them comes back in a new generation with its generations kept', async () => {
    const { upstream, g } = await anthropicGateway('manage');
    // Nine subagent-like threads of one session: each its own first request, then two calls more.
    const task = (t: number, n: number) => {
      const messages = conversation(n);
      messages[0] = userText(`Subtask ${t}: find where compute is defined in mod${t}.`);
      return claudeBody(messages, { stream: false });
    };
    let sent = 0;
    for (let t = 1; t <= 9; t++) for (const n of [1, 2, 3]) {
      expect((await send(g.origin, '/v1/messages', task(t, n), claudeHeaders())).status).toBe(200);
      await ended(g, ++sent);
    }
    const threadOf = (t: number) => calls(g).find((c) => upstream.requests.some((r) => r.rawBody.includes(`Subtask ${t}:`)) && g.request(c.id)?.original.includes(`Subtask ${t}:`))!.threadId;
    const first = threadOf(1);
    expect(new Set(calls(g).map((c) => c.threadId)).size).toBe(9);
    const before = g.handler.generations(first)!;
    expect(before.total).toBeGreaterThan(0);
    // Thread 1 was released when thread 9 began (and its return releases thread 2); thread 9 was not.
    expect((await send(g.origin, '/v1/messages', task(1, 4), claudeHeaders())).status).toBe(200);
    expect((await send(g.origin, '/v1/messages', task(9, 4), claudeHeaders())).status).toBe(200);
    await ended(g, sent + 2);
    const [back, kept] = calls(g).filter((c) => c.durationMs !== undefined).sort((a, b) => a.startedAt - b.startedAt).slice(-2);
    expect(back!.threadId).toBe(first);
    expect(back!.rewrite).toMatchObject({ boundary: true, generation: before.total + 1, reason: expect.stringMatching(/^the thread came back after its state was released/) });
    expect(g.handler.generations(first)!.generations.slice(0, before.generations.length)).toEqual(before.generations);
    expect(kept!.threadId).toBe(threadOf(9));
    expect(kept!.rewrite!.reason ?? '').not.toMatch(/released/);
    // What went upstream is still a valid request of the thread: every tool result after its call.
    expect(upstream.requests.at(-2)!.rawBody).toContain('toolu_4');
  });

  it('[gateway-host-start] bad manage options and a bad mode are refused before anything listens', async () => {
    await expect(startGateway({ mode: 'manage', manageOptions: { ...MANAGE, lowWatermark: 0.39 } })).rejects.toThrow(/lowWatermark/);
    await expect(startGateway({ mode: 'both' as never })).rejects.toThrow(/mode must be/);
  });
});

describe('GatewayService', () => {
  it('[gateway-host-service] [gateway-host-events] [gateway-client-lines] starts and stops, announces its status at once and calls and sessions batched; refuses unknown sessions and contradicting controls', async () => {
    const upstream = await startAnthropicLoopback();
    open.push(upstream);
    const scheduler = manualScheduler();
    const events: StrataEvent[] = [];
    const logs: string[] = [];
    const service = new GatewayService({ settings: { upstreams: { anthropic: upstream.origin }, manageOptions: MANAGE }, emit: (e) => events.push(e), scheduler, log: (_l, m) => logs.push(m) });
    open.push(service);
    expect(service.status()).toMatchObject({ running: false, origin: null, mode: 'observe', clients: [] });
    const status = await service.start();
    expect(status.running).toBe(true);
    expect(status.clients.map((c) => c.text)).toEqual([`ANTHROPIC_BASE_URL=${status.origin}`, expect.stringContaining(`base_url = "${status.origin}/v1"`), `OPENAI_BASE_URL=${status.origin}/v1`]);
    expect(status.clients[1]!.text).toContain('wire_api = "responses"');
    expect(events.map((e) => e.name)).toEqual(['gateway.status']);
    await expect(service.start()).rejects.toMatchObject({ code: 'conflict' });

    await send(status.origin!, '/v1/messages', claudeBody(conversation(2)), claudeHeaders());
    await vi.waitFor(() => expect(service.listSessions()[0]?.totals.calls).toBe(1), { timeout: 20_000, interval: 20 });
    expect(events).toHaveLength(1);
    scheduler.tick();
    const call = events.find((e) => e.name === 'gateway.call');
    const session = events.find((e) => e.name === 'gateway.session');
    expect(call?.name === 'gateway.call' && call.payload.calls.map((c) => c.status)).toEqual([200]);
    expect(session?.name === 'gateway.session' && session.payload.sessions[0]!.totals.calls).toBe(1);
    // One message of each per flush, however many updates came: nothing more until something changes.
    scheduler.tick(3);
    expect(events.filter((e) => e.name === 'gateway.call')).toHaveLength(1);

    const sessionId = service.listSessions()[0]!.id;
    const detail = service.session(sessionId);
    expect(detail.threads).toHaveLength(1);
    expect(detail.threads[0]!.calls[0]!.hasRequest).toBe(false);
    const threadId = detail.threads[0]!.id;
    expect(service.setMode(sessionId, 'manage').mode).toBe('manage');
    expect(service.control({ sessionId, threadId, itemKey: 'toolu_1', action: 'pin' })).toEqual({ pins: ['toolu_1'], removals: [] });
    expect(() => service.control({ sessionId, threadId, itemKey: 'toolu_1', action: 'remove' })).toThrow(expect.objectContaining({ code: 'conflict' }));
    expect(() => service.setMode('gws-404', 'manage')).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(() => service.control({ sessionId, threadId: 'gwt-404', itemKey: 'k', action: 'pin' })).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(() => service.request('gwc-404')).toThrow(expect.objectContaining({ code: 'not_found' }));

    await send(status.origin!, '/v1/messages', claudeBody(conversation(3)), claudeHeaders());
    await vi.waitFor(() => expect(service.listSessions()[0]?.totals.calls).toBe(2), { timeout: 20_000, interval: 20 });
    const after = service.session(sessionId).threads[0]!;
    expect(after.generationsTotal).toBe(1);
    expect(after.calls[1]!.mode).toBe('manage');
    expect(after.calls[1]!.hasRequest).toBe(true);
    expect(service.request(after.calls[1]!.id).rewritten).toContain('[strata: ');

    const stopped = await service.stop();
    expect(stopped.running).toBe(false);
    expect(events.filter((e) => e.name === 'gateway.status')).toHaveLength(2);
    // What it saw stays readable after a stop.
    expect(service.listSessions()).toHaveLength(1);
    expect(logs.some((l) => l.includes('Gateway listening at'))).toBe(true);
  });

  it('[gateway-host-service] a port in use is a conflict, said in the status, and nothing runs', async () => {
    const up = await startUpstream();
    const service = new GatewayService({ settings: { port: up.port }, emit: () => {}, scheduler: manualScheduler(), log: () => {} });
    open.push(service);
    await expect(service.start()).rejects.toMatchObject({ code: 'conflict' });
    expect(service.status()).toMatchObject({ running: false });
    expect(service.status().problem).toMatch(/could not start/);
  });
});
