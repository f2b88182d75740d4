// Gateway latency: what the local gateway adds to a call (issue 23, item 5). A loopback upstream
// answers every request with a small JSON body after reading it whole; each request goes once
// straight to it and once through the gateway (interleaved, the same keep-alive client), and the
// added latency is the gateway's percentile minus the direct one, for a small body and a 600 KB one.
// The handler is the observe shape: forward the original, with a sink that counts the bytes it gets.
// Prints p50/p95 against the target (<= 2 ms p50 for pass-through) and writes
// test/bench/results/gateway.json. Not a test: it asserts nothing and never fails on timing.
// Run with `npm run bench:gateway` (`-- --requests 200`).
//
// Hook for the managed rewrite (engine/gateway/manage, not written yet): add a scenario to
// `scenarios` whose handler rewrites (`{ kind: 'forward', body: <rewritten bytes> }`) and whose body
// is a 150k-token request; its target is <= 10 ms p50. Nothing else here needs to change.
import { Agent, createServer, request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GatewayHandler } from '../../engine/gateway/types';
import { startGatewayServer } from '../../engine/node/gateway/startGatewayServer';

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
  handler: GatewayHandler;
  body: Buffer;
  targetP50Ms: number;
}
const scenarios: Scenario[] = [
  { name: 'pass-through, small body', handler: passThrough, body: messagesBody(300), targetP50Ms: 2 },
  { name: 'pass-through, 600 KB body', handler: passThrough, body: messagesBody(600 * 1024), targetP50Ms: 2 },
];

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
  const gateway = await startGatewayServer({ handler: s.handler, upstreams: { anthropic: `http://127.0.0.1:${upstreamPort}` } });
  const direct: number[] = [];
  const via: number[] = [];
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    const d = await timedPost(upstreamPort, s.body);
    const g = await timedPost(gateway.port, s.body);
    if (i >= WARMUP) {
      direct.push(d);
      via.push(g);
    }
  }
  await gateway.close();
  const row = {
    scenario: s.name,
    bodyBytes: s.body.length,
    requests: REQUESTS,
    directMs: { p50: ms(percentile(direct, 50)), p95: ms(percentile(direct, 95)) },
    gatewayMs: { p50: ms(percentile(via, 50)), p95: ms(percentile(via, 95)) },
    addedMs: { p50: ms(percentile(via, 50) - percentile(direct, 50)), p95: ms(percentile(via, 95) - percentile(direct, 95)) },
    targetP50Ms: s.targetP50Ms,
  };
  results.push(row);
  console.log(`  ${s.name} (${s.body.length} B): added p50 ${row.addedMs.p50} ms, p95 ${row.addedMs.p95} ms (target p50 <= ${s.targetP50Ms} ms: ${row.addedMs.p50 <= s.targetP50Ms ? 'met' : 'NOT met'}); direct p50 ${row.directMs.p50} / p95 ${row.directMs.p95} ms, through the gateway p50 ${row.gatewayMs.p50} / p95 ${row.gatewayMs.p95} ms`);
}
agent.destroy();
await new Promise<void>((r) => upstream.close(() => r()));
console.log(`  (the sinks received ${sinkBytes} decoded bytes in all)`);

const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'gateway.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify({ at: new Date().toISOString(), node: process.version, results }, null, 2)}\n`);
console.log(`Wrote ${out}`);
