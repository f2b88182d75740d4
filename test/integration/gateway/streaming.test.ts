import { request } from 'node:http';
import { brotliCompressSync, constants, createGzip, deflateSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { rawHeader, recordingHandler, send, startTestGateway, startUpstream } from './gatewayFixture';

const sse = (event: string, data: object) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const first = sse('message_start', { type: 'message_start', message: { id: 'msg_1', usage: { input_tokens: 10 } } });
const second = sse('message_stop', { type: 'message_stop' });

/** A promise and its resolver, for the states the two sides wait on. */
function signal<T = void>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('gateway streaming', () => {
  it('[gateway-stream] the client gets the first SSE event before the upstream sends the second; the sink gets each chunk as it passes', async () => {
    const firstSeenByClient = signal();
    let secondSent = false;
    const upstream = await startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(first);
      // The second event waits until the client has shown it has the first: nothing may hold it back.
      void firstSeenByClient.promise.then(() => {
        secondSent = true;
        res.end(second);
      });
    });
    const handler = recordingHandler();
    const gateway = await startTestGateway({ handler, upstreams: { anthropic: upstream.base } });
    const received: { text: string; secondSentAtThatTime: boolean }[] = [];
    const sinkChunksAtFirst = signal<number>();
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: gateway.port, method: 'POST', path: '/v1/messages', headers: { 'content-type': 'application/json' } }, (res) => {
        res.on('data', (c: Buffer) => {
          received.push({ text: c.toString(), secondSentAtThatTime: secondSent });
          if (received.length === 1) {
            sinkChunksAtFirst.resolve(handler.sinks[0]!.events.filter((e) => e.kind === 'chunk').length);
            firstSeenByClient.resolve();
          }
        });
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end('{"model":"claude-x","stream":true,"messages":[]}');
    });
    expect(received[0]).toEqual({ text: first, secondSentAtThatTime: false });
    expect(received.map((r) => r.text).join('')).toBe(first + second);
    expect(await sinkChunksAtFirst.promise).toBe(1);
    await handler.sinks[0]!.ended;
    expect(handler.sinks[0]!.text()).toBe(first + second);
    expect(handler.sinks[0]!.events.filter((e) => e.kind === 'end')).toEqual([{ kind: 'end' }]);
  });

  it('[gateway-decode] a gzip request reaches the handler decoded and the upstream as sent; a gzip answer reaches the client as sent and the sink decoded', async () => {
    const answer = `${first}${second}`;
    const upstream = await startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      // Compressed as a streaming provider does it: flushed after each event.
      const gz = createGzip({ flush: constants.Z_SYNC_FLUSH });
      gz.pipe(res);
      gz.write(first);
      gz.end(second);
    });
    const handler = recordingHandler();
    const gateway = await startTestGateway({ handler, upstreams: { anthropic: upstream.base } });
    const json = '{"model":"claude-x","messages":[{"role":"user","content":"décodé"}]}';
    const gz = gzipSync(json);
    const res = await send(gateway.port, { path: '/v1/messages', headers: ['Content-Type', 'application/json', 'Content-Encoding', 'gzip', 'Content-Length', String(gz.length)], body: gz });

    expect(Buffer.from(handler.seen[0]!.body).toString()).toBe(json);
    expect(handler.seen[0]!.headers['content-encoding']).toBeUndefined();
    expect(handler.seen[0]!.headers['content-length']).toBeUndefined();
    expect(upstream.requests[0]!.body.equals(gz)).toBe(true);
    expect(rawHeader(upstream.requests[0]!.rawHeaders, 'content-encoding')).toBe('gzip');

    expect(rawHeader(res.rawHeaders, 'content-encoding')).toBe('gzip');
    expect(gunzipSync(res.body).toString()).toBe(answer);
    await handler.sinks[0]!.ended;
    expect(handler.sinks[0]!.text()).toBe(answer);
    expect(handler.sinks[0]!.events[0]).toMatchObject({ kind: 'start', status: 200, headers: { 'content-encoding': 'gzip' } });
  });

  it('[gateway-decode] br and deflate requests are decoded for the handler; an unknown or broken encoding reaches it raw with its content-encoding, and goes upstream unchanged', async () => {
    const upstream = await startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' });
      res.end(brotliCompressSync('{"answer":"brotli"}'));
    });
    const handler = recordingHandler();
    const gateway = await startTestGateway({ handler, upstreams: { anthropic: upstream.base } });
    const json = '{"model":"claude-x","messages":[]}';
    const bodies: [string, Buffer][] = [
      ['br', brotliCompressSync(json)],
      ['deflate', deflateSync(json)],
      ['gzip', Buffer.from('this is not gzip')],
      ['x-unknown-coding', Buffer.from('opaque')],
    ];
    for (const [coding, bytes] of bodies) await send(gateway.port, { path: '/v1/messages', headers: ['Content-Encoding', coding], body: bytes });

    expect(handler.seen.map((s) => Buffer.from(s.body).toString())).toEqual([json, json, 'this is not gzip', 'opaque']);
    expect(handler.seen.map((s) => s.headers['content-encoding'])).toEqual([undefined, undefined, 'gzip', 'x-unknown-coding']);
    expect(upstream.requests.map((r) => r.body.equals(bodies[upstream.requests.indexOf(r)]![1]))).toEqual([true, true, true, true]);
    await handler.sinks[0]!.ended;
    expect(handler.sinks[0]!.text()).toBe('{"answer":"brotli"}');
  });
});
