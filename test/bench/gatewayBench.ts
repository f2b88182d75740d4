// Gateway figures (issue 23, item 5). A loopback upstream answers every request with a small JSON
// body after reading it whole.
// 1. Added latency: each request goes once straight to the upstream and once through the gateway
//    (interleaved, the same keep-alive client), and the added latency is the gateway's percentile
//    minus the direct one: pass-through (the observe shape: forward the original, with a sink that
//    counts the bytes it gets) for a small body and a 600 KB one (target <= 2 ms p50), and the
//    managed rewrite of a 150k-token Anthropic request end to end through the server (startGateway
//    in manage mode: parse, thread assignment, rewrite, serialization, block hashes, forwarding;
//    target <= 10 ms p50). The managed session is fed its first requests (up to 150k tokens) before
//    the clock starts, so the manager is warm as in a running gateway; every timed request is one
//    tool call longer than the one before.
// 2. Memory per session: one managed session of 1,000 calls whose client compacts its history as
//    Claude Code does (every 40 tool calls); the heap after a full gc at 100, 200, ..., 1,000
//    calls. Bounded means the second 500 calls add about nothing: what grows with a session (kept
//    requests, thread managers, block and token memos) stops at its cap.
// Prints the figures and writes test/bench/results/gateway.json. Not a test: it asserts nothing and
// never fails on timing. Run with `npm run bench:gateway` (`-- --requests 200`); it needs
// `--expose-gc` (the npm script passes it) for the memory figures.
import { Agent, createServer, request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GatewayHandler } from '../../engine/gateway/types';
import { startGateway } from '../../engine/host/startGateway';
import { startGatewayServer } from '../../engine/node/gateway/startGatewayServer';
import { memoTokenizer } from '../../engine/tokens/memoTokenizer';
import { generateSession } from '../support/gatewaySessions';
import { compactingSessionBody, largeSessionBodies } from '../support/gatewayBenchSessions';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const REQUESTS = arg('requests', 200);
const WARMUP = 20;

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};
const ms = (x: number) => Number(x.toFixed(3));

/** A Messages request of about `bytes` bytes: one user turn of filler text (what a long tool result looks like on the wire). */
function messagesBody(bytes: number): Buffer {
  const shell = { model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: '' }] };
  // No character JSON escapes, so the body is `bytes` long.
  const line = 'line of tool output: src/engine/file.ts:42 ok | ';
  const filler = line.repeat(Math.ceil(bytes / line.length)).slice(0, Math.max(0, bytes - JSON.stringify(shell).length));
  shell.messages[0]!.content = filler;
  return Buffer.from(JSON.stringify(shell));
}

let sinkBytes = 0;
const passThrough: GatewayHandler = {
  handle: () => ({
    kind: 'forward',
    body: 'original',
    sink: { upstreamStart: () => undefined, upstreamChunk: (c) => void (sinkBytes += c.byteLength), upstreamEnd: () => undefined },
    afterForward: () => undefined,
  }),
  failed: (_req, error) => console.error('handler failed:', error),
};

interface Scenario {
  name: string;
  /** Starts the gateway in front of the upstream; `warm` requests go through it before the clock starts. */
  start(upstreamPort: number): Promise<{ port: number; close(): Promise<void>; note?: () => string }>;
  warm: Buffer[];
  /** The body of timed request `i` (warm-up ones included). */
  body(i: number): Buffer;
  targetP50Ms: number;
}
const passThroughScenario = (name: string, body: Buffer): Scenario => ({
  name,
  start: (port) => startGatewayServer({ handler: passThrough, upstreams: { anthropic: `http://127.0.0.1:${port}` } }),
  warm: [],
  body: () => body,
  targetP50Ms: 2,
});

const tokenizer = memoTokenizer('o200k_base');
const large = largeSessionBodies((text) => tokenizer.count(text), 150_000, WARMUP + REQUESTS);
let rewriteBoundaries = 0;
let rewrittenTokens: number[] = [];
const managedScenario: Scenario = {
  name: `managed rewrite, ${large.firstTimedTokens.toLocaleString('en-US')}-token request`,
  start: async (port) => {
    const g = await startGateway({
      mode: 'manage',
      upstreams: { anthropic: `http://127.0.0.1:${port}` },
      tokenizer,
      onCall: (u) => {
        if (u.event !== 'started' || !u.call.rewrite) return;
        if (u.call.rewrite.boundary) rewriteBoundaries++;
        rewrittenTokens.push(u.call.rewrite.rewrittenTokens);
      },
    });
    return { port: g.port, close: () => g.close(), note: () => `${rewriteBoundaries} generation boundaries in all; the timed requests went upstream as ${Math.min(...rewrittenTokens.slice(-REQUESTS))}-${Math.max(...rewrittenTokens.slice(-REQUESTS))} tokens` };
  },
  warm: large.warm,
  body: (i) => large.timed[i]!,
  targetP50Ms: 10,
};
const scenarios: Scenario[] = [passThroughScenario('pass-through, small body', messagesBody(300)), passThroughScenario('pass-through, 600 KB body', messagesBody(600 * 1024)), managedScenario];

