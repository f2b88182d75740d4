/**
 * The headless host against clients that do not keep up: one that stops reading its replies, and
 * one that pipelines more calls than it lets the host answer. Each is bounded and dropped or
 * refused on its own; the host keeps serving everybody else.
 */
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Envelope, StrataEvent, WireReply } from '../../engine/contract';
import type { HostConnection } from '../../engine/host';
import { MAX_BUFFERED_BYTES, MAX_IN_FLIGHT_CALLS, startWebHost, type WebHost } from '../../electron/web/webHost';
import { tempDir } from '../support/tempDir';
import { WsTestClient, wsProtocols } from '../support/wsClient';

const tmp = tempDir('strata-backpressure-');
const REPLY_BYTES = 4096;
const LONG = { timeout: 60_000 };
let web: WebHost | undefined;

afterEach(async () => {
  await web?.close();
  web = undefined;
});

/** A host whose every call answers with about 4 KiB (or waits for `gate` first), counting what it opened and closed. */
function fakeHost(gate?: Promise<void>) {
  const stats = { opened: 0, closed: 0, calls: 0 };
  const host = {
    connect(_deliver: (event: StrataEvent) => void): HostConnection {
      stats.opened++;
      let closed = false;
      return {
        session: { id: stats.opened, subscriptions: () => [], setSubscriptions: () => {}, close: () => {}, closed: false },
        call: async (): Promise<Envelope<unknown>> => {
          stats.calls++;
          if (gate) await gate;
          return { ok: true, value: { blob: 'x'.repeat(REPLY_BYTES) } };
        },
        close: () => {
          if (!closed) stats.closed++;
          closed = true;
        },
      };
    },
  };
  return { host, stats };
}

function rawClient(w: WebHost): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${w.port}/ws`, wsProtocols(w.token));
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

async function until<T>(find: () => T | undefined, what: string, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Pipelines calls from a client that never reads (its socket paused) in batches until the host
 * drops it or `maxCalls` are sent; returns how many were sent and the bytes the host had queued.
 */
async function flood(ws: WebSocket, stats: { closed: number }, w: WebHost, maxCalls: number): Promise<{ sent: number; peakBuffered: number }> {
  (ws as unknown as { _socket: Socket })._socket.pause();
  let sent = 0;
  let peakBuffered = 0;
  while (sent < maxCalls && stats.closed === 0 && w.connections().every((c) => !c.closing)) {
    for (let i = 0; i < 500; i++) ws.send(JSON.stringify({ id: ++sent, command: 'health', args: {} }));
    await new Promise((r) => setTimeout(r, 10));
    for (const c of w.connections()) peakBuffered = Math.max(peakBuffered, c.bufferedBytes);
  }
  return { sent, peakBuffered };
}

describe('headless web host: slow clients', () => {
  it('drops a client that never reads once its queued replies pass the cap, releases them and keeps serving others', LONG, async () => {
    const { host, stats } = fakeHost();
    const drops: { bufferedBytes: number; reason: string }[] = [];
    web = await startWebHost({ host, staticDir: tmp.dir, onClientDropped: (d) => drops.push(d) });
    const other = await WsTestClient.connect(`ws://127.0.0.1:${web.port}/ws`, {}, web.token);
    const stalled = await rawClient(web);
    const closed = new Promise<number>((resolve) => stalled.once('close', (code) => resolve(code)));
    stalled.on('error', () => {});
    // 30,000 calls of 4 KiB replies is 120 MiB, far past the cap and every socket buffer.
    const { sent, peakBuffered } = await flood(stalled, stats, web, 30_000);
    await until(() => (stats.closed === 1 ? true : undefined), 'the host connection of the stalled client to close');
    await until(() => (web!.connections().length === 1 ? true : undefined), 'the stalled socket to be released');
    expect(drops).toHaveLength(1);
    expect(drops[0]!.bufferedBytes).toBeGreaterThan(0);
    expect(drops[0]!.bufferedBytes).toBeLessThanOrEqual(MAX_BUFFERED_BYTES);
    expect(drops[0]!.reason).toMatch(/not reading/);
    expect(peakBuffered).toBeLessThanOrEqual(MAX_BUFFERED_BYTES);
    expect(web.connections()[0]!.bufferedBytes).toBe(0);
    expect(await other.call('health', {})).toMatchObject({ ok: true });
    (stalled as unknown as { _socket: Socket })._socket.resume();
    await closed;
    other.close();
    console.log(`slow client: ${sent} calls sent, ${drops[0]!.bufferedBytes} bytes queued when dropped (cap ${MAX_BUFFERED_BYTES}), peak seen ${peakBuffered}`);
  });

  it('sends a client that stopped reading the policy close code 1013 with a reason once it reads again', LONG, async () => {
    const { host, stats } = fakeHost();
    web = await startWebHost({ host, staticDir: tmp.dir, closeGraceMs: 60_000 });
    const stalled = await rawClient(web);
    const closed = new Promise<{ code: number; reason: string }>((resolve) => stalled.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
    await flood(stalled, stats, web, 30_000);
    await until(() => (web!.connections().some((c) => c.closing) ? true : undefined), 'the host to start closing the stalled client');
    expect(stats.closed).toBe(1);
    (stalled as unknown as { _socket: Socket })._socket.resume();
    const { code, reason } = await closed;
    expect(code).toBe(1013);
    expect(reason).toMatch(/not reading/);
  });

  it(`refuses calls past ${MAX_IN_FLIGHT_CALLS} waiting for an answer on one connection with a typed error, and answers the rest`, LONG, async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const { host, stats } = fakeHost(gate);
    web = await startWebHost({ host, staticDir: tmp.dir });
    const ws = await rawClient(web);
    const replies = new Map<number, Envelope<unknown>[]>();
    ws.on('message', (data) => {
      const reply = JSON.parse(String(data)) as WireReply;
      if (reply.kind === 'result' && reply.id !== null) replies.set(reply.id, [...(replies.get(reply.id) ?? []), reply.envelope]);
    });
    const extra = 40;
    for (let id = 1; id <= MAX_IN_FLIGHT_CALLS + extra; id++) ws.send(JSON.stringify({ id, command: 'health', args: {} }));
    await until(() => (replies.size === extra ? true : undefined), 'the refusals');
    expect(stats.calls).toBe(MAX_IN_FLIGHT_CALLS);
    for (const [, envelopes] of replies) {
      expect(envelopes).toHaveLength(1);
      expect(envelopes[0]).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringContaining(`${MAX_IN_FLIGHT_CALLS} calls`) } });
    }
    open();
    await until(() => (replies.size === MAX_IN_FLIGHT_CALLS + extra ? true : undefined), 'the answers');
    const ok = [...replies.values()].filter((e) => e[0]!.ok).length;
    expect(ok).toBe(MAX_IN_FLIGHT_CALLS);
    expect(web.connections()[0]!.inFlight).toBe(0);
    ws.send(JSON.stringify({ id: 100_000, command: 'health', args: {} }));
    await until(() => replies.get(100_000), 'a call after the answers');
    expect(replies.get(100_000)![0]).toMatchObject({ ok: true });
    ws.close();
  });
});
