import { createHash } from 'node:crypto';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { endToEndHeaders, exchangePairs } from '../../support/realClients/exchangePairs';
import { startForwardingProxy, type ForwardedExchange, type ForwardingProxy } from '../../support/realClients/forwardingProxy';
import type { ServerCall } from '../../support/realClients/scriptedServer';

// The seam's byte-forwarding proxy and recording tap, against a plain loopback upstream.

interface Seen {
  headers: IncomingMessage['headers'];
  body: Buffer;
}

let upstream: Server | undefined;
let proxy: ForwardingProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
  upstream?.closeAllConnections();
  upstream = proxy = undefined;
});

/** An upstream that logs what it got; `/stream` sends one chunk, then the second once `release` is called. */
async function startUpstream(seen: Seen[], gate: { release?: () => void }): Promise<string> {
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ headers: req.headers, body: Buffer.concat(chunks) });
      if (req.url === '/v1/stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('event: one\ndata: {}\n\n');
        gate.release = () => res.end('event: two\ndata: {}\n\n');
      } else if (req.url === '/v1/limited') {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7', 'x-upstream-only': 'yes' });
        res.end('{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      }
    });
  });
  await new Promise<void>((resolve) => upstream!.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
}

function send(origin: string, path: string, headers: Record<string, string>, body: Buffer) {
  return new Promise<{ status: number; headers: IncomingMessage['headers']; res: IncomingMessage }>((resolve, reject) => {
    const url = new URL(path, origin);
    const req = request({ host: url.hostname, port: url.port, path, method: 'POST', headers: { ...headers, 'content-length': String(body.length) } }, (res) => resolve({ status: res.statusCode ?? 0, headers: res.headers, res }));
    req.on('error', reject);
    req.end(body);
  });
}

const readAll = async (res: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

describe('[real-client-proxy-seam] the byte-forwarding proxy and its tap', () => {
  it('[real-client-proxy-seam] the upstream receives the client\'s body bytes and headers unchanged (the key included); the tap logs them without the key, the body decoded', async () => {
    const seen: Seen[] = [];
    const record: ForwardedExchange[] = [];
    proxy = await startForwardingProxy({ upstream: await startUpstream(seen, {}), record });
    const body = gzipSync(Buffer.from(JSON.stringify({ model: 'claude-test', messages: [], unknown_field: { kept: true } })));
    const headers = { 'content-type': 'application/json', 'content-encoding': 'gzip', 'anthropic-beta': 'context-1m-2025-08-07', 'x-api-key': 'sk-client-key', 'x-something-new': 'v1' };
    const r = await send(proxy.origin, '/v1/messages?beta=true', headers, body);
    expect([r.status, await readAll(r.res)]).toEqual([200, '{"ok":true}']);
    expect(seen).toHaveLength(1);
    expect(sha(seen[0]!.body)).toBe(sha(body));
    expect(seen[0]!.headers).toMatchObject(headers);
    expect(record).toHaveLength(1);
    expect(record[0]).toMatchObject({ index: 0, method: 'POST', path: '/v1/messages?beta=true', bodyBytes: body.length, bodySha256: sha(body), status: 200, responseSha256: sha('{"ok":true}') });
    expect(record[0]!.body).toEqual({ model: 'claude-test', messages: [], unknown_field: { kept: true } });
    expect(record[0]!.headers['anthropic-beta']).toBe('context-1m-2025-08-07');
    expect(record[0]!.headers['x-api-key']).toBeUndefined();
  });

  it('[real-client-proxy-seam] a stream passes chunk by chunk: the client reads the first event while the upstream still holds the second', async () => {
    const gate: { release?: () => void } = {};
    const record: ForwardedExchange[] = [];
    proxy = await startForwardingProxy({ upstream: await startUpstream([], gate), record });
    const r = await send(proxy.origin, '/v1/stream', { 'content-type': 'application/json' }, Buffer.from('{"stream":true}'));
    const first = await new Promise<string>((resolve) => r.res.once('data', (c: Buffer) => resolve(c.toString('utf8'))));
    expect(first).toBe('event: one\ndata: {}\n\n');
    expect(gate.release, 'the upstream has not sent its second event yet').toBeDefined();
    gate.release!();
    expect(await readAll(r.res)).toBe('event: two\ndata: {}\n\n');
    expect(record[0]!.responseSha256).toBe(sha('event: one\ndata: {}\n\nevent: two\ndata: {}\n\n'));
  });

  it('[real-client-proxy-seam] an upstream refusal reaches the client as sent: status, headers and body', async () => {
    const record: ForwardedExchange[] = [];
    proxy = await startForwardingProxy({ upstream: await startUpstream([], {}), record });
    const r = await send(proxy.origin, '/v1/limited', { 'content-type': 'application/json' }, Buffer.from('{}'));
    expect(r.status).toBe(429);
    expect(r.headers).toMatchObject({ 'retry-after': '7', 'x-upstream-only': 'yes' });
    expect(JSON.parse(await readAll(r.res))).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } });
    expect(record[0]!.status).toBe(429);
  });

  it('[real-client-proxy-seam] only per-connection headers may differ between hops', () => {
    expect(endToEndHeaders({ connection: 'keep-alive', 'keep-alive': 'timeout=5', 'transfer-encoding': 'chunked', 'anthropic-beta': 'x', host: '127.0.0.1:1', 'content-length': '3' })).toEqual({ 'anthropic-beta': 'x', host: '127.0.0.1:1', 'content-length': '3' });
  });

  it('[real-client-proxy-seam] exchangePairs pairs the n-th request of a route the client sent with the n-th the upstream received, whatever the other routes did', () => {
    const sent = (index: number, path: string): ForwardedExchange => ({ index, method: 'POST', path, headers: {}, bodyBytes: index, bodySha256: `s${index}`, body: undefined, status: 200, responseBytes: 0, responseSha256: '' });
    const got = (index: number, path: string, sha: string) => ({ index, method: 'POST', path, bodySha256: sha }) as ServerCall;
    const pairs = exchangePairs([sent(0, '/v1/messages?beta=true'), sent(1, '/v1/messages/count_tokens'), sent(2, '/v1/messages?beta=true'), sent(3, '/v1/messages')], [got(0, '/v1/messages/count_tokens', 's1'), got(1, '/v1/messages', 's0'), got(2, '/v1/messages', 's2')]);
    expect(pairs.map((p) => [p.route, p.sent.bodySha256, p.received?.bodySha256 ?? null])).toEqual([
      ['POST /v1/messages', 's0', 's0'],
      ['POST /v1/messages/count_tokens', 's1', 's1'],
      ['POST /v1/messages', 's2', 's2'],
      ['POST /v1/messages', 's3', null],
    ]);
  });
});
