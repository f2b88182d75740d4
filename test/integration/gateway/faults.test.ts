import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { closedPort, recordingHandler, send, startTestGateway, startUpstream } from './gatewayFixture';

const json = ['Content-Type', 'application/json'];
const call = '{"model":"claude-x","stream":true,"messages":[]}';

function signal() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** The sink's end events after the gateway closed (every socket gone, so nothing can come later). */
const endsOf = (handler: ReturnType<typeof recordingHandler>) => handler.sinks.map((s) => s.events.filter((e) => e.kind === 'end'));

describe('gateway faults', () => {
  it('[gateway-faults] 429 and 5xx answers reach the client byte for byte, headers included', async () => {
    const bodies = [
      { status: 429, headers: ['Content-Type', 'application/json', 'retry-after', '7', 'anthropic-ratelimit-requests-remaining', '0'], body: '{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}' },
      { status: 529, headers: ['Content-Type', 'application/json', 'x-should-retry', 'true'], body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' },
      { status: 500, headers: ['Content-Type', 'text/plain'], body: 'upstream fell over \u0000 with odd bytes' },
    ];
    let n = 0;
    const upstream = await startUpstream((_req, res) => {
      const b = bodies[n++]!;
      res.writeHead(b.status, b.headers);
      res.end(b.body);
    });
    const handler = recordingHandler();
    const gateway = await startTestGateway({ handler, upstreams: { anthropic: upstream.base } });
    for (const b of bodies) {
      const res = await send(gateway.port, { path: '/v1/messages', headers: json, body: call });
      expect(res.status).toBe(b.status);
      expect(res.body.toString()).toBe(b.body);
      for (let i = 0; i < b.headers.length; i += 2) expect(res.headers[b.headers[i]!.toLowerCase()]).toBe(b.headers[i + 1]);
    }
    await gateway.close();
    expect(handler.sinks.map((s) => (s.events[0]?.kind === 'start' ? s.events[0].status : undefined))).toEqual([429, 529, 500]);
    expect(endsOf(handler)).toEqual([[{ kind: 'end' }], [{ kind: 'end' }], [{ kind: 'end' }]]);
  });

  it('[gateway-faults] a stream the upstream cuts is cut for the client after what arrived, never ended cleanly', async () => {
    const upstream = await startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: message_start\ndata: {}\n\n', () => setImmediate(() => res.socket?.destroy()));
    });
    const handler = recordingHandler();
    const gateway = await startTestGateway({ handler, upstreams: { anthropic: upstream.base } });
    const res = await send(gateway.port, { path: '/v1/messages', headers: json, body: call });
    expect(res.status).toBe(200);
    expect(res.complete).toBe(false);
    expect(res.body.toString()).toBe('event: message_start\ndata: {}\n\n');
    expect(await handler.sinks[0]!.ended).toBe('cut stream');
    await gateway.close();
    expect(endsOf(handler)).toEqual([[{ kind: 'end', error: 'cut stream' }]]);
  });

  it('[gateway-faults] an upstream silent for longer than the idle timeout ends the client\'s response as a cut, and the sink hears timeout', async () => {
    const upstream = await startUpstream((req, res) => {
      if (req.path.includes('before')) return; // never answers
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: ping\ndata: {}\n\n'); // then silence
    });
    const handler = recordingHandler();
    const gateway = await startTestGateway({ handler, upstreamIdleTimeoutMs: 300, upstreams: { anthropic: upstream.base } });
    const during = await send(gateway.port, { path: '/v1/messages', headers: json, body: call });
    expect(during.complete).toBe(false);
    expect(during.body.toString()).toBe('event: ping\ndata: {}\n\n');
    expect(await handler.sinks[0]!.ended).toBe('timeout');
    const before = await send(gateway.port, { path: '/v1/messages?before', headers: json, body: call }).then(
      () => 'answered',
      (error: NodeJS.ErrnoException) => error.code ?? error.message,
    );
    expect(before).toMatch(/ECONNRESET|socket hang up/);
    expect(await handler.sinks[1]!.ended).toBe('timeout');
    await gateway.close();
    expect(endsOf(handler)).toEqual([[{ kind: 'end', error: 'timeout' }], [{ kind: 'end', error: 'timeout' }]]);
  });

  it('[gateway-faults] a client that leaves aborts the upstream request', async () => {
    const upstreamSawClose = signal();
    const upstream = await startUpstream((_req, res, raw) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: message_start\ndata: {}\n\n');
      raw.socket.on('close', upstreamSawClose.resolve);
    });
    const handler = recordingHandler();
    const gateway = await startTestGateway({ handler, upstreams: { anthropic: upstream.base } });
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: gateway.port, method: 'POST', path: '/v1/messages', headers: { 'content-type': 'application/json' } }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' ? undefined : reject(e)));
      req.end(call);
    });
    await upstreamSawClose.promise;
    expect(await handler.sinks[0]!.ended).toBe('client closed');
    await gateway.close();
    expect(endsOf(handler)).toEqual([[{ kind: 'end', error: 'client closed' }]]);
  });

  it('[gateway-faults] an upstream that cannot be reached gets a 502 in the provider\'s shape', async () => {
    const port = await closedPort();
    const handler = recordingHandler();
    const gateway = await startTestGateway({ handler, upstreams: { anthropic: `http://127.0.0.1:${port}`, openai: `http://127.0.0.1:${port}/v1` } });
    const anthropic = await send(gateway.port, { path: '/v1/messages', headers: json, body: call });
    expect(anthropic.status).toBe(502);
    expect(JSON.parse(anthropic.body.toString())).toEqual({ type: 'error', error: { type: 'api_error', message: expect.stringContaining('ECONNREFUSED') } });
    const openai = await send(gateway.port, { path: '/v1/responses', headers: json, body: '{"model":"gpt-x","input":"hi"}' });
    expect(openai.status).toBe(502);
    expect(JSON.parse(openai.body.toString()).error).toMatchObject({ type: 'server_error', code: 'bad_gateway' });
    await gateway.close();
    expect(endsOf(handler)).toEqual([[{ kind: 'end', error: expect.stringMatching(/^upstream unreachable: .*ECONNREFUSED/) }], [{ kind: 'end', error: expect.stringMatching(/^upstream unreachable: /) }]]);
    expect(handler.sinks.map((s) => s.events.length)).toEqual([1, 1]);
  });

  it('[gateway-sink] a sink that throws does not disturb the exchange; its first throw is reported once', async () => {
    const upstream = await startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('a');
      res.end('b');
    });
    const handler = recordingHandler((_req) => ({
      kind: 'forward',
      body: 'original',
      sink: {
        upstreamStart: () => undefined,
        upstreamChunk: () => {
          throw new Error('sink broke');
        },
        upstreamEnd: () => undefined,
      },
    }));
    const gateway = await startTestGateway({ handler, upstreams: { anthropic: upstream.base } });
    const res = await send(gateway.port, { path: '/v1/messages', headers: json, body: call });
    expect(res.body.toString()).toBe('ab');
    expect(res.complete).toBe(true);
    await gateway.close();
    expect(handler.failures.map((f) => (f.error as Error).message)).toEqual(['sink broke']);
  });
});

describe('gateway upstream connections', () => {
  it('[gateway-faults] a pooled upstream connection found closed is retried once on a new one; the client never sees the stale socket', async () => {
    const sockets: object[] = [];
    let resetDone = false;
    const upstream = await startUpstream((req, res, raw) => {
      if (!sockets.includes(raw.socket)) sockets.push(raw.socket);
      // The second call arrives on the first call's kept-alive socket: close it unanswered, as an upstream whose idle timer fired does.
      if (req.body.toString() === 'second' && !resetDone && sockets.indexOf(raw.socket) === 0) {
        resetDone = true;
        raw.socket.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ body: req.body.toString() }));
    });
    const handler = recordingHandler();
    const gateway = await startTestGateway({ handler, upstreams: { anthropic: upstream.base } });
    const a = await send(gateway.port, { path: '/v1/messages', headers: json, body: 'first' });
    const b = await send(gateway.port, { path: '/v1/messages', headers: json, body: 'second' });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body.toString()).toBe('{"body":"second"}');
    expect(resetDone).toBe(true);
    expect(sockets).toHaveLength(2);
    expect(upstream.requests.map((r) => r.body.toString())).toEqual(['first', 'second', 'second']);
  });
});
