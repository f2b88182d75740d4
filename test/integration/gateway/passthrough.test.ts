import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { closedPort, endToEndHeaders, rawHeader, recordingHandler, recordingSink, send, startTestGateway, startUpstream } from './gatewayFixture';

const KEY = 'sk-ant-api03-THE-CLIENTS-OWN-KEY-never-stored';
const BEARER = 'Bearer sk-proj-ANOTHER-KEY-for-openai-0123456789';

/** A Messages body with fields no provider documents: they must arrive as sent, spacing included. */
const body = Buffer.from('{"model":"claude-x","max_tokens":64,  "messages":[{"role":"user","content":"hi ✓"}],"x_unknown_field":{"nested":[1,2,3]},"stream":false}');

const clientHeaders = [
  'Content-Type', 'application/json',
  'anthropic-version', '2023-06-01',
  'anthropic-beta', 'prompt-caching-2024-07-31,interleaved-thinking-2025-05-14',
  'X-Api-Key', KEY,
  'User-Agent', 'claude-cli/2.1.332 (external, cli)',
  'X-Custom-Thing', 'one',
  'x-custom-thing', 'two',
  'Cookie', 'session=abc123',
];

describe('gateway pass-through', () => {
  it('[gateway-passthrough] [gateway-routes] forwards an Anthropic call byte for byte: path and query, body, headers in order and case; the answer comes back unchanged', async () => {
    const upstream = await startUpstream((_req, res) => {
      res.writeHead(201, 'Made Here', ['Content-Type', 'application/json', 'X-Upstream', 'a', 'x-upstream', 'b', 'request-id', 'req_123']);
      res.end('{"id":"msg_1",  "odd":true}');
    });
    const handler = recordingHandler();
    const gateway = await startTestGateway({ handler, upstreams: { anthropic: upstream.base, openai: `${upstream.base}/v1` } });
    const res = await send(gateway.port, { path: '/v1/messages?beta=true', headers: [...clientHeaders, 'Content-Length', String(body.length)], body });

    expect(upstream.requests).toHaveLength(1);
    const got = upstream.requests[0]!;
    expect(got.path).toBe('/v1/messages?beta=true');
    expect(got.body.equals(body)).toBe(true);
    expect(endToEndHeaders(got.rawHeaders)).toEqual(endToEndHeaders([...clientHeaders, 'Content-Length', String(body.length)]));
    expect(rawHeader(got.rawHeaders, 'host')).toBe(`127.0.0.1:${upstream.port}`);

    expect(res.status).toBe(201);
    expect(res.statusMessage).toBe('Made Here');
    expect(res.body.toString()).toBe('{"id":"msg_1",  "odd":true}');
    const back = endToEndHeaders(res.rawHeaders).filter(([n]) => !['date', 'transfer-encoding', 'keep-alive'].includes(n.toLowerCase()));
    expect(back).toEqual([['Content-Type', 'application/json'], ['X-Upstream', 'a'], ['x-upstream', 'b'], ['request-id', 'req_123']]);

    expect(handler.seen).toHaveLength(1);
    expect(handler.seen[0]!.path).toBe('/v1/messages?beta=true');
    expect(Buffer.from(handler.seen[0]!.body).equals(body)).toBe(true);
    expect(handler.seen[0]!.headers['anthropic-beta']).toBe('prompt-caching-2024-07-31,interleaved-thinking-2025-05-14');
    expect(handler.seen[0]!.headers['x-custom-thing']).toBe('one, two');
    expect(await handler.sinks[0]!.ended).toBeUndefined();
    expect(handler.sinks[0]!.text()).toBe('{"id":"msg_1",  "odd":true}');
  });

  it('[gateway-key-private] the key goes upstream but nothing the handler is shown holds it', async () => {
    const upstream = await startUpstream();
    const handler = recordingHandler();
    const gateway = await startTestGateway({ handler, upstreams: { anthropic: upstream.base, openai: `${upstream.base}/v1` } });
    await send(gateway.port, { path: '/v1/messages', headers: [...clientHeaders, 'Proxy-Authorization', 'Basic cHJveHk6c2VjcmV0'], body });
    await send(gateway.port, { path: '/v1/responses', headers: ['Authorization', BEARER, 'api-key', 'azure-style-key-123456', 'Content-Type', 'application/json'], body: '{"model":"gpt-x","input":"hi"}' });

    expect(rawHeader(upstream.requests[0]!.rawHeaders, 'x-api-key')).toBe(KEY);
    expect(rawHeader(upstream.requests[0]!.rawHeaders, 'cookie')).toBe('session=abc123');
    expect(rawHeader(upstream.requests[1]!.rawHeaders, 'authorization')).toBe(BEARER);
    // Proxy credentials are meant for this hop: they go nowhere.
    expect(rawHeader(upstream.requests[0]!.rawHeaders, 'proxy-authorization')).toBeUndefined();

    expect(handler.seen).toHaveLength(2);
    for (const seen of handler.seen) for (const name of ['x-api-key', 'authorization', 'api-key', 'cookie', 'proxy-authorization']) expect(seen.headers[name]).toBeUndefined();
    const everything = JSON.stringify([handler.seen.map((s) => ({ ...s, body: Buffer.from(s.body).toString() })), handler.sinks.map((s) => s.events.map((e) => (e.kind === 'chunk' ? e.chunk.toString() : e))), handler.failures]);
    for (const secret of [KEY, BEARER, 'sk-proj-ANOTHER', 'azure-style-key', 'session=abc123', 'cHJveHk6c2VjcmV0']) expect(everything).not.toContain(secret);
  });

  it('[gateway-routes] OpenAI calls join the upstream base as its SDK does (the base stands for /v1); other paths pass through without the handler', async () => {
    const upstream = await startUpstream();
    const handler = recordingHandler();
    const gateway = await startTestGateway({ handler, upstreams: { anthropic: `${upstream.base}/anthropic`, openai: `${upstream.base}/openai/v1` } });
    const json = ['Content-Type', 'application/json'];
    await send(gateway.port, { path: '/v1/responses', headers: json, body: '{}' });
    await send(gateway.port, { path: '/responses', headers: json, body: '{}' });
    await send(gateway.port, { path: '/v1/chat/completions', headers: json, body: '{}' });
    await send(gateway.port, { path: '/chat/completions?x=1', headers: json, body: '{}' });
    await send(gateway.port, { path: '/v1/messages/count_tokens', headers: json, body: '{}' });
    expect(upstream.requests.map((r) => r.path)).toEqual(['/openai/v1/responses', '/openai/v1/responses', '/openai/v1/chat/completions', '/openai/v1/chat/completions?x=1', '/anthropic/v1/messages/count_tokens']);
    expect(handler.seen.map((s) => s.path)).toEqual(['/v1/responses', '/responses', '/v1/chat/completions', '/chat/completions?x=1', '/v1/messages/count_tokens']);

    await send(gateway.port, { method: 'GET', path: '/v1/models', headers: ['anthropic-version', '2023-06-01'] });
    await send(gateway.port, { method: 'GET', path: '/v1/models' });
    await send(gateway.port, { path: '/v1/messages/batches', headers: json, body: '{"requests":[]}' });
    await send(gateway.port, { method: 'GET', path: '/v1/responses/resp_1' });
    expect(upstream.requests.slice(5).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /anthropic/v1/models', 'GET /openai/v1/models', 'POST /anthropic/v1/messages/batches', 'GET /openai/v1/responses/resp_1']);
    expect(upstream.requests[7]!.body.toString()).toBe('{"requests":[]}');
    expect(handler.seen).toHaveLength(5);
  });

  it('[gateway-passthrough] drops the hop-by-hop headers (and those Connection names) both ways, and gives a chunked body a content-length', async () => {
    const upstream = await startUpstream((_req, res) => {
      res.writeHead(200, ['Content-Type', 'text/plain', 'Connection', 'keep-alive, X-Up-Hop', 'X-Up-Hop', 'secret-of-the-hop', 'Keep-Alive', 'timeout=5', 'X-Kept', 'yes']);
      res.end('fine');
    });
    const handler = recordingHandler();
    const gateway = await startTestGateway({ handler, upstreams: { anthropic: upstream.base } });
    const res = await send(gateway.port, { path: '/v1/messages', headers: ['Connection', 'keep-alive, X-Hop', 'X-Hop', 'only-this-hop', 'Keep-Alive', 'timeout=9', 'TE', 'trailers', 'Transfer-Encoding', 'chunked', 'X-Kept', 'yes', 'Expect', '100-continue'], body });
    const got = upstream.requests[0]!;
    expect(got.body.equals(body)).toBe(true);
    for (const name of ['x-hop', 'keep-alive', 'te', 'transfer-encoding', 'expect']) expect(rawHeader(got.rawHeaders, name)).toBeUndefined();
    expect(rawHeader(got.rawHeaders, 'x-kept')).toBe('yes');
    expect(rawHeader(got.rawHeaders, 'content-length')).toBe(String(body.length));
    expect(res.body.toString()).toBe('fine');
    expect(rawHeader(res.rawHeaders, 'x-up-hop')).toBeUndefined();
    expect(rawHeader(res.rawHeaders, 'x-kept')).toBe('yes');
  });

  it('[gateway-rewrite] a rewritten body goes unencoded with its own content-length, every other header as the client sent it', async () => {
    const upstream = await startUpstream();
    const rewritten = Buffer.from('{"model":"claude-x","messages":[{"role":"user","content":"shorter"}]}');
    const handler = recordingHandler((_req, sink) => ({ kind: 'forward', body: new Uint8Array(rewritten), sink }));
    const gateway = await startTestGateway({ handler, upstreams: { anthropic: upstream.base } });
    const gz = gzipSync(body);
    await send(gateway.port, { path: '/v1/messages', headers: [...clientHeaders, 'Content-Encoding', 'gzip', 'Content-Length', String(gz.length)], body: gz });
    const got = upstream.requests[0]!;
    expect(got.body.equals(rewritten)).toBe(true);
    expect(rawHeader(got.rawHeaders, 'content-length')).toBe(String(rewritten.length));
    expect(rawHeader(got.rawHeaders, 'content-encoding')).toBeUndefined();
    expect(endToEndHeaders(got.rawHeaders).filter(([n]) => n.toLowerCase() !== 'content-length')).toEqual(endToEndHeaders(clientHeaders));
  });

  it('[gateway-engine-fallback] a handler that throws, or returns no decision it can carry out, gets the original forwarded and failed() called', async () => {
    const upstream = await startUpstream();
    let call = 0;
    const handler = recordingHandler(() => {
      call++;
      if (call === 1) throw new Error('parser exploded');
      return { kind: 'forward', body: 'not bytes' } as never;
    });
    const gateway = await startTestGateway({ handler, upstreams: { anthropic: upstream.base } });
    const gz = gzipSync(body);
    const first = await send(gateway.port, { path: '/v1/messages', headers: [...clientHeaders, 'Content-Encoding', 'gzip'], body: gz });
    const second = await send(gateway.port, { path: '/v1/messages', headers: clientHeaders, body });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(upstream.requests[0]!.body.equals(gz)).toBe(true);
    expect(rawHeader(upstream.requests[0]!.rawHeaders, 'content-encoding')).toBe('gzip');
    expect(upstream.requests[1]!.body.equals(body)).toBe(true);
    expect(handler.failures.map((f) => (f.error as Error).message)).toEqual(['parser exploded', expect.stringContaining('invalid decision')]);
    expect(handler.failures[0]!.request).toBe(handler.seen[0]);
  });

  it('[gateway-after-forward] afterForward runs after the body went upstream and before any sink call; its throw is reported and changes nothing for the client', async () => {
    const upstream = await startUpstream();
    const order: string[] = [];
    const handler = recordingHandler((_req) => {
      const sink = recordingSink(order);
      handler.sinks.push(sink);
      return {
        kind: 'forward',
        body: 'original',
        sink,
        afterForward: () => {
          order.push('afterForward');
          throw new Error('bookkeeping failed');
        },
      };
    });
    const gateway = await startTestGateway({ handler, upstreams: { anthropic: upstream.base } });
    const res = await send(gateway.port, { path: '/v1/messages', headers: clientHeaders, body });
    await handler.sinks[1]!.ended;
    expect(res.status).toBe(200);
    expect(order[0]).toBe('afterForward');
    expect(order.slice(1).filter((e) => e !== 'chunk')).toEqual(['start', 'end']);
    expect(handler.failures.map((f) => (f.error as Error).message)).toEqual(['bookkeeping failed']);
  });

  it('[gateway-after-forward] afterForward runs once even when the upstream cannot be reached', async () => {
    let ran = 0;
    const sink = recordingSink();
    const handler = recordingHandler(() => ({ kind: 'forward', body: 'original', sink, afterForward: () => void ran++ }));
    const gateway = await startTestGateway({ handler, upstreams: { anthropic: `http://127.0.0.1:${await closedPort()}` } });
    const res = await send(gateway.port, { path: '/v1/messages', headers: clientHeaders, body });
    await sink.ended;
    expect(res.status).toBe(502);
    expect(ran).toBe(1);
  });

  it('[gateway-sink] a reply decision answers the client without going upstream, and the sink sees that answer', async () => {
    const upstream = await startUpstream();
    const reply = '{"type":"error","error":{"type":"invalid_request_error","message":"manage mode cannot parse this"}}';
    const handler = recordingHandler((_req, sink) => ({ kind: 'reply', status: 400, contentType: 'application/json', body: reply, sink }));
    const gateway = await startTestGateway({ handler, upstreams: { anthropic: upstream.base } });
    const res = await send(gateway.port, { path: '/v1/messages', headers: clientHeaders, body: '{not json' });
    expect(res.status).toBe(400);
    expect(res.body.toString()).toBe(reply);
    expect(upstream.requests).toHaveLength(0);
    const sink = handler.sinks[0]!;
    expect(sink.events.map((e) => e.kind)).toEqual(['start', 'chunk', 'end']);
    expect(sink.text()).toBe(reply);
  });
});
