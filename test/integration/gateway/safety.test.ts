import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { startGatewayServer } from '../../../engine/node/gateway/startGatewayServer';
import { recordingHandler, send, startTestGateway, startUpstream } from './gatewayFixture';

const json = ['Content-Type', 'application/json'];

describe('gateway safety', () => {
  it('[gateway-loopback] a non-loopback Host (DNS rebinding) or any Origin is refused with 403 in the provider\'s shape; nothing reaches the handler or the upstream', async () => {
    const upstream = await startUpstream();
    const handler = recordingHandler();
    const gateway = await startTestGateway({ handler, upstreams: { anthropic: upstream.base, openai: `${upstream.base}/v1` } });
    const rebound = await send(gateway.port, { path: '/v1/messages', headers: ['Host', `evil.example:${gateway.port}`, ...json], body: '{}' });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body.toString())).toEqual({ type: 'error', error: { type: 'permission_error', message: expect.stringContaining('evil.example') } });
    const lookalike = await send(gateway.port, { path: '/v1/messages', headers: ['Host', '127.0.0.1.evil.example', ...json], body: '{}' });
    expect(lookalike.status).toBe(403);
    const browser = await send(gateway.port, { path: '/v1/responses', headers: ['Origin', 'https://page.example', ...json], body: '{}' });
    expect(browser.status).toBe(403);
    expect(JSON.parse(browser.body.toString())).toEqual({ error: { type: 'invalid_request_error', code: 'forbidden', param: null, message: expect.stringContaining('Origin') } });
    const nullOrigin = await send(gateway.port, { method: 'GET', path: '/v1/models', headers: ['Origin', 'null'] });
    expect(nullOrigin.status).toBe(403);
    expect(handler.seen).toHaveLength(0);
    expect(upstream.requests).toHaveLength(0);

    for (const host of ['127.0.0.1', `127.0.0.1:${gateway.port}`, 'localhost', `LOCALHOST:${gateway.port}`, '[::1]', `[::1]:${gateway.port}`]) {
      const ok = await send(gateway.port, { path: '/v1/messages', headers: ['Host', host, ...json], body: '{}' });
      expect(ok.status, host).toBe(200);
    }
    expect(upstream.requests).toHaveLength(6);
  });

  it('[gateway-loopback] listens on 127.0.0.1 only: another address of this machine is refused', async (ctx) => {
    const gateway = await startTestGateway({ handler: recordingHandler(), upstreams: { anthropic: 'http://127.0.0.1:9' } });
    expect(gateway.origin).toBe(`http://127.0.0.1:${gateway.port}`);
    const other = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal);
    if (!other) {
      console.log('skipped: this machine has no non-loopback IPv4 address to try');
      ctx.skip();
      return;
    }
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => {
      const req = request({ host: other.address, port: gateway.port, method: 'GET', path: '/v1/models' }, () => resolve(new Error('answered')));
      req.on('error', resolve);
      req.end();
    });
    expect(error.code).toBe('ECONNREFUSED');
  });

  it('[gateway-body-limit] a body over the limit gets 413 request_too_large in the provider\'s shape and nothing is forwarded: by content-length, chunked, or once decoded', async () => {
    const upstream = await startUpstream();
    const handler = recordingHandler();
    const gateway = await startTestGateway({ handler, maxBodyBytes: 4096, upstreams: { anthropic: upstream.base, openai: `${upstream.base}/v1` } });
    const big = Buffer.alloc(8192, 'a');
    const declared = await send(gateway.port, { path: '/v1/messages', headers: [...json, 'Content-Length', String(big.length)], body: big });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body.toString())).toEqual({ type: 'error', error: { type: 'request_too_large', message: expect.stringContaining('4096') } });
    const chunked = await send(gateway.port, { path: '/v1/responses', headers: [...json, 'Transfer-Encoding', 'chunked'], body: big });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body.toString()).error).toMatchObject({ type: 'invalid_request_error', code: 'request_too_large' });
    const bomb = gzipSync(Buffer.alloc(1024 * 1024, ' '));
    expect(bomb.length).toBeLessThan(4096);
    const decoded = await send(gateway.port, { path: '/v1/messages', headers: [...json, 'Content-Encoding', 'gzip'], body: bomb });
    expect(decoded.status).toBe(413);
    expect(handler.seen).toHaveLength(0);
    expect(upstream.requests).toHaveLength(0);

    const fits = await send(gateway.port, { path: '/v1/messages', headers: json, body: Buffer.alloc(4096, 'b') });
    expect(fits.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
  });

  it('[gateway-options] bad options are refused before anything listens, naming what is wrong', async () => {
    const handler = recordingHandler();
    await expect(startGatewayServer({ handler, upstreams: { anthropic: 'not a url' } })).rejects.toThrow(/anthropic upstream "not a url" is not a URL/);
    await expect(startGatewayServer({ handler, upstreams: { openai: 'ftp://example.com/v1' } })).rejects.toThrow(/must be http: or https:/);
    await expect(startGatewayServer({ handler, upstreams: { openai: 'https://user:pw@example.com/v1' } })).rejects.toThrow(/credentials/);
    await expect(startGatewayServer({ handler, port: 70000 })).rejects.toThrow(/port/);
    await expect(startGatewayServer({ handler, maxBodyBytes: 0 })).rejects.toThrow(/maxBodyBytes/);
    await expect(startGatewayServer({ handler, upstreamIdleTimeoutMs: -1 })).rejects.toThrow(/upstreamIdleTimeoutMs/);
  });
});