const answer = Buffer.from('{"id":"msg_bench","type":"message","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":10,"output_tokens":1}}');
const upstream = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
    res.end(answer);
  });
});
await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
const upstreamPort = (upstream.address() as AddressInfo).port;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function timedPost(port: number, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/messages', agent, headers: { 'content-type': 'application/json', 'content-length': body.length, 'anthropic-version': '2023-06-01', 'x-api-key': 'bench-key' } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error(`status ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const results: Record<string, unknown>[] = [];
console.log(`Gateway added latency, ${REQUESTS} requests per scenario (after ${WARMUP} warm-up), interleaved direct / through the gateway:`);
for (const s of scenarios) {
  const gateway = await s.start(upstreamPort);
  for (const body of s.warm) await timedPost(gateway.port, body);
  const direct: number[] = [];
  const via: number[] = [];
  let bodyBytes = 0;
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    const body = s.body(i);
    const d = await timedPost(upstreamPort, body);
    const g = await timedPost(gateway.port, body);
    if (i >= WARMUP) {
      direct.push(d);
      via.push(g);
      bodyBytes = Math.max(bodyBytes, body.length);
    }
  }
  const note = gateway.note?.();
  await gateway.close();
  const row = {
    scenario: s.name,
    bodyBytes,
    requests: REQUESTS,
    directMs: { p50: ms(percentile(direct, 50)), p95: ms(percentile(direct, 95)) },
    gatewayMs: { p50: ms(percentile(via, 50)), p95: ms(percentile(via, 95)) },
    addedMs: { p50: ms(percentile(via, 50) - percentile(direct, 50)), p95: ms(percentile(via, 95) - percentile(direct, 95)) },
    targetP50Ms: s.targetP50Ms,
    ...(note ? { note } : {}),
  };
  results.push(row);
  console.log(`  ${s.name} (up to ${bodyBytes} B): added p50 ${row.addedMs.p50} ms, p95 ${row.addedMs.p95} ms (target p50 <= ${s.targetP50Ms} ms: ${row.addedMs.p50 <= s.targetP50Ms ? 'met' : 'NOT met'}); direct p50 ${row.directMs.p50} / p95 ${row.directMs.p95} ms, through the gateway p50 ${row.gatewayMs.p50} / p95 ${row.gatewayMs.p95} ms${note ? `; ${note}` : ''}`);
}

// Memory per session: 1,000 managed calls of one compacting session, the heap after gc every 100.
const gc = (globalThis as { gc?: () => void }).gc;
const memory: { calls: number; heapMb: number }[] = [];
if (!gc) console.log('Memory per session: skipped, node was started without --expose-gc (npm run bench:gateway passes it)');
else {
  const CALLS = 1_000;
  const EVERY = 40;
  const steps = generateSession(4242, Math.ceil(CALLS / (EVERY + 1)) * EVERY + EVERY);
  const g = await startGateway({ mode: 'manage', upstreams: { anthropic: `http://127.0.0.1:${upstreamPort}` }, tokenizer });
  const heap = () => {
    gc();
    gc();
    return Number((process.memoryUsage().heapUsed / 1024 / 1024).toFixed(1));
  };
  memory.push({ calls: 0, heapMb: heap() });
  for (let call = 0; call < CALLS; call++) {
    await timedPost(g.port, compactingSessionBody(steps, call, EVERY));
    if ((call + 1) % 100 === 0) memory.push({ calls: call + 1, heapMb: heap() });
  }
  const s = g.sessions();
  const kept = g.book.keptRequests();
  await g.close();
  console.log(`Memory per session, one managed session of ${CALLS} calls compacting every ${EVERY} tool calls (${s.length} session, ${s[0]?.threads.size ?? 0} threads; ${kept.count} requests kept, ${(kept.bytes / 1024 / 1024).toFixed(1)} MB):`);
  console.log(`  heap after gc: ${memory.map((m) => `${m.calls} calls ${m.heapMb} MB`).join(', ')}`);
  const at = (calls: number) => memory.find((m) => m.calls === calls)!.heapMb;
  console.log(`  growth: calls 1-500 ${(at(500) - at(0)).toFixed(1)} MB, calls 501-1000 ${(at(1000) - at(500)).toFixed(1)} MB`);
}
results.push({ scenario: 'memory per managed session (heap after gc)', memory });
agent.destroy();
await new Promise<void>((r) => upstream.close(() => r()));
console.log(`  (the sinks received ${sinkBytes} decoded bytes in all)`);

const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'gateway.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify({ at: new Date().toISOString(), node: process.version, results }, null, 2)}\n`);
console.log(`Wrote ${out}`);
