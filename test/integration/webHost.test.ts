import { request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Host } from '../../engine/host';
import { manualScheduler } from '../../engine/ports/Scheduler';
import { startWebHost, type WebHost } from '../../electron/web/webHost';
import { dumpCatalog } from '../support/catalogDump';
import { demoDir, tempDir } from '../support/tempDir';
import WebSocket from 'ws';
import { WsTestClient } from '../support/wsClient';

const tmp = tempDir();
const catalogPath = join(tmp.dir, 'catalog.sqlite');
const staticDir = join(tmp.dir, 'renderer');
const scheduler = manualScheduler();
let host: Host;
let web: WebHost;

const wsUrl = (path = '/ws') => `ws://127.0.0.1:${web.port}${path}`;

function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: web.port, path, headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += String(d)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  mkdirSync(join(staticDir, 'assets'), { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Strata</title>');
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(tmp.dir, 'secret.txt'), 'secret');
  host = Host.open({ catalogPath, workspaceName: 'demo', version: '1.0.0', demoDir, demoTickMs: 100, scheduler });
  web = await startWebHost({ host, staticDir });
});

afterAll(async () => {
  await web.close();
  host.close();
  tmp.remove();
});

describe('headless web host: the contract over a WebSocket', () => {
  it('[trace-import-content] carries an importTraceContent call of several MiB (the frame limit is sized from the content cap)', async () => {
    const client = await WsTestClient.connect(wsUrl(), {}, web.token);
    try {
      const padding = 'x'.repeat(3 * 2 ** 20);
      const content = JSON.stringify({ messages: [{ role: 'system', content: padding }, { role: 'user', content: 'Fix "it".' }, { role: 'assistant', content: 'Fixed.' }] }, null, 2);
      const envelope = await client.call('importTraceContent', { name: 'large.json', content });
      expect(envelope).toMatchObject({ ok: true, value: { alreadyImported: false, trace: { name: 'large.json', sourcePath: 'upload:large.json', steps: 1 } } });
    } finally {
      client.close();
    }
  });

  it('listens on 127.0.0.1 with a random port and puts the token in its URL', () => {
    expect(web.port).toBeGreaterThan(0);
    expect(web.url).toBe(`http://127.0.0.1:${web.port}/?token=${web.token}`);
    expect(web.token).toMatch(/^[0-9a-f]{48}$/);
  });

  it('answers calls and pushes subscribed events', async () => {
    const client = await WsTestClient.connect(wsUrl(), {}, web.token);
    try {
      // The demo run starts with its primary; the children appear as it spawns them.
      expect(await client.call('health', {})).toMatchObject({ ok: true, value: { ok: true, agents: 1 } });
      expect(await client.call('subscribe', { events: ['agent.updated'] })).toEqual({ ok: true, value: { events: ['agent.updated'] } });
      host.stepDemo();
      const event = await client.waitFor(() => client.events[0]);
      expect(event).toMatchObject({ name: 'agent.updated', payload: { agent: { agentId: 'primary', status: 'running' } } });
      expect(client.events.some((e) => e.name === 'log')).toBe(false);
    } finally {
      client.close();
    }
  });

  it.each([
    ['not json', null, 'invalid_args', /not valid JSON/],
    ['[1,2]', null, 'invalid_args', /expected an object/],
    ['{"command":"health"}', null, 'invalid_args', /"id" must be an integer/],
    ['{"id":5,"command":7}', 5, 'invalid_args', /"command" must be a string/],
    ['{"id":6,"command":"nope","args":{}}', 6, 'unknown_command', /Unknown command/],
    ['{"id":7,"command":"getAgent","args":{"agentId":""}}', 7, 'invalid_args', /agentId/],
    ['{"id":8,"command":"getAgent","args":{"agentId":"x","sql":"DROP TABLE agents"}}', 8, 'invalid_args', /sql/],
  ])('answers the malformed frame %s with a typed error, changes nothing and stays open', async (frame, id, code, message) => {
    const client = await WsTestClient.connect(wsUrl(), {}, web.token);
    try {
      const before = dumpCatalog(catalogPath);
      const reply = await client.raw(frame, id);
      expect(reply.envelope).toMatchObject({ ok: false, error: { code } });
      if (!reply.envelope.ok) expect(reply.envelope.error.message).toMatch(message);
      expect(dumpCatalog(catalogPath)).toEqual(before);
      expect(await client.call('health', {})).toMatchObject({ ok: true });
    } finally {
      client.close();
    }
  });

  it('refuses binary frames', async () => {
    const client = await WsTestClient.connect(wsUrl(), {}, web.token);
    try {
      const reply = await client.raw(Buffer.from([1, 2, 3]), null);
      expect(reply.envelope).toMatchObject({ ok: false, error: { code: 'invalid_args', message: expect.stringMatching(/binary/) } });
    } finally {
      client.close();
    }
  });

  it.each([
    ['no token', () => wsUrl(), {}, null, 'HTTP 401'],
    ['a wrong token', () => wsUrl(), {}, '0'.repeat(48), 'HTTP 401'],
    ['a token of another length', () => wsUrl(), {}, 'abc', 'HTTP 401'],
    ['the token in the URL instead of a subprotocol', () => `${wsUrl()}?token=${web.token}`, {}, null, 'HTTP 401'],
    ['another page origin', () => wsUrl(), { Origin: 'http://evil.example' }, 'right', 'HTTP 403'],
    ['a rebinding Host header', () => wsUrl(), { Host: 'evil.example:80' }, 'right', 'HTTP 421'],
    ['another path', () => wsUrl('/other'), {}, 'right', 'HTTP 404'],
  ])('refuses a WebSocket with %s', async (_what, url, headers, token, status) => {
    await expect(WsTestClient.connect(url(), headers, token === 'right' ? web.token : (token ?? undefined))).rejects.toThrow(status);
  });

  it('takes the token only as the subprotocol strata.token.<token> beside strata.v1, and answers with strata.v1 alone', async () => {
    const client = await WsTestClient.connect(wsUrl(), {}, web.token);
    try {
      expect(client.ws.protocol).toBe('strata.v1');
      expect(await client.call('health', {})).toMatchObject({ ok: true });
    } finally {
      client.close();
    }
    const alone = new WebSocket(wsUrl(), [`strata.token.${web.token}`]);
    const status = await new Promise<number>((resolve) => {
      alone.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      alone.once('open', () => resolve(101));
      alone.once('error', () => {});
    });
    alone.terminate();
    expect(status).toBe(400);
  });

  it('accepts its own page origin', async () => {
    const client = await WsTestClient.connect(wsUrl(), { Origin: `http://127.0.0.1:${web.port}` }, web.token);
    client.close();
  });

  it('closes the host connection of a socket that goes away', async () => {
    let opened = 0;
    let closed = 0;
    const counting = {
      connect: (deliver: Parameters<Host['connect']>[0]) => {
        opened++;
        const conn = host.connect(deliver);
        return { ...conn, close: () => (closed++, conn.close()) };
      },
    };
    const other = await startWebHost({ host: counting, staticDir });
    try {
      const client = await WsTestClient.connect(`ws://127.0.0.1:${other.port}/ws`, {}, other.token);
      await client.call('subscribe', { events: ['log'] });
      expect([opened, closed]).toEqual([1, 0]);
      client.close();
      await client.waitFor(() => (closed === 1 ? true : undefined));
    } finally {
      await other.close();
    }
  });
});

describe('headless web host: static files', () => {
  it('serves the renderer with the CSP and no unsafe-eval', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).not.toMatch(/unsafe-eval/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect((await get('/assets/app.js')).headers['content-type']).toMatch(/javascript/);
  });

  it.each(['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/missing.js'])('answers 404 for %s', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(res.body).not.toContain('secret');
  });

  it('refuses a request for another host name', async () => {
    expect((await get('/', { Host: 'attacker.example' })).status).toBe(421);
  });
});
